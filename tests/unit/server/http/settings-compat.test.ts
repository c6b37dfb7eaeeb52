// The reference's settings paths (issue 24 #36; spec 001 §7, reference/wire-protocol.md §3.4):
// /api/config/system and /api/settings answer our values in the reference's shapes, and the legacy
// writes store what is ours to store and refuse, naming the field, what the environment decides.
// Real app, real HTTP on 127.0.0.1.
import { afterEach, describe, expect, it } from 'vitest'
import { readProxyAuthConfig } from '../../../../src/server/auth/proxy-auth.ts'
import { readConfig } from '../../../../src/server/config.ts'
import {
  quickSetup,
  startAuthServer,
  type AuthTestServer,
  type CallOptions,
} from '../auth/auth-helpers.ts'

let server: AuthTestServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

/** An app with a login, and an admin session's call options. */
async function startWithAdmin(
  overrides: Parameters<typeof startAuthServer>[0] = {},
): Promise<{ target: AuthTestServer; admin: Omit<CallOptions, 'body'> }> {
  const target = (server = await startAuthServer(overrides))
  const creds = await quickSetup(target)
  return { target, admin: { cookies: creds.cookies, csrf: creds.cookies.pulse_csrf } }
}

describe('GET /api/config/system', () => {
  it('answers the running values, the stored settings included, not defaults', async () => {
    const { target, admin } = await startWithAdmin({ port: 7760, pollIntervalMs: 15_000 })
    // Each unlike its default: the reference's UI showed '*' and discovery on.
    const stored = {
      allowedOrigins: 'https://wall.example.com',
      discoveryEnabled: false,
      discoverySubnet: '127.0.0.0/30',
      allowEmbedding: true,
      allowedEmbedOrigins: 'https://portal.example.com',
      updateChannel: 'rc',
      theme: 'dark',
    }
    const saved = await target.call('POST', '/api/system/settings/update', {
      ...admin,
      body: stored,
    })
    expect(saved.status).toBe(200)
    const res = await target.call('GET', '/api/config/system', admin)
    expect(res.status).toBe(200)
    expect(res.json).toMatchObject({
      ...stored,
      autoUpdateEnabled: expect.any(Boolean),
      autoUpdateCheckInterval: expect.any(Number),
      autoUpdateTime: expect.any(String),
      pbsPollingInterval: 15,
      backendPort: 7760,
      frontendPort: 7760,
      logLevel: 'info',
    })
    // The same settings as our own System tab reads.
    const system = await target.call('GET', '/api/system/settings', admin)
    for (const [key, value] of Object.entries(system.json)) expect(res.json[key]).toEqual(value)
  })
})

describe('GET /api/settings (legacy form)', () => {
  it('answers current, defaults and capabilities with our values and no secret', async () => {
    const { target, admin } = await startWithAdmin({ port: 7760 })
    await target.call('POST', '/api/system/settings/update', {
      ...admin,
      body: { allowedOrigins: 'https://wall.example.com' },
    })
    const res = await target.call('GET', '/api/settings', admin)
    expect(res.status).toBe(200)
    const at = { port: 7760, host: '127.0.0.1' }
    expect(res.json).toEqual({
      current: {
        server: { backend: at, frontend: at },
        monitoring: { pollingInterval: 10 },
        logging: { level: 'info' },
        security: { allowedOrigins: ['https://wall.example.com'], enableAuthentication: true },
      },
      defaults: {
        server: {
          backend: { port: 7655, host: '127.0.0.1' },
          frontend: { port: 7655, host: '127.0.0.1' },
        },
        monitoring: { pollingInterval: 10 },
        logging: { level: 'info' },
        security: { allowedOrigins: [], enableAuthentication: true },
      },
      capabilities: { canRestart: false, canValidatePorts: false, requiresRestart: true },
    })
    expect(res.text).not.toMatch(/apiToken/i)
  })
})

