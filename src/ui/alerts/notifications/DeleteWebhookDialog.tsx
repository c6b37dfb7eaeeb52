import { Trash2 } from 'lucide-react'
import type { Webhook } from '../../../shared/model/notifications.ts'
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx'
import { showToast } from '../../components/toast-store.ts'
import { deleteWebhook, errorText } from './notifications-api.ts'

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
  const confirm = async () => {
    try {
      await deleteWebhook(webhook.id)
    } catch (error) {
      showToast(`Failed to delete webhook: ${errorText(error, 'unknown error')}`, 'error')
      return
    }
    showToast('Webhook deleted successfully', 'success')
    onDeleted()
  }

  return (
    <ConfirmDialog
      title="Delete webhook"
      describedBy="delete-webhook-text"
      confirmLabel="Delete"
      busyLabel="Deleting..."
      tone="danger"
      icon={<Trash2 className="size-4" aria-hidden />}
      onConfirm={confirm}
      onClose={onClose}
    >
      <p id="delete-webhook-text" className="text-sm">
        Delete the webhook{' '}
        <span className="font-medium text-gray-900 dark:text-gray-100">{webhook.name}</span>? Alerts
        are no longer sent to it.
      </p>
    </ConfirmDialog>
  )
}
