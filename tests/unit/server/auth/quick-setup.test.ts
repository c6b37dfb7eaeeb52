import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  cookieValues,
  login,
  quickSetup,
  startAuthServer,
  type AuthTestServer,
} from './auth-helpers.ts'

let server: AuthTestServer
beforeEach(async () => {
  server = await startAuthServer()
})
afterEach(async () => {
  await server.close()
})

describe('first-run quick setup', () => {
  it('generates a 16-character password and a 48-hex token once, and logs the caller in', async () => {
    const res = await server.call('POST', '/api/security/quick-setup', { body: {} })
    expect(res.status).toBe(200)
    expect(res.json).toMatchObject({ success: true, skipped: false, username: 'admin' })
    expect(res.json.password).toMatch(/^[A-Za-z0-9_-]{16}$/)
    expect(res.json.apiToken).toMatch(/^[0-9a-f]{48}$/)
    expect(res.headers.get('cache-control')).toBe('no-store')
    const cookies = cookieValues(res)
    expect(cookies.pulse_session).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(cookies.pulse_csrf).toMatch(/^[A-Za-z0-9_-]{43}$/)
    const state = await server.call('GET', '/api/state', { cookies })
    expect(state.status).toBe(200)
  })

  it('sets HttpOnly on the session cookie only, SameSite=Lax, Path=/, a 7-day Max-Age and no Secure on http', async () => {
    const res = await server.call('POST', '/api/security/quick-setup', { body: {} })
    const session = res.setCookies.get('pulse_session')!
    const csrf = res.setCookies.get('pulse_csrf')!
    for (const header of [session, csrf]) {
      expect(header).toMatch(/; SameSite=Lax/)
      expect(header).toMatch(/; Path=\//)
      expect(header).toMatch(/; Max-Age=604800/)
      expect(header).not.toMatch(/Secure/i)
    }
    expect(session).toMatch(/; HttpOnly/)
    expect(csrf).not.toMatch(/HttpOnly/)
  })

  it('keeps a custom username, password and token', async () => {
    const creds = await quickSetup(server, {
      username: 'ops',
      password: 'correct horse battery',
      apiToken: 'a'.repeat(30) + 'tail',
    })
    expect(creds).toMatchObject({ username: 'ops', password: 'correct horse battery' })
    await login(server, 'ops', 'correct horse battery')
    const status = await server.call('GET', '/api/security/status', { token: creds.apiToken })
    // A token caller is named by its token (issue 29 item 4): the setup's is "default".
    expect(status.json).toMatchObject({ authenticated: true, authUsername: 'default' })
    expect(status.json.apiTokenHint).toBe('aaaaaaaa...tail')
  })

  it('refuses a custom password under 8 characters with the UI message', async () => {
    const res = await server.call('POST', '/api/security/quick-setup', {
      body: { password: 'short' },
    })
    expect(res.status).toBe(400)
    expect(res.json).toEqual({
      code: 'PASSWORD_TOO_SHORT',
      message: 'Password must be at least 8 characters',
    })
    expect((await server.call('GET', '/api/security/status')).json.hasAuthentication).toBe(false)
  })

  it('names the bad field of an invalid body', async () => {
    const res = await server.call('POST', '/api/security/quick-setup', {
      body: { force: 'yes' },
    })
    expect(res.status).toBe(400)
    expect(res.json.code).toBe('FIELD_INVALID')
    expect(res.json.message).toMatch(/^force:/)
  })

  it('skips a second setup without changing anything', async () => {
    const creds = await quickSetup(server)
    const again = await server.call('POST', '/api/security/quick-setup', { body: {} })
    expect(again.status).toBe(200)
    expect(again.json).toEqual({
      success: false,
      skipped: true,
      message:
        'Security is already configured. Please remove existing security first if you want to reconfigure.',
    })
    expect(again.setCookies.size).toBe(0)
    await login(server, 'admin', creds.password)
  })

  it('needs an authenticated admin to force a rotation', async () => {
    await quickSetup(server)
    const res = await server.call('POST', '/api/security/quick-setup', { body: { force: true } })
    expect(res.status).toBe(401)
    expect(res.json.code).toBe('AUTH_REQUIRED')
  })

  it('rotates every credential on force and revokes every session', async () => {
    const first = await quickSetup(server)
    const other = await login(server, 'admin', first.password)
    const res = await server.call('POST', '/api/security/quick-setup', {
      body: { force: true },
      cookies: first.cookies,
      csrf: first.cookies.pulse_csrf,
    })
    expect(res.status).toBe(200)
    expect(res.json.success).toBe(true)
    expect(res.json.password).not.toBe(first.password)
    expect(res.json.apiToken).not.toBe(first.apiToken)
    // Both old sessions and the old token are gone; the new cookies and token work.
    for (const cookies of [first.cookies, other]) {
      expect((await server.call('GET', '/api/state', { cookies })).status).toBe(401)
    }
    expect((await server.call('GET', '/api/state', { token: first.apiToken })).status).toBe(401)
    expect((await server.call('GET', '/api/state', { token: res.json.apiToken })).status).toBe(200)
    expect((await server.call('GET', '/api/state', { cookies: cookieValues(res) })).status).toBe(
      200,
    )
    const oldLogin = await server.call('POST', '/api/login', {
      body: { username: 'admin', password: first.password },
    })
    expect(oldLogin.status).toBe(401)
  })
})
