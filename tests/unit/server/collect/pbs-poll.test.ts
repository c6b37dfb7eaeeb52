import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { AppError } from '../../../../src/shared/model/errors.ts'
import {
  CONTENT_CONCURRENCY,
  createPbsMemory,
  markPbsDown,
  pollPbs,
  type PbsMemory,
  type PbsPollContext,
} from '../../../../src/server/collect/pbs-poll.ts'
import { createPveClient, type PveClient } from '../../../../src/server/collect/pve-client.ts'
import {
  startPbsSimulator,
  type PbsSimulator,
  type SimPbsServer,
} from '../../../../src/server/sim/pbs/index.ts'
import { START_MS, createManualClock, getPbsData } from '../sim/pbs/helpers.ts'

const HOUR_MS = 3_600_000
const POLL_MS = 10_000
const GUESTS = Array.from({ length: 40 }, (_, i) => ({
  vmid: 100 + i,
  type: i % 4 === 0 ? ('lxc' as const) : ('qemu' as const),
  name: i % 6 === 0 ? `db-${String(i).padStart(2, '0')}` : `web-${String(i).padStart(2, '0')}`,
}))
const HOSTS = ['pve-host1', 'fileserver']

describe('pollPbs against the PBS simulator', () => {
  const clock = createManualClock(START_MS)
  const clients: PveClient[] = []
  let sim: PbsSimulator
  let pbs: SimPbsServer

  beforeAll(async () => {
    sim = await startPbsSimulator({
      seed: 8,
      tickMs: 0,
      now: clock.now,
      guests: GUESTS,
      hostBackups: HOSTS,
    })
    pbs = sim.servers[0]!
  })
  afterAll(async () => {
    await sim.stop()
  })
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()))
  })

  function clientFor(server: SimPbsServer, secret = server.tokenSecret): PveClient {
    const client = createPveClient({
      host: server.url,
      product: 'pbs',
      auth: { kind: 'token', tokenId: server.tokenId, secret },
      verifySSL: true,
      fingerprint: server.fingerprint,
    })
    clients.push(client)
    return client
  }

  function contextFor(
    client: PveClient,
    memory: PbsMemory,
    cycle: number,
    overrides: Partial<PbsPollContext> = {},
  ): PbsPollContext {
    return {
      instance: 'backup1',
      host: pbs.url,
      call: (path, query, signal, timeoutMs, each) =>
        client.get(path, query, signal, timeoutMs, each),
      memory,
      // The poller's clock: cycle n starts (n - 1) poll intervals of 10 s after the first.
      now: START_MS + (cycle - 1) * POLL_MS,
      pollIntervalMs: POLL_MS,
      warn: () => {},
      ...overrides,
    }
  }

  it('reports the instance, its datastores with namespaces and dedup, and every backup', async () => {
    const client = clientFor(pbs)
    const { instance, backups } = await pollPbs(contextFor(client, createPbsMemory(), 1))
    expect(instance).toMatchObject({
      id: 'pbs-backup1',
      name: 'backup1',
      host: pbs.url,
      status: 'online',
      version: '4.0.14',
      connectionHealth: 'healthy',
      lastSeen: START_MS,
    })
    expect(instance.cpu).toBeGreaterThanOrEqual(0)
    expect(instance.cpu).toBeLessThanOrEqual(100)
    expect(instance.memoryTotal).toBeGreaterThan(0)
    expect(instance.memory).toBeGreaterThan(0)
    expect(instance.uptime).toBeGreaterThan(0)

    const usage = await getPbsData(pbs, '/status/datastore-usage')
    expect(instance.datastores.map((d) => d.name)).toEqual(['main', 'offsite'])
    for (const [i, store] of instance.datastores.entries()) {
      const raw = usage[i]!
      const gc = raw['gc-status'] as Record<string, number>
      expect(store).toMatchObject({
        status: 'available',
        total: raw.total,
        used: raw.used,
        free: raw.avail,
      })
      expect(store.deduplicationFactor).toBeCloseTo(gc['index-data-bytes']! / gc['disk-bytes']!, 1)
      expect(store.deduplicationFactor).toBeGreaterThan(5)
      expect(store.deduplicationFactor).toBeLessThan(40)
    }
    expect(instance.datastores[0]!.namespaces).toEqual([
      { path: '', depth: 0 },
      { path: 'lab', parent: '', depth: 1 },
      { path: 'prod', parent: '', depth: 1 },
      { path: 'prod/db', parent: 'prod', depth: 2 },
    ])
    expect(instance.datastores[1]!.namespaces.map((n) => n.path)).toEqual(['', 'prod'])

    // Every snapshot of every namespace, each once.
    let expected = 0
    for (const store of ['main', 'offsite']) {
      for (const ns of await getPbsData(pbs, `/admin/datastore/${store}/namespace`)) {
        const q = encodeURIComponent(String(ns.ns))
        expected += (await getPbsData(pbs, `/admin/datastore/${store}/snapshots?ns=${q}`)).length
      }
    }
    expect(backups).toHaveLength(expected)
    expect(new Set(backups.map((b) => b.id)).size).toBe(expected)
    const sample = backups.find((b) => b.namespace === 'prod/db')!
    expect(sample.id).toBe(
      `backup1-main-prod/db-${sample.backupType}-${sample.vmid}-${sample.backupTime}`,
    )
    expect(backups.some((b) => b.verified)).toBe(true)
    expect(backups.some((b) => !b.verified && b.verification === undefined)).toBe(true)
    expect(backups.some((b) => b.protected)).toBe(true)
    expect(backups.some((b) => b.encrypted)).toBe(true)
    expect(backups.some((b) => b.comment !== undefined)).toBe(true)
    expect(backups.some((b) => b.comment === undefined)).toBe(true)
    expect(new Set(backups.map((b) => b.owner))).toEqual(new Set([pbs.tokenId, 'root@pam']))
    const hosts = backups.filter((b) => b.backupType === 'host')
    expect(new Set(hosts.map((b) => b.vmid))).toEqual(new Set(HOSTS))
    const vmids = new Set(GUESTS.map((g) => String(g.vmid)))
    expect(backups.filter((b) => b.backupType !== 'host').every((b) => vmids.has(b.vmid))).toBe(
      true,
    )
  })

  it('reads namespaces and snapshots every 60 s (every 6th cycle at 10 s), from memory in between', async () => {
    const client = clientFor(pbs)
    const memory = createPbsMemory()
    const counts: number[] = []
    const results = []
    for (let cycle = 1; cycle <= 7; cycle++) {
      const before = sim.requestCount()
      results.push(await pollPbs(contextFor(client, memory, cycle)))
      counts.push(sim.requestCount() - before)
      // Between cycles 1 and 2 the simulator's nightly window passes: new snapshots exist on the
      // server. The poll clock moves on by 10 s a cycle.
      if (cycle === 1) {
        clock.set(START_MS + 14 * HOUR_MS)
        sim.tick()
      }
    }
    // 3 every cycle; plus 2 namespace calls and 4 + 2 snapshot calls on a content cycle.
    expect(counts).toEqual([11, 3, 3, 3, 3, 3, 11])
    expect(results[5]!.backups).toEqual(results[0]!.backups)
    expect(results[6]!.backups.length).toBeGreaterThan(results[0]!.backups.length)
    const newest = Math.max(...results[6]!.backups.map((b) => b.backupTime))
    expect(newest * 1000).toBeGreaterThan(START_MS + 10 * HOUR_MS)
    // The refresh keeps the objects of the snapshots that did not change (and only those), and
    // snapshots with the same files share one list (issue 27: server memory).
    const first = new Map(results[0]!.backups.map((b) => [b.id, b]))
    const carried = results[6]!.backups.filter((b) => first.has(b.id))
    expect(carried.filter((b) => first.get(b.id) === b).length).toBeGreaterThan(0)
    for (const b of carried) {
      if (first.get(b.id) !== b) expect(b).not.toEqual(first.get(b.id))
    }
    const listsByFiles = new Map<string, Set<string[]>>()
    for (const b of results[6]!.backups) {
      const key = b.files.join('/')
      listsByFiles.set(key, (listsByFiles.get(key) ?? new Set()).add(b.files))
    }
    expect([...listsByFiles.values()].every((lists) => lists.size === 1)).toBe(true)
    expect(listsByFiles.size).toBeLessThan(results[6]!.backups.length)
    // The every-cycle figures did refresh.
    expect(results[1]!.instance.lastSeen).toBe(START_MS + POLL_MS)
    clock.set(START_MS)
  })

  it('reads namespaces and snapshots on every cycle at a 60 s poll interval', async () => {
    const client = clientFor(pbs)
    const memory = createPbsMemory()
    const counts: number[] = []
    for (let cycle = 1; cycle <= 3; cycle++) {
      const before = sim.requestCount()
      const now = START_MS + (cycle - 1) * 60_000
      await pollPbs(contextFor(client, memory, cycle, { now, pollIntervalMs: 60_000 }))
      counts.push(sim.requestCount() - before)
    }
    expect(counts).toEqual([11, 11, 11])
  })

  it('keeps at most four content calls in flight across datastores and namespaces', async () => {
    const client = clientFor(pbs)
    let inFlight = 0
    let peak = 0
    const call: PbsPollContext['call'] = async (path, query, signal, timeoutMs, each) => {
      const content = path.startsWith('/admin/')
      if (content) peak = Math.max(peak, ++inFlight)
      try {
        return await client.get(path, query, signal, timeoutMs, each)
      } finally {
        if (content) inFlight--
      }
    }
    await pollPbs(contextFor(client, createPbsMemory(), 1, { call }))
    // main has four namespaces, so the limit is reached as soon as its list arrives.
    expect(peak).toBe(CONTENT_CONCURRENCY)
  })

  it('marks a failing datastore as error while the other one still reports', async () => {
    const client = clientFor(pbs)
    const memory = createPbsMemory()
    const warnings: string[] = []
    const warn = (_obj: object, msg: string): void => {
      warnings.push(msg)
    }
    const good = await pollPbs(contextFor(client, memory, 1))
    const offsiteBefore = good.backups.filter((b) => b.datastore === 'offsite')
    sim.setDatastoreError('pbs1', 'offsite', 'unable to open chunk store - EIO: I/O error')
    try {
      // A fresh memory: the failing store has no content to fall back on.
      const fresh = await pollPbs(contextFor(client, createPbsMemory(), 1, { warn }))
      const [main, offsite] = fresh.instance.datastores
      expect(main).toMatchObject({ name: 'main', status: 'available' })
      expect(main!.error).toBeUndefined()
      expect(offsite).toMatchObject({ name: 'offsite', status: 'error' })
      expect(offsite!.error).toMatch(/500/)
      expect(offsite!.total).toBeGreaterThan(0)
      expect(fresh.instance.connectionHealth).toBe('unhealthy')
      expect(fresh.backups.length).toBeGreaterThan(0)
      expect(fresh.backups.every((b) => b.datastore === 'main')).toBe(true)
      expect(warnings).toEqual(['datastore content failed'])

      // With memory, the store keeps its last known backups and is retried on the next cycle.
      const stale = await pollPbs(contextFor(client, memory, 7))
      expect(stale.instance.datastores[1]!.status).toBe('error')
      expect(stale.backups.filter((b) => b.datastore === 'offsite')).toEqual(offsiteBefore)
    } finally {
      sim.setDatastoreError('pbs1', 'offsite', undefined)
    }
    const before = sim.requestCount()
    const healed = await pollPbs(contextFor(client, memory, 8))
    // Only the failed store is read again: 3 + 1 namespace + 2 snapshot calls.
    expect(sim.requestCount() - before).toBe(6)
    expect(healed.instance.datastores.map((d) => d.status)).toEqual(['available', 'available'])
    expect(healed.instance.connectionHealth).toBe('healthy')
  })

  it('tolerates a 403 on the node status, as a token with only DatastoreAudit gets', async () => {
    // The simulator has no ACLs, so this test injects the 403 into the real client's answers.
    const client = clientFor(pbs)
    const call: PbsPollContext['call'] = (path, query, signal, timeoutMs, each) =>
      path === '/nodes/localhost/status'
        ? Promise.reject(
            new AppError('PVE_FORBIDDEN', { host: pbs.url, reason: 'permission check failed' }),
          )
        : client.get(path, query, signal, timeoutMs, each)
    const { instance, backups } = await pollPbs(contextFor(client, createPbsMemory(), 1, { call }))
    expect(instance).toMatchObject({
      status: 'online',
      cpu: 0,
      memoryTotal: 0,
      connectionHealth: 'unhealthy',
    })
    expect(instance.datastores).toHaveLength(2)
    expect(backups.length).toBeGreaterThan(0)
  })

  it('treats a PBS without the namespace endpoint (before 2.2) as root only', async () => {
    // The simulator always has namespaces, so this test makes the endpoint answer 404.
    const client = clientFor(pbs)
    const call: PbsPollContext['call'] = (path, query, signal, timeoutMs, each) =>
      path.endsWith('/namespace')
        ? Promise.reject(
            new AppError('PVE_HTTP', { host: pbs.url, status: 404, reason: 'Not Found' }),
          )
        : client.get(path, query, signal, timeoutMs, each)
    const { instance, backups } = await pollPbs(contextFor(client, createPbsMemory(), 1, { call }))
    expect(instance.datastores[0]!.namespaces).toEqual([{ path: '', depth: 0 }])
    expect(instance.datastores[0]!.status).toBe('available')
    expect(backups.every((b) => b.namespace === '')).toBe(true)
    expect(backups.some((b) => b.backupType === 'host')).toBe(true)
  })

  it('also works with a ticket login (PBSAuthCookie)', async () => {
    const client = createPveClient({
      host: pbs.url,
      product: 'pbs',
      auth: { kind: 'password', username: 'root@pam', password: 'simulator' },
      verifySSL: false,
    })
    clients.push(client)
    const { instance } = await pollPbs(contextFor(client, createPbsMemory(), 1))
    expect(instance.status).toBe('online')
  })

  it('throws PVE_AUTH_REJECTED for a wrong token', async () => {
    const client = clientFor(pbs, '00000000-0000-4000-8000-000000000000')
    const err = await pollPbs(contextFor(client, createPbsMemory(), 1)).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(AppError)
    expect((err as AppError).code).toBe('PVE_AUTH_REJECTED')
  })

  it('throws PVE_UNREACHABLE when the server is down, and markPbsDown keeps it listed', async () => {
    const client = clientFor(pbs)
    const memory = createPbsMemory()
    expect(markPbsDown(memory, new Error('never polled'))).toBeUndefined()
    const good = await pollPbs(contextFor(client, memory, 1))
    await sim.setReachable('pbs1', false)
    try {
      const err = await pollPbs(contextFor(client, memory, 2)).catch((e: unknown) => e)
      expect(err).toBeInstanceOf(AppError)
      expect((err as AppError).code).toBe('PVE_UNREACHABLE')
      const down = markPbsDown(memory, err)
      expect(down).toEqual({ ...good.instance, status: 'offline', connectionHealth: 'error' })
      expect(memory.last?.backups).toEqual(good.backups)
    } finally {
      await sim.setReachable('pbs1', true)
    }
    expect((await pollPbs(contextFor(client, memory, 3))).instance.status).toBe('online')
  })

  it('lists a never-reached instance as offline with no datastores', async () => {
    const client = clientFor(pbs)
    const memory = createPbsMemory()
    await sim.setReachable('pbs1', false)
    try {
      const err = await pollPbs(contextFor(client, memory, 1)).catch((e: unknown) => e)
      expect((err as AppError).code).toBe('PVE_UNREACHABLE')
    } finally {
      await sim.setReachable('pbs1', true)
    }
    expect(markPbsDown(memory, new Error('down'))).toEqual({
      id: 'pbs-backup1',
      name: 'backup1',
      host: pbs.url,
      status: 'offline',
      version: '',
      cpu: 0,
      memory: 0,
      memoryUsed: 0,
      memoryTotal: 0,
      uptime: 0,
      datastores: [],
      connectionHealth: 'error',
      lastSeen: 0,
    })
  })
})
