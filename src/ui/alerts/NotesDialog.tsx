import { MessageSquarePlus } from 'lucide-react'
import { useId, useState } from 'react'
import { ALERT_NOTE_MAX, type AlertNote } from '../../shared/model/alerts.ts'
import { toNoteViews, type AlertNoteView } from '../../shared/views/alert-notes.ts'
import { apiJson, HttpError } from '../api/http.ts'
import { useRole } from '../auth/useRole.ts'
import { BUTTON } from '../components/button-classes.ts'
import { Modal } from '../components/Modal.tsx'
import { ModalActions } from '../components/ModalActions.tsx'
import { INPUT } from '../components/TextField.tsx'
import { showToast } from '../components/toast-store.ts'

/** The notes of one alert occurrence, oldest first (also on the History context panel). */
export function NotesList({ notes }: { notes: readonly AlertNoteView[] }) {
  if (notes.length === 0)
    return <p className="text-sm text-gray-600 dark:text-gray-400">No notes yet.</p>
  return (
    <ol aria-label="Notes" className="flex flex-col gap-2">
      {notes.map((note, i) => (
        <li
          key={`${note.at}-${i}`}
          className="rounded-md border border-gray-200 bg-gray-50 px-3 py-2 text-sm dark:border-gray-800 dark:bg-gray-950"
        >
          <p className="text-xs text-gray-600 dark:text-gray-400">
            <span className="font-medium text-gray-800 dark:text-gray-200">{note.author}</span>
            {note.atText && (
              <>
                {' · '}
                <time dateTime={note.at}>{note.atText}</time>
              </>
            )}
          </p>
          <p className="break-words whitespace-pre-wrap">{note.text}</p>
        </li>
      ))}
    </ol>
  )
}

/**
 * An alert's notes and a field to add one (issue 28 item 4): POST /api/alerts/{id}/notes; the
 * author is whoever is signed in (the server decides). The list shows the server's answer at
 * once; the live state brings the same notes to every other browser.
 */
export function NotesDialog({
  alert,
  onClose,
}: {
  alert: { id: string; resourceName: string; message: string; notes: readonly AlertNoteView[] }
  onClose: () => void
}) {
  const id = useId()
  // A viewer reads the notes; adding one needs an operator (issue 29 item 6).
  const operate = useRole().can('operator')
  const [notes, setNotes] = useState<readonly AlertNoteView[]>(alert.notes)
  const [text, setText] = useState('')
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const trimmed = text.trim()
  const tooLong = trimmed.length > ALERT_NOTE_MAX
  const submit = async () => {
    if (trimmed === '' || tooLong) return
    setBusy(true)
    setError(null)
    try {
      const answer = await apiJson<{ notes: AlertNote[] }>(
        `/api/alerts/${encodeURIComponent(alert.id)}/notes`,
        { method: 'POST', body: { text: trimmed } },
      )
      setNotes(toNoteViews(answer?.notes))
      setText('')
      showToast('Note added', 'success')
    } catch (err) {
      setError(
        err instanceof HttpError && err.status === 404
          ? 'This alert has ended; its notes are in History.'
          : err instanceof Error
            ? err.message
            : String(err),
      )
    } finally {
      setBusy(false)
    }
  }
  return (
    <Modal
      title={`Notes: ${alert.resourceName}`}
      onClose={onClose}
      dismissible={!busy}
      footer={
        !operate ? (
          <button type="button" onClick={onClose} className={`${BUTTON.secondary} justify-center`}>
            Done
          </button>
        ) : (
          <ModalActions
            onCancel={onClose}
            cancelLabel="Done"
            busy={busy}
            formId={`${id}-form`}
            submitLabel="Add note"
            busyLabel="Adding..."
            disabled={trimmed === '' || tooLong}
            icon={<MessageSquarePlus className="size-4" aria-hidden />}
          />
        )
      }
    >
      <p className="mb-3 text-sm text-gray-600 dark:text-gray-400">{alert.message}</p>
      <NotesList notes={notes} />
      {operate && (
        <form
          id={`${id}-form`}
          className="mt-3 flex flex-col gap-1"
          onSubmit={(event) => {
            event.preventDefault()
            void submit()
          }}
        >
          <label htmlFor={`${id}-text`} className="text-sm font-medium">
            New note
          </label>
          <textarea
            id={`${id}-text`}
            className={`${INPUT} min-h-20`}
            value={text}
            onChange={(event) => setText(event.target.value)}
            onKeyDown={(event) => {
              // Ctrl/Cmd-Enter adds the note; Enter alone is a new line.
              if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
                event.preventDefault()
                void submit()
              }
            }}
            aria-describedby={`${id}-hint`}
            aria-invalid={tooLong || undefined}
          />
          <p
            id={`${id}-hint`}
            className={`text-xs ${tooLong || error ? 'text-red-700 dark:text-red-400' : 'text-gray-600 dark:text-gray-400'}`}
          >
            {error ??
              (tooLong
                ? `At most ${ALERT_NOTE_MAX} characters (${trimmed.length})`
                : 'Kept with this occurrence in History. Ctrl+Enter adds it.')}
          </p>
        </form>
      )}
    </Modal>
  )
}
