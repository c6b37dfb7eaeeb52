// The webhook add/edit form (spec 001 §3 Webhook, §4 Webhook form, §5 Webhook rules): headers and
// custom fields as key/value rows, the service template's defaults, and the body sent to the
// server. Pure, so the rules are tested without a DOM.
import type {
  Webhook,
  WebhookMethod,
  WebhookService,
  WebhookTemplate,
} from '../../../shared/model/notifications.ts'
import type { WebhookBody } from './notifications-api.ts'

export interface KeyValueRow {
  /** Stable React key; rows are reordered and removed. */
  rowId: number
  key: string
  value: string
  /** Custom fields only: the value is a secret (encrypted, never shown again). */
  secret: boolean
  /** A secret value is stored on the server; a blank value keeps it. */
  stored: boolean
  /** A field the service needs (pushover): its name is fixed and the row cannot be removed. */
  required: boolean
}

export interface WebhookForm {
  /** Set when editing (spec 001 §4: editing sets id). */
  id: string
  name: string
  url: string
  /** The URL shown was masked by the server; unchanged, it keeps the stored one. */
  urlMasked: boolean
  method: WebhookMethod
  service: WebhookService
  enabled: boolean
  template: string
  headers: KeyValueRow[]
  customFields: KeyValueRow[]
}

let nextRowId = 1

export function newRow(key = '', value = '', extra: Partial<KeyValueRow> = {}): KeyValueRow {
  return { rowId: nextRowId++, key, value, secret: false, stored: false, required: false, ...extra }
}

/** Spec 001 §9: a new webhook posts JSON. */
export function emptyWebhookForm(): WebhookForm {
  return {
    id: '',
    name: '',
    url: '',
    urlMasked: false,
    method: 'POST',
    service: 'generic',
    enabled: true,
    template: '',
    headers: [newRow('Content-Type', 'application/json')],
    customFields: [],
  }
}

export function toWebhookForm(webhook: Webhook, template?: WebhookTemplate): WebhookForm {
  const required = new Set(template?.requiredFields ?? [])
  const fields = Object.entries(webhook.customFields).map(([key, value]) => {
    const secret = webhook.secretFields.includes(key)
    return newRow(key, secret ? '' : value, {
      secret,
      stored: secret && webhook.hasSecret?.[key] === true,
      required: required.has(key),
    })
  })
  for (const name of required)
    if (!(name in webhook.customFields)) fields.push(newRow(name, '', { required: true }))
  return {
    id: webhook.id,
    name: webhook.name,
    url: webhook.url,
    urlMasked: webhook.urlMasked === true,
    method: webhook.method,
    service: webhook.service,
    enabled: webhook.enabled,
    template: webhook.template,
    headers: Object.entries(webhook.headers).map(([key, value]) => newRow(key, value)),
    customFields: fields,
  }
}

/**
 * Picking a service takes its method and headers, and adds its required custom fields (kept when
 * already there). A required field of the previous service becomes an ordinary row again.
 */
export function applyTemplate(
  form: WebhookForm,
  template: WebhookTemplate | undefined,
): WebhookForm {
  if (!template) return form
  const required = new Set(template.requiredFields)
  const fields = form.customFields.map((row) => ({
    ...row,
    required: required.has(row.key.trim()),
  }))
  for (const name of template.requiredFields)
    if (!fields.some((row) => row.key.trim() === name))
      fields.push(newRow(name, '', { required: true }))
  return {
    ...form,
    service: template.service,
    method: template.method,
    headers: Object.entries(template.headers).map(([key, value]) => newRow(key, value)),
    customFields: fields,
  }
}

/** Spec 001 §5: name and URL are required to add or to test. */
export function validateWebhook(form: WebhookForm): { name?: string; url?: string } {
  const errors: { name?: string; url?: string } = {}
  if (!form.name.trim()) errors.name = 'Name is required'
  if (!form.url.trim()) errors.url = 'URL is required'
  else if (!form.urlMasked && !/^https?:\/\/[^/\s]+/i.test(form.url.trim()))
    errors.url = 'URL must start with http:// or https://'
  return errors
}

/** Rows with an empty key are ignored (spec 001 §5); a later duplicate key wins. */
function rowsToRecord(rows: readonly KeyValueRow[]): Record<string, string> {
  const out: Record<string, string> = {}
  for (const row of rows) {
    const key = row.key.trim()
    if (key) out[key] = row.value
  }
  return out
}

/** The body of POST/PUT /webhooks and of a test of unsaved settings. */
export function toWebhookBody(form: WebhookForm): WebhookBody {
  const secretFields = form.customFields
    .filter((row) => row.secret && row.key.trim())
    .map((row) => row.key.trim())
  return {
    name: form.name.trim(),
    url: form.url.trim(),
    method: form.method,
    headers: rowsToRecord(form.headers),
    enabled: form.enabled,
    service: form.service,
    template: form.template,
    customFields: rowsToRecord(form.customFields),
    secretFields: [...new Set(secretFields)],
  }
}
