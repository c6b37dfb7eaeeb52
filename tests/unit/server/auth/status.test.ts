import { afterEach, describe, expect, it } from 'vitest'
import { SECURITY_HEADERS } from '../../../../src/server/auth/security-headers.ts'
import { login, quickSetup, startAuthServer, type AuthTestServer } from './auth-helpers.ts'

let server: AuthTestServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

describe('GET /api/security/status', () => {
  it('says nothing is configured on a fresh install, and requires setup for protected routes', async () => {
    server = await startAuthServer()
    const res = await server.call('GET', '/api/security/status')
    expect(res.status).toBe(200)
    expect(res.json).toEqual({
      hasAuthentication: false,
      hasPasswordLogin: false,
      requiresAuth: false,
      disabled: false,
      authUsername: '',
      authenticated: false,
      credentialsEncrypted: true,
      apiTokenConfigured: false,
      apiTokenHint: '',
      oidcEnabled: false,
      oidcUsername: '',
      oidcLogoutURL: '',
      hasProxyAuth: false,
      proxyAuthUsername: '',
      proxyAuthIsAdmin: false,
      proxyAuthLogoutURL: '',
      exportProtected: false,
      unprotectedExportAllowed: false,
      hasHTTPS: false,
      hasAuditLogging: true,
      publicAccess: false,
      isPrivateNetwork: true,
      clientIP: '127.0.0.1',
      configuredButPendingRestart: false,
    })
    const state = await server.call('GET', '/api/state')
    expect(state.status).toBe(401)
    expect(state.json).toEqual({
      code: 'AUTH_NOT_CONFIGURED',
      message: 'Authentication is not configured: complete the first-run setup',
    })
  })

  it('reports the configured state, the token hint and the caller', async () => {
    server = await startAuthServer()
    const creds = await quickSetup(server)
    const anonymous = await server.call('GET', '/api/security/status')
    expect(anonymous.json).toMatchObject({
      hasAuthentication: true,
      requiresAuth: true,
      authenticated: false,
      authUsername: '',
      apiTokenConfigured: true,
      exportProtected: true,
    })
    const hint = `${creds.apiToken.slice(0, 8)}...${creds.apiToken.slice(-4)}`
    expect(anonymous.json.apiTokenHint).toBe(hint)
    const bySession = await server.call('GET', '/api/security/status', { cookies: creds.cookies })
    expect(bySession.json).toMatchObject({ authenticated: true, authUsername: 'admin' })
    const byToken = await server.call('GET', '/api/security/status', { token: creds.apiToken })
    // A token caller is named by its token (issue 29 item 4): the setup's is "default".
    expect(byToken.json).toMatchObject({ authenticated: true, authUsername: 'default' })
    const badToken = await server.call('GET', '/api/security/status', { token: 'nope' })
    expect(badToken.status).toBe(200)
    expect(badToken.json.authenticated).toBe(false)
  })

  it("names the caller's role (issue 29 item 6), and none for a caller not signed in", async () => {
    server = await startAuthServer()
    const admin = await quickSetup(server)
    const anonymous = await server.call('GET', '/api/security/status')
    expect(anonymous.json).not.toHaveProperty('role')
    const byAdmin = await server.call('GET', '/api/security/status', { cookies: admin.cookies })
    expect(byAdmin.json).toMatchObject({ authUsername: 'admin', role: 'admin' })
    for (const role of ['viewer', 'operator']) {
      const username = `${role}-1`
      const added = await server.call('POST', '/api/users', {
        cookies: admin.cookies,
        csrf: admin.cookies.pulse_csrf,
        body: { username, password: `${username}-password`, role },
      })
      expect(added.status, added.text).toBe(201)
      const cookies = await login(server, username, `${username}-password`)
      const status = await server.call('GET', '/api/security/status', { cookies })
      expect(status.json).toMatchObject({ authenticated: true, authUsername: username, role })
    }
  })

  it('with DISABLE_AUTH allows everything as anonymous and says so', async () => {
    server = await startAuthServer({ authDisabled: true })
    const status = await server.call('GET', '/api/security/status')
    expect(status.json).toMatchObject({
      disabled: true,
      hasAuthentication: false,
      requiresAuth: false,
      authenticated: true,
      authUsername: 'anonymous',
      role: 'admin',
    })
    expect((await server.call('GET', '/api/state')).status).toBe(200)
    const add = await server.call('POST', '/api/config/nodes', {
      body: {
        type: 'pve',
        name: 'lab',
        host: '127.0.0.1:9',
        tokenName: 'a@pam!b',
        tokenValue: 'x',
      },
    })
    expect(add.status).toBe(201)
  })

  it('sends the security headers on API answers, errors and the SPA fallback', async () => {
    server = await startAuthServer()
    for (const path of ['/api/health', '/api/state', '/some/client/route']) {
      const res = await server.call('GET', path)
      for (const [name, value] of Object.entries(SECURITY_HEADERS)) {
        expect(res.headers.get(name), `${name} on ${path}`).toBe(value)
      }
    }
    expect(SECURITY_HEADERS['Content-Security-Policy']).toBe(
      "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self' ws: wss:; worker-src 'self' blob:; frame-ancestors 'none'; base-uri 'self'; form-action 'self'",
    )
  })

  it('keeps health and version public', async () => {
    server = await startAuthServer()
    await quickSetup(server)
    expect((await server.call('GET', '/api/health')).status).toBe(200)
    expect((await server.call('GET', '/api/version')).status).toBe(200)
    expect((await server.call('HEAD', '/api/health')).status).toBe(200)
  })
})
