import { FileDown } from 'lucide-react'
import { useId, useState, type FormEvent } from 'react'
import { ErrorPanel } from '../../auth/AuthCard.tsx'
import { downloadText } from '../../auth/download.ts'
import { Modal } from '../../components/Modal.tsx'
import { useApiTokenPrompt } from './ApiTokenModal.tsx'
import { ModalActions } from '../../components/ModalActions.tsx'
import { showToast } from '../../components/toast-store.ts'
import { noteAuditedAction } from './audit-refresh.ts'
import { TextField } from '../../components/TextField.tsx'
import { Requirement } from './fields.tsx'
import {
  MIN_PASSPHRASE_LENGTH,
  exportConfig,
  exportProblem,
  type PassphraseMode,
} from './security-api.ts'

/**
 * Export configuration (spec 001 §2 Modals, §5 Export, §6): every setting, node secrets
 * included, encrypted with a passphrase. With login configured the passphrase is the login
 * password unless the user picks a custom one (at least 12 characters); without login only a
 * custom one. Export downloads the server's file under the name it gives.
 */
export function ExportModal({ hasLogin, onClose }: { hasLogin: boolean; onClose: () => void }) {
  const formId = useId()
  const requirementId = useId()
  const [mode, setMode] = useState<PassphraseMode>(hasLogin ? 'password' : 'custom')
  const [password, setPassword] = useState('')
  const [custom, setCustom] = useState('')
  const [error, setError] = useState('')
  const [busy, setBusy] = useState(false)
  const passphrase = mode === 'password' ? password : custom
  const problem = exportProblem(hasLogin, mode, passphrase)

  const submit = async (event?: FormEvent) => {
    event?.preventDefault()
    if (busy) return
    if (problem) {
      setError(problem)
      return
    }
    setError('')
    setBusy(true)
    try {
      const { filename, text } = await exportConfig(passphrase)
      downloadText(filename, text, 'application/json')
      showToast('Configuration exported successfully', 'success')
      // The server recorded config_export: the audit log card shows it without a manual refresh.
      noteAuditedAction()
      onClose()
    } catch (err) {
      setBusy(false)
      if (!token.ask(err))
        setError(err instanceof Error ? err.message : 'Failed to export configuration')
    }
  }

  const option = (value: PassphraseMode, label: string, hint: string) => (
    <label className="flex cursor-pointer items-start gap-2 rounded-md border border-gray-200 p-2 text-sm has-checked:border-blue-500 has-checked:bg-blue-50 dark:border-gray-700 dark:has-checked:border-blue-400 dark:has-checked:bg-blue-950">
      <input
        type="radio"
        name="export-passphrase-mode"
        value={value}
        checked={mode === value}
        disabled={busy}
        onChange={() => {
          setMode(value)
          setError('')
        }}
        className="mt-0.5 accent-blue-600"
      />
      <span className="flex flex-col">
        <span className="font-medium">{label}</span>
        <span className="text-xs text-gray-600 dark:text-gray-400">{hint}</span>
      </span>
    </label>
  )

  const token = useApiTokenPrompt(() => void submit())

  return (
    <>
      <Modal
        title="Export configuration"
        onClose={onClose}
        dismissible={!busy}
        footer={
          <ModalActions
            onCancel={onClose}
            busy={busy}
            formId={formId}
            submitLabel="Export"
            busyLabel="Exporting..."
            disabled={problem !== ''}
            describedBy={problem ? requirementId : undefined}
            icon={<FileDown className="size-4" aria-hidden />}
          />
        }
      >
        <form
          id={formId}
          className="flex flex-col gap-4"
          onSubmit={(event) => void submit(event)}
          noValidate
        >
          <p className="text-sm text-gray-700 dark:text-gray-300">
            The file holds every setting, node credentials included, encrypted with the passphrase.
            Restoring it needs the same passphrase.
          </p>
          {hasLogin && (
            <fieldset className="flex flex-col gap-2">
              <legend className="mb-1 text-sm font-medium text-gray-700 dark:text-gray-300">
                Passphrase
              </legend>
              <div className="grid gap-2 sm:grid-cols-2">
                {option('password', 'Use your login password', 'The password you sign in with')}
                {option(
                  'custom',
                  'Use a custom passphrase',
                  `At least ${MIN_PASSPHRASE_LENGTH} characters`,
                )}
              </div>
            </fieldset>
          )}
          {mode === 'password' ? (
            <TextField
              key="password"
              label="Login password"
              data-autofocus
              id="export-password"
              type="password"
              autoComplete="current-password"
              value={password}
              disabled={busy}
              onChange={(event) => {
                setPassword(event.target.value)
                setError('')
              }}
            />
          ) : (
            <TextField
              key="custom"
              label="Export passphrase"
              data-autofocus
              id="export-passphrase"
              type="password"
              autoComplete="new-password"
              hint={`At least ${MIN_PASSPHRASE_LENGTH} characters. Keep it safe: the file cannot be restored without it.`}
              value={custom}
              disabled={busy}
              onChange={(event) => {
                setCustom(event.target.value)
                setError('')
              }}
            />
          )}
          {error ? (
            <ErrorPanel>{error}</ErrorPanel>
          ) : (
            problem && <Requirement id={requirementId}>{problem}</Requirement>
          )}
        </form>
      </Modal>
      {token.modal}
    </>
  )
}
