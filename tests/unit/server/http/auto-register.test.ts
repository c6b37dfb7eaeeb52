// Node auto-registration over real HTTP: authentication on, a real SQLite file, the PVE simulator
// on 127.0.0.1 as the node, and a real /ws client. The code comes from the served script, as the
// script itself would read it.
import fs from 'node:fs'
import path from 'node:path'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { loadCertificate } from '../../../../src/server/sim/tls.ts'
import {
  startSimulator,
  type SimCluster,
  type Simulator,
} from '../../../../src/server/sim/index.ts'
import {
  quickSetup,
  startAuthServer,
  type AuthTestServer,
  type Credentials,
} from '../auth/auth-helpers.ts'
import { openEvents } from '../nodes/node-helpers.ts'
import { createStubHost } from '../setup/setup-stubs.ts'
import { makeTempDir } from '../temp-dir.ts'

// What the stub pveum hands out first (setup-stubs.ts), so the script tests can use the same sim.
export const SIM_SECRET = '00000001-aaaa-4bbb-8ccc-dddddddddddd'
const WRONG_FINGERPRINT = Array.from({ length: 32 }, () => 'AB').join(':')

let sim: Simulator
let cluster: SimCluster
let server: AuthTestServer
let creds: Credentials
beforeAll(async () => {
  sim = await startSimulator({
    clusters: 1,
    nodesPerCluster: 1,
    guestsPerNode: 1,
    tickMs: 0,
    tokenSecret: SIM_SECRET,
  })
  cluster = sim.clusters[0]!
})
afterAll(async () => {
  await sim.stop()
})
beforeEach(async () => {
  server = await startAuthServer()
  creds = await quickSetup(server)
})
afterEach(async () => {
  await server.close()
})

/** The registration code inside the script served for a one-time URL (fetched without creds). */
async function codeFor(type: 'pve' | 'pbs', host: string): Promise<string> {
  const url = await server.call('POST', '/api/setup-script-url', {
    body: { type, host },
    token: creds.apiToken,
  })
  expect(url.status).toBe(200)
  const script = await server.call('GET', (url.json.url as string).slice(server.base.length))
  expect(script.status).toBe(200)
  const code = /^REGISTER_CODE='([A-Za-z0-9_-]{22})'$/m.exec(script.text)?.[1]
  expect(code).toBeDefined()
  return code!
}

const registration = (code: string) => ({
  type: 'pve',
  host: cluster.url,
  tokenId: cluster.tokenId,
  tokenValue: SIM_SECRET,
  serverName: 'pve-auto',
  fingerprint: cluster.fingerprint,
  code,
})
const register = (body: unknown) => server.call('POST', '/api/auto-register', { body })
const storedNodes = async () =>
  (await server.call('GET', '/api/config/nodes', { token: creds.apiToken })).json as Array<
    Record<string, unknown>
  >

