// Collectors of one group on a real nats-server and one shared SQLite directory: one active (the
// lease), the standby idle, and a takeover within ttl + ttl/5 when the active one goes away,
// cleanly (SIGTERM's release) or by a partition (no release). The single process never uses NATS.
import net from 'node:net'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from '../../../../src/server/app.ts'
import { startDemo, type DemoSimulators } from '../../../../src/server/demo.ts'
import { startCollectorRole, type CollectorRole } from '../../../../src/server/roles/collector.ts'
import { createSystemSettingsRepo } from '../../../../src/server/store/system-settings-repo.ts'
import { ORIGINS_KEY } from '../../../../src/server/system/web-policy.ts'
import { natsUnavailable, startNatsServer, type NatsServer } from '../../../support/nats-server.ts'
import { startTcpProxy } from '../../../support/tcp-proxy.ts'
import { makeTempDir } from '../temp-dir.ts'
import {
  EXEC_ARGV,
  roleConfig,
  SMALL_ESTATE,
  TEST_KDF_COST,
  TTL_MS,
  waitFor,
} from './role-helpers.ts'

let cleanup: Array<() => Promise<void> | void> = []
afterEach(async () => {
  for (const step of cleanup.reverse()) await step()
  cleanup = []
})

describe('PULSE_ROLE=all', () => {
  it('answers health as role all and never connects to NATS_URL', async () => {
    let connections = 0
    const trap = net.createServer((socket) => {
      connections++
      socket.destroy()
    })
    await new Promise<void>((resolve) => trap.listen(0, '127.0.0.1', resolve))
    cleanup.push(() => new Promise<void>((resolve) => trap.close(() => resolve())))
    const port = (trap.address() as net.AddressInfo).port
    const { dir, cleanup: rm } = makeTempDir()
    cleanup.push(rm)
    const config = roleConfig({ NATS_URL: `nats://127.0.0.1:${port}` }, dir)
    expect(config.cluster.natsUrl).toBeNull()
    const app = await buildApp({ config, exportKdfCost: TEST_KDF_COST })
    cleanup.push(() => app.close())
    app.startPolling()
    const health = await app.http.inject({ method: 'GET', url: '/api/health' })
    expect(health.json()).toMatchObject({ status: 'healthy', role: 'all' })
    // A round trip through the trap proves it is listening; still no connection from the app.
    await new Promise<void>((resolve) => net.connect(port, '127.0.0.1').on('close', resolve))
    expect(connections).toBe(1)
  })
})

describe.skipIf(natsUnavailable())('PULSE_ROLE=collector', () => {
  let server: NatsServer
  let sim: DemoSimulators | null = null
  beforeAll(async () => {
    server = await startNatsServer()
  })
  afterAll(async () => {
    await sim?.stop()
    await server?.dispose()
  })

  const health = async (role: CollectorRole) =>
    (await role.app.http.inject({ method: 'GET', url: '/api/health' })).json<{
      role: string
      active: boolean
      instance: string
    }>()

  const start = async (id: string, dataDir: string, natsUrl = server.url) => {
    const config = roleConfig(
      { PULSE_ROLE: 'collector', NATS_URL: natsUrl, PULSE_INSTANCE_ID: id },
      dataDir,
    )
    const role = await startCollectorRole({ config, exportKdfCost: TEST_KDF_COST })
    cleanup.push(() => role.close())
    return role
  }

  /** Polls seen from now on: the live state's sequence moves only when this process polls. */
  const polls = (role: CollectorRole) => {
    let count = 0
    cleanup.push(role.app.live.subscribe(() => count++))
    return () => count
  }

  it('keeps one active per group; the standby takes over within ttl + ttl/5 of a release', async () => {
    const { dir, cleanup: rm } = makeTempDir()
    cleanup.push(rm)
    const a = await start('c-a', dir)
    await waitFor(() => a.active(), 'the first collector to win the lease')
    sim = await startDemo(SMALL_ESTATE, a.app, { execArgv: EXEC_ARGV })
    await waitFor(() => a.app.live.current().state.vms.length > 0, 'the active one to poll')
    await waitFor(() => a.epoch() !== null, 'the active one to publish')

    const b = await start('c-b', dir)
    const bPolls = polls(b)
    expect(await health(a)).toMatchObject({ role: 'collector', active: true, instance: 'c-a' })
    expect(await health(b)).toMatchObject({ role: 'collector', active: false, instance: 'c-b' })
    // Two more polls of the active one, and the standby polled nothing in that time.
    const aPolls = polls(a)
    await waitFor(() => aPolls() >= 2, 'two polls of the active collector')
    expect(b.active()).toBe(false)
    expect(bPolls()).toBe(0)
    expect(b.epoch()).toBeNull()

    // A standby takes no changes: the active one would neither see nor publish them.
    const themeOn = (role: CollectorRole) =>
      role.app.http.inject({ method: 'POST', url: '/api/system/theme', payload: { theme: 'dark' } })
    const refused = await themeOn(b)
    expect(refused.statusCode).toBe(503)
    expect(refused.json()).toMatchObject({ code: 'COLLECTOR_STANDBY' })
    expect((await themeOn(a)).statusCode).not.toBe(503)

    // The active one saves allowed origins after the standby started (and read its settings).
    createSystemSettingsRepo(a.app.db).set(ORIGINS_KEY, ['https://dash.example.com'], Date.now())

    await a.close()
    await waitFor(() => b.active(), 'the standby to take over', TTL_MS + TTL_MS / 5 + 500)
    await waitFor(() => bPolls() > 0, 'the new active collector to poll')
    // What the previous holder stored applies on the new one, not what it read at its start.
    const settings = await b.app.http.inject({ method: 'GET', url: '/api/system/settings' })
    expect(settings.json()).toMatchObject({ allowedOrigins: 'https://dash.example.com' })
    expect((await themeOn(b)).statusCode).not.toBe(503)
    expect(b.app.live.current().state.vms.length).toBe(a.app.live.current().state.vms.length)
    await waitFor(() => b.epoch() !== null, 'the new active collector to publish')
    expect((await health(b)).active).toBe(true)
  }, 30_000)

  it('a partitioned active one stops working and a standby takes over within ttl + ttl/5', async () => {
    const { dir, cleanup: rm } = makeTempDir()
    cleanup.push(rm)
    const proxy = await startTcpProxy(server.port)
    cleanup.push(() => proxy.close())
    const a = await start('p-a', dir, `nats://127.0.0.1:${proxy.port}`)
    await waitFor(() => a.active(), 'the first collector to win the lease')
    const b = await start('p-b', dir)
    expect(b.active()).toBe(false)

    proxy.freeze()
    await waitFor(() => b.active(), 'the standby to take over', TTL_MS + TTL_MS / 5 + 1000)
    // Fencing: the partitioned one had stopped before the standby could win.
    expect(a.active()).toBe(false)
    expect(a.epoch()).toBeNull()
  }, 30_000)
})
