// API tokens with roles (issue 29 item 4) over real HTTP on 127.0.0.1 with real SQLite: the
// routes and their 400s, what each role may do, revocation (HTTP and an open socket at once),
// last use, and a config export/import round trip.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { LAST_USED_RESOLUTION_MS } from '../../../../src/server/auth/api-tokens.ts'
import {
  quickSetup,
  startAuthServer,
  type AuthTestServer,
  type Credentials,
} from './auth-helpers.ts'

let clock = Date.parse('2026-03-01T10:00:00Z')
let server: AuthTestServer
let creds: Credentials
beforeEach(async () => {
  server = await startAuthServer({}, { now: () => clock })
  creds = await quickSetup(server)
})
afterEach(async () => {
  await server.close()
})

/** Create a token as the admin (with the setup's token) and return the answer. */
async function create(body: unknown) {
  return server.call('POST', '/api/security/tokens', { token: creds.apiToken, body })
}

async function createToken(name: string, role: string): Promise<{ id: string; token: string }> {
  const res = await create({ name, role })
  expect(res.status, res.text).toBe(201)
  return res.json
}

/** Open /ws with a token; resolves once welcomed, with the close it later gets. */
function openSocket(token: string): Promise<{ ws: WebSocket; closed: Promise<number> }> {
  const ws = new WebSocket(server.base.replace('http', 'ws') + '/ws', {
    headers: { 'x-api-token': token },
  })
  const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)))
  return new Promise((resolve, reject) => {
    ws.once('message', () => resolve({ ws, closed }))
    ws.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)))
    ws.once('error', reject)
  })
}

describe('/api/security/tokens', () => {
  it('lists the setup token as the admin token "default", without its value or digest', async () => {
    const res = await server.call('GET', '/api/security/tokens', { token: creds.apiToken })
    expect(res.status).toBe(200)
    expect(res.json.tokens).toEqual([
      {
        id: expect.any(String),
        name: 'default',
        role: 'admin',
        hint: `${creds.apiToken.slice(0, 8)}...${creds.apiToken.slice(-4)}`,
        createdAt: new Date(clock).toISOString(),
        lastUsedAt: new Date(clock).toISOString(),
      },
    ])
    expect(res.text).not.toContain(creds.apiToken)
  })

  it('creates a token shown once, lists it, and stores only its digest', async () => {
    const res = await create({ name: 'grafana', role: 'viewer' })
    expect(res.status).toBe(201)
    expect(res.headers.get('cache-control')).toBe('no-store')
    expect(res.json).toEqual({
      id: expect.any(String),
      name: 'grafana',
      role: 'viewer',
      hint: `${res.json.token.slice(0, 8)}...${res.json.token.slice(-4)}`,
      createdAt: new Date(clock).toISOString(),
      lastUsedAt: null,
      token: expect.stringMatching(/^[0-9a-f]{48}$/),
    })
    const list = await server.call('GET', '/api/security/tokens', { token: creds.apiToken })
    expect(list.json.tokens.map((t: { name: string }) => t.name)).toEqual(['default', 'grafana'])
    expect(list.text).not.toContain(res.json.token)
    const rows = server.ctx.app.db.prepare('SELECT * FROM api_tokens').all()
    expect(JSON.stringify(rows)).not.toContain(res.json.token)
    const audit = await server.call('GET', '/api/security/audit', { token: creds.apiToken })
    expect(audit.json.events[0]).toMatchObject({
      type: 'token_created',
      username: 'default',
      detail: 'token "grafana" (viewer)',
    })
  })

  it('answers 400 naming the field', async () => {
    const cases: Array<[unknown, RegExp]> = [
      [{ role: 'viewer' }, /^name: is required/],
      [{ name: '', role: 'viewer' }, /^name: is required/],
      [{ name: 'x'.repeat(65), role: 'viewer' }, /^name: must be at most 64 characters/],
      [{ name: 'default', role: 'viewer' }, /^name: is already taken/],
      [{ name: 'ci' }, /^role: must be one of viewer, operator, admin/],
      [{ name: 'ci', role: 'root' }, /^role: must be one of viewer, operator, admin/],
      [{ name: 'ci', role: 'viewer', scope: 'all' }, /^body: .*scope/],
    ]
    for (const [body, message] of cases) {
      const res = await create(body)
      expect(res.status, JSON.stringify(body)).toBe(400)
      expect(res.json.code).toBe('FIELD_INVALID')
      expect(res.json.message, JSON.stringify(body)).toMatch(message)
    }
  })

  it('refuses a token beyond the hundredth', async () => {
    for (let i = 1; i < 100; i++) await createToken(`t${i}`, 'viewer')
    const res = await create({ name: 'one-too-many', role: 'viewer' })
    expect(res.status).toBe(400)
    expect(res.json.message).toMatch(/^name: no more than 100 tokens/)
  })

  it('is for administrators only', async () => {
    const { token } = await createToken('ops', 'operator')
    for (const [method, path] of [
      ['GET', '/api/security/tokens'],
      ['POST', '/api/security/tokens'],
      ['DELETE', '/api/security/tokens/whatever'],
    ] as const) {
      const body = method === 'GET' ? undefined : { name: 'x', role: 'admin' }
      const res = await server.call(method, path, { token, body })
      expect(res.status, `${method} ${path}`).toBe(403)
      expect(res.json.code).toBe('ROLE_REQUIRED')
    }
  })

  it('answers 404 to revoking an unknown token', async () => {
    const res = await server.call('DELETE', '/api/security/tokens/nope', {
      token: creds.apiToken,
    })
    expect(res.status).toBe(404)
  })
})

