// Validation of a submitted webhook (spec 001 §5 Webhook; wire-protocol.md §3.7): every problem
// names its field; nothing is stored when one is found.
import {
  WEBHOOK_METHODS,
  WEBHOOK_SERVICES,
  type Webhook,
  type WebhookMethod,
  type WebhookService,
} from '../../shared/model/notifications.ts'
import { compileTemplate, TEMPLATE_MAX } from '../notify/webhook/liquid-engine.ts'
import { trialRender } from '../notify/webhook/sample.ts'
import { webhookTemplate } from '../notify/webhook/templates.ts'
import { checkUrl, type UrlSafetyOptions } from '../notify/webhook/url-safety.ts'
import type { WebhookInput } from '../store/webhook-repo.ts'

export const NAME_MAX = 100
export const URL_MAX = 2048
export const MAP_ENTRIES_MAX = 50
export const VALUE_MAX = 4096

/** A 400 or 404 answered as `{ error, code, message }`. */
export class WebhookRouteError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code = status === 404 ? 'WEBHOOK_NOT_FOUND' : 'FIELD_INVALID',
  ) {
    super(message)
  }
}

export const fail = (message: string, status = 400): never => {
  throw new WebhookRouteError(status, message)
}

/** Custom fields that are secrets whatever the form says. */
const ALWAYS_SECRET: Partial<Record<WebhookService, string[]>> = {
  pushover: ['app_token', 'user_token'],
  pagerduty: ['routing_key'],
}

/** Pushover's priorities (its API refuses others). */
const PUSHOVER_PRIORITIES = ['-2', '-1', '0', '1', '2']

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/

function text(body: Record<string, unknown>, key: string, fallback?: string): string {
  const value = body[key] ?? fallback
  if (typeof value !== 'string') return fail(`${key}: must be a string`)
  return value
}

/** A string map; entries whose key is empty are ignored (the form's blank rows). */
function stringMap(body: Record<string, unknown>, key: string): Record<string, string> {
  const value = body[key] ?? {}
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return fail(`${key}: must be an object of strings`)
  const out: Record<string, string> = {}
  for (const [name, entry] of Object.entries(value as Record<string, unknown>)) {
    if (name.trim() === '') continue
    if (typeof entry !== 'string') return fail(`${key}.${name}: must be a string`)
    if (entry.length > VALUE_MAX)
      return fail(`${key}.${name}: must be at most ${VALUE_MAX} characters`)
    out[name.trim()] = entry
  }
  if (Object.keys(out).length > MAP_ENTRIES_MAX)
    return fail(`${key}: must have at most ${MAP_ENTRIES_MAX} entries`)
  return out
}

/** The webhook URL as the reference's error words it: `Invalid webhook URL: …`. */
export function validUrl(url: string, service: WebhookService, safety: UrlSafetyOptions): void {
  if (url.trim() === '') fail('Invalid webhook URL: url is required')
  if (url.length > URL_MAX) fail(`Invalid webhook URL: at most ${URL_MAX} characters`)
  const check = checkUrl(url, safety)
  if (!check.ok) fail(`Invalid webhook URL: ${check.error}`)
  if (service === 'telegram' && check.ok) {
    const chatId = check.url.searchParams.get('chat_id') ?? ''
    if (!/^-?\d+$/.test(chatId))
      fail('Invalid webhook URL: Telegram needs a numeric ?chat_id= in the URL')
  }
}

/** Parse a submitted webhook; throws WebhookRouteError naming the field. */
export function parseWebhookInput(body: unknown, safety: UrlSafetyOptions): WebhookInput {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    return fail('body: must be a JSON object')
  const b = body as Record<string, unknown>
  const name = text(b, 'name').trim()
  if (name.length < 1 || name.length > NAME_MAX) fail(`name: must have 1 to ${NAME_MAX} characters`)
  const service = text(b, 'service', 'generic') as WebhookService
  if (!WEBHOOK_SERVICES.includes(service))
    fail(`service: must be one of ${WEBHOOK_SERVICES.join(', ')}`)
  const method = text(b, 'method', 'POST').toUpperCase() as WebhookMethod
  if (!WEBHOOK_METHODS.includes(method))
    fail(`method: must be one of ${WEBHOOK_METHODS.join(', ')}`)
  const url = text(b, 'url').trim()
  validUrl(url, service, safety)
  const enabled = b.enabled ?? true
  if (typeof enabled !== 'boolean') return fail('enabled: must be true or false')
  const headers = stringMap(b, 'headers')
  for (const [header, value] of Object.entries(headers)) {
    if (!HEADER_NAME.test(header)) fail(`headers.${header}: not a valid header name`)
    if (/[\r\n\0]/.test(value)) fail(`headers.${header}: must not contain line breaks`)
  }
  const template = text(b, 'template', '')
  if (template.length > TEMPLATE_MAX) fail(`template: must be at most ${TEMPLATE_MAX} characters`)
  if (template.trim() !== '') {
    try {
      compileTemplate(template)
    } catch (err) {
      fail(`template: ${(err as Error).message}`)
    }
  }
  const customFields = stringMap(b, 'customFields')
  const priority = customFields.priority?.trim() ?? ''
  if (service === 'pushover' && priority !== '') {
    if (!PUSHOVER_PRIORITIES.includes(priority))
      fail('customFields.priority: must be -2, -1, 0, 1 or 2 (Pushover priority)')
    customFields.priority = priority
  }
  const secretRaw = b.secretFields ?? []
  if (!Array.isArray(secretRaw) || secretRaw.some((f) => typeof f !== 'string'))
    fail('secretFields: must be a list of custom field names')
  const secretFields = [
    ...new Set([...(secretRaw as string[]), ...(ALWAYS_SECRET[service] ?? [])]),
  ].filter((field) => field.trim() !== '')
  const input = {
    name,
    url,
    method,
    headers,
    enabled,
    service,
    template,
    customFields,
    secretFields,
  }
  const problem = trialRender({ ...input, id: '' }, Date.now())
  if (problem !== undefined) fail(`template: ${problem}`)
  return input
}

/** The service's required custom fields are present and not empty (after stored secrets merged). */
export function checkRequiredFields(webhook: Webhook): void {
  for (const field of webhookTemplate(webhook.service).requiredFields) {
    if (!webhook.customFields[field]?.trim())
      fail(`customFields.${field}: required for ${webhook.service}`)
  }
}
