import { Loader2, Lock } from 'lucide-react'
import { useState, type FormEvent } from 'react'
import { BUTTON } from '../components/button-classes.ts'
import { login } from './auth-store.ts'
import { AuthCard, ErrorPanel, Field } from './AuthCard.tsx'

/** Spec 001 §5: an error containing the word locked is styled as a lockout. */
export function isLockout(message: string): boolean {
  return /locked/i.test(message)
}

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

/** Username and password sign-in (spec 001 §2 Login screen, §8 login errors). */
export function LoginPage() {
  const [username, setUsername] = useState('')
  const [password, setPassword] = useState('')
  const [error, setError] = useState('')
  const [busy, setBusy] = useState(false)

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    if (busy) return
    setBusy(true)
    setError('')
    const failure = await login(username, password)
    // On success the gate swaps this screen for the app; nothing more to do here.
    if (!failure) return
    setBusy(false)
    setError(failure.message)
    if (failure.clearFields) {
      setUsername('')
      setPassword('')
    }
  }

  return (
    <AuthCard title="Sign in to Pulse" subtitle="Enter your credentials to continue">
      <form className="flex flex-col gap-4" onSubmit={(event) => void submit(event)}>
        <Field
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
        <Field
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
        {error &&
          (isLockout(error) ? <LockoutPanel message={error} /> : <ErrorPanel>{error}</ErrorPanel>)}
        <button
          type="submit"
          disabled={busy}
          className={`${BUTTON.primary} justify-center py-2 disabled:opacity-60`}
        >
          {busy && <Loader2 className="size-4 animate-spin" aria-hidden />}
          {busy ? 'Signing in...' : 'Sign in'}
        </button>
      </form>
    </AuthCard>
  )
}
