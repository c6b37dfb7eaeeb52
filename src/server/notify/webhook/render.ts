// One webhook request from one batch: URL (Telegram's chat_id taken out of it), method, headers and
// body. Templates are Liquid, rendered within bounds by liquid-engine.ts.
import { createHash } from 'node:crypto'
import type { NotificationBatch, Webhook } from '../../../shared/model/notifications.ts'
import { genericPayload } from './generic-payload.ts'
import { renderTemplate } from './liquid-engine.ts'
import { dedupKey, templateData, type TemplateData } from './template-data.ts'
import { webhookTemplate } from './templates.ts'

export interface RenderedWebhook {
  url: string
  method: Webhook['method']
  headers: Record<string, string>
  /**
   * Names in `headers` the administrator configured (any of them may be a credential): the channel
   * drops them when a redirect leads to another origin, as fetch drops Authorization.
   */
  configuredHeaders: string[]
  body: string
}

/** A request and the Idempotency-Key it carries. */
export interface KeyedWebhookRequest extends RenderedWebhook {
  key: string
}

export interface RenderOptions {
  /** PULSE_PUBLIC_URL: the link messages carry. */
  publicUrl?: string
  /** Epoch ms of the send (Timestamp); Date.now() when absent. */
  now?: number
}

/** Take Telegram's `chat_id` out of the URL: it belongs in the payload. */
function splitChatId(webhook: Webhook): { url: string; chatId: string } {
  if (webhook.service !== 'telegram') return { url: webhook.url, chatId: '' }
  const url = new URL(webhook.url)
  const chatId = url.searchParams.get('chat_id') ?? ''
  url.searchParams.delete('chat_id')
  return { url: url.toString(), chatId }
}

/** A header value as HTTP allows it: no control characters; non-Latin-1 text RFC 2047-encoded. */
export function headerValue(text: string): string {
  // eslint-disable-next-line no-control-regex
  const clean = text.replace(/[\x00-\x1f\x7f]+/g, ' ').trim()
  if (/^[\x20-\x7e]*$/.test(clean)) return clean
  return `=?UTF-8?B?${Buffer.from(clean, 'utf8').toString('base64')}?=`
}

/** ntfy reads title, priority and tags from headers; the body is the plain-text message. */
function ntfyHeaders(data: TemplateData): Record<string, string> {
  const priority = data.Resolved ? 'low' : data.Level === 'critical' ? 'urgent' : 'high'
  const tags = data.Resolved
    ? 'white_check_mark'
    : data.Level === 'critical'
      ? 'rotating_light'
      : 'warning'
  return { Title: headerValue(data.Title.slice(0, 250)), Priority: priority, Tags: tags }
}

/**
 * Render one batch for one webhook. A single event renders the template with its alert; a group
 * renders it with the first alert and the list of all in Message (and Alerts); a summary with a
 * synthetic alert whose Message is the summary text. The webhook's own template wins over the
 * service's. Throws when a custom template does not render (the channel reports it, not retryable).
 */
export function renderWebhook(
  batch: NotificationBatch,
  webhook: Webhook,
  opts: RenderOptions = {},
): RenderedWebhook {
  const now = opts.now ?? Date.now()
  const service = webhookTemplate(webhook.service)
  const { url, chatId } = splitChatId(webhook)
  const headers: Record<string, string> = { ...service.headers }
  const custom = webhook.template.trim() !== ''
  let body: string
  // The generic service's payload is built here, not by a template: one schema, every alert.
  if (webhook.service === 'generic' && !custom)
    body = JSON.stringify(genericPayload(batch, now, opts.publicUrl))
  else {
    const data = templateData(batch, webhook, {
      publicUrl: opts.publicUrl,
      now,
      chatId,
      custom,
    })
    const source = custom ? webhook.template : service.payloadTemplate
    body = renderTemplate(source, data)
    if (webhook.service === 'ntfy') Object.assign(headers, ntfyHeaders(data))
  }
  const configuredHeaders: string[] = []
  for (const [name, value] of Object.entries(webhook.headers)) {
    // Template syntax in a header value is the reference's unrendered placeholder: never sent.
    if (name.trim() === '' || value.includes('{{') || value.includes('{%')) continue
    if (name.toLowerCase() === 'routing_key') continue
    setHeader(headers, name, headerValue(value))
    configuredHeaders.push(name)
  }
  return { url, method: webhook.method, headers, configuredHeaders, body }
}

/** Set a header, replacing one of the same name in any case. */
function setHeader(headers: Record<string, string>, name: string, value: string): void {
  const lower = name.toLowerCase()
  for (const key of Object.keys(headers)) if (key.toLowerCase() === lower) delete headers[key]
  headers[name] = value
}

/**
 * The requests that deliver one batch. One for every service but PagerDuty, whose Events API takes
 * one event per request and opens one incident per dedup_key: a group or a summary goes there as
 * one event per alert, so each alert is its own incident and its later resolve (same dedup_key)
 * closes it. PagerDuty's payloads are rendered at the event's time, not the send's, so a retry
 * sends the same bytes. Each request of a fan-out has its own key, derived from the batch key and
 * the event, the same on every attempt.
 */
export function renderWebhookRequests(
  batch: NotificationBatch,
  webhook: Webhook,
  opts: RenderOptions = {},
): Iterable<KeyedWebhookRequest> {
  // A storm summary goes to PagerDuty as ONE incident (its dedup_key the batch key): ten thousand
  // incidents at PagerDuty's 120 events a minute would take over an hour and bury the pager.
  const oneRequest =
    webhook.service !== 'pagerduty' ||
    batch.events.length === 0 ||
    batch.summary?.reason === 'storm'
  if (oneRequest) return [{ ...renderWebhook(batch, webhook, opts), key: batch.key }]
  return perAlert(batch, webhook, opts)
}

/**
 * PagerDuty's one event per alert, rendered one at a time as the channel sends them: a large group
 * never renders every payload in one go, blocking the server.
 */
function* perAlert(
  batch: NotificationBatch,
  webhook: Webhook,
  opts: RenderOptions,
): Generator<KeyedWebhookRequest> {
  const single = batch.events.length === 1 && !batch.summary
  for (const event of batch.events) {
    const key = single ? batch.key : eventKey(batch.key, event)
    const one: NotificationBatch = { key, events: [event], createdAt: batch.createdAt }
    yield { ...renderWebhook(one, webhook, { ...opts, now: event.at }), key }
  }
}

function eventKey(key: string, event: NotificationBatch['events'][number]): string {
  const hash = createHash('sha256')
  hash.update(key).update('\n').update(dedupKey(event.alert)).update('\n').update(event.kind)
  hash.update('\n').update(String(event.level ?? ''))
  return hash.digest('hex').slice(0, 32)
}
