// The browser's HTTP client (spec 000 §7 HTTP rules, §8 HTTP behaviour). Every call to the
// server goes through here, so the session cookie, the CSRF header and the retries are uniform.
import {
  HttpError,
  extractErrorText,
  isReadMethod,
  mentionsCsrf,
  parseJson,
  readCookie,
  retryAfterMs,
} from './errors.ts'

export { HttpError } from './errors.ts'

/** The readable cookie the server issues with a session; echoed as X-CSRF-Token. */
export const CSRF_COOKIE = 'pulse_csrf'

/** fetch options plus the client's own switches. */
export interface ApiInit extends RequestInit {
  /**
   * On 429 wait Retry-After (default 2 s) and retry once. The login form turns it off: it shows
   * the server's message at once instead of holding the button for the whole wait.
   */
  retryRateLimit?: boolean
}

/** apiJson options: `body` is any JSON value and is serialised. */
export interface ApiJsonInit extends Omit<ApiInit, 'body'> {
  body?: unknown
}

/** The CSRF token of the current session, or null without one. */
export function csrfToken(): string | null {
  const value = readCookie(document.cookie, CSRF_COOKIE)
  return value ? value : null
}

function headerRecord(headers: HeadersInit | undefined): Record<string, string> {
  if (!headers) return {}
  if (headers instanceof Headers) return Object.fromEntries(headers.entries())
  if (Array.isArray(headers)) return Object.fromEntries(headers)
  return { ...headers }
}

function hasHeader(headers: Record<string, string>, name: string): boolean {
  const lower = name.toLowerCase()
  return Object.keys(headers).some((key) => key.toLowerCase() === lower)
}

/** Same-origin /api/ paths get the API headers; the CSRF token never leaves the origin. */
function targetOf(path: string): { api: boolean; sameOrigin: boolean } {
  const url = new URL(path, window.location.href)
  const sameOrigin = url.origin === window.location.origin
  return { api: sameOrigin && url.pathname.startsWith('/api/'), sameOrigin }
}

/** The headers of one attempt; the CSRF cookie is read afresh each time. */
function headersFor(path: string, init: RequestInit): Record<string, string> {
  const { api, sameOrigin } = targetOf(path)
  const own = headerRecord(init.headers)
  // A plain object (not Headers) keeps the names' case, which tests and proxies see as sent.
  const headers: Record<string, string> = {}
  if (api) {
    if (!hasHeader(own, 'X-Requested-With')) headers['X-Requested-With'] = 'XMLHttpRequest'
    if (!hasHeader(own, 'Accept')) headers.Accept = 'application/json'
  }
  if (sameOrigin && !isReadMethod(init.method) && !hasHeader(own, 'X-CSRF-Token')) {
    const token = csrfToken()
    if (token) headers['X-CSRF-Token'] = token
  }
  return { ...headers, ...own }
}

function send(path: string, init: RequestInit): Promise<Response> {
  return fetch(path, { ...init, credentials: 'include', headers: headersFor(path, init) })
}

function wait(ms: number, signal: AbortSignal | null | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason as Error)
      return
    }
    const onAbort = () => {
      clearTimeout(timer)
      reject(signal!.reason as Error)
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort)
      resolve()
    }, ms)
    signal?.addEventListener('abort', onAbort, { once: true })
  })
}

/**
 * fetch with the spec's rules: credentials included; X-Requested-With and a JSON Accept on /api/
 * paths; X-CSRF-Token from the pulse_csrf cookie on non-read methods. A 403 naming CSRF is
 * retried once with the cookie re-read, a 429 once after Retry-After. Answers are returned as
 * they are, OK or not; a network failure rejects like fetch.
 */
export async function apiFetch(path: string, init: ApiInit = {}): Promise<Response> {
  const { retryRateLimit = true, ...request } = init
  let res = await send(path, request)
  if (res.status === 403 && mentionsCsrf(await res.clone().text())) {
    res = await send(path, request)
  }
  if (res.status === 429 && retryRateLimit) {
    await wait(retryAfterMs(res.headers.get('Retry-After')), request.signal)
    res = await send(path, request)
  }
  if (res.status === 401 && csrfToken()) {
    // Spec 000 §8: a 401 while a session is held is only a warning; the auth gate decides what to
    // show on the next start, so a single failing call does not throw the user out.
    console.warn(`${request.method ?? 'GET'} ${path}: the server no longer accepts the session`)
  }
  return res
}

/**
 * A JSON call: the body is serialised with Content-Type JSON; the answer is parsed, an empty body
 * giving null. A non-OK answer throws HttpError with the server's text (spec 000 §8); a success
 * that is not JSON throws 'Invalid JSON response from server'.
 */
export async function apiJson<T>(path: string, init: ApiJsonInit = {}): Promise<T | null> {
  const { body, headers, ...rest } = init
  const own = headerRecord(headers)
  // Content-Type only with a body: Fastify rejects an empty body labelled as JSON.
  if (body !== undefined && !hasHeader(own, 'Content-Type'))
    own['Content-Type'] = 'application/json'
  const request: ApiInit = { ...rest, headers: own }
  if (body !== undefined) request.body = JSON.stringify(body)
  const res = await apiFetch(path, request)
  const text = await res.text()
  if (!res.ok) throw new HttpError(res.status, extractErrorText(res.status, text), parseJson(text))
  if (!text.trim()) return null
  const parsed = parseJson(text)
  if (parsed === undefined) throw new HttpError(res.status, 'Invalid JSON response from server')
  return parsed as T
}
