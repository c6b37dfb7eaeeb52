// Configuration export and import over real HTTP on 127.0.0.1, with real SQLite and key files:
// an export from one instance restores into a fresh one with its own key.
import fs from 'node:fs'
import path from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createNodesRepo } from '../../../../src/server/store/nodes-repo.ts'
import {
  createSecretBox,
  KEY_FILE,
  loadOrCreateKey,
} from '../../../../src/server/store/secret-box.ts'
import {
  login,
  quickSetup,
  startAuthServer,
  type AuthTestServer,
  type Credentials,
} from '../auth/auth-helpers.ts'
import { TEST_KDF_COST } from '../helpers.ts'

const NODE_TOKEN = '5d0c9e1a-7f3b-4e2d-9c8a-1b2c3d4e5f60'
const NODE_PASSWORD = 'pbs-node-password-77'
const OIDC_SECRET = 'oidc-client-secret-123456'
const PASSWORD = 'first-login-pw'
const CUSTOM = 'a custom passphrase of some length'

const servers: AuthTestServer[] = []
afterEach(async () => {
  vi.restoreAllMocks()
  while (servers.length) await servers.pop()!.close()
})

async function start(): Promise<AuthTestServer> {
  const server = await startAuthServer()
  servers.push(server)
  return server
}

/** Session cookies and the CSRF header of a logged-in browser. */
const browser = (creds: { pulse_session: string; pulse_csrf: string }) => ({
  cookies: creds,
  csrf: creds.pulse_csrf,
})

/** A source instance with a login, an API token, two nodes, guest metadata and OIDC settings. */
async function seededSource(): Promise<{ server: AuthTestServer; creds: Credentials }> {
  const server = await start()
  const creds = await quickSetup(server, { password: PASSWORD })
  const as = browser(creds.cookies)
  const token = await server.call('POST', '/api/config/nodes', {
    ...as,
    body: {
      type: 'pve',
      name: 'lab',
      host: '127.0.0.1:9',
      tokenName: 'monitor@pve!dashboard',
      tokenValue: NODE_TOKEN,
      verifySSL: false,
    },
  })
  expect(token.status).toBe(201)
  const pass = await server.call('POST', '/api/config/nodes', {
    ...as,
    body: {
      type: 'pbs',
      name: 'backup',
      host: 'https://127.0.0.1:9',
      user: 'monitor@pbs',
      password: NODE_PASSWORD,
    },
  })
  expect(pass.status).toBe(201)
  const meta = await server.call('PUT', '/api/guests/metadata/pve-lab-101', {
    ...as,
    body: { customUrl: 'https://grafana.example.test/d/101', tags: ['db'] },
  })
  expect(meta.status).toBe(200)
  const { db } = server.ctx.app
  const box = createSecretBox(loadOrCreateKey(server.ctx.dataDir))
  db.prepare(
    `INSERT INTO oidc_config (id, enabled, issuer_url, client_id, client_secret_enc, updated_at)
     VALUES (1, 0, 'https://issuer.example.test', 'pulse', ?, 1)`,
  ).run(box.encrypt(OIDC_SECRET))
  return { server, creds }
}

async function exportFrom(server: AuthTestServer, creds: Credentials, passphrase = PASSWORD) {
  const res = await server.call('POST', '/api/config/export', {
    ...browser(creds.cookies),
    body: { passphrase },
  })
  expect(res.status, res.text).toBe(200)
  return res
}

/** Everything an import could change, read straight from the target's database. */
function stateOf(server: AuthTestServer) {
  const { db } = server.ctx.app
  return {
    nodes: db.prepare('SELECT id, name FROM nodes ORDER BY id').all(),
    metadata: db.prepare('SELECT * FROM guest_metadata ORDER BY guest_id').all(),
    auth: db.prepare('SELECT * FROM auth_settings').all(),
    oidc: db.prepare('SELECT * FROM oidc_config').all(),
    liveSessions: db.prepare('SELECT id_hash FROM sessions WHERE revoked_at IS NULL').all(),
  }
}

