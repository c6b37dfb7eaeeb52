// The webhook channel: renders a batch and sends it with undici. Every hop is checked by
// url-safety (literal addresses before the request, names at connect time through safeLookup),
// redirects are followed by hand (at most 3, each Location re-checked; another origin gets none of
// the administrator's headers), a request lasts at most 30 s, and one destination (origin: scheme,
// host, port) gets at most 10 requests a minute. 2xx is delivered; 429, 5xx, timeouts and network
// errors are worth another attempt; other answers are not. A message is usually one
// request; PagerDuty gets one per alert (render.ts renderWebhookRequests), each with its own
// Idempotency-Key.
import { Agent, fetch } from 'undici'
import type { NotificationBatch, Webhook } from '../../../shared/model/notifications.ts'
import type { Channel, SendResult } from '../types.ts'
import { originOf } from '../../store/webhook-repo.ts'
import { TemplateBoundError } from './liquid-engine.ts'
import { renderWebhookRequests, type KeyedWebhookRequest } from './render.ts'
import { checkUrl, REFUSED_CODE, safeLookup } from './url-safety.ts'

export const WEBHOOK_TIMEOUT_MS = 30_000
export const WEBHOOK_RATE_PER_MINUTE = 10
export const WEBHOOK_MAX_REDIRECTS = 3
export const USER_AGENT = 'Pulse-Monitoring'
/** Characters of a receiver's answer kept in an error or the test route's `response`. */
export const RESPONSE_SNIPPET = 200
/** Bytes of an answer read at most (the rest is dropped unread). */
const RESPONSE_READ_MAX = 64 * 1024
const MINUTE_MS = 60_000

/** One attempt in detail: what the test route answers and send() summarises. */
export type WebhookAttempt =
  | { ok: true; status: number; response: string }
  | {
      ok: false
      status?: number
      response?: string
      error: string
      retryable: boolean
      /** Held back by the per-destination rate limit: no request was made (SendResult.deferred). */
      deferred?: boolean
    }

export interface WebhookChannelDeps {
  allowLoopback: boolean
  /** PULSE_PUBLIC_URL: the link messages carry. */
  publicUrl?: string
  now?: () => number
  timeoutMs?: number
  ratePerMinute?: number
}

export interface WebhookChannel extends Channel {
  /** Render and send one batch to one webhook (its secrets opened). */
  deliver(batch: NotificationBatch, webhook: Webhook): Promise<WebhookAttempt>
  close(): Promise<void>
}

const REDIRECTS = new Set([301, 302, 303, 307, 308])

/** The first `max` bytes of a body as text; the rest is cancelled unread. */
async function readCapped(body: ReadableStream<Uint8Array> | null, max: number): Promise<string> {
  if (!body) return ''
  const reader = body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  try {
    while (size < max) {
      const { done, value } = await reader.read()
      if (done) break
      chunks.push(value)
      size += value.byteLength
    }
  } finally {
    await reader.cancel().catch(() => {})
  }
  return Buffer.concat(chunks).subarray(0, max).toString('utf8')
}

const snippet = (text: string) =>
  text.length > RESPONSE_SNIPPET ? `${text.slice(0, RESPONSE_SNIPPET)}…` : text

/**
 * The rate limit's destination: the origin (scheme, host, port). Path, query and fragment are
 * whatever the URL's writer chooses, so a limit keyed on them is passed by changing them (the
 * Test route sends to any URL); the limit protects a receiving host, whatever its paths.
 */
export const rateKey = originOf

/**
 * Remove the administrator's headers (any may be a credential). Content-Type stays: it describes
 * the body, which a 307/308 still carries, and is never a secret.
 */
function dropConfiguredHeaders(headers: Record<string, string>, configured: readonly string[]) {
  const names = new Set(configured.map((name) => name.toLowerCase()))
  names.delete('content-type')
  for (const key of Object.keys(headers)) if (names.has(key.toLowerCase())) delete headers[key]
}

/** A transport failure in words, and whether another attempt may do better. */
function transportError(err: unknown, timeoutMs: number): { error: string; retryable: boolean } {
  const e = err as { name?: string; message?: string; cause?: { code?: string; message?: string } }
  if (e.name === 'TimeoutError' || e.name === 'AbortError') {
    return { error: `Webhook timed out after ${timeoutMs / 1000} s`, retryable: true }
  }
  const cause = e.cause
  if (cause?.code === REFUSED_CODE) {
    return { error: `Invalid webhook URL: ${cause.message}`, retryable: false }
  }
  const detail = cause?.message ?? e.message ?? String(err)
  return { error: `Webhook request failed: ${detail}`, retryable: true }
}

