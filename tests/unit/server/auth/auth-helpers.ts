// Real HTTP on 127.0.0.1 against an app with authentication on, plus a tiny cookie reader.
import WebSocket from 'ws'
import type { ServerConfig } from '../../../../src/server/config.ts'
import { buildTestApp } from '../helpers.ts'

export interface AuthTestServer {
  ctx: Awaited<ReturnType<typeof buildTestApp>>
  base: string
  /** Every log line the app wrote (level trace), when built with captureLogs. */
  logs: string[]
  call(method: string, path: string, options?: CallOptions): Promise<Answer>
  close(): Promise<void>
}

export interface CallOptions {
  body?: unknown
  /** Cookies to send, name → value. */
  cookies?: Record<string, string>
  csrf?: string
  token?: string
  basic?: { username: string; password: string }
  headers?: Record<string, string>
}

export interface Answer {
  status: number
  headers: Headers
  text: string
  /** Parsed JSON body, or undefined. */
  json: any // eslint-disable-line @typescript-eslint/no-explicit-any
  /** Set-Cookie headers by cookie name. */
  setCookies: Map<string, string>
}

/** Cookie name → value from Set-Cookie headers (empty value when cleared). */
export function cookieValues(answer: Answer): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [name, header] of answer.setCookies) {
    out[name] = decodeURIComponent(header.slice(name.length + 1).split(';')[0] ?? '')
  }
  return out
}

/** Build an app with authentication on (unless overridden), listening on 127.0.0.1. */
export async function startAuthServer(
  overrides: Partial<ServerConfig> = {},
  options: { captureLogs?: boolean; now?: () => number } = {},
): Promise<AuthTestServer> {
  const logs: string[] = []
  const logger = options.captureLogs
    ? { level: 'trace', stream: { write: (line: string) => void logs.push(line) } }
    : false
  const ctx = await buildTestApp(
    { authDisabled: false, ...overrides },
    { logger, now: options.now },
  )
  await ctx.app.http.listen({ host: '127.0.0.1', port: 0 })
  const base = `http://127.0.0.1:${(ctx.app.http.server.address() as { port: number }).port}`

  const call = async (method: string, path: string, o: CallOptions = {}): Promise<Answer> => {
    const headers: Record<string, string> = { ...o.headers }
    if (o.body !== undefined) headers['content-type'] = 'application/json'
    if (o.cookies) {
      headers.cookie = Object.entries(o.cookies)
        .map(([k, v]) => `${k}=${encodeURIComponent(v)}`)
        .join('; ')
    }
    if (o.csrf !== undefined) headers['x-csrf-token'] = o.csrf
    if (o.token !== undefined) headers['x-api-token'] = o.token
    if (o.basic) {
      const raw = `${o.basic.username}:${o.basic.password}`
      headers.authorization = `Basic ${Buffer.from(raw).toString('base64')}`
    }
    const res = await fetch(base + path, {
      method,
      headers,
      body: o.body === undefined ? undefined : JSON.stringify(o.body),
    })
    const text = await res.text()
    let json: unknown
    try {
      json = JSON.parse(text)
    } catch {
      json = undefined
    }
    const setCookies = new Map<string, string>()
    for (const header of res.headers.getSetCookie()) {
      setCookies.set(header.slice(0, header.indexOf('=')), header)
    }
    return { status: res.status, headers: res.headers, text, json, setCookies }
  }

  return { ctx, base, logs, call, close: () => ctx.close() }
}

export interface Credentials {
  username: string
  password: string
  apiToken: string
  /** The session cookies of the setup answer. */
  cookies: { pulse_session: string; pulse_csrf: string }
}

/**
 * Run the first-run quick setup and return what it handed out. `as` authenticates the call, for
 * instances already protected by single sign-on, a proxy or an API_TOKEN.
 */
export async function quickSetup(
  server: AuthTestServer,
  body: object = {},
  as: Omit<CallOptions, 'body'> = {},
): Promise<Credentials> {
  const res = await server.call('POST', '/api/security/quick-setup', { ...as, body })
  if (res.status !== 200 || !res.json?.success) {
    throw new Error(`quick-setup failed: ${res.status} ${res.text}`)
  }
  const values = cookieValues(res)
  return {
    username: res.json.username,
    password: res.json.password,
    apiToken: res.json.apiToken,
    cookies: { pulse_session: values.pulse_session!, pulse_csrf: values.pulse_csrf! },
  }
}

/** Log in and return the session cookies. */
export async function login(
  server: AuthTestServer,
  username: string,
  password: string,
): Promise<{ pulse_session: string; pulse_csrf: string }> {
  const res = await server.call('POST', '/api/login', { body: { username, password } })
  if (res.status !== 200) throw new Error(`login failed: ${res.status} ${res.text}`)
  const values = cookieValues(res)
  return { pulse_session: values.pulse_session!, pulse_csrf: values.pulse_csrf! }
}

/** Open /ws with session `cookies`; resolves once the first message arrives, with its close code. */
export function openSessionSocket(
  server: AuthTestServer,
  cookies: { pulse_session: string; pulse_csrf: string },
): Promise<{ closed: Promise<number> }> {
  const ws = new WebSocket(server.base.replace('http', 'ws') + '/ws', {
    headers: {
      cookie: `pulse_session=${cookies.pulse_session}; pulse_csrf=${cookies.pulse_csrf}`,
      origin: server.base,
    },
  })
  const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)))
  return new Promise((resolve, reject) => {
    ws.once('message', () => resolve({ closed }))
    ws.once('error', reject)
    ws.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)))
  })
}
