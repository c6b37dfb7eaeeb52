// Node CRUD over real HTTP on 127.0.0.1 against the real app (SQLite on a temp dir) and the real
// PVE simulator: validation messages, secrets kept and cleared, socket announcements.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import type { SimCluster, Simulator } from '../../../../src/server/sim/index.ts'
import type { AuthTestServer } from '../auth/auth-helpers.ts'
import { openEvents, startOpenServer, startPve } from './node-helpers.ts'

let sim: Simulator
let cluster: SimCluster
let server: AuthTestServer
beforeAll(async () => {
  ;({ sim, cluster } = await startPve(3))
})
afterAll(async () => {
  await sim.stop()
})
beforeEach(async () => {
  server = await startOpenServer()
})
afterEach(async () => {
  await server.close()
})

const tokenNode = () => ({
  type: 'pve',
  name: 'alpha',
  host: cluster.url,
  tokenName: cluster.tokenId,
  tokenValue: cluster.tokenSecret,
  fingerprint: cluster.fingerprint,
})
const post = (body: unknown) => server.call('POST', '/api/config/nodes', { body })
const put = (id: string, body: unknown) => server.call('PUT', `/api/config/nodes/${id}`, { body })
const list = async () =>
  (await server.call('GET', '/api/config/nodes')).json as Array<Record<string, unknown>>

