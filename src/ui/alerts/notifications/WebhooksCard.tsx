import { Loader2, Pencil, Plus, Send, Trash2, Webhook as WebhookIcon } from 'lucide-react'
import { useCallback, useEffect, useState } from 'react'
import type { Webhook, WebhookTemplate } from '../../../shared/model/notifications.ts'
import { useRole } from '../../auth/useRole.ts'
import { BUTTON, FOCUS_RING } from '../../components/button-classes.ts'
import { Card } from '../../components/Card.tsx'
import { Switch } from '../../components/Switch.tsx'
import { showToast } from '../../components/toast-store.ts'
import { DeleteWebhookDialog } from './DeleteWebhookDialog.tsx'
import {
  errorText,
  loadTemplates,
  loadWebhooks,
  testWebhook,
  updateWebhook,
} from './notifications-api.ts'
import { WebhookFormModal } from './WebhookFormModal.tsx'
import { emptyWebhookForm, toWebhookBody, toWebhookForm, type WebhookForm } from './webhook-form.ts'

const ICON_BUTTON = `inline-flex items-center gap-1 rounded-md px-2 py-1 text-xs font-medium text-gray-700 hover:bg-gray-100 disabled:opacity-60 dark:text-gray-300 dark:hover:bg-gray-800 ${FOCUS_RING}`

/**
 * The Webhooks card (spec 001 §2): count, list, add/edit/delete/test. Each action is written to
 * the server at once (no unsaved state), unlike the alert config.
 */
