// The browser's HTTP client (spec 000 §7-§8) against a stubbed fetch: the real server's answers
// are covered by tests/unit/server and e2e; here the client's own rules are checked in Chromium,
// with its real cookies.
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import {
  DEFAULT_RETRY_AFTER_MS,
  MAX_RETRY_AFTER_MS,
  extractErrorText,
  readCookie,
  retryAfterMs,
} from '../../../src/ui/api/errors.ts'
import { HttpError, apiFetch, apiJson } from '../../../src/ui/api/http.ts'
import { AppError } from '../../../src/shared/model/errors.ts'

type Answer = Response | (() => Response)

/** Stubs fetch with a queue of answers (the last repeats); returns the mock. */
function stubFetch(...answers: Answer[]) {
  let index = 0
  const mock = vi.fn(async (_input: RequestInfo | URL, _init?: RequestInit) => {
    const answer = answers[Math.min(index, answers.length - 1)]!
    index += 1
    return typeof answer === 'function' ? answer() : answer.clone()
  })
  vi.stubGlobal('fetch', mock)
  return mock
}

function headersOf(mock: ReturnType<typeof stubFetch>, call = 0): Record<string, string> {
  return mock.mock.calls[call]![1]!.headers as Record<string, string>
}

function setCookie(value: string | null) {
  document.cookie =
    value === null ? 'pulse_csrf=; path=/; max-age=0' : `pulse_csrf=${value}; path=/`
}

beforeEach(() => setCookie(null))
afterEach(() => {
  setCookie(null)
  vi.unstubAllGlobals()
  vi.useRealTimers()
  vi.restoreAllMocks()
})

describe('error text (spec 000 §8)', () => {
  test('a JSON body gives its message, with or without a code', () => {
    expect(extractErrorText(400, '{"message":"Name is required"}')).toBe('Name is required')
    expect(
      extractErrorText(403, '{"code":"CSRF_INVALID","message":"Invalid or missing CSRF token"}'),
    ).toBe('Invalid or missing CSRF token')
    expect(extractErrorText(500, '{"error":"boom"}')).toBe('boom')
    expect(extractErrorText(500, '{"other":1}')).toBe('Request failed with status 500')
  })

  test('an HTML page gives the content of its <pre> block, entities decoded', () => {
    const html =
      '<!DOCTYPE html><html><body><h1>Error</h1><pre>Cannot GET /api/x &amp; &lt;y&gt;</pre></body></html>'
    expect(extractErrorText(404, html)).toBe('Cannot GET /api/x & <y>')
    expect(extractErrorText(502, '<html><body><h1>Bad gateway</h1></body></html>')).toBe(
      'Request failed with status 502',
    )
  })

  test('short plain text is used as is; long or empty text gives the status line', () => {
    expect(extractErrorText(503, '  upstream unavailable \n')).toBe('upstream unavailable')
    expect(extractErrorText(500, 'x'.repeat(201))).toBe('Request failed with status 500')
    expect(extractErrorText(500, 'x'.repeat(200))).toBe('x'.repeat(200))
    expect(extractErrorText(418, '')).toBe('Request failed with status 418')
  })
})

describe('Retry-After and cookies', () => {
  test('Retry-After in seconds or as a date; missing or unreadable waits 2 s; capped', () => {
    expect(retryAfterMs(null)).toBe(DEFAULT_RETRY_AFTER_MS)
    expect(DEFAULT_RETRY_AFTER_MS).toBe(2000)
    expect(retryAfterMs('')).toBe(2000)
    expect(retryAfterMs('soon')).toBe(2000)
    expect(retryAfterMs('0')).toBe(0)
    expect(retryAfterMs('3')).toBe(3000)
    expect(retryAfterMs('1.5')).toBe(1500)
    const now = Date.UTC(2025, 0, 1, 12, 0, 0)
    expect(retryAfterMs(new Date(now + 5000).toUTCString(), now)).toBe(5000)
    expect(retryAfterMs(new Date(now - 5000).toUTCString(), now)).toBe(0)
    expect(retryAfterMs('86400')).toBe(MAX_RETRY_AFTER_MS)
  })

  test('a cookie is read by exact name and URI-decoded', () => {
    const cookies = 'x_pulse_csrf=nope; pulse_csrf=a%2Bb%3D; theme=dark'
    expect(readCookie(cookies, 'pulse_csrf')).toBe('a+b=')
    expect(readCookie(cookies, 'theme')).toBe('dark')
    expect(readCookie(cookies, 'missing')).toBeNull()
    expect(readCookie('', 'pulse_csrf')).toBeNull()
  })
})

