import { KeyRound, Plus, Trash2, UserRound, Users } from 'lucide-react'
import { useId, useRef, useState, type FormEvent } from 'react'
import { ROLES, type Role } from '../../../shared/model/roles.ts'
import { USERNAME_MAX_LENGTH, type UserView } from '../../../shared/model/users.ts'
import { MIN_PASSWORD_LENGTH } from '../../auth/quick-setup-form.ts'
import { BUTTON } from '../../components/button-classes.ts'
import { Card } from '../../components/Card.tsx'
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx'
import { INPUT, TextField } from '../../components/TextField.tsx'
import { showToast } from '../../components/toast-store.ts'
import { noteAuditedAction } from './audit-refresh.ts'
import { FormModal, RoleSelect } from './FormModal.tsx'
import { LoadStatus, useLoaded } from './use-loaded.tsx'
import { addUser, changeUser, deleteUser, listUsers } from './users-api.ts'

const message = (error: unknown) => (error instanceof Error ? error.message : String(error))

/**
 * Local users (issue 29 item 2): each with role and status; Add user, a role select per row,
 * Disable/Enable, Reset password (a dialog) and Delete (asks first). Every change is audited.
 */
export function UsersCard() {
  const { load, reload: fetchUsers } = useLoaded(listUsers)
  const [adding, setAdding] = useState(false)
  const [resetting, setResetting] = useState<UserView | null>(null)
  const [deleting, setDeleting] = useState<UserView | null>(null)
  const addButton = useRef<HTMLButtonElement>(null)

  /** One change from a row; a refusal (the last admin, say) is a toast with the server's text. */
  const change = async (user: UserView, changes: { role?: Role; disabled?: boolean }) => {
    try {
      await changeUser(user.username, changes)
      const what =
        changes.role !== undefined
          ? `is now ${changes.role}`
          : changes.disabled
            ? 'is disabled'
            : 'is enabled'
      showToast(`${user.username} ${what}`, 'success')
      noteAuditedAction()
    } catch (error) {
      showToast(`Failed to change ${user.username}: ${message(error)}`, 'error')
    }
    fetchUsers()
  }

  const remove = async (user: UserView) => {
    try {
      await deleteUser(user.username)
      showToast(`User ${user.username} deleted`, 'success')
      noteAuditedAction()
      setDeleting(null)
      fetchUsers()
      requestAnimationFrame(() => addButton.current?.focus())
    } catch (error) {
      showToast(`Failed to delete ${user.username}: ${message(error)}`, 'error')
    }
  }

  const refocusAdd = () => requestAnimationFrame(() => addButton.current?.focus())

  return (
    <Card
      title="Users"
      icon={<Users className="size-4" aria-hidden />}
      description="Local accounts, each with a role: viewer reads, operator also works the alerts, admin does everything."
      actions={
        <button
          ref={addButton}
          type="button"
          onClick={() => setAdding(true)}
          className={BUTTON.secondary}
        >
          <Plus className="size-4" aria-hidden />
          Add user
        </button>
      }
    >
      <LoadStatus load={load} what="users" />
      {load.kind === 'loaded' && (
        <ul aria-label="Users" className="divide-y divide-gray-100 dark:divide-gray-800">
          {load.value.map((user) => (
            <UserRow
              key={user.username}
              user={user}
              onRole={(role) => void change(user, { role })}
              onToggle={() => void change(user, { disabled: !user.disabled })}
              onReset={() => setResetting(user)}
              onDelete={() => setDeleting(user)}
            />
          ))}
        </ul>
      )}
      {adding && (
        <AddUserModal
          onAdded={fetchUsers}
          onClose={() => {
            setAdding(false)
            refocusAdd()
          }}
        />
      )}
      {resetting && (
        <ResetPasswordModal
          user={resetting}
          onClose={() => {
            setResetting(null)
            refocusAdd()
          }}
        />
      )}
      {deleting && (
        <ConfirmDialog
          title={`Delete the user "${deleting.username}"?`}
          describedBy="delete-user-text"
          confirmLabel="Delete user"
          busyLabel="Deleting..."
          tone="danger"
          icon={<Trash2 className="size-4" aria-hidden />}
          onConfirm={() => remove(deleting)}
          onClose={() => setDeleting(null)}
        >
          <p id="delete-user-text" className="text-sm text-gray-700 dark:text-gray-300">
            Their sessions end and their live connections close at once. This cannot be undone.
          </p>
        </ConfirmDialog>
      )}
    </Card>
  )
}

