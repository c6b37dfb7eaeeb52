import { Loader2, Send } from 'lucide-react'
import { useId, useState } from 'react'
import {
  WEBHOOK_METHODS,
  WEBHOOK_SERVICES,
  type Webhook,
  type WebhookMethod,
  type WebhookTemplate,
} from '../../../shared/model/notifications.ts'
import { BUTTON } from '../../components/button-classes.ts'
import { Modal } from '../../components/Modal.tsx'
import { ModalActions } from '../../components/ModalActions.tsx'
import { Switch } from '../../components/Switch.tsx'
import { INPUT } from '../../components/TextField.tsx'
import { showToast } from '../../components/toast-store.ts'
import { Field } from './EmailFields.tsx'
import { KeyValueRows } from './KeyValueRows.tsx'
import { addWebhook, errorText, testWebhook, updateWebhook } from './notifications-api.ts'
import { applyTemplate, toWebhookBody, validateWebhook, type WebhookForm } from './webhook-form.ts'

/** The add/edit webhook form (spec 001 §4 Webhook form) in a dialog; editing sets `id`. */
export function WebhookFormModal({
  initial,
  templates,
  onClose,
  onSaved,
}: {
  initial: WebhookForm
  templates: WebhookTemplate[]
  onClose: () => void
  onSaved: (webhook: Webhook) => void
}) {
  const [form, setForm] = useState(initial)
  const [touched, setTouched] = useState(false)
  const [busy, setBusy] = useState<'save' | 'test' | null>(null)
  const formId = useId()
  const editing = form.id !== ''
  const template = templates.find((item) => item.service === form.service)
  const errors = touched ? validateWebhook(form) : {}
  const set = (patch: Partial<WebhookForm>) => setForm((current) => ({ ...current, ...patch }))

  const checked = (): boolean => {
    setTouched(true)
    const found = validateWebhook(form)
    if (found.name) document.getElementById(`${formId}-name`)?.focus()
    else if (found.url) document.getElementById(`${formId}-url`)?.focus()
    return !found.name && !found.url
  }

  const save = async () => {
    if (!checked()) return
    setBusy('save')
    const body = toWebhookBody(form)
    try {
      const stored = editing ? await updateWebhook(form.id, body) : await addWebhook(body)
      showToast(editing ? 'Webhook updated successfully' : 'Webhook added successfully', 'success')
      onSaved(stored)
    } catch (error) {
      const what = editing ? 'Failed to update webhook' : 'Failed to add webhook'
      showToast(`${what}: ${errorText(error, 'unknown error')}`, 'error')
      setBusy(null)
    }
  }

  // When editing, the id goes along so the server can fill a masked URL or a kept secret.
  const test = async () => {
    if (!checked()) return
    setBusy('test')
    try {
      await testWebhook(editing ? { ...toWebhookBody(form), id: form.id } : toWebhookBody(form))
      showToast('Test webhook sent successfully!', 'success')
    } catch (error) {
      showToast(`Failed to send test webhook: ${errorText(error, 'unknown error')}`, 'error')
    } finally {
      setBusy(null)
    }
  }

  return (
    <Modal
      title={editing ? `Edit webhook ${initial.name}` : 'Add webhook'}
      size="lg"
      onClose={onClose}
      dismissible={busy === null}
      footer={
        <>
          <button
            type="button"
            disabled={busy !== null}
            onClick={() => void test()}
            className={`${BUTTON.secondary} justify-center disabled:opacity-60 sm:mr-auto`}
          >
            {busy === 'test' ? (
              <Loader2 className="size-4 animate-spin" aria-hidden />
            ) : (
              <Send className="size-4" aria-hidden />
            )}
            {busy === 'test' ? 'Sending...' : 'Send test'}
          </button>
          <ModalActions
            onCancel={onClose}
            busy={busy === 'save'}
            disabled={busy === 'test'}
            formId={formId}
            submitLabel={editing ? 'Update webhook' : 'Add webhook'}
            busyLabel="Saving..."
          />
        </>
      }
    >
      <form
        id={formId}
        noValidate
        className="flex flex-col gap-3"
        onSubmit={(event) => {
          event.preventDefault()
          void save()
        }}
      >
        <Field id={`${formId}-service`} label="Service">
          {() => (
            <select
              id={`${formId}-service`}
              data-autofocus=""
              value={form.service}
              className={INPUT}
              onChange={(event) => {
                const picked = templates.find((item) => item.service === event.target.value)
                setForm((current) =>
                  picked
                    ? applyTemplate(current, picked)
                    : { ...current, service: event.target.value as WebhookForm['service'] },
                )
              }}
            >
              {WEBHOOK_SERVICES.map((service) => (
                <option key={service} value={service}>
                  {templates.find((item) => item.service === service)?.name ?? service}
                </option>
              ))}
            </select>
          )}
        </Field>
        {template?.instructions && (
          <p
            data-instructions=""
            className="rounded-md border border-blue-200 bg-blue-50 px-3 py-2 text-xs whitespace-pre-line text-blue-900 dark:border-blue-900 dark:bg-blue-950/40 dark:text-blue-200"
          >
            {template.instructions}
          </p>
        )}
        <div className="grid gap-3 sm:grid-cols-[1fr_auto]">
          <Field id={`${formId}-name`} label="Name" error={errors.name}>
            {(describedBy, invalid) => (
              <input
                id={`${formId}-name`}
                value={form.name}
                aria-invalid={invalid || undefined}
                aria-describedby={describedBy}
                onChange={(event) => set({ name: event.target.value })}
                className={INPUT}
              />
            )}
          </Field>
          <div className="flex items-end gap-2 pb-2">
            <Switch
              checked={form.enabled}
              onChange={(enabled) => set({ enabled })}
              label="Webhook enabled"
            />
            <span className="text-sm text-gray-700 dark:text-gray-300">Enabled</span>
          </div>
        </div>
        <div className="grid gap-3 sm:grid-cols-[1fr_8rem]">
          <Field
            id={`${formId}-url`}
            label="URL"
            error={errors.url}
            hint={
              form.urlMasked
                ? 'The stored URL holds a secret and is masked; leave it to keep it, or enter a new one.'
                : template?.urlPattern
                  ? `Pattern: ${template.urlPattern}`
                  : undefined
            }
          >
            {(describedBy, invalid) => (
              <input
                id={`${formId}-url`}
                type="url"
                value={form.url}
                placeholder={template?.urlPattern || 'https://example.com/hook'}
                aria-invalid={invalid || undefined}
                aria-describedby={describedBy}
                onChange={(event) => set({ url: event.target.value, urlMasked: false })}
                className={`${INPUT} font-mono`}
              />
            )}
          </Field>
          <Field id={`${formId}-method`} label="Method">
            {() => (
              <select
                id={`${formId}-method`}
                value={form.method}
                className={INPUT}
                onChange={(event) => set({ method: event.target.value as WebhookMethod })}
              >
                {WEBHOOK_METHODS.map((method) => (
                  <option key={method}>{method}</option>
                ))}
              </select>
            )}
          </Field>
        </div>
        <KeyValueRows label="Header" rows={form.headers} onChange={(headers) => set({ headers })} />
        <KeyValueRows
          label="Custom field"
          rows={form.customFields}
          secrets
          onChange={(customFields) => set({ customFields })}
        />
      </form>
    </Modal>
  )
}
