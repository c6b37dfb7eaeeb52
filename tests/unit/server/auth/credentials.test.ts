import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  cookieValues,
  login,
  quickSetup,
  startAuthServer,
  type AuthTestServer,
  type Credentials,
} from './auth-helpers.ts'

let server: AuthTestServer
let creds: Credentials
beforeEach(async () => {
  server = await startAuthServer()
  creds = await quickSetup(server)
})
afterEach(async () => {
  await server.close()
})

const node = {
  type: 'pve',
  name: 'lab',
  host: '127.0.0.1:9',
  tokenName: 'a@pam!b',
  tokenValue: 'x',
}

describe('CSRF on cookie sessions', () => {
  it('refuses a state change without the token or with a wrong one, accepts the right one', async () => {
    const cookies = creds.cookies
    const missing = await server.call('POST', '/api/config/nodes', { body: node, cookies })
    expect(missing.status).toBe(403)
    expect(missing.json).toEqual({ code: 'CSRF_INVALID', message: 'Invalid or missing CSRF token' })
    const wrong = await server.call('POST', '/api/config/nodes', {
      body: node,
      cookies,
      csrf: 'x'.repeat(43),
    })
    expect(wrong.status).toBe(403)
    const right = await server.call('POST', '/api/config/nodes', {
      body: node,
      cookies,
      csrf: cookies.pulse_csrf,
    })
    expect(right.status).toBe(201)
  })

  it('does not need the token for reads', async () => {
    expect((await server.call('GET', '/api/config/nodes', { cookies: creds.cookies })).status).toBe(
      200,
    )
  })

  it('issues a fresh CSRF cookie when the session comes without its CSRF cookie', async () => {
    const res = await server.call('GET', '/api/state', {
      cookies: { pulse_session: creds.cookies.pulse_session },
    })
    expect(res.status).toBe(200)
    const fresh = cookieValues(res).pulse_csrf!
    expect(fresh).toMatch(/^[A-Za-z0-9_-]{43}$/)
    const cookies = { pulse_session: creds.cookies.pulse_session, pulse_csrf: fresh }
    const ok = await server.call('POST', '/api/config/nodes', { body: node, cookies, csrf: fresh })
    expect(ok.status).toBe(201)
  })
})

describe('API token', () => {
  it('works without CSRF; a wrong token is 401', async () => {
    const ok = await server.call('POST', '/api/config/nodes', { body: node, token: creds.apiToken })
    expect(ok.status).toBe(201)
    const bad = await server.call('GET', '/api/state', { token: creds.apiToken.replace(/.$/, 'x') })
    expect(bad.status).toBe(401)
    expect(bad.json.code).toBe('API_TOKEN_INVALID')
  })

  it('is replaced by regenerate-token: the old one stops, the new one works', async () => {
    const res = await server.call('POST', '/api/security/regenerate-token', {
      token: creds.apiToken,
    })
    expect(res.status).toBe(200)
    expect(res.headers.get('cache-control')).toBe('no-store')
    expect(res.json.token).toMatch(/^[0-9a-f]{48}$/)
    expect((await server.call('GET', '/api/state', { token: creds.apiToken })).status).toBe(401)
    expect((await server.call('GET', '/api/state', { token: res.json.token })).status).toBe(200)
    const status = await server.call('GET', '/api/security/status')
    expect(status.json.apiTokenHint).toBe(
      `${res.json.token.slice(0, 8)}...${res.json.token.slice(-4)}`,
    )
  })

  it('needs authentication to regenerate', async () => {
    const res = await server.call('POST', '/api/security/regenerate-token')
    expect(res.status).toBe(401)
    expect(res.json.code).toBe('AUTH_REQUIRED')
  })
})

describe('Basic authentication', () => {
  it('works with the right password and is 401 with a wrong one', async () => {
    const basic = { username: 'admin', password: creds.password }
    expect((await server.call('GET', '/api/state', { basic })).status).toBe(200)
    const ok = await server.call('POST', '/api/config/nodes', { body: node, basic })
    expect(ok.status).toBe(201)
    const bad = await server.call('GET', '/api/state', {
      basic: { username: 'admin', password: 'nope-nope' },
    })
    expect(bad.status).toBe(401)
    expect(bad.json.code).toBe('AUTH_REQUIRED')
  })

  it('needs X-CSRF-Token to match the pulse_csrf cookie when that cookie is sent', async () => {
    const basic = { username: 'admin', password: creds.password }
    const cookies = { pulse_csrf: creds.cookies.pulse_csrf }
    const missing = await server.call('POST', '/api/config/nodes', { body: node, basic, cookies })
    expect(missing.status).toBe(403)
    const ok = await server.call('POST', '/api/config/nodes', {
      body: node,
      basic,
      cookies,
      csrf: creds.cookies.pulse_csrf,
    })
    expect(ok.status).toBe(201)
  })
})