function UserRow({
  user,
  onRole,
  onToggle,
  onReset,
  onDelete,
}: {
  user: UserView
  onRole: (role: Role) => void
  onToggle: () => void
  onReset: () => void
  onDelete: () => void
}) {
  const selectId = useId()
  return (
    <li
      data-user={user.username}
      className="flex flex-wrap items-center gap-x-3 gap-y-2 py-2 text-sm"
    >
      <UserRound className="size-4 shrink-0 text-gray-500 dark:text-gray-400" aria-hidden />
      <span className="min-w-0 font-medium break-all text-gray-900 dark:text-gray-100">
        {user.username}
      </span>
      <span
        className={`rounded px-1.5 py-0.5 text-xs ${
          user.disabled
            ? 'bg-amber-100 text-amber-800 dark:bg-amber-900/40 dark:text-amber-200'
            : 'bg-emerald-100 text-emerald-800 dark:bg-emerald-900/40 dark:text-emerald-200'
        }`}
      >
        {user.disabled ? 'Disabled' : 'Active'}
      </span>
      <div className="ml-auto flex flex-wrap items-center gap-2">
        <label htmlFor={selectId} className="sr-only">
          Role of {user.username}
        </label>
        <select
          id={selectId}
          className={`${INPUT} w-auto py-1`}
          value={user.role}
          onChange={(event) => onRole(event.target.value as Role)}
        >
          {ROLES.map((role) => (
            <option key={role} value={role}>
              {role}
            </option>
          ))}
        </select>
        <button type="button" onClick={onToggle} className={BUTTON.secondary}>
          {user.disabled ? 'Enable' : 'Disable'}
          <span className="sr-only"> {user.username}</span>
        </button>
        <button type="button" onClick={onReset} className={BUTTON.secondary}>
          <KeyRound className="size-4" aria-hidden />
          Reset password
          <span className="sr-only"> of {user.username}</span>
        </button>
        <button
          type="button"
          onClick={onDelete}
          aria-label={`Delete ${user.username}`}
          className={BUTTON.secondary}
        >
          <Trash2 className="size-4" aria-hidden />
          Delete
        </button>
      </div>
    </li>
  )
}

/** Username, password and role. */
function AddUserModal({ onAdded, onClose }: { onAdded: () => void; onClose: () => void }) {
  const [username, setUsername] = useState('')
  const [password, setPassword] = useState('')
  const [role, setRole] = useState<Role>('viewer')
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState('')

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    if (!username.trim()) return setError('username: is required.')
    if (password.length < MIN_PASSWORD_LENGTH) {
      return setError(`password: must be at least ${MIN_PASSWORD_LENGTH} characters.`)
    }
    setBusy(true)
    setError('')
    try {
      await addUser({ username: username.trim(), password, role })
      showToast(`User ${username.trim()} added`, 'success')
      noteAuditedAction()
      onAdded()
      onClose()
    } catch (failure) {
      setError(message(failure))
      setBusy(false)
    }
  }

  return (
    <FormModal
      title="Add user"
      onClose={onClose}
      onSubmit={submit}
      busy={busy}
      error={error}
      submitLabel="Add user"
      busyLabel="Adding..."
      icon={<Plus className="size-4" aria-hidden />}
    >
      <TextField
        label="Username"
        id="new-user-name"
        data-autofocus
        autoComplete="off"
        maxLength={USERNAME_MAX_LENGTH}
        hint='Letters, digits, ".", "_", "@" and "-".'
        value={username}
        disabled={busy}
        onChange={(event) => {
          setUsername(event.target.value)
          setError('')
        }}
      />
      <TextField
        label="Password"
        id="new-user-password"
        type="password"
        autoComplete="new-password"
        hint={`At least ${MIN_PASSWORD_LENGTH} characters.`}
        value={password}
        disabled={busy}
        onChange={(event) => {
          setPassword(event.target.value)
          setError('')
        }}
      />
      <RoleSelect id="new-user-role" value={role} onChange={setRole} disabled={busy} />
    </FormModal>
  )
}

/** A new password for another user; their sessions end. */
function ResetPasswordModal({ user, onClose }: { user: UserView; onClose: () => void }) {
  const [password, setPassword] = useState('')
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState('')

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    if (password.length < MIN_PASSWORD_LENGTH) {
      return setError(`password: must be at least ${MIN_PASSWORD_LENGTH} characters.`)
    }
    setBusy(true)
    setError('')
    try {
      await changeUser(user.username, { password })
      showToast(`Password of ${user.username} reset`, 'success')
      noteAuditedAction()
      onClose()
    } catch (failure) {
      setError(message(failure))
      setBusy(false)
    }
  }

  return (
    <FormModal
      title={`Reset the password of ${user.username}`}
      onClose={onClose}
      onSubmit={submit}
      busy={busy}
      error={error}
      submitLabel="Reset password"
      busyLabel="Resetting..."
      icon={<KeyRound className="size-4" aria-hidden />}
    >
      <TextField
        label="New password"
        id="reset-user-password"
        type="password"
        data-autofocus
        autoComplete="new-password"
        hint={`At least ${MIN_PASSWORD_LENGTH} characters. Their sessions end at once.`}
        value={password}
        disabled={busy}
        onChange={(event) => {
          setPassword(event.target.value)
          setError('')
        }}
      />
    </FormModal>
  )
}