describe('POST /api/auto-register', () => {
  it('tests, stores and announces the node, once per code', async () => {
    const events = await openEvents(server.base, { 'x-api-token': creds.apiToken })
    const code = await codeFor('pve', cluster.url)
    const res = await register(registration(code))
    expect(res.status).toBe(200)
    const host = new URL(cluster.url).origin
    expect(res.json).toMatchObject({
      status: 'success',
      message: `Node ${host} auto-registered successfully`,
      node: {
        type: 'pve',
        name: 'pve-auto',
        host,
        tokenName: cluster.tokenId,
        hasToken: true,
        fingerprint: cluster.fingerprint,
      },
    })
    expect(res.text).not.toContain(SIM_SECRET)

    const event = (await events.next('node_auto_registered')) as {
      data: unknown
      timestamp?: string
    }
    expect(event.data).toEqual({
      type: 'pve',
      host,
      name: 'pve-auto',
      tokenId: cluster.tokenId,
      hasToken: true,
      verifySSL: false,
      status: 'connected',
    })
    expect(typeof event.timestamp).toBe('string')
    await events.next('nodes_changed')
    events.close()
    const nodes = await storedNodes()
    expect(nodes).toHaveLength(1)
    expect(nodes[0]).toMatchObject({ name: 'pve-auto', fingerprint: cluster.fingerprint })

    const again = await register(registration(code))
    expect(again.status).toBe(401)
    expect(again.json).toEqual({
      code: 'SETUP_CODE_INVALID',
      message: 'Invalid or expired setup code',
    })
    expect(await storedNodes()).toHaveLength(1)
  })

  it('refuses a code issued for another host or type, or made up, and keeps it usable', async () => {
    const code = await codeFor('pve', cluster.url)
    const otherHost = await register({ ...registration(code), host: '127.0.0.2:8006' })
    expect(otherHost.status).toBe(401)
    expect(otherHost.json.code).toBe('SETUP_CODE_INVALID')
    const otherType = await register({ ...registration(code), type: 'pbs' })
    expect(otherType.status).toBe(401)
    const madeUp = await register({ ...registration('A'.repeat(22)) })
    expect(madeUp.status).toBe(401)
    expect(await storedNodes()).toEqual([])
    expect((await register(registration(code))).status).toBe(200)
  })

  it('a setup URL issued for one host cannot be redeemed for another (issue 24 #5)', async () => {
    // Issued for pve-a.lan (never contacted); redeemed with the simulator's address instead.
    const issued = await server.call('POST', '/api/setup-script-url', {
      body: { type: 'pve', host: 'pve-a.lan' },
      token: creds.apiToken,
    })
    const url = new URL(issued.json.url as string)
    url.searchParams.set('host', cluster.url)
    const swapped = await server.call('GET', `${url.pathname}${url.search}`)
    expect(swapped.status).toBe(403)
    expect(swapped.json).toEqual({
      code: 'SETUP_URL_MISMATCH',
      message: `This setup URL was issued for host https://pve-a.lan:8006, not ${new URL(cluster.url).origin}.`,
    })
    expect(swapped.text).not.toContain('REGISTER_CODE')
    expect(await storedNodes()).toEqual([])
    // The URL as issued still works once, for pve-a.lan only.
    const genuine = await server.call('GET', (issued.json.url as string).slice(server.base.length))
    expect(genuine.status).toBe(200)
    const code = /^REGISTER_CODE='([A-Za-z0-9_-]{22})'$/m.exec(genuine.text)![1]!
    const elsewhere = await register(registration(code))
    expect(elsewhere.status).toBe(401)
    expect(await storedNodes()).toEqual([])
  })

  it.each([
    [{ type: 'vmware' }, 'type'],
    [{ host: undefined }, 'host'],
    [{ host: 'http://127.0.0.1:8006' }, 'host'],
    [{ tokenId: undefined }, 'tokenId'],
    [{ tokenId: 'no-realm' }, 'tokenId'],
    [{ tokenValue: '' }, 'tokenValue'],
    [{ serverName: undefined }, 'serverName'],
    [{ serverName: 'bad\u0007name' }, 'serverName'],
    [{ fingerprint: 'zz' }, 'fingerprint'],
    [{ code: undefined }, 'code'],
  ])('answers %j with 400 naming %s, stores nothing and keeps the code', async (change, field) => {
    const code = await codeFor('pve', cluster.url)
    const res = await register({ ...registration(code), ...change })
    expect(res.status).toBe(400)
    expect(res.json.code).toBe('FIELD_INVALID')
    expect(res.json.message.startsWith(`${field}:`)).toBe(true)
    expect(await storedNodes()).toEqual([])
    expect((await register(registration(code))).status).toBe(200)
  })

  it('reports a failed connection test, stores nothing, and lets the same code retry', async () => {
    const code = await codeFor('pve', cluster.url)
    const wrongSecret = await register({ ...registration(code), tokenValue: 'nope' })
    expect(wrongSecret.status).toBe(502)
    expect(wrongSecret.json.code).toBe('PVE_AUTH_REJECTED')
    const wrongPin = await register({ ...registration(code), fingerprint: WRONG_FINGERPRINT })
    expect(wrongPin.json.code).toBe('PVE_TLS_MISMATCH')
    // Without a pin the simulator's self-signed certificate must verify against the CAs: refused.
    const unpinned = await register({ ...registration(code), fingerprint: '' })
    expect(unpinned.status).toBe(502)
    expect(unpinned.json.message).toMatch(/certificate|TLS|SSL/i)
    expect(await storedNodes()).toEqual([])
    expect((await register(registration(code))).status).toBe(200)
  })

  it('re-registering a host replaces its token and keeps the name and choices', async () => {
    expect((await register(registration(await codeFor('pve', cluster.url)))).status).toBe(200)
    const [first] = await storedNodes()
    const edit = await server.call('PUT', `/api/config/nodes/${String(first!.id)}`, {
      token: creds.apiToken,
      body: { ...first, name: 'renamed', monitorBackups: false, tokenValue: '' },
    })
    expect(edit.status).toBe(200)
    const again = await register({
      ...registration(await codeFor('pve', cluster.url)),
      serverName: 'pve-other',
    })
    expect(again.status).toBe(200)
    const nodes = await storedNodes()
    expect(nodes).toHaveLength(1)
    expect(nodes[0]).toMatchObject({ id: first!.id, name: 'renamed', monitorBackups: false })
  })
})

