import { connect } from 'node:tls'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startPbsSimulator } from '../../../../../src/server/sim/pbs/index.ts'
import type { PbsSimulator, SimPbsServer } from '../../../../../src/server/sim/pbs/index.ts'
import { START_MS, callPbs, createManualClock, getPbsData } from './helpers.ts'

type Entry = Record<string, unknown>

/** Walks a JSON value and collects every path whose value is null or a 0/1 "boolean" key. */
function findNulls(value: unknown, path = '$'): string[] {
  if (value === null) return [path]
  if (Array.isArray(value)) return value.flatMap((v, i) => findNulls(v, `${path}[${i}]`))
  if (typeof value === 'object')
    return Object.entries(value).flatMap(([k, v]) => findNulls(v, `${path}.${k}`))
  return []
}

/** Every snapshot of a store, across its namespaces. */
async function allSnapshots(server: SimPbsServer, store: string): Promise<Entry[]> {
  const namespaces = await getPbsData(server, `/admin/datastore/${store}/namespace`)
  const lists = await Promise.all(
    namespaces.map((n) =>
      getPbsData(
        server,
        `/admin/datastore/${store}/snapshots?ns=${encodeURIComponent(String(n.ns))}`,
      ),
    ),
  )
  return lists.flat()
}

describe('PBS simulator endpoints', () => {
  const clock = createManualClock(START_MS)
  let sim: PbsSimulator
  let pbs: SimPbsServer

  beforeAll(async () => {
    sim = await startPbsSimulator({ seed: 11, tickMs: 0, now: clock.now })
    pbs = sim.servers[0]!
  })
  afterAll(async () => {
    await sim.stop()
  })

  it('serves one instance on loopback with the default token id', () => {
    expect(sim.servers.map((s) => s.name)).toEqual(['pbs1'])
    expect(pbs.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/)
    expect(pbs.tokenId).toBe('pulse-monitor@pbs!pulse-token')
    expect(pbs.tokenSecret).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    )
  })

  it('refuses to listen outside 127.0.0.0/8', async () => {
    await expect(startPbsSimulator({ host: '0.0.0.0', tickMs: 0 })).rejects.toThrow(
      /127\.0\.0\.0\/8/,
    )
  })

  it('presents the certificate whose fingerprint it advertises and reports it in the node status', async () => {
    const url = new URL(pbs.url)
    const fingerprint = await new Promise<string>((resolve, reject) => {
      const socket = connect(
        { host: url.hostname, port: Number(url.port), rejectUnauthorized: false },
        () => {
          resolve(socket.getPeerCertificate().fingerprint256)
          socket.end()
        },
      )
      socket.on('error', reject)
    })
    expect(fingerprint).toBe(pbs.fingerprint)
    const status = await getPbsData<Entry>(pbs, '/nodes/localhost/status')
    expect(status.info).toEqual({ fingerprint: pbs.fingerprint })
  })

  it('wraps answers in {"data":...} with the exact PBS content type', async () => {
    const reply = await callPbs(pbs, '/version')
    expect(reply.status).toBe(200)
    expect(reply.contentType).toBe('application/json;charset=UTF-8')
    const data = (reply.body as { data: Entry }).data
    // PBS: major.minor in version, the patch level in release (the reverse of PVE).
    expect(data.version).toMatch(/^\d+\.\d+$/)
    expect(data.release).toMatch(/^\d+$/)
    expect(data.repoid).toMatch(/^[0-9a-f]{40}$/)
  })

  it('lists both datastores with usage, history and GC status in kebab-case', async () => {
    const usage = await getPbsData(pbs, '/status/datastore-usage')
    expect(usage.map((u) => u.store)).toEqual(['main', 'offsite'])
    const nowSec = START_MS / 1000
    for (const u of usage) {
      const total = u.total as number
      const used = u.used as number
      expect(used).toBeGreaterThan(0)
      expect(used / total).toBeGreaterThan(0.3)
      expect(used / total).toBeLessThan(0.9)
      expect(u.avail).toBe(total - used)
      expect(u['mount-status']).toBe('nonremovable')
      expect(u['backend-type']).toBe('filesystem')
      expect(u['history-delta']).toBe(86_400)
      expect(u.history).toHaveLength(30)
      expect(u['estimated-full-date']).toBeGreaterThan(nowSec)
      const gc = u['gc-status'] as Entry
      expect(gc.upid).toMatch(
        new RegExp(
          `^UPID:pbs1:[0-9A-F]{8}:[0-9A-F]{8}:[0-9A-F]{8}:[0-9A-F]{8}:garbage_collection:${String(u.store)}:root@pam:$`,
        ),
      )
      const dedup = (gc['index-data-bytes'] as number) / (gc['disk-bytes'] as number)
      expect(dedup).toBeGreaterThan(5)
      expect(dedup).toBeLessThan(40)
      expect(gc['disk-bytes']).toBeLessThan(used)
    }
    expect(findNulls(usage).every((p) => /\.history\[\d+\]$/.test(p))).toBe(true)
  })

  it('answers the datastore list, config, status and gc endpoints', async () => {
    const list = await getPbsData(pbs, '/admin/datastore')
    expect(list).toEqual([
      {
        store: 'main',
        comment: 'Primary backup store',
        'mount-status': 'nonremovable',
        'backend-type': 'filesystem',
      },
      {
        store: 'offsite',
        comment: 'Weekly off-site copies',
        'mount-status': 'nonremovable',
        'backend-type': 'filesystem',
      },
    ])
    const config = await getPbsData(pbs, '/config/datastore')
    expect(config.map((c) => c.name)).toEqual(['main', 'offsite'])
    expect(config[0]).toMatchObject({
      path: '/mnt/datastore/main',
      'gc-schedule': '06:00',
      'keep-daily': 7,
    })
    expect(config[1]).toMatchObject({ 'verify-new': true, 'keep-last': 4 })

    const status = await getPbsData<Entry>(pbs, '/admin/datastore/main/status')
    expect(Object.keys(status).sort()).toEqual(['avail', 'backend-type', 'total', 'used'])
    const verbose = await getPbsData<Entry>(pbs, '/admin/datastore/main/status?verbose=1')
    const counts = verbose.counts as Record<string, { groups: number; snapshots: number }>
    const snapshots = await allSnapshots(pbs, 'main')
    const total = Object.values(counts).reduce((sum, c) => sum + c.snapshots, 0)
    expect(total).toBe(snapshots.length)
    expect(counts.host?.groups).toBe(3)
    const gc = await getPbsData<Entry>(pbs, '/admin/datastore/main/gc')
    // The per-store GC status is the counters plus the schedule status (reference §3.3).
    expect(gc).toMatchObject(verbose['gc-status'] as Entry)
    expect(gc).toMatchObject({ store: 'main', schedule: '06:00', 'last-run-state': 'OK' })
  })

  it('lists namespaces recursively, under a parent and down to a depth', async () => {
    const all = await getPbsData(pbs, '/admin/datastore/main/namespace')
    expect(all).toEqual([
      { ns: '' },
      { ns: 'lab', comment: 'Lab and test guests' },
      { ns: 'prod', comment: 'Production cluster' },
      { ns: 'prod/db', comment: 'Databases, kept longer' },
    ])
    const prod = await getPbsData(pbs, '/admin/datastore/main/namespace?parent=prod')
    expect(prod.map((n) => n.ns)).toEqual(['prod', 'prod/db'])
    const top = await getPbsData(pbs, '/admin/datastore/main/namespace?max-depth=1')
    expect(top.map((n) => n.ns)).toEqual(['', 'lab', 'prod'])
    const offsite = await getPbsData(pbs, '/admin/datastore/offsite/namespace')
    expect(offsite.map((n) => n.ns)).toEqual(['', 'prod'])
  })

  it('rejects a missing namespace, a bad depth and the ns parameter Pulse wrongly sends', async () => {
    const missing = await callPbs(pbs, '/admin/datastore/main/namespace?parent=nope')
    expect(missing.status).toBe(400)
    expect(missing.text).toBe("namespace 'nope' does not exist")
    expect((await callPbs(pbs, '/admin/datastore/main/namespace?max-depth=8')).status).toBe(400)
    const pulse = await callPbs(pbs, '/admin/datastore/main/namespace?ns=prod')
    expect(pulse.status).toBe(400)
    expect(pulse.text).toContain("'ns'")
    expect((await callPbs(pbs, '/admin/datastore/nope/snapshots')).status).toBe(400)
  })

  it('lists groups whose counts and last backup match the snapshots', async () => {
    const groups = await getPbsData(pbs, '/admin/datastore/main/groups?ns=prod')
    const snapshots = await getPbsData(pbs, '/admin/datastore/main/snapshots?ns=prod')
    expect(groups.length).toBeGreaterThan(5)
    for (const g of groups) {
      const mine = snapshots.filter(
        (s) => s['backup-type'] === g['backup-type'] && s['backup-id'] === g['backup-id'],
      )
      expect(g['backup-count']).toBe(mine.length)
      expect(g['last-backup']).toBe(Math.max(...mine.map((s) => s['backup-time'] as number)))
      expect(g.files).toContain('index.json.blob')
    }
  })

  it('serves snapshots with files, sizes, owners, verification, protection and encryption', async () => {
    const main = await allSnapshots(pbs, 'main')
    for (const s of main) {
      expect(['vm', 'ct', 'host']).toContain(s['backup-type'])
      expect(typeof s.protected).toBe('boolean')
      const files = s.files as Entry[]
      expect(s.size).toBe(files.reduce((sum, f) => sum + (f.size as number), 0))
      for (const f of files) expect(['none', 'encrypt', 'sign-only']).toContain(f['crypt-mode'])
      // Archive names follow the backup type.
      const names = files.map((f) => f.filename as string)
      if (s['backup-type'] === 'vm') expect(names).toContain('drive-scsi0.img.fidx')
      if (s['backup-type'] === 'ct')
        expect(names.some((n) => /^root\.[mp]?pxar\.didx$/.test(n))).toBe(true)
    }
    expect(findNulls(main)).toEqual([])
    const verified = main.filter((s) => (s.verification as Entry | undefined)?.state === 'ok')
    const unverified = main.filter((s) => s.verification === undefined)
    expect(verified.length).toBeGreaterThan(main.length / 2)
    expect(unverified.length).toBeGreaterThan(0)
    expect((verified[0]!.verification as Entry).upid).toMatch(
      /:verificationjob:main\\x3av\\x2dweekly:root@pam:$/,
    )
    expect(main.filter((s) => s.protected === true).length).toBeGreaterThan(0)
    const encrypted = main.filter((s) =>
      (s.files as Entry[]).some((f) => f['crypt-mode'] === 'encrypt'),
    )
    expect(encrypted.length).toBeGreaterThan(0)
    expect(encrypted.length).toBeLessThan(main.length / 4)
    for (const s of encrypted) expect(s.fingerprint).toMatch(/^([0-9a-f]{2}:){31}[0-9a-f]{2}$/)
    expect(main.filter((s) => typeof s.comment === 'string').length).toBeGreaterThan(0)
    expect(main.filter((s) => s.comment === undefined).length).toBeGreaterThan(0)
    expect(new Set(main.map((s) => s.owner))).toEqual(new Set([pbs.tokenId, 'root@pam']))
    const hosts = main.filter((s) => s['backup-type'] === 'host')
    expect(new Set(hosts.map((s) => s['backup-id']))).toEqual(
      new Set(['pve-host1', 'fileserver', 'gateway']),
    )
  })

  it('keeps a nightly history of about a month per group, weekly on offsite', async () => {
    const prod = await getPbsData(pbs, '/admin/datastore/main/snapshots?ns=prod')
    const nowSec = START_MS / 1000
    const oldest = Math.min(...prod.map((s) => s['backup-time'] as number))
    expect((nowSec - oldest) / 86_400).toBeGreaterThan(25)
    expect((nowSec - oldest) / 86_400).toBeLessThan(50)
    const offsite = await getPbsData(pbs, '/admin/datastore/offsite/snapshots?ns=prod')
    for (const s of offsite) {
      // Sunday runs only; offsite verifies every new snapshot.
      expect(new Date((s['backup-time'] as number) * 1000).getUTCDay()).toBe(0)
      expect((s.verification as Entry).upid).toMatch(/:verify:offsite\\x3a/)
    }
  })

  it('filters snapshots by backup type and id', async () => {
    const cts = await getPbsData(pbs, '/admin/datastore/main/snapshots?ns=prod&backup-type=ct')
    expect(cts.length).toBeGreaterThan(0)
    expect(cts.every((s) => s['backup-type'] === 'ct')).toBe(true)
    const id = String(cts[0]!['backup-id'])
    const one = await getPbsData(
      pbs,
      `/admin/datastore/main/snapshots?ns=prod&backup-type=ct&backup-id=${id}`,
    )
    expect(one.every((s) => s['backup-id'] === id)).toBe(true)
    expect(one.length).toBe(cts.filter((s) => s['backup-id'] === id).length)
    expect((await callPbs(pbs, '/admin/datastore/main/snapshots?backup-type=lxc')).status).toBe(400)
  })

  it('reports node status with PBS field names and real numbers', async () => {
    const status = await getPbsData<Entry>(pbs, '/nodes/localhost/status')
    expect(status.cpu).toBeGreaterThanOrEqual(0)
    expect(status.cpu).toBeLessThanOrEqual(1)
    expect((status.loadavg as unknown[]).every((v) => typeof v === 'number')).toBe(true)
    const memory = status.memory as Entry
    expect(memory.used as number).toBeLessThan(memory.total as number)
    expect(Object.keys(status.root as Entry).sort()).toEqual(['avail', 'total', 'used'])
    expect(status.uptime).toBeGreaterThan(86_400)
    expect(status.cpuinfo).toMatchObject({ sockets: expect.any(Number), cpus: expect.any(Number) })
    expect(await getPbsData<Entry>(pbs, '/nodes/pbs1/status')).toEqual(status)
    expect((await callPbs(pbs, '/nodes/other/status')).status).toBe(400)
  })

  it('lists tasks newest first with PBS UPIDs, paging and filters', async () => {
    const reply = await callPbs(pbs, '/nodes/localhost/tasks')
    const { data, total } = reply.body as { data: Entry[]; total: number }
    expect(data).toHaveLength(50)
    expect(total).toBeGreaterThan(50)
    const starts = data.map((t) => t.starttime as number)
    expect(starts).toEqual([...starts].sort((a, b) => b - a))
    for (const t of data) {
      expect(t.upid).toMatch(/^UPID:pbs1:(?:[0-9A-F]{8}:){4}[a-z_]+:[^:]*:[^:]+:$/)
      expect(t.node).toBe('pbs1')
    }
    const gc = await getPbsData(pbs, '/nodes/localhost/tasks?typefilter=garbage_collection&limit=0')
    expect(gc.length).toBeGreaterThan(0)
    expect(gc.every((t) => t.worker_type === 'garbage_collection')).toBe(true)
    const errors = await getPbsData(pbs, '/nodes/localhost/tasks?errors=1&limit=0')
    expect(errors.every((t) => t.status !== 'OK' && t.status !== undefined)).toBe(true)
    const offsite = await getPbsData(pbs, '/nodes/localhost/tasks?store=offsite&limit=0')
    expect(offsite.every((t) => String(t.worker_id).startsWith('offsite'))).toBe(true)
    const since = START_MS / 1000 - 3600 * 12
    const recent = await getPbsData(pbs, `/nodes/localhost/tasks?since=${since}&limit=0`)
    expect(recent.every((t) => (t.starttime as number) >= since)).toBe(true)
  })

  it('rejects unknown query parameters with 400 and a plain-text message', async () => {
    const reply = await callPbs(pbs, '/status/datastore-usage?verbose=1')
    expect(reply.status).toBe(400)
    expect(reply.body).toBeUndefined()
    expect(reply.text).toBe(
      "parameter verification failed - 'verbose': schema does not allow additional properties",
    )
    expect((await callPbs(pbs, '/nodes/localhost/tasks?limit=abc')).status).toBe(400)
  })

  it('answers 501 for unknown paths and methods', async () => {
    const unknown = await callPbs(pbs, '/tape/backup')
    expect(unknown.status).toBe(501)
    expect(unknown.text).toBe("Method 'GET /tape/backup' not implemented")
    expect((await callPbs(pbs, '/version', { method: 'DELETE' })).status).toBe(501)
  })

  it('answers the same bytes until the revision changes', async () => {
    const first = await callPbs(pbs, '/nodes/localhost/status')
    const again = await callPbs(pbs, '/nodes/localhost/status')
    expect(again.text).toBe(first.text)
    sim.tick(START_MS + 60_000)
    const later = await callPbs(pbs, '/nodes/localhost/status')
    expect((later.body as { data: Entry }).data.uptime).toBe(
      ((first.body as { data: Entry }).data.uptime as number) + 60,
    )
  })
})

