import { Loader2, TriangleAlert } from 'lucide-react'
import { useId, useState, type FormEvent } from 'react'
import { ErrorPanel } from '../../auth/AuthCard.tsx'
import { SetupSkippedError, quickSetup, type SetupCredentials } from '../../auth/auth-store.ts'
import { CredentialsPanel } from '../../auth/CredentialsPanel.tsx'
import {
  MIN_PASSWORD_LENGTH,
  ModeChoice,
  customPasswordProblem,
  type PasswordMode,
} from '../../auth/FirstRunSetup.tsx'
import { BUTTON } from '../../components/button-classes.ts'
import { Modal } from '../../components/Modal.tsx'
import { showToast } from '../../components/toast-store.ts'
import { pageNavigation } from '../../lib/navigation.ts'
import { Notice, TextField } from './fields.tsx'

/**
 * Quick security setup and rotate credentials (spec 001 §2, §4 Quick security setup): username,
 * Auto-Generate or Custom password, then the one-time credentials with Download and "Done - I've
 * Saved My Credentials", which reloads the page. Rotate sends force: the server replaces the
 * credentials and ends every other session.
 */
export function QuickSetupModal({
  rotate,
  defaultUsername,
  onClose,
  onSkipped,
}: {
  rotate: boolean
  defaultUsername: string
  onClose: () => void
  /** The server said security is already configured (spec 001 §4: the configured callback). */
  onSkipped?: () => void
}) {
  const formId = useId()
  const [username, setUsername] = useState(defaultUsername || 'admin')
  const [mode, setMode] = useState<PasswordMode>('auto')
  const [password, setPassword] = useState('')
  const [confirm, setConfirm] = useState('')
  const [error, setError] = useState('')
  const [busy, setBusy] = useState(false)
  const [credentials, setCredentials] = useState<SetupCredentials | null>(null)

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    if (busy) return
    const name = username.trim()
    if (!name) {
      setError('Username is required')
      return
    }
    if (mode === 'custom') {
      const problem = customPasswordProblem(password, confirm)
      if (problem) {
        setError(problem)
        return
      }
    }
    setError('')
    setBusy(true)
    try {
      const request: { username: string; password?: string; force?: boolean } = { username: name }
      if (mode === 'custom') request.password = password
      if (rotate) request.force = true
      setCredentials(await quickSetup(request))
      setBusy(false)
    } catch (err) {
      setBusy(false)
      if (err instanceof SetupSkippedError) {
        showToast(err.message, 'error')
        onClose()
        onSkipped?.()
        return
      }
      const reason = err instanceof Error ? err.message : String(err)
      showToast(`Failed to setup security: ${reason}`, 'error')
    }
  }

  if (credentials) {
    return (
      <Modal key="credentials" title="Save your credentials" onClose={onClose} dismissible={false}>
        <CredentialsPanel
          credentials={credentials}
          generated={mode === 'auto'}
          onDone={() => pageNavigation.reload()}
        />
      </Modal>
    )
  }

  return (
    <Modal
      key="form"
      title={rotate ? 'Rotate credentials' : 'Set up password login'}
      onClose={onClose}
      dismissible={!busy}
      footer={
        <>
          <button
            type="button"
            onClick={onClose}
            disabled={busy}
            className={`${BUTTON.secondary} justify-center`}
          >
            Cancel
          </button>
          <button
            type="submit"
            form={formId}
            disabled={busy}
            className={`${BUTTON.primary} justify-center disabled:opacity-60`}
          >
            {busy && <Loader2 className="size-4 animate-spin" aria-hidden />}
            {busy ? 'Generating...' : rotate ? 'Rotate credentials' : 'Set up security'}
          </button>
        </>
      }
    >
      <form
        id={formId}
        className="flex flex-col gap-4"
        onSubmit={(event) => void submit(event)}
        noValidate
      >
        {rotate && (
          <Notice tone="warning" icon={<TriangleAlert className="size-4" aria-hidden />}>
            Rotating replaces the administrator&apos;s username, password and API token and signs
            out every other session. Scripts using the old API token stop working.
          </Notice>
        )}
        <TextField
          label="Username"
          id="quick-setup-username"
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          value={username}
          disabled={busy}
          onChange={(event) => setUsername(event.target.value)}
        />
        <ModeChoice mode={mode} onChange={setMode} disabled={busy} />
        {mode === 'custom' && (
          <>
            <TextField
              label="New password"
              id="quick-setup-password"
              type="password"
              autoComplete="new-password"
              hint={`At least ${MIN_PASSWORD_LENGTH} characters`}
              value={password}
              disabled={busy}
              onChange={(event) => setPassword(event.target.value)}
            />
            <TextField
              label="Confirm password"
              id="quick-setup-confirm"
              type="password"
              autoComplete="new-password"
              value={confirm}
              disabled={busy}
              onChange={(event) => setConfirm(event.target.value)}
            />
          </>
        )}
        {error && <ErrorPanel>{error}</ErrorPanel>}
      </form>
    </Modal>
  )
}