describe('running the served script (stub pveum, real curl and openssl, the simulator as node)', () => {
  let temp: { dir: string; cleanup: () => void }
  let certFile: string
  beforeEach(async () => {
    temp = makeTempDir('pulse-autoreg-')
    // Stands in for /etc/pve/local/pve-ssl.pem: the certificate the simulated node serves.
    certFile = path.join(temp.dir, 'pve-ssl.pem')
    fs.writeFileSync(certFile, (await loadCertificate()).cert)
  })
  afterEach(() => {
    temp.cleanup()
  })

  const servedScript = async () => {
    const url = await server.call('POST', '/api/setup-script-url', {
      body: { type: 'pve', host: cluster.url },
      token: creds.apiToken,
    })
    return (await server.call('GET', (url.json.url as string).slice(server.base.length))).text
  }

  it('registers the node with its fingerprint, and prints no secret', async () => {
    const events = await openEvents(server.base, { 'x-api-token': creds.apiToken })
    const host = createStubHost(temp.dir, 8)
    const run = await host.runAsync(await servedScript(), { PULSE_NODE_CERT: certFile })
    expect(run.stderr).toBe('')
    expect(run.status).toBe(0)
    expect(run.stdout).toContain('Registered with Pulse')
    expect(run.stdout).not.toContain(SIM_SECRET)
    const event = await events.next('node_auto_registered')
    expect(event.data).toMatchObject({ type: 'pve', name: 'pve-stub' })
    events.close()
    expect(await storedNodes()).toMatchObject([
      { name: 'pve-stub', fingerprint: cluster.fingerprint, tokenName: cluster.tokenId },
    ])
  })

  it("prints Pulse's error and the manual instructions when registration fails", async () => {
    const script = await servedScript()
    const code = /^REGISTER_CODE='([^']*)'$/m.exec(script)![1]!
    // Spend the code first: the script's own attempt then gets the 401.
    expect((await register(registration(code))).status).toBe(200)
    const host = createStubHost(temp.dir, 8)
    const run = await host.runAsync(script, { PULSE_NODE_CERT: certFile })
    expect(run.status).toBe(0)
    expect(run.stdout).toContain(
      'Automatic registration with Pulse failed: Invalid or expired setup code',
    )
    expect(run.stdout).toContain(`Token ID:     ${cluster.tokenId}`)
    expect(run.stdout).toContain(`Token secret: ${SIM_SECRET}`)
  })

  it("prints curl's error when Pulse cannot be reached", async () => {
    // Port 9 on loopback: nothing listens.
    const script = (await servedScript()).replace(
      /^PULSE_URL=.*$/m,
      "PULSE_URL='http://127.0.0.1:9'",
    )
    const run = await createStubHost(temp.dir, 8).runAsync(script)
    expect(run.status).toBe(0)
    expect(run.stdout).toMatch(/Automatic registration with Pulse failed: curl: \(7\)/)
    expect(run.stdout).toContain(`Token secret: ${SIM_SECRET}`)
  })
})