describe('a token role', () => {
  it('lets a viewer read but not acknowledge', async () => {
    const { token } = await createToken('wall', 'viewer')
    expect((await server.call('GET', '/api/state', { token })).status).toBe(200)
    const ack = await server.call('POST', '/api/alerts/bulk/acknowledge', {
      token,
      body: { alertIds: ['none'] },
    })
    expect(ack.status).toBe(403)
    expect(ack.json).toEqual({
      code: 'ROLE_REQUIRED',
      message: 'This needs the operator role; you are viewer',
    })
  })

  it('lets an operator acknowledge but not change the alert configuration', async () => {
    const { token } = await createToken('oncall', 'operator')
    const ack = await server.call('POST', '/api/alerts/bulk/acknowledge', {
      token,
      body: { alertIds: ['none'] },
    })
    expect(ack.status).toBe(200)
    const config = await server.call('PUT', '/api/alerts/config', { token, body: {} })
    expect(config.status).toBe(403)
    expect(config.json.code).toBe('ROLE_REQUIRED')
  })

  it("names the caller by the token's name", async () => {
    const { token } = await createToken('ci-deploy', 'admin')
    const status = await server.call('GET', '/api/security/status', { token })
    expect(status.json.authUsername).toBe('ci-deploy')
  })

  it('lets any valid token scrape /metrics', async () => {
    const { token } = await createToken('prometheus', 'viewer')
    expect((await server.call('GET', '/metrics', { token })).status).toBe(200)
    expect((await server.call('GET', '/metrics', { token: 'f'.repeat(48) })).status).toBe(401)
  })
})

describe('revoking', () => {
  it('refuses the token at once on HTTP and closes its open socket', async () => {
    const { id, token } = await createToken('kiosk', 'viewer')
    const other = await createToken('other', 'viewer')
    const socket = await openSocket(token)
    const kept = await openSocket(other.token)
    const res = await server.call('DELETE', `/api/security/tokens/${id}`, {
      token: creds.apiToken,
    })
    expect(res.status).toBe(200)
    expect(await socket.closed).toBe(1008)
    const after = await server.call('GET', '/api/state', { token })
    expect(after.status).toBe(401)
    expect(after.json.code).toBe('API_TOKEN_INVALID')
    // Another token's socket stays open.
    expect(kept.ws.readyState).toBe(WebSocket.OPEN)
    kept.ws.close()
    const audit = await server.call('GET', '/api/security/audit', { token: creds.apiToken })
    expect(audit.json.events[0]).toMatchObject({
      type: 'token_revoked',
      detail: 'token "kiosk" (viewer)',
    })
  })

  it('regenerating replaces the "default" token and closes its sockets', async () => {
    const socket = await openSocket(creds.apiToken)
    const res = await server.call('POST', '/api/security/regenerate-token', {
      token: creds.apiToken,
    })
    expect(res.status).toBe(200)
    expect(await socket.closed).toBe(1008)
    expect((await server.call('GET', '/api/state', { token: creds.apiToken })).status).toBe(401)
    const list = await server.call('GET', '/api/security/tokens', { token: res.json.token })
    expect(list.json.tokens).toMatchObject([{ name: 'default', role: 'admin' }])
  })
})

describe('last use', () => {
  it('is written at most once a minute per token', async () => {
    const { id, token } = await createToken('poller', 'viewer')
    const lastUsed = () =>
      (
        server.ctx.app.db.prepare('SELECT last_used_at FROM api_tokens WHERE id = ?').get(id) as {
          last_used_at: number | null
        }
      ).last_used_at
    const first = clock
    await server.call('GET', '/api/state', { token })
    expect(lastUsed()).toBe(first)
    clock += LAST_USED_RESOLUTION_MS - 1
    await server.call('GET', '/api/state', { token })
    expect(lastUsed()).toBe(first)
    clock += 1
    await server.call('GET', '/api/state', { token })
    expect(lastUsed()).toBe(clock)
  })
})

describe('config export and import', () => {
  it('carries the tokens by digest: an imported token works on the other instance', async () => {
    const { token } = await createToken('backup-script', 'operator')
    const passphrase = 'a passphrase for the tokens'
    const file = await server.call('POST', '/api/config/export', {
      token: creds.apiToken,
      body: { passphrase },
    })
    expect(file.status).toBe(200)
    const target = await startAuthServer()
    try {
      const targetCreds = await quickSetup(target)
      const res = await target.call('POST', '/api/config/import', {
        token: targetCreds.apiToken,
        body: { passphrase, data: file.json },
      })
      expect(res.status, res.text).toBe(200)
      const list = await target.call('GET', '/api/security/tokens', { token: creds.apiToken })
      expect(list.status).toBe(200)
      expect(list.json.tokens.map((t: { name: string; role: string }) => [t.name, t.role])).toEqual(
        [
          ['default', 'admin'],
          ['backup-script', 'operator'],
        ],
      )
      const ack = await target.call('POST', '/api/alerts/bulk/acknowledge', {
        token,
        body: { alertIds: ['none'] },
      })
      expect(ack.status).toBe(200)
      // The target's own token is gone with the import.
      expect((await target.call('GET', '/api/state', { token: targetCreds.apiToken })).status).toBe(
        401,
      )
    } finally {
      await target.close()
    }
  })

  it('keeps the token names out of the diagnostics export', async () => {
    const { token } = await createToken('secret-named-token', 'admin')
    const res = await server.call('GET', '/api/diagnostics/export?sanitize=false', { token })
    expect(res.status).toBe(200)
    expect(res.text).not.toContain('secret-named-token')
    expect(res.text).not.toContain(token.slice(0, 8))
  })
})
