import { Loader2, Trash2 } from 'lucide-react'
import { useId, useState } from 'react'
import { apiJson } from '../api/http.ts'
import { useRole } from '../auth/useRole.ts'
import { BUTTON } from '../components/button-classes.ts'
import { Modal } from '../components/Modal.tsx'
import { showToast } from '../components/toast-store.ts'

/** Spec 001 §5: the confirmation's exact text. */
export const CLEAR_HISTORY_CONFIRM =
  'Are you sure you want to clear all alert history? This will permanently delete all historical alert data and cannot be undone.'

/** Clear All History (an administrative action): asks, then DELETE /api/alerts/history. */
export function ClearHistoryButton({ onCleared }: { onCleared: () => void }) {
  // Issue 29 item 6: clearing the history needs an admin; others see no button.
  const admin = useRole().can('admin')
  const [open, setOpen] = useState(false)
  const [busy, setBusy] = useState(false)
  const textId = useId()

  const confirm = async () => {
    setBusy(true)
    try {
      await apiJson('/api/alerts/history', { method: 'DELETE' })
      setOpen(false)
      onCleared()
      showToast('Alert history cleared', 'success')
    } catch {
      // Spec 001 §8: the title and its hint in one toast (toasts carry one message).
      showToast(
        'Error clearing alert history. Please check your connection and try again.',
        'error',
      )
    } finally {
      setBusy(false)
    }
  }

  if (!admin) return null
  return (
    <>
      <button
        type="button"
        className={`${BUTTON.secondary} text-red-700 dark:text-red-400`}
        onClick={() => setOpen(true)}
      >
        <Trash2 className="size-4" aria-hidden />
        Clear All History
      </button>
      {open && (
        <Modal
          title="Clear alert history"
          role="alertdialog"
          size="sm"
          describedBy={textId}
          dismissible={!busy}
          onClose={() => setOpen(false)}
          footer={
            <>
              <button
                type="button"
                className={`${BUTTON.secondary} justify-center`}
                disabled={busy}
                onClick={() => setOpen(false)}
              >
                Cancel
              </button>
              <button
                type="button"
                data-autofocus
                className={`${BUTTON.primary} justify-center bg-red-600 hover:bg-red-700 disabled:opacity-60`}
                disabled={busy}
                onClick={() => void confirm()}
              >
                {busy && <Loader2 className="size-4 animate-spin" aria-hidden />}
                {busy ? 'Clearing...' : 'Clear All History'}
              </button>
            </>
          }
        >
          <p id={textId} className="text-sm text-gray-700 dark:text-gray-300">
            {CLEAR_HISTORY_CONFIRM}
          </p>
        </Modal>
      )}
    </>
  )
}
