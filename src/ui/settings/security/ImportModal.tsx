import { FileUp, TriangleAlert } from 'lucide-react'
import { useId, useState, type ChangeEvent, type FormEvent } from 'react'
import { ErrorPanel } from '../../auth/AuthCard.tsx'
import { INPUT, TextField } from '../../components/TextField.tsx'
import { Modal } from '../../components/Modal.tsx'
import { useApiTokenPrompt } from './ApiTokenModal.tsx'
import { ModalActions } from '../../components/ModalActions.tsx'
import { showToast } from '../../components/toast-store.ts'
import { reloadSoon } from '../../lib/navigation.ts'
import { Notice, Requirement } from './fields.tsx'
import { importConfig } from './security-api.ts'

export const IMPORT_DONE_TEXT = 'Configuration imported successfully. Reloading...'

/** Spec 001 §5 Import: what is still missing, in order (empty when Import can run). */
export function importProblems(hasFile: boolean, password: string): string[] {
  const problems: string[] = []
  if (!password) problems.push('Please enter the password')
  if (!hasFile) problems.push('Please select a file to import')
  return problems
}

type Picked =
  { kind: 'none' } | { kind: 'bad'; name: string } | { kind: 'ok'; name: string; data: unknown }

/**
 * Import (restore) configuration (spec 001 §2 Modals, §5 Import): a .json export and the password
 * it was exported with. The server replaces every setting; the page reloads 2 s after success.
 */
export function ImportModal({ onClose }: { onClose: () => void }) {
  const formId = useId()
  const requirementId = useId()
  const [picked, setPicked] = useState<Picked>({ kind: 'none' })
  const [password, setPassword] = useState('')
  const [error, setError] = useState('')
  const [busy, setBusy] = useState(false)
  const problems = importProblems(picked.kind === 'ok', password)

  const pick = async (event: ChangeEvent<HTMLInputElement>) => {
    setError('')
    const file = event.target.files?.[0]
    if (!file) {
      setPicked({ kind: 'none' })
      return
    }
    try {
      const data = JSON.parse(await file.text()) as unknown
      if (typeof data !== 'object' || data === null) throw new Error('not an object')
      setPicked({ kind: 'ok', name: file.name, data })
    } catch {
      setPicked({ kind: 'bad', name: file.name })
    }
  }

  const submit = async (event?: FormEvent) => {
    event?.preventDefault()
    if (busy) return
    if (picked.kind !== 'ok' || problems.length > 0) {
      setError(picked.kind === 'bad' ? 'Invalid JSON file format' : (problems[0] ?? ''))
      return
    }
    setError('')
    setBusy(true)
    try {
      await importConfig(password, picked.data)
    } catch (err) {
      setBusy(false)
      if (!token.ask(err))
        setError(err instanceof Error ? err.message : 'Failed to import configuration')
      return
    }
    showToast(IMPORT_DONE_TEXT, 'success')
    onClose()
    reloadSoon()
  }

  const token = useApiTokenPrompt(() => void submit())

  return (
    <>
      <Modal
        title="Restore configuration"
        onClose={onClose}
        dismissible={!busy}
        footer={
          <ModalActions
            onCancel={onClose}
            busy={busy}
            formId={formId}
            submitLabel="Import"
            busyLabel="Importing..."
            disabled={problems.length > 0}
            describedBy={problems.length > 0 ? requirementId : undefined}
            icon={<FileUp className="size-4" aria-hidden />}
          />
        }
      >
        <form
          id={formId}
          className="flex flex-col gap-4"
          onSubmit={(event) => void submit(event)}
          noValidate
        >
          <Notice tone="warning" icon={<TriangleAlert className="size-4" aria-hidden />}>
            Importing replaces every setting on this server (nodes, single sign-on, login and API
            token) and signs out every other session. The page reloads afterwards.
          </Notice>
          <div className="flex min-w-0 flex-col gap-1">
            <label
              htmlFor="import-file"
              className="text-sm font-medium text-gray-700 dark:text-gray-300"
            >
              Configuration file
            </label>
            <input
              id="import-file"
              type="file"
              accept=".json,application/json"
              disabled={busy}
              onChange={(event) => void pick(event)}
              className={`${INPUT} file:mr-3 file:rounded file:border-0 file:bg-gray-100 file:px-2 file:py-1 file:text-sm file:text-gray-700 dark:file:bg-gray-700 dark:file:text-gray-200`}
            />
            {picked.kind === 'bad' && (
              <p role="alert" className="text-xs text-red-700 dark:text-red-400">
                Invalid JSON file format
              </p>
            )}
          </div>
          <TextField
            label="Backup password"
            id="import-password"
            type="password"
            autoComplete="off"
            hint="The login password or custom passphrase the file was exported with."
            value={password}
            disabled={busy}
            onChange={(event) => {
              setPassword(event.target.value)
              setError('')
            }}
          />
          {error && <ErrorPanel>{error}</ErrorPanel>}
          {problems.length > 0 && (
            <div id={requirementId} className="flex flex-col gap-0.5">
              {problems.map((problem) => (
                <Requirement key={problem}>{problem}</Requirement>
              ))}
            </div>
          )}
        </form>
      </Modal>
      {token.modal}
    </>
  )
}