describe('POST /api/config/export', () => {
  it('answers the encrypted file as a dated attachment without any plaintext secret', async () => {
    const { server, creds } = await seededSource()
    const res = await exportFrom(server, creds)
    const date = new Date().toISOString().slice(0, 10)
    expect(res.headers.get('content-disposition')).toBe(
      `attachment; filename="pulse-config-${date}.json"`,
    )
    expect(res.headers.get('content-type')).toMatch(/^application\/json/)
    expect(res.headers.get('cache-control')).toBe('no-store')
    expect(res.json).toEqual({
      format: 'pulse-config',
      version: 1,
      exportedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      // The test builder's cheap cost through the real code path (production: N=131072).
      kdf: { name: 'scrypt', ...TEST_KDF_COST, salt: expect.any(String) },
      cipher: 'aes-256-gcm',
      iv: expect.any(String),
      data: expect.any(String),
    })
    const authRow = server.ctx.app.db.prepare('SELECT * FROM auth_settings').get() as {
      password_hash: string
      api_token_hash: string
    }
    for (const secret of [
      NODE_TOKEN,
      NODE_PASSWORD,
      OIDC_SECRET,
      PASSWORD,
      creds.apiToken,
      authRow.password_hash,
      authRow.api_token_hash,
      'monitor@pve!dashboard',
      'grafana.example.test',
    ]) {
      expect(res.text).not.toContain(secret)
    }
    const events = server.ctx.app.auth.audit.list(10)
    expect(events[0]).toMatchObject({ type: 'config_export', username: 'admin', ip: '127.0.0.1' })
    expect(events[0]!.detail).toContain('2 node(s)')
    expect(JSON.stringify(events)).not.toContain(PASSWORD)
  })

  it('accepts the login password or 12+ characters, and names the passphrase otherwise', async () => {
    const server = await start()
    const creds = await quickSetup(server, { password: PASSWORD })
    const as = browser(creds.cookies)
    const call = (body: object) => server.call('POST', '/api/config/export', { ...as, body })
    const short = await call({ passphrase: 'short-one' })
    expect(short.status).toBe(400)
    expect(short.json).toEqual({
      code: 'FIELD_INVALID',
      message: 'passphrase: use your login password or at least 12 characters.',
    })
    const missing = await call({})
    expect(missing.status).toBe(400)
    expect(missing.json.message).toMatch(/^passphrase: please enter a passphrase/)
    expect((await call({ passphrase: 'x'.repeat(12) })).status).toBe(200)
    expect((await call({ passphrase: PASSWORD })).status).toBe(200)
  })

  it('works with X-API-Token and refuses unauthenticated callers', async () => {
    const server = await start()
    const creds = await quickSetup(server)
    const anonymous = await server.call('POST', '/api/config/export', {
      body: { passphrase: CUSTOM },
    })
    expect(anonymous.status).toBe(401)
    expect(anonymous.json.code).toBe('AUTH_REQUIRED')
    const byToken = await server.call('POST', '/api/config/export', {
      token: creds.apiToken,
      body: { passphrase: CUSTOM },
    })
    expect(byToken.status).toBe(200)
    expect(byToken.json.format).toBe('pulse-config')
  })
})

