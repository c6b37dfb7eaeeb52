import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import {
  quickSetup,
  startAuthServer,
  type AuthTestServer,
  type Credentials,
} from './auth-helpers.ts'

let server: AuthTestServer
let creds: Credentials
beforeEach(async () => {
  server = await startAuthServer({ allowedOrigins: ['https://dash.example.com'] })
  creds = await quickSetup(server)
})
afterEach(async () => {
  await server.close()
})

const cookieHeader = (c: Credentials['cookies']) =>
  `pulse_session=${c.pulse_session}; pulse_csrf=${c.pulse_csrf}`

/** Open /ws with the given headers: the first message, or the HTTP status of a refusal. */
function open(headers: Record<string, string>): Promise<{ status: number; first?: string }> {
  const wsUrl = server.base.replace('http', 'ws') + '/ws'
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(wsUrl, { headers })
    ws.once('unexpected-response', (_req, res) => {
      resolve({ status: res.statusCode ?? 0 })
      ws.terminate()
    })
    ws.once('message', (data) => {
      resolve({ status: 101, first: (JSON.parse(String(data)) as { type: string }).type })
      ws.close()
    })
    ws.once('error', reject)
  })
}

describe('/ws authentication', () => {
  it('refuses an unauthenticated upgrade with 401', async () => {
    expect(await open({ origin: server.base })).toEqual({ status: 401 })
  })

  it('accepts a session cookie from the same host and greets with welcome', async () => {
    const res = await open({ cookie: cookieHeader(creds.cookies), origin: server.base })
    expect(res).toEqual({ status: 101, first: 'welcome' })
  })

  it('refuses a foreign Origin with 403, accepts one listed in ALLOWED_ORIGINS', async () => {
    const cookie = cookieHeader(creds.cookies)
    expect(await open({ cookie, origin: 'https://evil.example.net' })).toEqual({ status: 403 })
    expect(await open({ cookie, origin: 'https://dash.example.com' })).toMatchObject({
      status: 101,
    })
  })

  it('needs an Origin from a cookie client, not from an API-token client', async () => {
    expect(await open({ cookie: cookieHeader(creds.cookies) })).toEqual({ status: 403 })
    expect(await open({ 'x-api-token': creds.apiToken })).toMatchObject({ status: 101 })
  })

  it('refuses a revoked session', async () => {
    await server.call('POST', '/api/logout', {
      cookies: creds.cookies,
      csrf: creds.cookies.pulse_csrf,
    })
    const res = await open({ cookie: cookieHeader(creds.cookies), origin: server.base })
    expect(res).toEqual({ status: 401 })
  })
})
