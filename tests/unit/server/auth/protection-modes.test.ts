// Instances protected without a login password: single sign-on only, and API-token-only mode
// (API_TOKEN set, no login). Real HTTP on loopback against the real app.
import { afterEach, describe, expect, it } from 'vitest'
import { readConfig } from '../../../../src/server/config.ts'
import { readOidcEnv } from '../../../../src/server/auth/oidc-settings.ts'
import { startAuthServer, type AuthTestServer } from './auth-helpers.ts'

const ENV_TOKEN = 'env-token-0123456789abcdef-env-token'

let server: AuthTestServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

describe('single sign-on as the only way in', () => {
  const oidcEnv = readOidcEnv({
    OIDC_ENABLED: 'true',
    OIDC_ISSUER_URL: 'https://127.0.0.1:1',
    OIDC_CLIENT_ID: 'pulse',
  })

  it('counts as configured authentication: no first-run setup for strangers, sessions honoured', async () => {
    server = await startAuthServer({ oidcEnv })
    const status = await server.call('GET', '/api/security/status')
    expect(status.json).toMatchObject({
      hasAuthentication: true,
      requiresAuth: true,
      oidcEnabled: true,
      authenticated: false,
    })
    // A stranger can neither read nor claim the instance through the first-run setup.
    const state = await server.call('GET', '/api/state')
    expect(state.status).toBe(401)
    expect(state.json.message).toBe('Authentication required')
    const setup = await server.call('POST', '/api/security/quick-setup', { body: {} })
    expect(setup.status).toBe(401)
    expect(server.ctx.app.auth.settings()).toBeNull()

    // A single sign-on session (what the callback creates) gets in, and may add a password.
    const session = server.ctx.app.auth.sessions.create('alice@example.com', 'oidc')
    const cookies = { pulse_session: session.id, pulse_csrf: session.csrf }
    expect((await server.call('GET', '/api/state', { cookies })).status).toBe(200)
    const me = await server.call('GET', '/api/security/status', { cookies })
    expect(me.json).toMatchObject({ authenticated: true, oidcUsername: 'alice@example.com' })
    const added = await server.call('POST', '/api/security/quick-setup', {
      body: {},
      cookies,
      csrf: session.csrf,
    })
    expect(added.status).toBe(200)
    expect(added.json.password).toHaveLength(16)
  })

  it('starts a login without a password configured', async () => {
    server = await startAuthServer({ oidcEnv })
    const res = await server.call('POST', '/api/oidc/login', { body: {} })
    // Nothing answers on 127.0.0.1:1: the flow gets past the configuration
    // check and fails on discovery, not with 'Authentication is not configured'.
    expect(res.text).not.toMatch(/not configured/i)
    expect(res.json.message).toMatch(/provider/i)
  })
})

describe('API-token-only mode (API_TOKEN, no login)', () => {
  const apiToken = readConfig({ API_TOKEN: ENV_TOKEN }, '/tmp', '0').apiToken

  it('leaves the live reads open and asks for the token for everything else', async () => {
    server = await startAuthServer({ apiToken })
    const status = await server.call('GET', '/api/security/status')
    expect(status.json).toMatchObject({
      hasAuthentication: true,
      apiTokenConfigured: true,
      apiTokenHint: `${ENV_TOKEN.slice(0, 8)}...${ENV_TOKEN.slice(-4)}`,
      exportProtected: true,
    })
    expect((await server.call('GET', '/api/state')).status).toBe(200)
    expect((await server.call('GET', '/api/config/nodes')).status).toBe(200)

    const audit = await server.call('GET', '/api/security/audit')
    expect(audit.status).toBe(401)
    expect(audit.json.message).toBe('API token required')
    expect(audit.headers.get('www-authenticate')).toBe('Bearer realm="API Token Required"')
    const post = await server.call('POST', '/api/config/nodes', { body: {} })
    expect(post.status).toBe(401)
    expect(post.json.message).toBe('API token required')

    const wrong = await server.call('GET', '/api/security/audit', { token: 'nope-nope-nope-nope' })
    expect(wrong.status).toBe(401)
    expect(wrong.json.message).toBe('Invalid API token')
    const right = await server.call('GET', '/api/security/audit', { token: ENV_TOKEN })
    expect(right.status).toBe(200)
  })

  it('exports with the token and a custom passphrase; the first-run setup needs the token', async () => {
    server = await startAuthServer({ apiToken })
    const passphrase = 'a long custom passphrase'
    const refused = await server.call('POST', '/api/config/export', { body: { passphrase } })
    expect(refused.status).toBe(401)
    expect(refused.json.message).toBe('API token required')
    const exported = await server.call('POST', '/api/config/export', {
      body: { passphrase },
      token: ENV_TOKEN,
    })
    expect(exported.status).toBe(200)
    expect(exported.json.kdf).toBeDefined()

    expect((await server.call('POST', '/api/security/quick-setup', { body: {} })).status).toBe(401)
    expect(server.ctx.app.auth.settings()).toBeNull()
    // Regenerating an environment token is refused with the variable named.
    const regen = await server.call('POST', '/api/security/regenerate-token', {
      body: {},
      token: ENV_TOKEN,
    })
    expect(regen.status).toBe(409)
    expect(regen.json.message).toMatch(/API_TOKEN/)

    const setup = await server.call('POST', '/api/security/quick-setup', {
      body: {},
      token: ENV_TOKEN,
    })
    expect(setup.status).toBe(200)
    // With a login the open reads close; the environment token still works.
    expect((await server.call('GET', '/api/state')).status).toBe(401)
    expect((await server.call('GET', '/api/state', { token: ENV_TOKEN })).status).toBe(200)
  })

  it('refuses a short API_TOKEN, naming the variable, and keeps only its hash', () => {
    expect(() => readConfig({ API_TOKEN: 'short' }, '/tmp', '0')).toThrow(/API_TOKEN/)
    expect(JSON.stringify(apiToken)).not.toContain(ENV_TOKEN)
  })
})
