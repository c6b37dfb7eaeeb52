// Reverse-proxy authentication over real HTTP: the proxy headers count only with the secret.
import { afterEach, describe, expect, it } from 'vitest'
import {
  proxyRole,
  readProxyAuthConfig,
  type ProxyAuthConfig,
} from '../../../../src/server/auth/proxy-auth.ts'
import {
  cookieValues,
  quickSetup,
  startAuthServer,
  type AuthTestServer,
  type CallOptions,
} from './auth-helpers.ts'

const SECRET = 'proxy-shared-secret-8f1d2c'
const LOGOUT = 'https://sso.example.test/logout'
const proxyConfig = (env: Record<string, string> = {}): ProxyAuthConfig =>
  readProxyAuthConfig({ PROXY_AUTH_SECRET: SECRET, PROXY_AUTH_LOGOUT_URL: LOGOUT, ...env })!

/** Headers a proxy in front of Pulse would add. */
const viaProxy = (user: string, roles?: string, secret = SECRET): Record<string, string> => ({
  'x-proxy-secret': secret,
  'x-remote-user': user,
  ...(roles === undefined ? {} : { 'x-remote-roles': roles }),
})

const DOUBLE_SUBMIT = { cookies: { pulse_csrf: 'c'.repeat(43) }, csrf: 'c'.repeat(43) }

/** First-run setup through the proxy (behind a proxy, setup needs a proxy admin). */
async function setupViaProxy(target: AuthTestServer): Promise<void> {
  const res = await target.call('POST', '/api/security/quick-setup', {
    headers: viaProxy('root', 'admin'),
    body: {},
    ...DOUBLE_SUBMIT,
  })
  expect(res.status).toBe(200)
}

let server: AuthTestServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

const get = (path: string, options: CallOptions = {}) => server!.call('GET', path, options)