describe('POST /api/config/import', () => {
  it('restores nodes, metadata, the login, the API token and OIDC into a fresh instance', async () => {
    const { server: source, creds: sourceCreds } = await seededSource()
    const file = (await exportFrom(source, sourceCreds)).json

    const target = await start()
    const targetCreds = await quickSetup(target, { password: 'target-password-1' })
    // Its own key: the sealed secrets of the source mean nothing here.
    const keyOf = (s: AuthTestServer) => fs.readFileSync(path.join(s.ctx.dataDir, KEY_FILE), 'utf8')
    expect(keyOf(target)).not.toBe(keyOf(source))
    const otherSession = await login(target, 'admin', 'target-password-1')
    const setEndpoints = vi.spyOn(target.ctx.app.poller, 'setEndpoints')

    const res = await target.call('POST', '/api/config/import', {
      ...browser(targetCreds.cookies),
      body: { passphrase: PASSWORD, data: file },
    })
    expect(res.status, res.text).toBe(200)
    expect(res.json).toEqual({ status: 'success', message: 'Configuration imported successfully' })

    // Nodes: listed, secrets usable (opened with the target's key), handed to the poller at once.
    const list = await target.call('GET', '/api/config/nodes', { cookies: targetCreds.cookies })
    expect(list.status).toBe(200)
    const byName = Object.fromEntries(
      (list.json as Array<{ name: string }>).map((n) => [n.name, n]),
    )
    expect(byName.lab).toMatchObject({
      type: 'pve',
      hasToken: true,
      tokenName: 'monitor@pve!dashboard',
    })
    expect(byName.backup).toMatchObject({ type: 'pbs', hasPassword: true, user: 'monitor@pbs' })
    const box = createSecretBox(loadOrCreateKey(target.ctx.dataDir))
    const stored = createNodesRepo(target.ctx.app.db, box).list()
    expect(stored.find((n) => n.name === 'lab')?.tokenValue).toBe(NODE_TOKEN)
    expect(stored.find((n) => n.name === 'backup')?.password).toBe(NODE_PASSWORD)
    expect(setEndpoints).toHaveBeenCalled()
    const handed = setEndpoints.mock.calls.at(-1)![0]
    expect(handed.map((e) => e.name).sort()).toEqual(['backup', 'lab'])
    expect(handed.find((e) => e.name === 'lab')!.auth).toEqual({
      kind: 'token',
      tokenId: 'monitor@pve!dashboard',
      secret: NODE_TOKEN,
    })

    // Guest metadata.
    const meta = await target.call('GET', '/api/guests/metadata', { cookies: targetCreds.cookies })
    expect(meta.json['pve-lab-101']).toMatchObject({
      customUrl: 'https://grafana.example.test/d/101',
      tags: ['db'],
    })

    // OIDC settings, secret re-sealed with the target's key.
    const oidc = target.ctx.app.db
      .prepare('SELECT client_id, client_secret_enc FROM oidc_config')
      .get() as { client_id: string; client_secret_enc: string }
    expect(oidc.client_id).toBe('pulse')
    expect(box.decrypt(oidc.client_secret_enc)).toBe(OIDC_SECRET)

    // The login and the API token are the source's now.
    expect(
      (await target.call('POST', '/api/login', { body: { username: 'admin', password: PASSWORD } }))
        .status,
    ).toBe(200)
    const oldLogin = await target.call('POST', '/api/login', {
      body: { username: 'admin', password: 'target-password-1' },
    })
    expect(oldLogin.status).toBe(401)
    expect((await target.call('GET', '/api/state', { token: sourceCreds.apiToken })).status).toBe(
      200,
    )
    expect((await target.call('GET', '/api/state', { token: targetCreds.apiToken })).status).toBe(
      401,
    )

    // The caller's session lives on; every other one ended.
    expect((await target.call('GET', '/api/state', { cookies: targetCreds.cookies })).status).toBe(
      200,
    )
    expect((await target.call('GET', '/api/state', { cookies: otherSession })).status).toBe(401)

    const events = target.ctx.app.auth.audit.list(20).filter((e) => e.type === 'config_import')
    expect(events).toHaveLength(1)
    expect(events[0]).toMatchObject({ username: 'admin', ip: '127.0.0.1' })
    expect(events[0]!.detail).toMatch(/2 node\(s\).*1 other session\(s\) revoked/)
  })

  it('takes the file as JSON text and works with X-API-Token', async () => {
    const { server: source, creds } = await seededSource()
    const text = (await exportFrom(source, creds, CUSTOM)).text
    const target = await start()
    const targetCreds = await quickSetup(target)
    const res = await target.call('POST', '/api/config/import', {
      token: targetCreds.apiToken,
      body: { passphrase: CUSTOM, data: text },
    })
    expect(res.status, res.text).toBe(200)
    expect(stateOf(target).nodes).toHaveLength(2)
    // No session was the caller's: all of them ended.
    expect(stateOf(target).liveSessions).toEqual([])
  })

  it('changes nothing on a wrong passphrase or a damaged file', async () => {
    const { server: source, creds } = await seededSource()
    const file = (await exportFrom(source, creds)).json
    const target = await start()
    const targetCreds = await quickSetup(target)
    await login(target, 'admin', targetCreds.password)
    const before = stateOf(target)
    const importing = (body: object) =>
      target.call('POST', '/api/config/import', { token: targetCreds.apiToken, body })

    const wrong = await importing({ passphrase: 'not the passphrase', data: file })
    expect(wrong.status).toBe(400)
    expect(wrong.json).toEqual({
      code: 'IMPORT_WRONG_PASSPHRASE',
      message: 'Wrong passphrase, or the file was changed.',
    })
    expect(stateOf(target)).toEqual(before)

    for (const cut of [7, 8]) {
      const truncated = await importing({
        passphrase: PASSWORD,
        data: { ...file, data: file.data.slice(0, -cut) },
      })
      expect(truncated.status).toBe(400)
      expect(truncated.json).toEqual({
        code: 'IMPORT_DAMAGED',
        message: 'The file is damaged or not a Pulse configuration export.',
      })
      expect(stateOf(target)).toEqual(before)
    }
    // Rate limit: five calls per five minutes; this instance is at four.
    const cutText = await importing({
      passphrase: PASSWORD,
      data: JSON.stringify(file).slice(0, 200),
    })
    expect(cutText.json.code).toBe('IMPORT_DAMAGED')
    expect(stateOf(target)).toEqual(before)

    const failures = target.ctx.app.auth.audit
      .list(20)
      .filter((e) => e.type === 'config_import_failed')
    expect(failures.map((e) => e.detail)).toEqual([
      'damaged file',
      'damaged file',
      'damaged file',
      'wrong passphrase',
    ])
  })

  it('names the missing fields', async () => {
    const target = await start()
    const creds = await quickSetup(target)
    const call = (body: object) =>
      target.call('POST', '/api/config/import', { token: creds.apiToken, body })
    const noPassphrase = await call({ data: {} })
    expect(noPassphrase.status).toBe(400)
    expect(noPassphrase.json.message).toMatch(/^passphrase: /)
    const noData = await call({ passphrase: CUSTOM })
    expect(noData.status).toBe(400)
    expect(noData.json.message).toMatch(/^data: /)
    const notAFile = await call({ passphrase: CUSTOM, data: { hello: 'world' } })
    expect(notAFile.json.code).toBe('IMPORT_DAMAGED')
  })

  it('refuses unauthenticated callers and sessions without CSRF', async () => {
    const target = await start()
    const creds = await quickSetup(target)
    const anonymous = await target.call('POST', '/api/config/import', {
      body: { passphrase: CUSTOM, data: {} },
    })
    expect(anonymous.status).toBe(401)
    const noCsrf = await target.call('POST', '/api/config/import', {
      cookies: creds.cookies,
      body: { passphrase: CUSTOM, data: {} },
    })
    expect(noCsrf.status).toBe(403)
    expect(noCsrf.json.code).toBe('CSRF_INVALID')
  })
})

