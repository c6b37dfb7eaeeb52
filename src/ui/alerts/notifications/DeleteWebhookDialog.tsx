import { Loader2, Trash2 } from 'lucide-react'
import { useRef, useState } from 'react'
import type { Webhook } from '../../../shared/model/notifications.ts'
import { BUTTON, FOCUS_RING } from '../../components/button-classes.ts'
import { Modal } from '../../components/Modal.tsx'
import { showToast } from '../../components/toast-store.ts'
import { deleteWebhook, errorText } from './notifications-api.ts'

const DANGER = `inline-flex items-center gap-1.5 rounded-md bg-red-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-red-700 ${FOCUS_RING}`

/** Confirms and deletes a webhook (DELETE /webhooks/{id}); Cancel has the focus. */
export function DeleteWebhookDialog({
  webhook,
  onClose,
  onDeleted,
}: {
  webhook: Webhook
  onClose: () => void
  onDeleted: () => void
}) {
  const cancel = useRef<HTMLButtonElement>(null)
  const [busy, setBusy] = useState(false)

  const confirm = async () => {
    setBusy(true)
    try {
      await deleteWebhook(webhook.id)
    } catch (error) {
      setBusy(false)
      showToast(`Failed to delete webhook: ${errorText(error, 'unknown error')}`, 'error')
      return
    }
    showToast('Webhook deleted successfully', 'success')
    onDeleted()
  }

  return (
    <Modal
      role="alertdialog"
      size="sm"
      title="Delete webhook"
      describedBy="delete-webhook-text"
      onClose={onClose}
      dismissible={!busy}
      initialFocus={cancel}
      footer={
        <>
          <button
            ref={cancel}
            type="button"
            onClick={onClose}
            disabled={busy}
            className={`${BUTTON.secondary} justify-center`}
          >
            Cancel
          </button>
          <button
            type="button"
            onClick={() => void confirm()}
            disabled={busy}
            className={`${DANGER} justify-center disabled:opacity-60`}
          >
            {busy ? (
              <Loader2 className="size-4 animate-spin" aria-hidden />
            ) : (
              <Trash2 className="size-4" aria-hidden />
            )}
            {busy ? 'Deleting...' : 'Delete'}
          </button>
        </>
      }
    >
      <p id="delete-webhook-text" className="text-sm">
        Delete the webhook{' '}
        <span className="font-medium text-gray-900 dark:text-gray-100">{webhook.name}</span>? Alerts
        are no longer sent to it.
      </p>
    </Modal>
  )
}
