// Pure helpers of the HTTP client (spec 000 §7-§8): typed errors, error text, Retry-After, cookies.
// No DOM, no fetch, so they are tested on plain strings.
import { AppError } from '../../shared/model/errors.ts'

/** The longest plain-text answer shown as is; anything longer is replaced by the status line. */
export const MAX_PLAIN_ERROR_LENGTH = 200

/** Spec 000 §9: rate-limit default wait. */
export const DEFAULT_RETRY_AFTER_MS = 2_000

/** A Retry-After beyond this is capped, so one request never hangs for minutes. */
export const MAX_RETRY_AFTER_MS = 60_000

/** The typed error of a `{ code, message }` body (AppError.fromJSON), or null for any other body. */
export function appErrorOf(body: unknown): AppError | null {
  if (typeof body !== 'object' || body === null) return null
  const { code, message } = body as { code?: unknown; message?: unknown }
  if (typeof code !== 'string' || typeof message !== 'string') return null
  return AppError.fromJSON({ code, message })
}

/**
 * A non-OK answer, or a success whose body is not JSON. `body` is the parsed JSON, if any;
 * `error` is its typed form when the server answered the catalogue's `{ code, message }`:
 * callers branch on `error.code`, never on the text.
 */
export class HttpError extends Error {
  override readonly name = 'HttpError'
  readonly status: number
  readonly body: unknown
  readonly error: AppError | null

  constructor(status: number, message: string, body?: unknown) {
    super(message)
    this.status = status
    this.body = body
    this.error = appErrorOf(body)
  }

  /** The catalogue code of the answer, or null when the body had none. */
  get code(): AppError['code'] | null {
    return this.error?.code ?? null
  }
}

/** The generic text for an answer whose body says nothing useful. */
export function statusText(status: number): string {
  return `Request failed with status ${status}`
}

/** `text` parsed as JSON, or undefined when it is not JSON. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown
  } catch {
    return undefined
  }
}

/** The `message` (or `error`) string of a JSON error body such as `{ code, message }`. */
export function messageOf(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined
  const record = body as { message?: unknown; error?: unknown }
  if (typeof record.message === 'string' && record.message.trim()) return record.message.trim()
  if (typeof record.error === 'string' && record.error.trim()) return record.error.trim()
  return undefined
}

const ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  '#39': "'",
  nbsp: ' ',
}

function decodeEntities(text: string): string {
  return text.replace(/&(#\d+|#x[0-9a-f]+|[a-z]+);/gi, (whole, name: string) => {
    const known = ENTITIES[name.toLowerCase()]
    if (known !== undefined) return known
    if (/^#x/i.test(name)) return String.fromCodePoint(parseInt(name.slice(2), 16))
    if (name.startsWith('#')) return String.fromCodePoint(parseInt(name.slice(1), 10))
    return whole
  })
}

/**
 * The server text of a non-OK answer (spec 000 §8): a JSON body's message, the content of an
 * HTML <pre> block, short plain text as is; anything else 'Request failed with status {status}'.
 */
export function extractErrorText(status: number, text: string): string {
  const trimmed = text.trim()
  if (!trimmed) return statusText(status)
  const json = parseJson(trimmed)
  if (json !== undefined) return messageOf(json) ?? statusText(status)
  const pre = /<pre[^>]*>([\s\S]*?)<\/pre>/i.exec(trimmed)
  if (pre) {
    const content = decodeEntities(pre[1]!.replace(/<[^>]*>/g, '')).trim()
    return content || statusText(status)
  }
  // An HTML page without a <pre> block (a proxy's error page) says nothing the user can use.
  if (/^<(!doctype|html|head|body)\b/i.test(trimmed)) return statusText(status)
  return trimmed.length <= MAX_PLAIN_ERROR_LENGTH ? trimmed : statusText(status)
}

/**
 * Milliseconds to wait for a Retry-After header: delay-seconds or an HTTP date; missing or
 * unreadable gives the 2 s default; capped at MAX_RETRY_AFTER_MS.
 */
export function retryAfterMs(header: string | null, now = Date.now()): number {
  if (header === null || !header.trim()) return DEFAULT_RETRY_AFTER_MS
  const value = header.trim()
  let ms: number
  if (/^\d+(\.\d+)?$/.test(value)) ms = Number(value) * 1000
  else {
    const date = Date.parse(value)
    if (Number.isNaN(date)) return DEFAULT_RETRY_AFTER_MS
    ms = date - now
  }
  return Math.min(Math.max(0, ms), MAX_RETRY_AFTER_MS)
}

/** The value of cookie `name` in a `document.cookie` string, URI-decoded; null when absent. */
export function readCookie(cookies: string, name: string): string | null {
  for (const part of cookies.split(';')) {
    const eq = part.indexOf('=')
    if (eq < 0) continue
    if (part.slice(0, eq).trim() !== name) continue
    const raw = part.slice(eq + 1).trim()
    try {
      return decodeURIComponent(raw)
    } catch {
      return raw
    }
  }
  return null
}

/** Methods that change nothing and so carry no CSRF token. */
export function isReadMethod(method: string | undefined): boolean {
  const upper = (method ?? 'GET').toUpperCase()
  return upper === 'GET' || upper === 'HEAD' || upper === 'OPTIONS'
}

/** A 403 body naming CSRF (spec 000 §8): the token is stale, so re-read it and retry once. */
export function mentionsCsrf(text: string): boolean {
  return /csrf/i.test(text)
}
