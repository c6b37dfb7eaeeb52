// GET/PUT /api/security/oidc (contract slice 2, spec 001 §3 OIDC config, §5 OIDC rules), the
// environment overrides, and the status fields, against the real app on 127.0.0.1.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readOidcEnv } from '../../../../src/server/auth/oidc-settings.ts'
import { readConfig } from '../../../../src/server/config.ts'
import { startAuthServer, quickSetup, type AuthTestServer } from './auth-helpers.ts'
import { CLIENT_ID, CLIENT_SECRET } from './oidc-idp.ts'
import { startOidcFixture, type OidcFixture } from './oidc-fixture.ts'

const ISSUER = 'https://id.example.com/realms/pulse'

describe('GET/PUT /api/security/oidc', () => {
  let server: AuthTestServer
  let token: string
  const get = () => server.call('GET', '/api/security/oidc', { token })
  const put = (body: unknown) => server.call('PUT', '/api/security/oidc', { body, token })

  beforeAll(async () => {
    server = await startAuthServer()
    token = (await quickSetup(server)).apiToken
  })
  afterAll(async () => {
    await server.close()
  })

  it('needs authentication', async () => {
    expect((await server.call('GET', '/api/security/oidc')).status).toBe(401)
    expect((await server.call('PUT', '/api/security/oidc', { body: {} })).status).toBe(401)
  })

  it('answers the defaults before the first save', async () => {
    const res = await get()
    expect(res.status).toBe(200)
    expect(res.headers.get('cache-control')).toBe('no-store')
    expect(res.json).toEqual({
      enabled: false,
      issuerUrl: '',
      clientId: '',
      clientSecretSet: false,
      redirectUrl: '',
      defaultRedirect: `${server.base}/api/oidc/callback`,
      logoutUrl: '',
      scopes: ['openid', 'profile', 'email'],
      usernameClaim: 'preferred_username',
      emailClaim: 'email',
      groupsClaim: 'groups',
      allowedGroups: [],
      allowedDomains: [],
      allowedEmails: [],
      roleMapping: [],
      defaultRole: 'admin',
      envOverrides: [],
    })
  })

  it('round-trips a configuration; the secret is sealed and never answered', async () => {
    const res = await put({
      enabled: true,
      issuerUrl: `  ${ISSUER}  `,
      clientId: 'pulse',
      clientSecret: 'very-secret-value-42',
      redirectUrl: 'http://pulse.lan:7655/api/oidc/callback',
      logoutUrl: `${ISSUER}/protocol/openid-connect/logout`,
      scopes: 'profile email groups',
      usernameClaim: 'name',
      allowedGroups: ['admins', 'ops'],
      allowedDomains: '@Example.COM, other.org',
      allowedEmails: ['Boss@Example.com'],
    })
    expect(res.status).toBe(200)
    expect(res.text).not.toContain('very-secret-value-42')
    expect(res.json).toMatchObject({
      enabled: true,
      issuerUrl: ISSUER,
      clientId: 'pulse',
      clientSecretSet: true,
      scopes: ['openid', 'profile', 'email', 'groups'],
      usernameClaim: 'name',
      emailClaim: 'email',
      allowedGroups: ['admins', 'ops'],
      allowedDomains: ['example.com', 'other.org'],
      allowedEmails: ['boss@example.com'],
      envOverrides: [],
    })
    const again = await get()
    expect(again.json).toEqual(res.json)
    expect(again.text).not.toContain('very-secret-value-42')
    const row = server.ctx.app.db.prepare('SELECT client_secret_enc FROM oidc_config').get() as {
      client_secret_enc: string
    }
    expect(row.client_secret_enc).toMatch(/^v1:/)
    expect(row.client_secret_enc).not.toContain('very-secret-value-42')
  })

  it('keeps the secret when none is sent, clears it with clearClientSecret', async () => {
    expect((await put({ clientId: 'pulse-2', clientSecret: '' })).json.clientSecretSet).toBe(true)
    const cleared = await put({ clearClientSecret: true })
    expect(cleared.status).toBe(200)
    expect(cleared.json.clientSecretSet).toBe(false)
    expect(cleared.json.clientId).toBe('pulse-2')
    const renewed = await put({ clientSecret: 'another-secret', clearClientSecret: true })
    expect(renewed.json.clientSecretSet).toBe(true)
  })

  it('blank claims fall back to the defaults; blank scopes to the default scopes', async () => {
    const res = await put({ usernameClaim: '', scopes: [] })
    expect(res.json.usernameClaim).toBe('preferred_username')
    expect(res.json.scopes).toEqual(['openid', 'profile', 'email'])
  })

  it.each([
    [{ enabled: true, issuerUrl: '' }, 'issuerUrl', 'is required'],
    [{ enabled: true, clientId: '' }, 'clientId', 'is required'],
    [{ issuerUrl: 'ftp://id.example.com' }, 'issuerUrl', 'http:// or https://'],
    [{ issuerUrl: 'not a url' }, 'issuerUrl', 'valid URL'],
    [{ issuerUrl: 'http://id.example.com' }, 'issuerUrl', 'https://'],
    [{ redirectUrl: 'javascript:alert(1)' }, 'redirectUrl', 'http:// or https://'],
    [{ logoutUrl: 'nope' }, 'logoutUrl', 'valid URL'],
    [{ allowedEmails: ['not-an-email'] }, 'allowedEmails', 'not an email'],
    [{ allowedDomains: ['a b@c'] }, 'allowedDomains', 'not a domain'],
    [{ scopes: ['openid', 'bad"scope'] }, 'scopes', 'not a valid scope'],
    [{ scopes: 5 }, 'scopes', 'list of strings'],
    [{ enabled: 'yes' }, 'enabled', 'true or false'],
    [{ usernameClaim: 'two words' }, 'usernameClaim', 'spaces'],
  ])('400 naming the field: %j', async (body, field, problem) => {
    const before = (await get()).json
    const res = await put(body)
    expect(res.status).toBe(400)
    expect(res.json.code).toBe('FIELD_INVALID')
    expect(res.json.message).toMatch(new RegExp(`^${field}: `))
    expect(res.json.message).toContain(problem)
    expect((await get()).json).toEqual(before)
  })

  it('an http issuer is accepted on a loopback address', async () => {
    const res = await put({ issuerUrl: 'http://127.0.0.1:5556/dex' })
    expect(res.status).toBe(200)
    expect((await put({ issuerUrl: 'http://localhost:5556' })).status).toBe(200)
  })

  it('records the change in the audit log', async () => {
    await put({ enabled: false })
    const events = (await server.call('GET', '/api/security/audit?limit=1', { token })).json.events
    // Changed with the setup's API token: the caller is named by it (issue 29 item 4).
    expect(events[0]).toMatchObject({ type: 'oidc_config_changed', username: 'default' })
  })
})