describe('rate limit', () => {
  it('allows 5 export/import calls per 5 minutes per IP, then 429 with Retry-After', async () => {
    const server = await start()
    const creds = await quickSetup(server)
    const as = { token: creds.apiToken }
    const statuses: number[] = []
    for (let i = 0; i < 3; i++) {
      statuses.push((await server.call('POST', '/api/config/export', { ...as, body: {} })).status)
    }
    for (let i = 0; i < 2; i++) {
      statuses.push((await server.call('POST', '/api/config/import', { ...as, body: {} })).status)
    }
    expect(statuses).toEqual([400, 400, 400, 400, 400])
    for (const route of ['/api/config/export', '/api/config/import']) {
      const limited = await server.call('POST', route, { ...as, body: { passphrase: CUSTOM } })
      expect(limited.status).toBe(429)
      expect(limited.json.code).toBe('RATE_LIMITED')
      const retryAfter = Number(limited.headers.get('retry-after'))
      expect(retryAfter).toBeGreaterThan(0)
      expect(retryAfter).toBeLessThanOrEqual(300)
    }
    // Unauthenticated calls are refused before they count, and still say 401.
    const anonymous = await server.call('POST', '/api/config/export', { body: {} })
    expect(anonymous.status).toBe(401)
    // Other routes are not affected.
    expect((await server.call('GET', '/api/state', as)).status).toBe(200)
  })
})