export function WebhooksCard() {
  // Issue 29 item 6: an operator tests webhooks; adding, changing and deleting need an admin.
  const admin = useRole().can('admin')
  const [webhooks, setWebhooks] = useState<Webhook[] | null>(null)
  const [loadError, setLoadError] = useState('')
  const [templates, setTemplates] = useState<WebhookTemplate[]>([])
  const [editing, setEditing] = useState<WebhookForm | null>(null)
  const [deleting, setDeleting] = useState<Webhook | null>(null)
  const [testing, setTesting] = useState<string | null>(null)

  const reload = useCallback(async () => {
    try {
      setWebhooks(await loadWebhooks())
      setLoadError('')
    } catch (error) {
      setLoadError(errorText(error, 'Failed to load webhooks'))
    }
  }, [])

  useEffect(() => {
    void reload()
    // Spec 001 §8: a template list that fails to load is only logged.
    loadTemplates().then(setTemplates, (error: unknown) =>
      console.error('Failed to load webhook templates', error),
    )
  }, [reload])

  const templateOf = (webhook: Webhook) =>
    templates.find((item) => item.service === webhook.service)

  const test = async (webhook: Webhook) => {
    setTesting(webhook.id)
    try {
      await testWebhook({ id: webhook.id })
      showToast('Test webhook sent successfully!', 'success')
    } catch (error) {
      showToast(`Failed to send test webhook: ${errorText(error, 'unknown error')}`, 'error')
    } finally {
      setTesting(null)
    }
  }

  // The switch writes at once; the list shows the new state only once the server took it.
  const toggle = async (webhook: Webhook, enabled: boolean) => {
    try {
      const body = toWebhookBody(toWebhookForm(webhook, templateOf(webhook)))
      const stored = await updateWebhook(webhook.id, { ...body, enabled })
      setWebhooks((list) => list?.map((item) => (item.id === webhook.id ? stored : item)) ?? null)
      showToast('Webhook updated successfully', 'success')
    } catch (error) {
      showToast(`Failed to update webhook: ${errorText(error, 'unknown error')}`, 'error')
    }
  }

  const count = webhooks?.length ?? 0
  return (
    <Card
      title="Webhooks"
      icon={<WebhookIcon className="size-4" aria-hidden />}
      description={
        webhooks
          ? `${count} ${count === 1 ? 'webhook' : 'webhooks'} configured`
          : 'Discord, Slack, Telegram, Teams, PagerDuty, Pushover, Gotify, ntfy or any HTTP endpoint.'
      }
      actions={
        admin && (
          <button
            type="button"
            className={BUTTON.primary}
            onClick={() => setEditing(emptyWebhookForm())}
          >
            <Plus className="size-4" aria-hidden />
            Add webhook
          </button>
        )
      }
    >
      {!webhooks ? (
        <p role="status" className="text-sm text-gray-600 dark:text-gray-400">
          {loadError || 'Loading webhooks...'}
        </p>
      ) : webhooks.length === 0 ? (
        <p className="text-sm text-gray-600 dark:text-gray-400">
          No webhooks configured. Add one to send alerts to a chat, a pager or any HTTP endpoint.
        </p>
      ) : (
        <ul aria-label="Webhooks" className="divide-y divide-gray-200 dark:divide-gray-800">
          {webhooks.map((webhook) => (
            <li
              key={webhook.id}
              data-webhook={webhook.id}
              className="flex flex-wrap items-center gap-x-3 gap-y-2 py-2"
            >
              <Switch
                checked={webhook.enabled}
                onChange={(enabled) => void toggle(webhook, enabled)}
                label={`Webhook ${webhook.name} enabled`}
                disabled={!admin}
              />
              <div className="min-w-0 flex-1 basis-48">
                <p className="flex flex-wrap items-center gap-2 text-sm font-medium text-gray-900 dark:text-gray-100">
                  {webhook.name}
                  <span className="rounded bg-gray-100 px-1.5 py-0.5 text-xs font-normal text-gray-700 dark:bg-gray-800 dark:text-gray-300">
                    {templateOf(webhook)?.name ?? webhook.service}
                  </span>
                  <span className="text-xs font-normal text-gray-600 dark:text-gray-400">
                    {webhook.method}
                  </span>
                </p>
                <p
                  className="truncate font-mono text-xs text-gray-600 dark:text-gray-400"
                  title={webhook.url}
                >
                  {webhook.url}
                </p>
              </div>
              <div className="flex gap-1">
                {admin && (
                  <button
                    type="button"
                    className={ICON_BUTTON}
                    aria-label={`Edit webhook ${webhook.name}`}
                    onClick={() => setEditing(toWebhookForm(webhook, templateOf(webhook)))}
                  >
                    <Pencil className="size-3.5" aria-hidden />
                    Edit
                  </button>
                )}
                <button
                  type="button"
                  className={ICON_BUTTON}
                  aria-label={`Test webhook ${webhook.name}`}
                  disabled={testing === webhook.id}
                  onClick={() => void test(webhook)}
                >
                  {testing === webhook.id ? (
                    <Loader2 className="size-3.5 animate-spin" aria-hidden />
                  ) : (
                    <Send className="size-3.5" aria-hidden />
                  )}
                  Test
                </button>
                {admin && (
                  <button
                    type="button"
                    className={`${ICON_BUTTON} hover:text-red-700 dark:hover:text-red-400`}
                    aria-label={`Delete webhook ${webhook.name}`}
                    onClick={() => setDeleting(webhook)}
                  >
                    <Trash2 className="size-3.5" aria-hidden />
                    Delete
                  </button>
                )}
              </div>
            </li>
          ))}
        </ul>
      )}
      {editing && (
        <WebhookFormModal
          initial={editing}
          templates={templates}
          onClose={() => setEditing(null)}
          onSaved={(stored) => {
            setEditing(null)
            setWebhooks((list) => {
              const rest = list ?? []
              return rest.some((item) => item.id === stored.id)
                ? rest.map((item) => (item.id === stored.id ? stored : item))
                : [...rest, stored]
            })
          }}
        />
      )}
      {deleting && (
        <DeleteWebhookDialog
          webhook={deleting}
          onClose={() => setDeleting(null)}
          onDeleted={() => {
            const id = deleting.id
            setDeleting(null)
            setWebhooks((list) => list?.filter((item) => item.id !== id) ?? null)
          }}
        />
      )}
    </Card>
  )
}