describe('reverse-proxy authentication', () => {
  it('ignores the headers when no secret is configured', async () => {
    server = await startAuthServer()
    await quickSetup(server)
    const res = await get('/api/state', { headers: viaProxy('alice', 'admin') })
    expect(res.status).toBe(401)
    expect(res.json.code).toBe('AUTH_REQUIRED')
    const status = await get('/api/security/status', { headers: viaProxy('alice', 'admin') })
    expect(status.json).toMatchObject({
      hasProxyAuth: false,
      authenticated: false,
      proxyAuthUsername: '',
      proxyAuthIsAdmin: false,
      proxyAuthLogoutURL: '',
    })
  })

  it('ignores the user headers without the secret, with a wrong secret or without a user', async () => {
    server = await startAuthServer({ proxyAuth: proxyConfig() })
    await setupViaProxy(server)
    const withoutSecret = { 'x-remote-user': 'alice', 'x-remote-roles': 'admin' }
    for (const headers of [
      withoutSecret,
      viaProxy('alice', 'admin', 'wrong-secret'),
      viaProxy('alice', 'admin', SECRET.slice(0, -1)),
      viaProxy('alice', 'admin', `${SECRET}x`),
      viaProxy('', 'admin'),
      viaProxy('   ', 'admin'),
      { 'x-proxy-secret': SECRET },
    ]) {
      const res = await get('/api/state', { headers })
      expect(res.status, JSON.stringify(headers)).toBe(401)
      expect(res.json.code).toBe('AUTH_REQUIRED')
      const status = await get('/api/security/status', { headers })
      expect(status.json).toMatchObject({ authenticated: false, proxyAuthUsername: '' })
      expect(res.setCookies.has('pulse_csrf')).toBe(false)
    }
  })

  it('authenticates with the secret and a user, admin from the roles', async () => {
    server = await startAuthServer({ proxyAuth: proxyConfig() })
    await setupViaProxy(server)
    const state = await get('/api/state', { headers: viaProxy('alice', 'users|admin') })
    expect(state.status).toBe(200)

    const anonymous = await get('/api/security/status')
    expect(anonymous.json).toMatchObject({
      hasProxyAuth: true,
      authenticated: false,
      proxyAuthUsername: '',
      proxyAuthIsAdmin: false,
      proxyAuthLogoutURL: '',
    })
    const cases: Array<[string | undefined, boolean]> = [
      ['users|admin', true],
      ['admin', true],
      ['users, admin', true],
      [' admin ', true],
      ['users', false],
      ['administrators|users', false],
      ['', false],
      [undefined, false],
    ]
    for (const [roles, isAdmin] of cases) {
      const status = await get('/api/security/status', { headers: viaProxy('alice', roles) })
      expect(status.json, String(roles)).toMatchObject({
        hasProxyAuth: true,
        authenticated: true,
        authUsername: 'alice',
        proxyAuthUsername: 'alice',
        proxyAuthIsAdmin: isAdmin,
        proxyAuthLogoutURL: LOGOUT,
      })
    }
  })

  it('reads the configured header names, admin role and separator', async () => {
    const config = proxyConfig({
      PROXY_AUTH_USER_HEADER: 'X-Forwarded-User',
      PROXY_AUTH_ROLE_HEADER: 'X-Forwarded-Groups',
      PROXY_AUTH_ADMIN_ROLE: 'pulse-admins',
      PROXY_AUTH_ROLE_SEPARATOR: ';',
    })
    server = await startAuthServer({ proxyAuth: config })
    const headers = {
      'x-proxy-secret': SECRET,
      'x-forwarded-user': 'bob',
      'x-forwarded-groups': 'staff;pulse-admins',
    }
    const status = await get('/api/security/status', { headers })
    expect(status.json).toMatchObject({ proxyAuthUsername: 'bob', proxyAuthIsAdmin: true })
    // The default header names mean nothing now.
    const defaults = await get('/api/state', { headers: viaProxy('bob', 'pulse-admins') })
    expect(defaults.status).toBe(401)
  })

  it('requires the CSRF double-submit for writes and sets the cookie on a GET without one', async () => {
    server = await startAuthServer({ proxyAuth: proxyConfig() })
    await setupViaProxy(server)
    const headers = viaProxy('alice', 'admin')

    const first = await get('/api/security/status', { headers })
    const csrf = cookieValues(first).pulse_csrf
    expect(csrf).toMatch(/^[A-Za-z0-9_-]{43}$/)
    const cookie = first.setCookies.get('pulse_csrf')!
    expect(cookie).toMatch(/SameSite=Lax/i)
    expect(cookie).toMatch(/Path=\//)
    expect(cookie).not.toMatch(/HttpOnly/i)
    // Already there: not replaced.
    const again = await get('/api/state', { headers, cookies: { pulse_csrf: csrf! } })
    expect(again.status).toBe(200)
    expect(again.setCookies.has('pulse_csrf')).toBe(false)

    const post = (options: CallOptions) =>
      server!.call('POST', '/api/security/regenerate-token', { headers, body: {}, ...options })
    for (const options of [
      {},
      { csrf: csrf! },
      { cookies: { pulse_csrf: csrf! } },
      { cookies: { pulse_csrf: csrf! }, csrf: `${csrf}x` },
      { cookies: { pulse_csrf: '' }, csrf: '' },
    ]) {
      const res = await post(options)
      expect(res.status, JSON.stringify(options)).toBe(403)
      expect(res.json.code).toBe('CSRF_INVALID')
    }
    const ok = await post({ cookies: { pulse_csrf: csrf! }, csrf: csrf! })
    expect(ok.status).toBe(200)
    expect(ok.json.token).toMatch(/^[0-9a-f]{48}$/)
  })

  it('keeps administration for proxy users with the admin role', async () => {
    server = await startAuthServer({ proxyAuth: proxyConfig() })
    await setupViaProxy(server)
    const csrf = { cookies: { pulse_csrf: 'double-submit-value' }, csrf: 'double-submit-value' }
    const user = { headers: viaProxy('carol', 'users'), ...csrf }
    const read = await get('/api/state', user)
    expect(read.status).toBe(200)
    // Routes that need the admin role (route-roles.ts) are refused by the guard; setup again
    // needs an admin, which the route checks.
    const byRole = { code: 'ROLE_REQUIRED', message: 'This needs the admin role; you are operator' }
    const byRoute = { code: 'ADMIN_REQUIRED', message: 'Admin privileges required' }
    for (const [path, body, answer] of [
      ['/api/security/regenerate-token', {}, byRole],
      ['/api/security/quick-setup', { force: true }, byRoute],
      ['/api/config/export', { passphrase: 'a long enough passphrase' }, byRole],
      ['/api/config/import', { passphrase: 'a long enough passphrase', data: {} }, byRole],
    ] as const) {
      const res = await server.call('POST', path, { ...user, body })
      expect(res.status, path).toBe(403)
      expect(res.json, path).toEqual(answer)
    }
    // A proxy user has no local password to change.
    const change = await server.call('POST', '/api/security/change-password', {
      ...user,
      body: { currentPassword: 'x', newPassword: 'yyyyyyyy' },
    })
    expect(change.status).toBe(400)
    expect(change.json).toEqual({
      code: 'FIELD_INVALID',
      message: 'currentPassword: carol has no local password.',
    })
  })

  it('protects an instance with proxy auth and no password: setup needs a proxy admin', async () => {
    server = await startAuthServer({ proxyAuth: proxyConfig() })
    const status = await get('/api/security/status')
    expect(status.json).toMatchObject({
      hasAuthentication: true,
      requiresAuth: true,
      hasProxyAuth: true,
      authenticated: false,
      exportProtected: true,
    })
    const direct = await get('/api/state')
    expect(direct.status).toBe(401)
    expect(direct.json.code).toBe('AUTH_REQUIRED')
    expect((await get('/api/state', { headers: viaProxy('alice', 'admin') })).status).toBe(200)

    const setup = await server.call('POST', '/api/security/quick-setup', { body: {} })
    expect(setup.status).toBe(401)
    const csrf = DOUBLE_SUBMIT
    const byUser = await server.call('POST', '/api/security/quick-setup', {
      headers: viaProxy('carol', 'users'),
      body: {},
      ...csrf,
    })
    expect(byUser.status).toBe(403)
    const byAdmin = await server.call('POST', '/api/security/quick-setup', {
      headers: viaProxy('alice', 'admin'),
      body: {},
      ...csrf,
    })
    expect(byAdmin.status).toBe(200)
    expect(byAdmin.json).toMatchObject({ success: true, username: 'admin' })
  })

  it('is ignored entirely when authentication is disabled', async () => {
    server = await startAuthServer({ authDisabled: true, proxyAuth: proxyConfig() })
    const status = await get('/api/security/status', { headers: viaProxy('alice', 'admin') })
    expect(status.json).toMatchObject({
      disabled: true,
      hasProxyAuth: false,
      authUsername: 'anonymous',
      proxyAuthUsername: '',
    })
  })
})

describe('readProxyAuthConfig', () => {
  it('is off without a secret', () => {
    expect(readProxyAuthConfig({})).toBeNull()
    expect(readProxyAuthConfig({ PROXY_AUTH_SECRET: '  ' })).toBeNull()
  })

  it('has the documented defaults', () => {
    expect(readProxyAuthConfig({ PROXY_AUTH_SECRET: 's' })).toEqual({
      secret: 's',
      userHeader: 'x-remote-user',
      roleHeader: 'x-remote-roles',
      adminRole: 'admin',
      operatorRole: 'operator',
      viewerRole: 'viewer',
      defaultRole: 'operator',
      roleSeparator: '|',
      logoutUrl: '',
    })
  })

  it('names the variable when a value is invalid', () => {
    expect(() =>
      readProxyAuthConfig({ PROXY_AUTH_SECRET: 's', PROXY_AUTH_USER_HEADER: 'X User' }),
    ).toThrow(/PROXY_AUTH_USER_HEADER/)
    expect(() =>
      readProxyAuthConfig({ PROXY_AUTH_SECRET: 's', PROXY_AUTH_LOGOUT_URL: 'javascript:alert(1)' }),
    ).toThrow(/PROXY_AUTH_LOGOUT_URL/)
    expect(() =>
      readProxyAuthConfig({ PROXY_AUTH_SECRET: 's', PROXY_AUTH_DEFAULT_ROLE: 'root' }),
    ).toThrow(/PROXY_AUTH_DEFAULT_ROLE/)
  })
})

describe('proxy roles (issue 29 item 3)', () => {
  it('maps the role names to the highest role; no mapped name gets the default', () => {
    const config = proxyConfig({
      PROXY_AUTH_OPERATOR_ROLE: 'pulse-ops',
      PROXY_AUTH_VIEWER_ROLE: 'pulse-wall',
      PROXY_AUTH_DEFAULT_ROLE: 'Viewer',
    })
    const cases: Array<[string[], string | null]> = [
      [['admin', 'pulse-wall'], 'admin'],
      [['pulse-wall', 'pulse-ops'], 'operator'],
      [['pulse-wall'], 'viewer'],
      [['staff'], 'viewer'],
      [[], 'viewer'],
    ]
    for (const [roles, role] of cases) expect(proxyRole(config, roles), String(roles)).toBe(role)
    expect(proxyRole(proxyConfig({ PROXY_AUTH_DEFAULT_ROLE: 'none' }), ['staff'])).toBeNull()
    expect(proxyRole(proxyConfig(), ['staff'])).toBe('operator')
  })

  it('gives an operator the alert work but not the configuration', async () => {
    server = await startAuthServer({
      proxyAuth: proxyConfig({ PROXY_AUTH_OPERATOR_ROLE: 'pulse-ops' }),
    })
    await setupViaProxy(server)
    const headers = viaProxy('olga', 'staff|pulse-ops')
    const ack = await server.call('POST', '/api/alerts/bulk/acknowledge', {
      headers,
      body: { alertIds: ['none'] },
      ...DOUBLE_SUBMIT,
    })
    expect(ack.status).toBe(200)
    const config = await server.call('PUT', '/api/alerts/config', {
      headers,
      body: {},
      ...DOUBLE_SUBMIT,
    })
    expect(config.json).toEqual({
      code: 'ROLE_REQUIRED',
      message: 'This needs the admin role; you are operator',
    })
  })

  it('gives a viewer reading only', async () => {
    server = await startAuthServer({ proxyAuth: proxyConfig() })
    await setupViaProxy(server)
    const headers = viaProxy('wall', 'viewer')
    expect((await get('/api/state', { headers })).status).toBe(200)
    const ack = await server.call('POST', '/api/alerts/bulk/acknowledge', {
      headers,
      body: { alertIds: ['none'] },
      ...DOUBLE_SUBMIT,
    })
    expect(ack.json).toEqual({
      code: 'ROLE_REQUIRED',
      message: 'This needs the operator role; you are viewer',
    })
  })

  it('refuses a user with no mapped role when the default is none', async () => {
    server = await startAuthServer({
      proxyAuth: proxyConfig({ PROXY_AUTH_DEFAULT_ROLE: 'none' }),
    })
    await setupViaProxy(server)
    const refused = await get('/api/state', { headers: viaProxy('eve', 'staff') })
    expect(refused.status).toBe(403)
    expect(refused.json.code).toBe('PROXY_ROLE_NONE')
    expect((await get('/api/state', { headers: viaProxy('root', 'admin') })).status).toBe(200)
  })
})
