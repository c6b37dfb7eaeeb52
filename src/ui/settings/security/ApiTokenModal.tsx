import { KeyRound } from 'lucide-react'
import { useId, useState, type FormEvent, type ReactNode } from 'react'
import { ErrorPanel } from '../../auth/AuthCard.tsx'
import { Modal } from '../../components/Modal.tsx'
import { ModalActions } from '../../components/ModalActions.tsx'
import { TextField } from '../../components/TextField.tsx'
import { ApiTokenNeeded, apiTokenProblem, storeApiToken } from './security-api.ts'

/**
 * "API token required" (spec 001 §2 Modals, §6): on an instance protected only by an API token,
 * export and import need it. The token is kept for this tab's session and sent as X-API-Token;
 * `message` is the reason it is asked again (a refused token).
 */
export function ApiTokenModal({
  message,
  onDone,
  onClose,
}: {
  message: string
  onDone: () => void
  onClose: () => void
}) {
  const formId = useId()
  const [token, setToken] = useState('')
  const [error, setError] = useState(message)

  const submit = (event: FormEvent) => {
    event.preventDefault()
    const problem = apiTokenProblem(token)
    if (problem) {
      setError(problem)
      return
    }
    storeApiToken(token.trim())
    onDone()
  }

  return (
    <Modal
      title="API token required"
      onClose={onClose}
      footer={
        <ModalActions
          onCancel={onClose}
          busy={false}
          formId={formId}
          submitLabel="Continue"
          busyLabel="Continue"
          icon={<KeyRound className="size-4" aria-hidden />}
        />
      }
    >
      <form id={formId} className="flex flex-col gap-4" onSubmit={submit} noValidate>
        <p className="text-sm text-gray-700 dark:text-gray-300">
          This instance has no login: exporting and importing the configuration need its API token.
          It is kept in this browser tab only until the tab closes.
        </p>
        <TextField
          label="API token"
          id="api-token-input"
          data-autofocus
          type="password"
          autoComplete="off"
          spellCheck={false}
          value={token}
          onChange={(event) => {
            setToken(event.target.value)
            setError('')
          }}
        />
        {error && <ErrorPanel>{error}</ErrorPanel>}
      </form>
    </Modal>
  )
}

/**
 * For export and import: `ask(error)` opens the token modal when `error` is ApiTokenNeeded (and
 * says so by returning true); once a token is entered, `retry` runs again. Render `modal`.
 */
export function useApiTokenPrompt(retry: () => void): {
  ask: (error: unknown) => boolean
  modal: ReactNode
} {
  const [message, setMessage] = useState<string | null>(null)
  const ask = (error: unknown) => {
    if (!(error instanceof ApiTokenNeeded)) return false
    setMessage(error.message)
    return true
  }
  const modal =
    message === null ? null : (
      <ApiTokenModal
        message={message}
        onClose={() => setMessage(null)}
        onDone={() => {
          setMessage(null)
          retry()
        }}
      />
    )
  return { ask, modal }
}
