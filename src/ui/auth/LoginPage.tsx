import { KeyRound, Loader2, Lock } from 'lucide-react'
import { useEffect, useState, type FormEvent } from 'react'
import { useSnapshot } from 'valtio'
import { BUTTON } from '../components/button-classes.ts'
import { login } from './auth-store.ts'
import { TextField } from '../components/TextField.tsx'
import { AuthCard, ErrorPanel } from './AuthCard.tsx'
import { hasPasswordLogin, securityStatusState } from './security-status.ts'
import { clearSsoError, ssoState, startSso } from './sso.ts'
import { takeSessionEnded } from './useSessionEndWatch.ts'

function LockoutPanel({ message }: { message: string }) {
  return (
    <div
      role="alert"
      data-lockout=""
      className="flex items-start gap-2 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-800 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-200"
    >
      <Lock className="mt-0.5 size-4 shrink-0" aria-hidden />
      <span>{message}</span>
    </div>
  )
}

/**
 * Username and password sign-in, and single sign-on when the server offers it (spec 001 §2 Login
 * screen, §8 login and single sign-on errors).
 */
export function LoginPage() {
  const [username, setUsername] = useState('')
  const [password, setPassword] = useState('')
  const [error, setError] = useState('')
  // Spec 001 §5 styles a lockout; the answer's code says so (ACCOUNT_LOCKED), not its wording.
  const [locked, setLocked] = useState(false)
  const [busy, setBusy] = useState(false)
  const [ssoBusy, setSsoBusy] = useState(false)
  // Shown once after the page reloaded because the session was ended elsewhere.
  const [ended] = useState(takeSessionEnded)
  const sso = useSnapshot(ssoState)
  const { status } = useSnapshot(securityStatusState)
  // Single sign-on as the only way in: no password form that could never succeed.
  const passwordForm = !(sso.offered && status !== null && !hasPasswordLogin(status))

  // Back from the provider through the browser's history (page restored from the back/forward
  // cache): the button must not stay busy.
  useEffect(() => {
    const onShow = (event: PageTransitionEvent) => {
      if (event.persisted) setSsoBusy(false)
    }
    window.addEventListener('pageshow', onShow)
    return () => window.removeEventListener('pageshow', onShow)
  }, [])

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    if (busy || ssoBusy) return
    setBusy(true)
    setError('')
    setLocked(false)
    clearSsoError()
    const failure = await login(username, password)
    // On success the gate swaps this screen for the app; nothing more to do here.
    if (!failure) return
    setBusy(false)
    setError(failure.message)
    setLocked(failure.code === 'ACCOUNT_LOCKED')
    if (failure.clearFields) {
      setUsername('')
      setPassword('')
    }
  }

  const signInWithSso = async () => {
    if (busy || ssoBusy) return
    setSsoBusy(true)
    setError('')
    setLocked(false)
    clearSsoError()
    // Back to this page after the provider (the server accepts same-origin paths only).
    const failure = await startSso(window.location.pathname + window.location.search)
    // On success the browser is leaving for the provider: keep the button busy.
    if (!failure) return
    setSsoBusy(false)
    setError(failure)
  }

  const shown = error || sso.error
  return (
    <AuthCard title="Sign in to Pulse" subtitle="Enter your credentials to continue">
      {ended && (
        <p
          role="status"
          data-testid="session-ended"
          className="mb-4 rounded-md border border-blue-200 bg-blue-50 px-3 py-2 text-sm text-blue-900 dark:border-blue-900 dark:bg-blue-950 dark:text-blue-100"
        >
          Your session has ended: it was signed out elsewhere or by an administrator, or it expired.
          Sign in again to continue.
        </p>
      )}
      {passwordForm ? (
        <form className="flex flex-col gap-4" onSubmit={(event) => void submit(event)}>
          <TextField
            label="Username"
            id="login-username"
            name="username"
            autoComplete="username"
            autoCapitalize="none"
            spellCheck={false}
            required
            value={username}
            disabled={busy}
            onChange={(event) => setUsername(event.target.value)}
          />
          <TextField
            label="Password"
            id="login-password"
            name="password"
            type="password"
            autoComplete="current-password"
            required
            value={password}
            disabled={busy}
            onChange={(event) => setPassword(event.target.value)}
          />
          {shown &&
            (error && locked ? <LockoutPanel message={shown} /> : <ErrorPanel>{shown}</ErrorPanel>)}
          <button
            type="submit"
            disabled={busy || ssoBusy}
            className={`${BUTTON.primary} justify-center py-2 disabled:opacity-60`}
          >
            {busy && <Loader2 className="size-4 animate-spin" aria-hidden />}
            {busy ? 'Signing in...' : 'Sign in'}
          </button>
        </form>
      ) : (
        shown && <ErrorPanel>{shown}</ErrorPanel>
      )}
      {sso.offered && (
        <div className="mt-4 flex flex-col gap-4">
          {passwordForm && (
            <div className="flex items-center gap-3 text-xs text-gray-500 dark:text-gray-400">
              <span className="h-px flex-1 bg-gray-200 dark:bg-gray-700" aria-hidden />
              or
              <span className="h-px flex-1 bg-gray-200 dark:bg-gray-700" aria-hidden />
            </div>
          )}
          <button
            type="button"
            disabled={busy || ssoBusy}
            onClick={() => void signInWithSso()}
            className={`${BUTTON.secondary} justify-center py-2 disabled:opacity-60`}
          >
            {ssoBusy ? (
              <Loader2 className="size-4 animate-spin" aria-hidden />
            ) : (
              <KeyRound className="size-4" aria-hidden />
            )}
            {ssoBusy ? 'Redirecting to single sign-on...' : 'Sign in with single sign-on'}
          </button>
        </div>
      )}
    </AuthCard>
  )
}
