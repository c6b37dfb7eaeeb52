// A web node (PULSE_ROLE=web) in front of a collector (authentication on, SQLite on disk, a small
// simulated estate) over a real nats-server, both on loopback ports: /api/state served from the
// replica and admitted by the collector's guard, writes forwarded, events reaching its sockets.
import fs from 'node:fs'
import path from 'node:path'
import WebSocket from 'ws'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startDemo, type DemoSimulators } from '../../../../src/server/demo.ts'
import { startCollectorRole, type CollectorRole } from '../../../../src/server/roles/collector.ts'
import { startWebRole, type WebRole } from '../../../../src/server/roles/web.ts'
import type { State } from '../../../../src/shared/model/state.ts'
import { natsUnavailable, startNatsServer, type NatsServer } from '../../../support/nats-server.ts'
import { call, type WebNode } from '../bus/web-nodes.ts'
import { makeTempDir } from '../temp-dir.ts'
import { EXEC_ARGV, roleConfig, SMALL_ESTATE, TEST_KDF_COST, waitFor } from './role-helpers.ts'

const ids = (rows: ReadonlyArray<{ id: string }>) => rows.map((row) => row.id).sort()

describe.skipIf(natsUnavailable())('PULSE_ROLE=web', () => {
  let server: NatsServer
  let collector: CollectorRole
  let sim: DemoSimulators
  let web: WebRole
  let node: WebNode
  let webDir: string
  const cleanups: Array<() => Promise<void> | void> = []
  let cookies: Record<string, string>
  let admin = { username: '', password: '' }

  beforeAll(async () => {
    server = await startNatsServer()
    const { dir, cleanup } = makeTempDir()
    cleanups.push(cleanup)
    collector = await startCollectorRole({
      config: roleConfig({ PULSE_ROLE: 'collector', NATS_URL: server.url }, dir, {
        authDisabled: false,
      }),
      exportKdfCost: TEST_KDF_COST,
    })
    await waitFor(() => collector.active(), 'the collector to win the lease')
    sim = await startDemo(SMALL_ESTATE, collector.app, { execArgv: EXEC_ARGV })
    await waitFor(() => collector.epoch() !== null, 'the collector to publish')
    await waitFor(() => collector.app.live.current().state.vms.length > 0, 'the first poll')

    // A data directory that does not exist: a web node must never create one.
    webDir = path.join(dir, 'web-node-data')
    web = await startWebRole({
      config: roleConfig({ PULSE_ROLE: 'web', NATS_URL: server.url }, webDir, {
        authDisabled: false,
      }),
    })
    await web.http.listen({ host: '127.0.0.1', port: 0 })
    const port = (web.http.server.address() as { port: number }).port
    node = { app: web.http, base: `http://127.0.0.1:${port}`, port }

    const setup = await call(node, 'POST', '/api/security/quick-setup', { body: {} })
    expect(setup.status).toBe(200)
    const { username, password } = setup.json as { username: string; password: string }
    admin = { username, password }
    const login = await call(node, 'POST', '/api/login', { body: { username, password } })
    expect(login.status).toBe(200)
    cookies = { pulse_session: login.cookies.pulse_session!, pulse_csrf: login.cookies.pulse_csrf! }
  }, 30_000)

  afterAll(async () => {
    await web?.close()
    await collector?.close()
    await sim?.stop()
    await server?.dispose()
    for (const step of cleanups.reverse()) await step()
  })

  it('answers health locally with the replica, and keeps no data directory', async () => {
    const health = await call(node, 'GET', '/api/health')
    expect(health.json).toMatchObject({
      status: 'healthy',
      role: 'web',
      collector: { epoch: collector.epoch(), stale: false, connected: true },
    })
    expect(fs.existsSync(webDir)).toBe(false)
  })

  it('refuses /api/state without credentials as the collector would', async () => {
    const refused = await call(node, 'GET', '/api/state')
    const direct = await collector.app.http.inject({ method: 'GET', url: '/api/state' })
    expect(refused.status).toBe(direct.statusCode)
    expect(refused.status).toBe(401)
    expect(refused.json).toMatchObject({ code: direct.json<{ code: string }>().code })
  })

  it("serves /api/state from the replica, equal to the collector's by id", async () => {
    await waitFor(
      () => web.replica.status().seq === collector.app.live.current().seq,
      'the replica to catch up',
    )
    const answer = await call(node, 'GET', '/api/state', { cookies })
    expect(answer.status).toBe(200)
    expect(answer.headers['x-state-seq']).toBe(String(web.live.current().seq))
    const mine = answer.json as State
    const theirs = collector.app.live.current().state
    expect(mine.vms.length + mine.containers.length).toBeGreaterThan(0)
    expect(ids(mine.vms)).toEqual(ids(theirs.vms))
    expect(ids(mine.containers)).toEqual(ids(theirs.containers))
    expect(ids(mine.nodes)).toEqual(ids(theirs.nodes))
    // The plain dialect's shapes by default, as the collector's own /api/state; ours on request.
    expect(answer.json).toHaveProperty('pveBackups.storageBackups')
    expect(answer.json).not.toHaveProperty('storageBackups')
    const internal = await call(node, 'GET', '/api/state?format=internal', { cookies })
    expect(internal.status).toBe(200)
    expect(internal.json).toHaveProperty('storageBackups')
    expect(internal.json).not.toHaveProperty('pveBackups')
  })

  it("forwards a write, and the web node's sockets receive the collector's event", async () => {
    const socket = new WebSocket(`ws://127.0.0.1:${node.port}/ws`, {
      headers: { cookie: `pulse_session=${cookies.pulse_session}`, origin: node.base },
    })
    const messages: Array<{ type: string; data: unknown }> = []
    socket.on('message', (raw) => messages.push(JSON.parse(String(raw))))
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject))
    await waitFor(() => messages.some((m) => m.type === 'initialState'), 'the first load')

    const saved = await call(node, 'POST', '/api/system/theme', {
      body: { theme: 'dark' },
      cookies,
      csrf: cookies.pulse_csrf,
    })
    expect(saved.status).toBe(200)
    await waitFor(
      () => messages.some((m) => m.type === 'settingsUpdate'),
      'the settingsUpdate event through the bus',
    )
    expect(messages.find((m) => m.type === 'settingsUpdate')!.data).toEqual({ theme: 'dark' })
    socket.close()
  })

  /** Open /ws on the web node with `headers`; resolves after the first load, with its close. */
  async function openSocket(headers: Record<string, string>) {
    const socket = new WebSocket(`ws://127.0.0.1:${node.port}/ws`, { headers })
    const closed = new Promise<number>((resolve) => socket.once('close', resolve))
    const loaded = new Promise((resolve) =>
      socket.on('message', (raw) => {
        if ((JSON.parse(String(raw)) as { type: string }).type === 'initialState') resolve(true)
      }),
    )
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject))
    await loaded
    return { closed }
  }

  it("closes the web node's sockets of a revoked token and of an ended session at once", async () => {
    const write = { cookies, csrf: cookies.pulse_csrf }
    const made = await call(node, 'POST', '/api/security/tokens', {
      ...write,
      body: { name: 'wall screen', role: 'viewer' },
    })
    expect(made.status).toBe(201)
    const { id, token } = made.json as { id: string; token: string }
    const tokenSocket = await openSocket({ 'x-api-token': token })

    // A second session of the same admin, with its own dashboard open on the web node.
    const again = await call(node, 'POST', '/api/login', { body: admin })
    expect(again.status).toBe(200)
    const second = {
      pulse_session: again.cookies.pulse_session!,
      pulse_csrf: again.cookies.pulse_csrf!,
    }
    const sessionSocket = await openSocket({
      cookie: `pulse_session=${second.pulse_session}`,
      origin: node.base,
    })

    // Revoked through the web node (forwarded to the collector): the socket here closes.
    expect((await call(node, 'DELETE', `/api/security/tokens/${id}`, write)).status).toBe(200)
    expect(await tokenSocket.closed).toBe(1008)
    expect(
      (await call(node, 'GET', '/api/state', { headers: { 'x-api-token': token } })).status,
    ).toBe(401)

    const listed = await call(node, 'GET', '/api/security/sessions', { cookies: second })
    const target = (
      listed.json as { sessions: Array<{ id: string; current: boolean }> }
    ).sessions.find((s) => s.current)!
    const ended = await call(node, 'DELETE', `/api/security/sessions/${target.id}`, write)
    expect(ended.status).toBe(200)
    expect(await sessionSocket.closed).toBe(4001)
    expect((await call(node, 'GET', '/api/state', { cookies: second })).status).toBe(401)
  })
})
