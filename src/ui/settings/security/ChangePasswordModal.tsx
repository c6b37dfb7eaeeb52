import { useId, useState, type FormEvent } from 'react'
import { ErrorPanel } from '../../auth/AuthCard.tsx'
import { MIN_PASSWORD_LENGTH } from '../../auth/quick-setup-form.ts'
import { Modal } from '../../components/Modal.tsx'
import { ModalActions } from '../../components/ModalActions.tsx'
import { showToast } from '../../components/toast-store.ts'
import { reloadSoon } from '../../lib/navigation.ts'
import { TextField } from '../../components/TextField.tsx'
import { changePassword } from './security-api.ts'

/** Spec 001 §5 change-password rules, in order; '' when valid. */
export function changePasswordProblem(current: string, next: string, confirm: string): string {
  if (!current || !next || !confirm) return 'All fields are required'
  if (next !== confirm) return 'New passwords do not match'
  if (next.length < MIN_PASSWORD_LENGTH) {
    return `Password must be at least ${MIN_PASSWORD_LENGTH} characters`
  }
  return ''
}

export const PASSWORD_CHANGED_TEXT =
  'Password changed successfully. Please log in with your new password.'

/**
 * Change password (spec 001 §2 Modals, §4, §5, §8): Current / New / Confirm. On success the
 * server ends every session, so the page reloads after 2 s and the login screen follows.
 */
export function ChangePasswordModal({ onClose }: { onClose: () => void }) {
  const formId = useId()
  const [current, setCurrent] = useState('')
  const [next, setNext] = useState('')
  const [confirm, setConfirm] = useState('')
  const [error, setError] = useState('')
  const [busy, setBusy] = useState(false)

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    if (busy) return
    const problem = changePasswordProblem(current, next, confirm)
    if (problem) {
      setError(problem)
      return
    }
    setError('')
    setBusy(true)
    try {
      await changePassword(current, next)
    } catch (err) {
      setBusy(false)
      setError(err instanceof Error ? err.message : 'Failed to change password')
      return
    }
    setCurrent('')
    setNext('')
    setConfirm('')
    setBusy(false)
    showToast(PASSWORD_CHANGED_TEXT, 'success')
    onClose()
    reloadSoon()
  }

  return (
    <Modal
      title="Change password"
      onClose={onClose}
      dismissible={!busy}
      footer={
        <ModalActions
          onCancel={onClose}
          busy={busy}
          formId={formId}
          submitLabel="Change password"
          busyLabel="Changing..."
        />
      }
    >
      <form
        id={formId}
        className="flex flex-col gap-4"
        onSubmit={(event) => void submit(event)}
        noValidate
      >
        <TextField
          label="Current Password"
          id="change-current"
          type="password"
          autoComplete="current-password"
          value={current}
          disabled={busy}
          onChange={(event) => setCurrent(event.target.value)}
        />
        <TextField
          label="New Password"
          id="change-new"
          type="password"
          autoComplete="new-password"
          hint={`At least ${MIN_PASSWORD_LENGTH} characters. Your sessions end, this one included.`}
          value={next}
          disabled={busy}
          onChange={(event) => setNext(event.target.value)}
        />
        <TextField
          label="Confirm New Password"
          id="change-confirm"
          type="password"
          autoComplete="new-password"
          value={confirm}
          disabled={busy}
          onChange={(event) => setConfirm(event.target.value)}
        />
        {error && <ErrorPanel>{error}</ErrorPanel>}
      </form>
    </Modal>
  )
}