describe('POST /api/settings/update and /api/settings/validate', () => {
  it('stores the allowed origins from the form alone or wrapped as {settings}', async () => {
    const { target, admin } = await startWithAdmin()
    const current = (await target.call('GET', '/api/settings', admin)).json.current
    const form = {
      ...current,
      security: { ...current.security, allowedOrigins: ['https://a.example.com'] },
    }
    const saved = await target.call('POST', '/api/settings/update', { ...admin, body: form })
    expect(saved.status).toBe(200)
    expect(saved.json).toEqual({ success: true, message: 'Settings saved', requiresRestart: false })
    const system = await target.call('GET', '/api/system/settings', admin)
    expect(system.json.allowedOrigins).toBe('https://a.example.com')

    const wrapped = await target.call('POST', '/api/settings/update', {
      ...admin,
      body: { settings: { security: { allowedOrigins: 'https://b.example.com' } } },
    })
    expect(wrapped.status).toBe(200)
    expect((await target.call('GET', '/api/config/system', admin)).json.allowedOrigins).toBe(
      'https://b.example.com',
    )
  })

  it('validates without storing: validate, and update with validateOnly', async () => {
    const { target, admin } = await startWithAdmin()
    const form = { security: { allowedOrigins: ['https://c.example.com'] } }
    const valid = await target.call('POST', '/api/settings/validate', { ...admin, body: form })
    expect(valid.status).toBe(200)
    expect(valid.json).toEqual({ valid: true, message: 'Configuration is valid' })
    const only = await target.call('POST', '/api/settings/update', {
      ...admin,
      body: { settings: form, validateOnly: true },
    })
    expect(only.json).toEqual({ valid: true, message: 'Configuration is valid' })
    expect((await target.call('GET', '/api/config/system', admin)).json.allowedOrigins).toBe('')
  })

  it('refuses with a 400 naming the field what the environment decides, storing nothing', async () => {
    const { target, admin } = await startWithAdmin({ port: 7760 })
    const env = (variable: string) => `is set by the ${variable} environment variable`
    const cases: Array<[unknown, string]> = [
      [{ server: { frontend: { port: 8080 } } }, `server.frontend.port: ${env('PORT')}`],
      [
        { settings: { logging: { level: 'debug' } } },
        `settings.logging.level: ${env('LOG_LEVEL')}`,
      ],
      [
        { monitoring: { pollingInterval: 3 } },
        `monitoring.pollingInterval: ${env('PULSE_POLL_INTERVAL_MS')}`,
      ],
      [{ security: { apiToken: 'guess' } }, 'security.apiToken: cannot be set here'],
      [{ security: { allowedOrigins: ['ftp://x'] } }, 'security.allowedOrigins: '],
      [{ server: { backend: { port: 'x' } } }, 'server.backend.port: must be a port number'],
    ]
    for (const [body, message] of cases) {
      for (const path of ['/api/settings/update', '/api/settings/validate']) {
        const res = await target.call('POST', path, { ...admin, body })
        expect(res.status, `${path} ${JSON.stringify(body)}`).toBe(400)
        expect(res.json.code).toBe('FIELD_INVALID')
        expect(res.json.message).toContain(message)
      }
    }
    // A refused form that also carried origins stored none of them.
    const mixed = await target.call('POST', '/api/settings/update', {
      ...admin,
      body: {
        server: { frontend: { port: 8080 } },
        security: { allowedOrigins: ['https://d.example.com'] },
      },
    })
    expect(mixed.status).toBe(400)
    expect((await target.call('GET', '/api/config/system', admin)).json.allowedOrigins).toBe('')
    // The running values sent back unchanged pass.
    const current = (await target.call('GET', '/api/settings', admin)).json.current
    const same = await target.call('POST', '/api/settings/update', { ...admin, body: current })
    expect(same.status).toBe(200)
  })
})

describe('roles', () => {
  const SECRET = 'proxy-shared-secret-8f1d2c'
  const viaProxy = (user: string, roles: string) => ({
    headers: { 'x-proxy-secret': SECRET, 'x-remote-user': user, 'x-remote-roles': roles },
    cookies: { pulse_csrf: 'c'.repeat(43) },
    csrf: 'c'.repeat(43),
  })

  it('lets any signed-in user read and only an admin write', async () => {
    const target = (server = await startAuthServer({
      proxyAuth: readProxyAuthConfig({ PROXY_AUTH_SECRET: SECRET })!,
    }))
    const user = viaProxy('bob', 'users')
    for (const path of ['/api/config/system', '/api/settings'])
      expect((await target.call('GET', path, user)).status, path).toBe(200)
    for (const path of ['/api/settings/update', '/api/settings/validate']) {
      const refused = await target.call('POST', path, { ...user, body: {} })
      expect(refused.status, path).toBe(403)
      expect(refused.json.code).toBe('ROLE_REQUIRED')
      const admin = await target.call('POST', path, { ...viaProxy('root', 'admin'), body: {} })
      expect(admin.status, path).toBe(200)
    }
  })

  it('leaves both reads open in API-token-only mode, as the reference does, and writes closed', async () => {
    const apiToken = readConfig({ API_TOKEN: 'env-token-0123456789abcdef' }, '/tmp', '0').apiToken
    const target = (server = await startAuthServer({ apiToken }))
    for (const path of ['/api/config/system', '/api/settings'])
      expect((await target.call('GET', path)).status, path).toBe(200)
    const write = await target.call('POST', '/api/settings/update', { body: {} })
    expect(write.status).toBe(401)
  })
})
