// System settings (issue 16, acceptance 1): saved allowed origins and embedding apply to /ws and
// to the frame headers at once; the environment fixes them when set; bad input changes nothing.
import { afterEach, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { createSystemSettingsRepo } from '../../../../src/server/store/system-settings-repo.ts'
import { createWebPolicy } from '../../../../src/server/system/web-policy.ts'
import {
  quickSetup,
  startAuthServer,
  type AuthTestServer,
  type Credentials,
} from '../auth/auth-helpers.ts'

const FOREIGN = 'https://dash.example.com'

let server: AuthTestServer | null = null
afterEach(async () => {
  await server?.close()
  server = null
})

async function start(env: Parameters<typeof startAuthServer>[0] = {}) {
  server = await startAuthServer(env)
  const creds = await quickSetup(server)
  return { server, creds }
}

const cookieHeader = (c: Credentials['cookies']) =>
  `pulse_session=${c.pulse_session}; pulse_csrf=${c.pulse_csrf}`

/** Open /ws from `origin`: 101 when accepted, else the HTTP status of the refusal. */
function openSocket(s: AuthTestServer, creds: Credentials, origin: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(s.base.replace('http', 'ws') + '/ws', {
      headers: { cookie: cookieHeader(creds.cookies), origin },
    })
    ws.once('unexpected-response', (_req, res) => {
      resolve(res.statusCode ?? 0)
      ws.terminate()
    })
    ws.once('message', () => {
      resolve(101)
      ws.close()
    })
    ws.once('error', reject)
  })
}

function save(s: AuthTestServer, creds: Credentials, body: object) {
  return s.call('POST', '/api/system/settings/update', {
    body,
    cookies: creds.cookies,
    csrf: creds.cookies.pulse_csrf,
  })
}

const csp = async (s: AuthTestServer) =>
  (await s.call('GET', '/api/health')).headers.get('content-security-policy') ?? ''