describe('node CRUD', () => {
  it('adds, edits and deletes a node; answers carry flags, never secrets', async () => {
    const added = await post(tokenNode())
    expect(added.status).toBe(201)
    expect(added.json).toMatchObject({
      type: 'pve',
      name: 'alpha',
      host: cluster.url,
      tokenName: cluster.tokenId,
      hasToken: true,
      hasPassword: false,
      verifySSL: true,
      fingerprint: cluster.fingerprint,
      status: 'pending',
      monitorVMs: true,
      monitorContainers: true,
      monitorStorage: true,
      monitorBackups: true,
      monitorDatastores: true,
      monitorSyncJobs: true,
      monitorVerifyJobs: true,
      monitorPruneJobs: true,
      monitorGarbageJobs: true,
    })
    expect(added.text).not.toContain(cluster.tokenSecret)
    const id = added.json.id as string

    const edited = await put(id, {
      ...tokenNode(),
      name: 'alpha-lab',
      tokenValue: '',
      monitorVMs: false,
    })
    expect(edited.status).toBe(200)
    expect(edited.json).toMatchObject({ id, name: 'alpha-lab', hasToken: true, monitorVMs: false })
    expect(edited.text).not.toContain(cluster.tokenSecret)
    const all = await server.call('GET', '/api/config/nodes')
    expect(all.json).toHaveLength(1)
    expect(all.text).not.toContain(cluster.tokenSecret)

    const deleted = await server.call('DELETE', `/api/config/nodes/${id}`)
    expect(deleted.status).toBe(200)
    expect(deleted.json).toEqual({ success: true })
    expect(await list()).toEqual([])
  })

  it('answers 404 NODE_NOT_FOUND for an unknown id on edit, delete and test', async () => {
    for (const [method, path] of [
      ['PUT', '/api/config/nodes/pve-missing'],
      ['DELETE', '/api/config/nodes/pve-missing'],
      ['POST', '/api/config/nodes/pve-missing/test'],
    ] as const) {
      const res = await server.call(method, path, method === 'PUT' ? { body: tokenNode() } : {})
      expect(res.status, `${method} ${path}`).toBe(404)
      expect(res.json).toEqual({ code: 'NODE_NOT_FOUND', message: 'Node pve-missing not found.' })
    }
  })

  it.each([
    [{ type: 'pve', host: '' }, 'host: is required.'],
    [{ type: 'pve' }, 'host: is required.'],
    [{ type: 'vmware', host: '127.0.0.1' }, 'type: must be "pve" or "pbs".'],
    [
      { type: 'pbs', host: 'http://127.0.0.1:8007', tokenName: 'a@pbs!b', tokenValue: 'x' },
      'host: PBS requires HTTPS.',
    ],
    [
      { type: 'pve', host: 'http://127.0.0.1', tokenName: 'a@pam!b', tokenValue: 'x' },
      'host: Proxmox VE requires HTTPS.',
    ],
    [{ type: 'pve', host: 'ftp://127.0.0.1' }, 'host: must use https://.'],
    [
      { type: 'pve', host: '127.0.0.1', tokenName: 'monitor!dashboard', tokenValue: 'x' },
      'tokenName: must look like user@realm!tokenname.',
    ],
    [
      { type: 'pve', host: '127.0.0.1', tokenName: 'monitor@pve!dashboard' },
      'tokenValue: Token ID and token value are required.',
    ],
    [
      { type: 'pve', host: '127.0.0.1', user: 'root' },
      'password: Username and password are required.',
    ],
    [
      { type: 'pve', host: '127.0.0.1', user: 'ro ot', password: 'x' },
      'user: must look like user@realm (for example root@pam or admin@pbs).',
    ],
    [
      { type: 'pve', host: '127.0.0.1' },
      'tokenName: give an API token (Token ID and token value) or a username and password.',
    ],
    [
      { type: 'pve', host: '127.0.0.1', user: 'root', password: 'x', verifySSL: 'yes' },
      'verifySSL: must be true or false.',
    ],
    [
      { type: 'pbs', host: '127.0.0.1', user: 'a', password: 'x', monitorSyncJobs: 'no' },
      'monitorSyncJobs: must be true or false.',
    ],
    [
      { type: 'pve', host: '127.0.0.1', user: 'root', password: 'x', fingerprint: 'abc' },
      'fingerprint: must be a SHA-256 fingerprint (64 hex digits, colons optional).',
    ],
  ])('refuses %j: 400 "%s", nothing stored', async (payload, message) => {
    const res = await post(payload)
    expect(res.status).toBe(400)
    expect(res.json).toEqual({ code: 'FIELD_INVALID', message })
    expect(await list()).toEqual([])
  })

  it('normalises host, port per type, realm and name', async () => {
    // Loopback hosts with nothing listening: the poller's first poll reaches no one else.
    const pve = await post({ type: 'pve', host: '127.0.0.3', user: 'root', password: 'pw-1' })
    expect(pve.json).toMatchObject({
      host: 'https://127.0.0.3:8006',
      name: '127.0.0.3',
      user: 'root@pam',
      hasPassword: true,
      hasToken: false,
    })
    const pbs = await post({
      type: 'pbs',
      name: 'backup',
      host: 'https://127.0.0.3/',
      user: 'admin',
      password: 'pw-2',
      fingerprint: cluster.fingerprint.replace(/:/g, '').toLowerCase(),
    })
    expect(pbs.json).toMatchObject({
      host: 'https://127.0.0.3:8007',
      user: 'admin@pbs',
      fingerprint: cluster.fingerprint,
    })
  })

  it('refuses a duplicate name (any case) on add and on edit, and a type change', async () => {
    const first = await post(tokenNode())
    expect((await post({ ...tokenNode(), name: 'ALPHA' })).json.code).toBe('NODE_NAME_TAKEN')
    const second = await post({ ...tokenNode(), name: 'beta' })
    const clash = await put(second.json.id, { ...tokenNode(), name: 'alpha' })
    expect(clash.status).toBe(409)
    expect(clash.json.message).toBe('A node with the name alpha already exists.')
    const retype = await put(first.json.id, { ...tokenNode(), type: 'pbs' })
    expect(retype.json).toEqual({
      code: 'FIELD_INVALID',
      message: 'type: cannot change from pve; delete the node and add it again.',
    })
  })

  it('keeps blank secrets on edit and clears the other secret when the auth type switches', async () => {
    const id = (await post(tokenNode())).json.id as string
    const test = () => server.call('POST', `/api/config/nodes/${id}/test`)

    // Token → password (the simulator's root@pam / simulator): the token is cleared.
    const toPassword = await put(id, {
      ...tokenNode(),
      tokenName: '',
      tokenValue: '',
      user: 'root',
      password: 'simulator',
    })
    expect(toPassword.json).toMatchObject({ user: 'root@pam', hasPassword: true, hasToken: false })
    expect(toPassword.json.tokenName).toBeUndefined()

    // A blank password keeps the stored one: the stored node still logs in.
    const blank = await put(id, { ...tokenNode(), tokenName: '', tokenValue: '', user: 'root@pam' })
    expect(blank.json).toMatchObject({ hasPassword: true })
    const passwordTest = await test()
    expect(passwordTest.status).toBe(200)
    expect(passwordTest.json.message).toBe('Connection successful')

    // Back to a token: without a stored token the value is required; with it, the password goes.
    const noValue = await put(id, { ...tokenNode(), tokenValue: '' })
    expect(noValue.json.message).toBe('tokenValue: Token ID and token value are required.')
    const toToken = await put(id, tokenNode())
    expect(toToken.json).toMatchObject({ hasPassword: false, hasToken: true })
    expect(toToken.json.user).toBeUndefined()
    expect((await test()).json).toMatchObject({ status: 'success', isCluster: true })
  })

  it('stores the PBS flags and hands PBS nodes to the poller', async () => {
    const added = await post({
      type: 'pbs',
      name: 'backup',
      host: '127.0.0.3',
      tokenName: 'pulse-monitor@pbs!pulse-token',
      tokenValue: 'pbs-secret-1',
      monitorSyncJobs: false,
      monitorGarbageJobs: false,
    })
    expect(added.json).toMatchObject({ monitorSyncJobs: false, monitorGarbageJobs: false })
    expect((await list())[0]).toMatchObject({ monitorSyncJobs: false, monitorDatastores: true })
    // Issue 26: the poller reads only the job kinds the flags turn on.
    expect(server.ctx.app.nodes.endpoints()[0]?.pbsJobs).toEqual({
      sync: false,
      verify: true,
      prune: true,
      gc: false,
    })
    const edited = await put(added.json.id, {
      type: 'pbs',
      name: 'backup',
      host: '127.0.0.3',
      tokenName: 'pulse-monitor@pbs!pulse-token',
      monitorSyncJobs: true,
    })
    expect(edited.json).toMatchObject({
      monitorSyncJobs: true,
      monitorGarbageJobs: true,
      hasToken: true,
    })
    expect(server.ctx.app.nodes.endpoints()).toEqual([
      {
        id: added.json.id,
        name: 'backup',
        type: 'pbs',
        host: 'https://127.0.0.3:8007',
        auth: { kind: 'token', tokenId: 'pulse-monitor@pbs!pulse-token', secret: 'pbs-secret-1' },
        verifySSL: true,
        pbsJobs: { sync: true, verify: true, prune: true, gc: true },
      },
    ])
  })

  it('the poller picks a new node up without a restart', async () => {
    const id = (await post(tokenNode())).json.id as string
    await vi.waitFor(
      async () => {
        const node = (await list()).find((n) => n.id === id)
        expect(node?.status).toBe('connected')
      },
      { timeout: 20_000, interval: 100 },
    )
  })

  it('lists cluster endpoints with the spec keys NodeName, Host, IP and Online', async () => {
    const id = (await post(tokenNode())).json.id as string
    await vi.waitFor(
      async () => {
        const node = (await list()).find((n) => n.id === id)
        expect(node?.clusterEndpoints).toHaveLength(3)
      },
      { timeout: 20_000, interval: 100 },
    )
    const node = (await list()).find((n) => n.id === id)!
    expect(node).toMatchObject({ isCluster: true, clusterName: cluster.name })
    const endpoints = node.clusterEndpoints as Array<Record<string, unknown>>
    for (const endpoint of endpoints) {
      expect(Object.keys(endpoint).sort()).toEqual(['Host', 'IP', 'NodeName', 'Online'])
    }
    for (const endpoint of endpoints) {
      expect(endpoint).toMatchObject({
        Host: expect.stringMatching(/^https:\/\/127\./),
        Online: true,
      })
    }
    expect(endpoints.map((e) => e.NodeName)).toEqual(cluster.nodeNames)
  })
})

describe('socket announcements', () => {
  it('sends nodes_changed on add, edit and delete, and node_deleted with the id', async () => {
    const events = await openEvents(server.base)
    try {
      const id = (await post(tokenNode())).json.id as string
      await events.next('nodes_changed')
      await put(id, { ...tokenNode(), name: 'renamed' })
      await events.next('nodes_changed')
      await server.call('DELETE', `/api/config/nodes/${id}`)
      const deleted = await events.next('node_deleted')
      expect(deleted.data).toEqual({ id, nodeType: 'pve' })
      await events.next('nodes_changed')
      // A refused change announces nothing: the next announcement is the next good change's.
      expect((await post({ type: 'pve', host: '' })).status).toBe(400)
      await post(tokenNode())
      await events.next('nodes_changed')
      expect(events.types().filter((t) => t === 'nodes_changed')).toHaveLength(4)
    } finally {
      events.close()
    }
  })
})