describe('PBS simulator with the PVE estate guests', () => {
  it('backs up those VMIDs with their names and types, plus the requested hosts', async () => {
    const guests = Array.from({ length: 30 }, (_, i) => ({
      vmid: 2000 + i,
      type: i % 3 === 0 ? ('lxc' as const) : ('qemu' as const),
      name: i % 5 === 0 ? `db-${i}` : `app-${i}`,
    }))
    const sim = await startPbsSimulator({
      seed: 4,
      tickMs: 0,
      now: () => START_MS,
      guests,
      hostBackups: ['nas'],
    })
    try {
      const pbs = sim.servers[0]!
      const snapshots = await allSnapshots(pbs, 'main')
      const byId = new Map(guests.map((g) => [String(g.vmid), g]))
      const ids = new Set<string>()
      for (const s of snapshots) {
        if (s['backup-type'] === 'host') {
          expect(s['backup-id']).toBe('nas')
          continue
        }
        const guest = byId.get(String(s['backup-id']))
        expect(guest).toBeDefined()
        expect(s['backup-type']).toBe(guest!.type === 'qemu' ? 'vm' : 'ct')
        if (s.comment !== undefined && s.protected !== true) expect(s.comment).toBe(guest!.name)
        ids.add(String(s['backup-id']))
      }
      // Most guests are in a backup job; a few (5-15% in real estates) are not.
      expect(ids.size).toBeGreaterThan(20)
      expect(ids.size).toBeLessThanOrEqual(30)
    } finally {
      await sim.stop()
    }
  })

  it('builds the same backups from the same seed', async () => {
    const a = await startPbsSimulator({ seed: 9, tickMs: 0, now: () => START_MS })
    const b = await startPbsSimulator({ seed: 9, tickMs: 0, now: () => START_MS })
    try {
      const path = '/admin/datastore/main/snapshots?ns=prod'
      expect(await getPbsData(a.servers[0]!, path)).toEqual(await getPbsData(b.servers[0]!, path))
    } finally {
      await Promise.all([a.stop(), b.stop()])
    }
  })
})
