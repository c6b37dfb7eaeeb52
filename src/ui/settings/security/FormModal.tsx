// The dialogs of the users and API tokens cards: a form in a modal with Cancel and a submit (a
// spinner while busy, not dismissible then) and the server's error under the fields; and the
// role select they share.
import { useId, type FormEvent, type ReactNode } from 'react'
import { ROLES, type Role } from '../../../shared/model/roles.ts'
import { ErrorPanel } from '../../auth/AuthCard.tsx'
import { Modal } from '../../components/Modal.tsx'
import { ModalActions } from '../../components/ModalActions.tsx'
import { INPUT } from '../../components/TextField.tsx'

export function FormModal({
  title,
  onClose,
  onSubmit,
  busy,
  error,
  submitLabel,
  busyLabel,
  icon,
  children,
}: {
  title: string
  onClose: () => void
  onSubmit: (event: FormEvent) => void
  busy: boolean
  /** Shown under the fields when not empty. */
  error: string
  submitLabel: string
  busyLabel: string
  icon: ReactNode
  children: ReactNode
}) {
  const formId = useId()
  return (
    <Modal
      title={title}
      onClose={onClose}
      dismissible={!busy}
      footer={
        <ModalActions
          onCancel={onClose}
          busy={busy}
          formId={formId}
          submitLabel={submitLabel}
          busyLabel={busyLabel}
          icon={icon}
        />
      }
    >
      <form id={formId} className="flex flex-col gap-4" onSubmit={onSubmit} noValidate>
        {children}
        {error && <ErrorPanel>{error}</ErrorPanel>}
      </form>
    </Modal>
  )
}

/** "Role": viewer, operator or admin, with an optional line under it. */
export function RoleSelect({
  id,
  value,
  onChange,
  disabled = false,
  hint,
}: {
  id: string
  value: Role
  onChange: (role: Role) => void
  disabled?: boolean
  hint?: string
}) {
  return (
    <div className="flex min-w-0 flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium text-gray-700 dark:text-gray-300">
        Role
      </label>
      <select
        id={id}
        className={INPUT}
        value={value}
        disabled={disabled}
        aria-describedby={hint ? `${id}-hint` : undefined}
        onChange={(event) => onChange(event.target.value as Role)}
      >
        {ROLES.map((r) => (
          <option key={r} value={r}>
            {r}
          </option>
        ))}
      </select>
      {hint && (
        <p id={`${id}-hint`} className="text-xs text-gray-600 dark:text-gray-400">
          {hint}
        </p>
      )}
    </div>
  )
}
