// The Notifications tab's calls (/api/notifications/*, spec 001 §7; contract in
// src/shared/model/notifications.ts). Answers are normalised here, so a missing or odd field of an
// older or newer server never reaches the components as undefined; a failure is an HttpError
// whose message is the server's text.
import { apiFetch, apiJson, HttpError } from '../../api/http.ts'
import { extractErrorText, parseJson, statusText } from '../../api/errors.ts'
import {
  WEBHOOK_METHODS,
  WEBHOOK_SERVICES,
  type DeliveryRecord,
  type DeliveryStatus,
  type EmailConfig,
  type EmailProvider,
  type Webhook,
  type WebhookMethod,
  type WebhookService,
  type WebhookTemplate,
} from '../../../shared/model/notifications.ts'
import { isRecord, textOr, toBool, toNumber } from '../../../shared/model/coerce.ts'

const BASE = '/api/notifications'

type Raw = Record<string, unknown>

const strings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : []

const stringMap = (value: unknown): Record<string, string> => {
  if (!isRecord(value)) return {}
  const out: Record<string, string> = {}
  for (const [key, item] of Object.entries(value)) out[key] = textOr(item)
  return out
}

const boolMap = (value: unknown): Record<string, boolean> => {
  if (!isRecord(value)) return {}
  const out: Record<string, boolean> = {}
  for (const [key, item] of Object.entries(value)) out[key] = item === true
  return out
}

const records = (value: unknown): Raw[] => (Array.isArray(value) ? value.filter(isRecord) : [])

function service(value: unknown): WebhookService {
  return (WEBHOOK_SERVICES as readonly unknown[]).includes(value)
    ? (value as WebhookService)
    : 'generic'
}

function method(value: unknown): WebhookMethod {
  const upper = typeof value === 'string' ? value.toUpperCase() : ''
  return (WEBHOOK_METHODS as readonly string[]).includes(upper) ? (upper as WebhookMethod) : 'POST'
}

/** The server's text, or `fallback` when it said nothing useful (a bare status line). */
export function errorText(error: unknown, fallback: string): string {
  if (error instanceof HttpError) {
    return error.message && error.message !== statusText(error.status) ? error.message : fallback
  }
  return error instanceof Error && error.message ? error.message : fallback
}

/** Spec 001 §9 email defaults, for a server that leaves a field out. */
export function toEmailConfig(raw: unknown): EmailConfig {
  const r: Raw = isRecord(raw) ? raw : {}
  return {
    enabled: toBool(r.enabled),
    provider: textOr(r.provider),
    server: textOr(r.server),
    port: toNumber(r.port, 587) || 587,
    username: textOr(r.username),
    password: '',
    hasPassword: toBool(r.hasPassword),
    from: textOr(r.from),
    to: strings(r.to),
    tls: toBool(r.tls),
    startTLS: toBool(r.startTLS),
    replyTo: textOr(r.replyTo),
    rateLimit: toNumber(r.rateLimit, 60) || 60,
    maxRetries: toNumber(r.maxRetries, 3),
    retryDelay: toNumber(r.retryDelay, 5) || 5,
  }
}

function toProvider(r: Raw): EmailProvider {
  return {
    name: textOr(r.name),
    smtpHost: textOr(r.smtpHost),
    smtpPort: toNumber(r.smtpPort, 587),
    tls: toBool(r.tls),
    startTLS: toBool(r.startTLS),
    authRequired: toBool(r.authRequired, true),
    instructions: textOr(r.instructions),
  }
}

/** A stored webhook as the server shows it (URL and secrets masked). */
export function toWebhook(raw: unknown): Webhook {
  const r: Raw = isRecord(raw) ? raw : {}
  return {
    id: textOr(r.id),
    name: textOr(r.name),
    url: textOr(r.url),
    urlMasked: toBool(r.urlMasked),
    method: method(r.method),
    headers: stringMap(r.headers),
    enabled: toBool(r.enabled, true),
    service: service(r.service),
    template: textOr(r.template),
    customFields: stringMap(r.customFields),
    secretFields: strings(r.secretFields),
    hasSecret: boolMap(r.hasSecret),
  }
}

function toTemplate(r: Raw): WebhookTemplate {
  return {
    service: service(r.service),
    name: textOr(r.name),
    urlPattern: textOr(r.urlPattern),
    method: method(r.method),
    headers: stringMap(r.headers),
    payloadTemplate: textOr(r.payloadTemplate),
    instructions: textOr(r.instructions),
    requiredFields: strings(r.requiredFields),
  }
}

const STATUSES: readonly DeliveryStatus[] = ['pending', 'sent', 'failed', 'dead', 'suppressed']