describe('system settings: allowed origins and embedding', () => {
  it('starts with same-host sockets only and framing refused', async () => {
    const { server: s, creds } = await start()
    const settings = await s.call('GET', '/api/system/settings', { cookies: creds.cookies })
    expect(settings.json).toMatchObject({
      allowedOrigins: '',
      allowEmbedding: false,
      allowedEmbedOrigins: '',
      envOverrides: {},
    })
    expect(await openSocket(s, creds, FOREIGN)).toBe(403)
    expect(await openSocket(s, creds, s.base)).toBe(101)
    expect(await csp(s)).toContain("frame-ancestors 'none'")
  })

  it('a saved origin is accepted on /ws at once, and refused again once removed', async () => {
    const { server: s, creds } = await start()
    const res = await save(s, creds, { allowedOrigins: `${FOREIGN}/, ${FOREIGN}` })
    expect(res.status).toBe(200)
    expect(res.json).toMatchObject({ allowedOrigins: FOREIGN })
    expect(await openSocket(s, creds, FOREIGN)).toBe(101)
    expect(await openSocket(s, creds, 'https://other.example.net')).toBe(403)
    expect(createSystemSettingsRepo(s.ctx.app.db).get('allowedOrigins')).toEqual([FOREIGN])

    await save(s, creds, { allowedOrigins: '' })
    expect(await openSocket(s, creds, FOREIGN)).toBe(403)
    expect(await openSocket(s, creds, s.base)).toBe(101)
  })

  it('embedding on allows this origin and the listed ones; off sends frame-ancestors none', async () => {
    const { server: s, creds } = await start()
    await save(s, creds, { allowEmbedding: true, allowedEmbedOrigins: 'https://wiki.example.com' })
    const on = await s.call('GET', '/api/health')
    expect(on.headers.get('content-security-policy')).toContain(
      "frame-ancestors 'self' https://wiki.example.com;",
    )
    expect(on.headers.get('x-frame-options')).toBeNull()

    await save(s, creds, { allowEmbedding: false })
    const off = await s.call('GET', '/dashboard')
    expect(off.headers.get('content-security-policy')).toContain("frame-ancestors 'none'")
    expect(off.headers.get('x-frame-options')).toBe('DENY')
    // The listed origins are kept for the next time embedding is switched on.
    const settings = await s.call('GET', '/api/system/settings', { cookies: creds.cookies })
    expect(settings.json).toMatchObject({
      allowEmbedding: false,
      allowedEmbedOrigins: 'https://wiki.example.com',
    })
  })

  it.each([
    [
      { allowedOrigins: 'dash.example.com' },
      'allowedOrigins: "dash.example.com" is not an origin like https://example.com.',
    ],
    [
      { allowedOrigins: 'https://dash.example.com/path' },
      'allowedOrigins: "https://dash.example.com/path" is not an origin like https://example.com.',
    ],
    [{ allowedOrigins: 42 }, 'allowedOrigins: must be a comma-separated list of origins.'],
    [{ allowEmbedding: 'yes' }, 'allowEmbedding: must be true or false.'],
    [
      { allowedEmbedOrigins: '*' },
      'allowedEmbedOrigins: "*" is not an origin like https://example.com.',
    ],
    [
      { allowedOrigins: FOREIGN, discoverySubnet: '127.0.0.0/20' },
      'discoverySubnet: /20 is too large: scan at most a /22 (1024 addresses).',
    ],
  ])('refuses %j with a 400 naming the field, changing nothing', async (body, message) => {
    const { server: s, creds } = await start()
    const res = await save(s, creds, body)
    expect(res.status).toBe(400)
    expect(res.json).toEqual({ code: 'FIELD_INVALID', message })
    expect(await openSocket(s, creds, FOREIGN)).toBe(403)
    expect(await csp(s)).toContain("frame-ancestors 'none'")
    const settings = await s.call('GET', '/api/system/settings', { cookies: creds.cookies })
    expect(settings.json).toMatchObject({ allowedOrigins: '', allowEmbedding: false })
  })

  it('needs an administrator session and the CSRF header', async () => {
    const { server: s, creds } = await start()
    const anonymous = await s.call('POST', '/api/system/settings/update', {
      body: { allowedOrigins: '*' },
    })
    expect(anonymous.status).toBe(401)
    const noCsrf = await s.call('POST', '/api/system/settings/update', {
      body: { allowedOrigins: '*' },
      cookies: creds.cookies,
    })
    expect(noCsrf.status).toBe(403)
    expect(await openSocket(s, creds, FOREIGN)).toBe(403)
  })

  it('ALLOWED_ORIGINS and the embedding variables win over saved values', async () => {
    const { server: s, creds } = await start({
      allowedOrigins: ['https://env.example.com'],
      embedding: { allowed: true, origins: [] },
    })
    const res = await save(s, creds, {
      allowedOrigins: FOREIGN,
      allowEmbedding: false,
      discoveryEnabled: false,
    })
    expect(res.status).toBe(200)
    expect(res.json).toMatchObject({
      allowedOrigins: 'https://env.example.com',
      allowEmbedding: true,
      envOverrides: { allowedOrigins: true, allowEmbedding: true, allowedEmbedOrigins: true },
    })
    expect(await openSocket(s, creds, FOREIGN)).toBe(403)
    expect(await openSocket(s, creds, 'https://env.example.com')).toBe(101)
    expect(await csp(s)).toContain("frame-ancestors 'self';")
    expect(createSystemSettingsRepo(s.ctx.app.db).get('allowedOrigins')).toBeUndefined()
  })

  it('a restart reads the saved values back from SQLite', async () => {
    const { server: s, creds } = await start()
    await save(s, creds, { allowedOrigins: FOREIGN, allowEmbedding: true })
    // What buildApp does at start-up, on the same database file.
    const policy = createWebPolicy({
      repo: createSystemSettingsRepo(s.ctx.app.db),
      now: () => 0,
      envOrigins: [],
      envEmbedding: null,
    })
    expect(policy.allowedOrigins()).toEqual([FOREIGN])
    expect(policy.embedding()).toEqual({ allowed: true, origins: [] })
  })
})