describe('environment overrides', () => {
  let server: AuthTestServer
  let token: string
  const env = {
    OIDC_ISSUER_URL: ISSUER,
    OIDC_CLIENT_SECRET: 'env-secret-value',
    OIDC_ALLOWED_GROUPS: 'admins, ops  sre',
    OIDC_SCOPES: 'profile,email',
  }
  const put = (body: unknown) => server.call('PUT', '/api/security/oidc', { body, token })

  beforeAll(async () => {
    server = await startAuthServer({ oidcEnv: readOidcEnv(env) })
    token = (await quickSetup(server)).apiToken
  })
  afterAll(async () => {
    await server.close()
  })

  it('shows env values and lists the overridden fields', async () => {
    const res = await server.call('GET', '/api/security/oidc', { token })
    expect(res.json).toMatchObject({
      issuerUrl: ISSUER,
      clientSecretSet: true,
      allowedGroups: ['admins', 'ops', 'sre'],
      scopes: ['openid', 'profile', 'email'],
      envOverrides: ['issuerUrl', 'clientSecret', 'scopes', 'allowedGroups'],
    })
    expect(res.text).not.toContain('env-secret-value')
  })

  it('a changed env field is 400 FIELD_READ_ONLY naming the variable', async () => {
    const res = await put({ issuerUrl: 'https://other.example.com' })
    expect(res.status).toBe(400)
    expect(res.json).toEqual({
      code: 'FIELD_READ_ONLY',
      message: 'issuerUrl: set by the environment variable OIDC_ISSUER_URL.',
    })
    const secret = await put({ clientSecret: 'mine' })
    expect(secret.json.message).toBe(
      'clientSecret: set by the environment variable OIDC_CLIENT_SECRET.',
    )
    expect((await put({ clearClientSecret: true })).json.code).toBe('FIELD_READ_ONLY')
    expect((await put({ allowedGroups: [] })).json.code).toBe('FIELD_READ_ONLY')
  })

  it('other fields save; echoing the env value back is accepted', async () => {
    const res = await put({
      enabled: true,
      clientId: 'pulse',
      issuerUrl: ISSUER,
      allowedGroups: 'admins ops sre',
    })
    expect(res.status).toBe(200)
    expect(res.json).toMatchObject({ enabled: true, clientId: 'pulse', issuerUrl: ISSUER })
    const status = await server.call('GET', '/api/security/status')
    expect(status.json.oidcEnabled).toBe(true)
  })

  it('readConfig reads OIDC_* and refuses bad values naming the variable', () => {
    const config = readConfig({ ...env, OIDC_ENABLED: 'true' }, '/tmp', '0')
    expect(config.oidcEnv).toMatchObject({ enabled: true, issuerUrl: ISSUER })
    expect(readConfig({}, '/tmp', '0').oidcEnv).toEqual({})
    expect(() => readOidcEnv({ OIDC_ENABLED: 'maybe' })).toThrow(/OIDC_ENABLED/)
    expect(() => readOidcEnv({ OIDC_ISSUER_URL: 'http://id.example.com' })).toThrow(
      /OIDC_ISSUER_URL/,
    )
    expect(() => readOidcEnv({ OIDC_LOGOUT_URL: 'x' })).toThrow(/OIDC_LOGOUT_URL/)
    expect(() => readOidcEnv({ OIDC_ALLOWED_EMAILS: 'nobody' })).toThrow(/OIDC_ALLOWED_EMAILS/)
    expect(readOidcEnv({ OIDC_ALLOWED_DOMAINS: '@A.com b.org', OIDC_CLIENT_ID: ' ' })).toEqual({
      allowedDomains: ['a.com', 'b.org'],
    })
  })
})