describe('apiFetch headers (spec 000 §7)', () => {
  test('an /api/ GET includes credentials, X-Requested-With and a JSON Accept, but no CSRF', async () => {
    setCookie('tok-1')
    const mock = stubFetch(Response.json({}))
    await apiFetch('/api/version')
    const [url, init] = mock.mock.calls[0]!
    expect(url).toBe('/api/version')
    expect(init!.credentials).toBe('include')
    expect(headersOf(mock)).toEqual({
      'X-Requested-With': 'XMLHttpRequest',
      Accept: 'application/json',
    })
  })

  test('non-read methods carry X-CSRF-Token from the pulse_csrf cookie', async () => {
    setCookie('tok-1')
    const mock = stubFetch(Response.json({}))
    for (const method of ['POST', 'PUT', 'DELETE', 'PATCH']) {
      await apiFetch('/api/guests/metadata/x', { method })
    }
    for (const method of ['HEAD', 'OPTIONS']) await apiFetch('/api/health', { method })
    expect(mock.mock.calls.slice(0, 4).map((_, i) => headersOf(mock, i)['X-CSRF-Token'])).toEqual([
      'tok-1',
      'tok-1',
      'tok-1',
      'tok-1',
    ])
    expect(headersOf(mock, 4)['X-CSRF-Token']).toBeUndefined()
    expect(headersOf(mock, 5)['X-CSRF-Token']).toBeUndefined()
  })

  test('no CSRF header without the cookie; a caller Accept wins; other paths get no API headers', async () => {
    const mock = stubFetch(Response.json({}))
    await apiFetch('/api/logout', { method: 'POST' })
    expect(headersOf(mock, 0)['X-CSRF-Token']).toBeUndefined()
    await apiFetch('/api/setup-script', { headers: { accept: 'text/plain' } })
    expect(headersOf(mock, 1)).toEqual({
      'X-Requested-With': 'XMLHttpRequest',
      accept: 'text/plain',
    })
    await apiFetch('/favicon.svg')
    expect(headersOf(mock, 2)).toEqual({})
    expect(mock.mock.calls[2]![1]!.credentials).toBe('include')
  })

  test('the CSRF token is not sent to another origin', async () => {
    setCookie('tok-1')
    const mock = stubFetch(Response.json({}))
    await apiFetch('https://elsewhere.example/api/x', { method: 'POST' })
    expect(headersOf(mock)).toEqual({})
  })
})

describe('apiFetch retries (spec 000 §8)', () => {
  test('a 403 naming CSRF is retried once with the cookie re-read', async () => {
    setCookie('stale')
    const csrf = () =>
      Response.json(
        { code: 'CSRF_INVALID', message: 'Invalid or missing CSRF token' },
        { status: 403 },
      )
    const mock = stubFetch(() => {
      setCookie('fresh')
      return csrf()
    }, csrf)
    const res = await apiFetch('/api/logout', { method: 'POST', body: '{}' })
    expect(res.status).toBe(403)
    expect(mock).toHaveBeenCalledTimes(2)
    expect(headersOf(mock, 0)['X-CSRF-Token']).toBe('stale')
    expect(headersOf(mock, 1)['X-CSRF-Token']).toBe('fresh')
    expect(mock.mock.calls[1]![1]!.body).toBe('{}')
  })

  test('a 403 that does not name CSRF is returned at once', async () => {
    const mock = stubFetch(Response.json({ message: 'Forbidden' }, { status: 403 }))
    const res = await apiFetch('/api/x', { method: 'POST' })
    expect(res.status).toBe(403)
    expect(mock).toHaveBeenCalledTimes(1)
  })

  test('a 429 waits Retry-After and retries once only', async () => {
    const limited = () =>
      new Response('slow down', { status: 429, headers: { 'Retry-After': '0' } })
    const mock = stubFetch(limited, limited, () => Response.json({ ok: true }))
    const res = await apiFetch('/api/x')
    expect(res.status).toBe(429)
    expect(mock).toHaveBeenCalledTimes(2)
  })

  test('a 429 without Retry-After waits the 2 s default before the retry', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    const mock = stubFetch(new Response('', { status: 429 }), Response.json({ ok: true }))
    const pending = apiFetch('/api/x')
    await vi.advanceTimersByTimeAsync(1999)
    expect(mock).toHaveBeenCalledTimes(1)
    await vi.advanceTimersByTimeAsync(1)
    const res = await pending
    expect(res.status).toBe(200)
    expect(mock).toHaveBeenCalledTimes(2)
  })

  test('retryRateLimit false returns the 429 at once', async () => {
    const mock = stubFetch(new Response('', { status: 429, headers: { 'Retry-After': '0' } }))
    const res = await apiFetch('/api/login', { method: 'POST', retryRateLimit: false })
    expect(res.status).toBe(429)
    expect(mock).toHaveBeenCalledTimes(1)
  })

  test('a 401 while a session cookie is held is only a warning', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    setCookie('tok-1')
    stubFetch(Response.json({ message: 'Authentication required' }, { status: 401 }))
    const res = await apiFetch('/api/state')
    expect(res.status).toBe(401)
    expect(warn).toHaveBeenCalledTimes(1)
  })
})