/** Build the channel; `close()` ends its connection pool. */
export function createWebhookChannel(deps: WebhookChannelDeps): WebhookChannel {
  const now = deps.now ?? Date.now
  const timeoutMs = deps.timeoutMs ?? WEBHOOK_TIMEOUT_MS
  const ratePerMinute = deps.ratePerMinute ?? WEBHOOK_RATE_PER_MINUTE
  const safety = { allowLoopback: deps.allowLoopback }
  const agent = new Agent({ connect: { lookup: safeLookup(safety) } })
  let closing: Promise<void> | null = null
  /** Send times of the last minute, per destination (rateKey). */
  const recent = new Map<string, number[]>()

  /** Count a request to `url`'s destination; false when the minute's budget is spent. */
  const admit = (url: string): boolean => {
    const key = rateKey(url)
    const t = now()
    if (recent.size > 1000) {
      for (const [key, times] of recent) if (times.at(-1)! <= t - MINUTE_MS) recent.delete(key)
    }
    const times = (recent.get(key) ?? []).filter((at) => at > t - MINUTE_MS)
    if (times.length >= ratePerMinute) {
      recent.set(key, times)
      return false
    }
    times.push(t)
    recent.set(key, times)
    return true
  }

  /**
   * One request, its redirects followed by hand. A hop to another origin (scheme, host, port)
   * loses the administrator's headers, as fetch drops Authorization; when the body carries secret
   * custom fields (Pushover's tokens, PagerDuty's routing key) that hop is refused instead.
   */
  const sendRequest = async (
    request: KeyedWebhookRequest,
    secretBody: boolean,
  ): Promise<WebhookAttempt> => {
    let url = request.url
    let method: string = request.method
    let body: string | undefined = request.body
    let origin = ''
    const headers: Record<string, string> = {
      'User-Agent': USER_AGENT,
      ...request.headers,
      'Idempotency-Key': request.key,
    }
    let crossed = false
    for (let hop = 0; ; hop++) {
      const check = checkUrl(url, safety)
      if (!check.ok) {
        const what = hop === 0 ? 'Invalid webhook URL' : 'Refused redirect'
        return { ok: false, error: `${what}: ${check.error}`, retryable: false }
      }
      if (hop === 0) origin = check.url.origin
      if (!crossed && check.url.origin !== origin) {
        if (secretBody && body !== undefined) {
          const error = `Refused redirect: to another origin (${check.url.origin}) with the webhook's secret fields in the body`
          return { ok: false, error, retryable: false }
        }
        crossed = true
        dropConfiguredHeaders(headers, request.configuredHeaders)
      }
      let response
      try {
        response = await fetch(url, {
          method,
          headers,
          body,
          redirect: 'manual',
          dispatcher: agent,
          signal: AbortSignal.timeout(timeoutMs),
        })
      } catch (err) {
        return { ok: false, ...transportError(err, timeoutMs) }
      }
      const location = response.headers.get('location')
      if (REDIRECTS.has(response.status) && location) {
        await response.body?.cancel().catch(() => {})
        if (hop >= WEBHOOK_MAX_REDIRECTS) {
          return {
            ok: false,
            status: response.status,
            error: `Webhook redirected more than ${WEBHOOK_MAX_REDIRECTS} times`,
            retryable: false,
          }
        }
        url = new URL(location, url).toString()
        // 303 asks for a GET of the other resource; the others repeat the request as it was.
        if (response.status === 303) {
          method = 'GET'
          body = undefined
        }
        continue
      }
      let text: string
      try {
        text = await readCapped(response.body, RESPONSE_READ_MAX)
      } catch (err) {
        return { ok: false, status: response.status, ...transportError(err, timeoutMs) }
      }
      const { status } = response
      if (status >= 200 && status < 300) return { ok: true, status, response: snippet(text) }
      return {
        ok: false,
        status,
        response: snippet(text),
        error: `Webhook returned HTTP ${status}: ${snippet(text)}`,
        retryable: status === 429 || status >= 500 || status === 408,
      }
    }
  }

  const deliver = async (batch: NotificationBatch, webhook: Webhook): Promise<WebhookAttempt> => {
    let attempt: WebhookAttempt | undefined
    const secretBody = webhook.secretFields.some((field) => Boolean(webhook.customFields[field]))
    let admitted = false
    try {
      // In order (a trigger before its resolve), each rendered as it is sent; the first failure
      // fails the message, and its retry sends every request again, identical, which the
      // receiver deduplicates by key.
      for (const request of renderWebhookRequests(batch, webhook, {
        publicUrl: deps.publicUrl,
        now: now(),
      })) {
        // One message, one admission: PagerDuty's one-event-per-alert fan-out is one message.
        if (!admitted) {
          if (!admit(request.url)) {
            return {
              ok: false,
              error: `Rate limit: at most ${ratePerMinute} requests a minute to ${rateKey(request.url)}`,
              retryable: true,
              deferred: true,
            }
          }
          admitted = true
        }
        attempt = await sendRequest(request, secretBody)
        if (!attempt.ok) return attempt
      }
    } catch (err) {
      // Over the time bound may be a busy moment (the template passed its trial): worth another
      // try, each one as bounded. Anything else fails the same way every time.
      const retryable = err instanceof TemplateBoundError && err.bound === 'time'
      return { ok: false, error: `Template error: ${(err as Error).message}`, retryable }
    }
    return attempt ?? { ok: false, error: 'Nothing to send', retryable: false }
  }

  return {
    deliver,
    async send(batch, destination): Promise<SendResult> {
      if (destination.kind !== 'webhook') {
        return { ok: false, error: 'not a webhook destination', retryable: false }
      }
      const attempt = await deliver(batch, destination.webhook)
      if (attempt.ok) return { ok: true, info: `HTTP ${attempt.status}` }
      const failed: SendResult = { ok: false, error: attempt.error, retryable: attempt.retryable }
      return attempt.deferred ? { ...failed, deferred: true } : failed
    },
    // Idempotent: the app may be closed twice (a test's cleanup after its own close).
    close: () => (closing ??= agent.close()),
  }
}