describe('POST /api/security/change-password', () => {
  const change = (body: object) =>
    server.call('POST', '/api/security/change-password', {
      body,
      cookies: creds.cookies,
      csrf: creds.cookies.pulse_csrf,
    })

  it('refuses a wrong current password', async () => {
    const res = await change({ currentPassword: 'not-it-at-all', newPassword: 'new-password-1' })
    expect(res.status).toBe(401)
    expect(res.json).toEqual({
      code: 'CURRENT_PASSWORD_INCORRECT',
      message: 'Current password is incorrect',
    })
  })

  it('refuses a new password under 8 characters, and names a missing field', async () => {
    const short = await change({ currentPassword: creds.password, newPassword: 'short' })
    expect(short.status).toBe(400)
    expect(short.json.message).toBe('Password must be at least 8 characters')
    const missing = await change({ currentPassword: creds.password })
    expect(missing.status).toBe(400)
    expect(missing.json.message).toMatch(/^newPassword:/)
  })

  it('changes the password and revokes every session', async () => {
    const other = await login(server, 'admin', creds.password)
    const res = await change({ currentPassword: creds.password, newPassword: 'brand-new-secret' })
    expect(res.status).toBe(200)
    expect(res.json).toEqual({ success: true })
    for (const cookies of [creds.cookies, other]) {
      expect((await server.call('GET', '/api/state', { cookies })).status).toBe(401)
    }
    const old = await server.call('POST', '/api/login', {
      body: { username: 'admin', password: creds.password },
    })
    expect(old.status).toBe(401)
    await login(server, 'admin', 'brand-new-secret')
    // The API token is not a session: it keeps working.
    expect((await server.call('GET', '/api/state', { token: creds.apiToken })).status).toBe(200)
  })

  it('accepts Basic authentication with the current password (the UI sends it)', async () => {
    const res = await server.call('POST', '/api/security/change-password', {
      basic: { username: 'admin', password: creds.password },
      body: { currentPassword: creds.password, newPassword: 'another-secret' },
    })
    expect(res.status).toBe(200)
  })
})

describe('GET /api/security/audit', () => {
  it('records the security events, newest first, without secrets', async () => {
    await server.call('POST', '/api/login', { body: { username: 'admin', password: 'bad-one' } })
    const session = await login(server, 'admin', creds.password)
    await server.call('POST', '/api/security/regenerate-token', {
      cookies: session,
      csrf: session.pulse_csrf,
    })
    await server.call('POST', '/api/security/change-password', {
      cookies: session,
      csrf: session.pulse_csrf,
      body: { currentPassword: creds.password, newPassword: 'changed-password' },
    })
    const fresh = await login(server, 'admin', 'changed-password')
    await server.call('POST', '/api/logout', { cookies: fresh, csrf: fresh.pulse_csrf })
    const res = await server.call('GET', '/api/security/audit?limit=50', {
      basic: { username: 'admin', password: 'changed-password' },
    })
    expect(res.status).toBe(200)
    const types = (res.json.events as Array<{ type: string }>).map((e) => e.type)
    expect(types).toEqual([
      'logout',
      'login_success',
      'password_changed',
      'token_regenerated',
      'login_success',
      'login_failure',
      'setup',
    ])
    const first = res.json.events[0]
    expect(first).toMatchObject({ type: 'logout', username: 'admin', ip: '127.0.0.1' })
    expect(typeof first.id).toBe('number')
    expect(new Date(first.time).toISOString()).toBe(first.time)
    expect(res.text).not.toContain(creds.password)
    expect(res.text).not.toContain('changed-password')
    const limited = await server.call('GET', '/api/security/audit?limit=2', {
      cookies: await login(server, 'admin', 'changed-password'),
    })
    expect(limited.json.events).toHaveLength(2)
    const bad = await server.call('GET', '/api/security/audit?limit=0', {
      basic: { username: 'admin', password: 'changed-password' },
    })
    expect(bad.status).toBe(400)
    expect(bad.json.message).toMatch(/^limit:/)
  })

  it('records a lockout, and never the username someone typed that is not the admin', async () => {
    for (let i = 0; i < 5; i++) {
      await server.call('POST', '/api/login', { body: { username: 'admin', password: `bad-${i}` } })
    }
    await server.call('POST', '/api/login', { body: { username: 'hunter2-typo', password: 'x' } })
    const res = await server.call('GET', '/api/security/audit', { token: creds.apiToken })
    const events = res.json.events as Array<{ type: string; username: string; detail: string }>
    expect(events.filter((e) => e.type === 'lockout')).toHaveLength(1)
    expect(events[0]).toMatchObject({ type: 'login_failure', username: '' })
    expect(events[0]!.detail).toMatch(/unknown username/)
    expect(res.text).not.toContain('hunter2-typo')
  })
})
