import fs from 'node:fs'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { buildTestApp } from '../helpers.ts'

const SECRET = '3f6c1e9a-5b2d-4c1e-9f0a-7d2b8c4e1a55'
const valid = {
  type: 'pve',
  name: 'lab',
  // Port 9 on loopback: nothing answers, so the poller reports an error and sends nothing elsewhere.
  host: '127.0.0.1:9',
  tokenName: 'monitor@pve!dashboard',
  tokenValue: SECRET,
  verifySSL: false,
}

let ctx: Awaited<ReturnType<typeof buildTestApp>>
beforeEach(async () => {
  ctx = await buildTestApp()
})
afterEach(async () => {
  await ctx.close()
})

const post = (payload: unknown) =>
  ctx.app.http.inject({ method: 'POST', url: '/api/config/nodes', payload: payload as object })

describe('POST /api/config/nodes', () => {
  it('adds a node by token and answers without the secret', async () => {
    const res = await post(valid)
    expect(res.statusCode).toBe(201)
    const body = res.json()
    expect(body).toMatchObject({
      type: 'pve',
      name: 'lab',
      host: 'https://127.0.0.1:9',
      tokenName: 'monitor@pve!dashboard',
      hasToken: true,
      hasPassword: false,
      verifySSL: false,
    })
    expect(res.body).not.toContain(SECRET)
    const list = await ctx.app.http.inject({ method: 'GET', url: '/api/config/nodes' })
    expect(list.json()).toHaveLength(1)
    expect(list.body).not.toContain(SECRET)
  })

  it('stores the token sealed: the SQLite files never hold it in plain text', async () => {
    expect((await post(valid)).statusCode).toBe(201)
    ctx.app.db.pragma('wal_checkpoint(TRUNCATE)')
    for (const file of fs.readdirSync(ctx.dataDir)) {
      const bytes = fs.readFileSync(path.join(ctx.dataDir, file))
      expect(bytes.includes(Buffer.from(SECRET)), file).toBe(false)
    }
  })

  it.each([
    [{ ...valid, host: '' }, 'host'],
    [{ ...valid, host: undefined }, 'host'],
    [{ ...valid, type: 'vmware' }, 'type'],
    [{ ...valid, tokenName: 'no-realm' }, 'tokenName'],
    [{ ...valid, tokenValue: '' }, 'tokenValue'],
    [{ ...valid, verifySSL: 'yes' }, 'verifySSL'],
    [{ ...valid, fingerprint: 'abc' }, 'fingerprint'],
    [{ ...valid, host: 'ftp://pve.example.com' }, 'host'],
    [{ type: 'pve', host: 'pve.example.com' }, 'tokenName'],
    [{ type: 'pve', host: 'pve.example.com', user: 'root' }, 'password'],
    [{ type: 'pve', host: 'pve.example.com', user: 'root@pam' }, 'password'],
  ])('rejects %j with 400 naming %s and stores nothing', async (payload, field) => {
    const res = await post(payload)
    expect(res.statusCode).toBe(400)
    expect(res.json().code).toBe('FIELD_INVALID')
    expect(res.json().message.startsWith(`${field}:`)).toBe(true)
    const list = await ctx.app.http.inject({ method: 'GET', url: '/api/config/nodes' })
    expect(list.json()).toEqual([])
  })

  it('rejects a body that is not a JSON object', async () => {
    const res = await ctx.app.http.inject({
      method: 'POST',
      url: '/api/config/nodes',
      headers: { 'content-type': 'application/json' },
      payload: '[1,2]',
    })
    expect(res.statusCode).toBe(400)
    const broken = await ctx.app.http.inject({
      method: 'POST',
      url: '/api/config/nodes',
      headers: { 'content-type': 'application/json' },
      payload: '{"type":',
    })
    expect(broken.statusCode).toBe(400)
    expect(broken.json().message).toMatch(/^body:/)
  })

  it('refuses a second node with the same name', async () => {
    expect((await post(valid)).statusCode).toBe(201)
    const res = await post({ ...valid, host: '127.0.0.2:9' })
    expect(res.statusCode).toBe(409)
    expect(res.json().code).toBe('NODE_NAME_TAKEN')
  })

  it('normalises the host with the default port per type', async () => {
    const res = await post({ ...valid, name: 'b', host: 'https://127.0.0.1' })
    expect(res.json().host).toBe('https://127.0.0.1:8006')
  })
})

describe('core routes', () => {
  it('answers health, version and state', async () => {
    const health = await ctx.app.http.inject({ method: 'GET', url: '/api/health' })
    expect(health.json().status).toBe('healthy')
    expect(health.headers['x-demo-mode']).toBeUndefined()
    const version = await ctx.app.http.inject({ method: 'GET', url: '/api/version' })
    expect(version.json().version).toBe('0.0.0-test')
    const state = await ctx.app.http.inject({ method: 'GET', url: '/api/state' })
    expect(state.json()).toMatchObject({ nodes: [], vms: [], containers: [] })
    expect(state.headers['x-state-seq']).toBe('0')
  })

  it('answers unknown API paths with a JSON 404', async () => {
    const res = await ctx.app.http.inject({ method: 'GET', url: '/api/nope' })
    expect(res.statusCode).toBe(404)
    expect(res.json().code).toBe('NOT_FOUND')
  })
})

describe('demo mode', () => {
  it('marks every answer with X-Demo-Mode', async () => {
    const demo = await buildTestApp({
      demo: {
        seed: 1,
        clusters: 1,
        nodesPerCluster: 1,
        guestsPerNode: 1,
        basePort: 0,
        tickMs: 0,
        pbsInstances: 0,
        alertScenarios: false,
      },
    })
    try {
      const res = await demo.app.http.inject({ method: 'GET', url: '/api/health' })
      expect(res.headers['x-demo-mode']).toBe('true')
    } finally {
      await demo.close()
    }
  })
})
