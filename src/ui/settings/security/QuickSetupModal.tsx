import { TriangleAlert } from 'lucide-react'
import { useId } from 'react'
import { ErrorPanel } from '../../auth/AuthCard.tsx'
import { CredentialsPanel } from '../../auth/CredentialsPanel.tsx'
import { ModeChoice } from '../../auth/FirstRunSetup.tsx'
import { MIN_PASSWORD_LENGTH, useQuickSetupForm } from '../../auth/quick-setup-form.ts'
import { Modal } from '../../components/Modal.tsx'
import { ModalActions } from '../../components/ModalActions.tsx'
import { showToast } from '../../components/toast-store.ts'
import { pageNavigation } from '../../lib/navigation.ts'
import { TextField } from '../../components/TextField.tsx'
import { Notice } from './fields.tsx'

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
  const {
    username,
    setUsername,
    mode,
    setMode,
    password,
    setPassword,
    confirm,
    setConfirm,
    error,
    busy,
    credentials,
    submit,
  } = useQuickSetupForm({
    force: rotate,
    defaultUsername,
    onSkipped: (message) => {
      showToast(message, 'error')
      onClose()
      onSkipped?.()
    },
    onFailed: (message) => showToast(message, 'error'),
  })

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
        <ModalActions
          onCancel={onClose}
          busy={busy}
          formId={formId}
          submitLabel={rotate ? 'Rotate credentials' : 'Set up security'}
          busyLabel="Generating..."
        />
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