describe('apiJson', () => {
  test('serialises the body with Content-Type JSON and parses the answer', async () => {
    setCookie('tok-1')
    const mock = stubFetch(Response.json({ success: true }))
    const answer = await apiJson<{ success: boolean }>('/api/login', {
      method: 'POST',
      body: { username: 'admin', password: 'pw' },
    })
    expect(answer).toEqual({ success: true })
    expect(mock.mock.calls[0]![1]!.body).toBe('{"username":"admin","password":"pw"}')
    expect(headersOf(mock)).toMatchObject({
      'Content-Type': 'application/json',
      'X-CSRF-Token': 'tok-1',
      'X-Requested-With': 'XMLHttpRequest',
    })
  })

  test('no Content-Type without a body; an empty answer is null', async () => {
    const mock = stubFetch(new Response(null, { status: 204 }))
    expect(await apiJson('/api/x', { method: 'DELETE' })).toBeNull()
    expect(headersOf(mock)['Content-Type']).toBeUndefined()
  })

  test('an unparseable success body throws Invalid JSON response from server', async () => {
    stubFetch(new Response('<html>app shell</html>', { status: 200 }))
    await expect(apiJson('/api/x')).rejects.toThrow('Invalid JSON response from server')
  })

  test('a non-OK answer throws HttpError with the status, the server text and the body', async () => {
    stubFetch(
      Response.json(
        { success: false, message: 'Invalid username or password', remaining: 4 },
        { status: 401 },
      ),
    )
    const error = await apiJson('/api/login', { method: 'POST', body: {} }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(HttpError)
    expect((error as HttpError).status).toBe(401)
    expect((error as HttpError).message).toBe('Invalid username or password')
    expect((error as HttpError).body).toMatchObject({ remaining: 4 })
  })

  test('a { code, message } answer becomes a typed AppError on the HttpError', async () => {
    stubFetch(
      Response.json(
        { code: 'ACCOUNT_LOCKED', message: 'Account locked. Please try again in 3 minute(s).' },
        { status: 403 },
      ),
      Response.json({ message: 'no code here' }, { status: 500 }),
    )
    const locked = (await apiJson('/api/login', { method: 'POST', body: {} }).catch(
      (e: unknown) => e,
    )) as HttpError
    expect(locked.error).toBeInstanceOf(AppError)
    expect(locked.code).toBe('ACCOUNT_LOCKED')
    expect(locked.error?.message).toBe('Account locked. Please try again in 3 minute(s).')
    const plain = (await apiJson('/api/x').catch((e: unknown) => e)) as HttpError
    expect(plain.error).toBeNull()
    expect(plain.code).toBeNull()
  })

  test('a network failure rejects like fetch', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        throw new TypeError('Failed to fetch')
      }),
    )
    await expect(apiJson('/api/x')).rejects.toThrow(TypeError)
  })
})