function toDelivery(r: Raw): DeliveryRecord {
  const dest: Raw = isRecord(r.destination) ? r.destination : {}
  const status = (STATUSES as readonly unknown[]).includes(r.status)
    ? (r.status as DeliveryStatus)
    : 'pending'
  const record: DeliveryRecord = {
    id: toNumber(r.id),
    idempotencyKey: textOr(r.idempotencyKey),
    destination: {
      kind: dest.kind === 'email' ? 'email' : 'webhook',
      id: textOr(dest.id),
      name: textOr(dest.name),
    },
    alertIds: strings(r.alertIds),
    eventKinds: strings(r.eventKinds) as DeliveryRecord['eventKinds'],
    title: textOr(r.title),
    status,
    attempts: toNumber(r.attempts),
    createdAt: toNumber(r.createdAt),
    dueAt: toNumber(r.dueAt),
  }
  if (typeof r.reason === 'string')
    record.reason = r.reason as NonNullable<DeliveryRecord['reason']>
  if (typeof r.lastError === 'string' && r.lastError) record.lastError = r.lastError
  if (typeof r.sentAt === 'number') record.sentAt = r.sentAt
  return record
}

export async function loadEmail(): Promise<EmailConfig> {
  return toEmailConfig(await apiJson(`${BASE}/email`))
}

export async function saveEmail(config: EmailConfig): Promise<void> {
  await apiJson(`${BASE}/email`, { method: 'PUT', body: config })
}

export async function loadProviders(): Promise<EmailProvider[]> {
  return records(await apiJson(`${BASE}/email-providers`)).map(toProvider)
}

/** POST /test {type:'email', config}: tests the unsaved settings (blank password = stored). */
export async function testEmail(config: EmailConfig): Promise<void> {
  await apiJson(`${BASE}/test`, { method: 'POST', body: { type: 'email', config } })
}

export async function loadWebhooks(): Promise<Webhook[]> {
  return records(await apiJson(`${BASE}/webhooks`)).map(toWebhook)
}

export type WebhookBody = Omit<Webhook, 'id' | 'urlMasked' | 'hasSecret'>

export async function addWebhook(body: WebhookBody): Promise<Webhook> {
  return toWebhook(await apiJson(`${BASE}/webhooks`, { method: 'POST', body }))
}

export async function updateWebhook(id: string, body: WebhookBody): Promise<Webhook> {
  const answer = await apiJson(`${BASE}/webhooks/${encodeURIComponent(id)}`, {
    method: 'PUT',
    body: { ...body, id },
  })
  return toWebhook(isRecord(answer) ? answer : { ...body, id })
}

export async function deleteWebhook(id: string): Promise<void> {
  await apiJson(`${BASE}/webhooks/${encodeURIComponent(id)}`, { method: 'DELETE' })
}

/**
 * POST /webhooks/test with a form body or {id}. The server answers 400 with `error` and
 * `success: false` when the receiver refused; that text is the Error's message.
 */
export async function testWebhook(body: WebhookBody | { id: string }): Promise<void> {
  const res = await apiFetch(`${BASE}/webhooks/test`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  })
  const text = await res.text()
  const parsed = parseJson(text)
  const failed = !res.ok || (isRecord(parsed) && parsed.success === false)
  if (!failed) return
  const message =
    isRecord(parsed) && typeof parsed.error === 'string' && parsed.error
      ? parsed.error
      : extractErrorText(res.status, text)
  throw new HttpError(res.ok ? 400 : res.status, message, parsed)
}

export async function loadTemplates(): Promise<WebhookTemplate[]> {
  return records(await apiJson(`${BASE}/webhook-templates`)).map(toTemplate)
}

export interface DeliveryPage {
  records: DeliveryRecord[]
  total: number
}

/** GET /deliveries, newest first; the status filter is applied by the server. */
export async function loadDeliveries(
  status: DeliveryStatus | 'all',
  limit = 100,
  signal?: AbortSignal,
): Promise<DeliveryPage> {
  const query = new URLSearchParams({ limit: String(limit) })
  if (status !== 'all') query.set('status', status)
  const res = await apiFetch(`${BASE}/deliveries?${query.toString()}`, signal ? { signal } : {})
  const text = await res.text()
  if (!res.ok) throw new HttpError(res.status, extractErrorText(res.status, text))
  const parsed = parseJson(text)
  if (parsed === undefined) throw new HttpError(res.status, 'Invalid JSON response from server')
  const list = records(parsed).map(toDelivery)
  const total = Number(res.headers.get('X-Total-Count'))
  return { records: list, total: Number.isFinite(total) && total > 0 ? total : list.length }
}