describe('status fields and env-only single sign-on', () => {
  let fx: OidcFixture
  beforeAll(async () => {
    fx = await startOidcFixture({
      oidcEnv: (issuer) =>
        readOidcEnv({
          OIDC_ENABLED: 'true',
          OIDC_ISSUER_URL: issuer,
          OIDC_CLIENT_ID: CLIENT_ID,
          OIDC_CLIENT_SECRET: CLIENT_SECRET,
          OIDC_LOGOUT_URL: `${issuer}/session/end`,
        }),
    })
  })
  afterAll(async () => {
    await fx?.close()
  })

  it('status: enabled for everyone, the logout URL only for a signed-in caller', async () => {
    const anonymous = await fx.server.call('GET', '/api/security/status')
    expect(anonymous.json).toMatchObject({
      oidcEnabled: true,
      oidcUsername: '',
      oidcLogoutURL: '',
    })
    const admin = await fx.server.call('GET', '/api/security/status', {
      cookies: fx.creds.cookies,
    })
    expect(admin.json).toMatchObject({
      authUsername: 'admin',
      oidcEnabled: true,
      oidcUsername: '',
      oidcLogoutURL: `${fx.idp.issuer}/session/end`,
    })
  })

  it('a login works with the configuration from the environment alone', async () => {
    const answer = await fx.loginAs('bob', '/nodes')
    expect(answer.location).toBe('/nodes')
    const cookies = { pulse_session: answer.cookies.pulse_session!, pulse_csrf: '' }
    const status = await fx.server.call('GET', '/api/security/status', { cookies })
    expect(status.json).toMatchObject({ oidcUsername: 'bob', authUsername: 'bob' })
  })
})
