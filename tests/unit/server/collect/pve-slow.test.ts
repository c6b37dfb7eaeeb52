// pollPveSlow driven cycle by cycle. `call` is a data replay: it answers each path from a table
// filled with the recorded Proxmox captures in tests/fixtures/proxmox/pve and, for the
// endpoints no capture exists of (ZFS, Ceph pools, snapshots, vzdump file listings), with the
// shapes documented in reference/proxmox-api.md §2.8-2.13. It replays data; it stands in for none
// of our own code. The last test serves the same answers over real HTTPS on 127.0.0.1.
import { afterEach, describe, expect, it, vi } from 'vitest'
import { AppError } from '../../../../src/shared/model/errors.ts'
import {
  createPveSlowMemory,
  pollPveSlow,
  SLOW_CALL_BUDGET_MS,
  TASK_LIMIT,
  TASK_WINDOW_S,
  type PveSlowContext,
  type PveSlowMemory,
  type PveSlowResult,
  type SlowGuest,
} from '../../../../src/server/collect/pve-slow.ts'
import { createPveClient } from '../../../../src/server/collect/pve-client.ts'
import { CollectCancelled } from '../../../../src/server/collect/collector.ts'
import { SLOW_CONCURRENCY } from '../../../../src/server/collect/pve-slow-context.ts'
import { readFixture, readFixtureList } from './fixtures.ts'
import { createTestCert, startStubPve } from './stub-pve.ts'

const NOW = 1_760_000_000_000

type Query = Record<string, string | number> | undefined
type Answer = (query: Query, signal?: AbortSignal) => unknown

const data =
  (value: unknown): Answer =>
  () =>
    structuredClone(value)

const refuse =
  (status = 500): Answer =>
  () => {
    throw new AppError('PVE_HTTP', { host: 'lab', status, reason: 'refused' })
  }

// PVE's /nodes/{n}/storage of the PVE 9 capture, plus a shared PBS storage in the same shape.
const PBS_STORAGE = {
  storage: 'pbs-main',
  type: 'pbs',
  content: 'backup',
  shared: 1,
  active: 1,
  enabled: 1,
  total: 1000,
  used: 250,
  avail: 750,
}
const NODE_STORAGE = [
  ...readFixtureList('node-storage__unidentified-pve9-capture.json'),
  PBS_STORAGE,
]
const STORAGE_CONFIG = [
  ...readFixtureList('storage-config__unidentified-k3s-checklist-pve8.4.14.json'),
  { storage: 'vmdata', type: 'zfspool', pool: 'tank/vmdata', content: 'images,rootdir' },
]
const ZFS_LIST = [
  {
    name: 'tank',
    size: 103515422720,
    alloc: 13968384,
    free: 1,
    frag: 0,
    dedup: 1,
    health: 'ONLINE',
  },
  { name: 'rpool', size: 1, alloc: 1, free: 1, frag: 0, dedup: 1, health: 'ONLINE' },
]
const ZFS_TANK = {
  name: 'tank',
  state: 'ONLINE',
  errors: 'No known data errors',
  children: [
    {
      name: 'tank',
      state: 'ONLINE',
      read: 0,
      write: 0,
      cksum: 0,
      msg: '',
      children: [
        { name: '/dev/sdb', state: 'ONLINE', read: 0, write: 0, cksum: 0, msg: '', leaf: 1 },
      ],
    },
  ],
}
const LOCAL_BACKUPS = [
  {
    volid: 'local:backup/vzdump-lxc-101-2025_01_14-01_07_12.tar.zst',
    content: 'backup',
    format: 'tar.zst',
    size: 734003200,
    ctime: 1736816832,
    vmid: 101,
    subtype: 'lxc',
  },
]
const VZDUMP_TASKS = readFixtureList('node-tasks__community-proxmox-pve6.4.json').map((t, i) => ({
  ...t,
  type: i === 1 ? 'vzdump' : t.type,
  id: '100',
}))
const SNAPSHOTS_100 = [
  { name: 'pre-upgrade', snaptime: 1759335730, description: 'before 24.04', vmstate: 0 },
  { name: 'current', description: 'You are here!', parent: 'pre-upgrade', running: 1 },
]
const SMART_BY_DISK: Record<string, string> = {
  '/dev/sda': 'disks-smart-ata-hdd__pve-storage-test.json',
  '/dev/sdb': 'disks-smart-nvme__pve-storage-test.json',
  '/dev/sdc': 'disks-smart-sas__pve-storage-test.json',
}
// The cv4pve-diag capture of /cluster/resources storage entries, as node pve2's.
const RESOURCES = readFixtureList('cluster-resources-type-storage__cv4pve-diag-issue52.json').map(
  (e) => ({ ...e, node: 'pve2', id: String(e.id).replace('enterprise', 'pve2') }),
)
const CEPH_POOLS = [{ pool: 2, pool_name: 'vm_nvme', size: 3, bytes_used: 300, percent_used: 0.75 }]

function nodeAnswers(node: string): Record<string, Answer> {
  return {
    [`/nodes/${node}/storage`]: data(NODE_STORAGE),
    [`/nodes/${node}/disks/zfs`]: data(ZFS_LIST),
    [`/nodes/${node}/disks/zfs/tank`]: data(ZFS_TANK),
    [`/nodes/${node}/disks/list`]: data(readFixture('disks-list__community-proxmox-ceph-osd.json')),
    [`/nodes/${node}/disks/smart`]: (q) => readFixture(SMART_BY_DISK[String(q?.disk)] ?? 'none'),
    [`/nodes/${node}/tasks`]: data(node === 'pve1' ? VZDUMP_TASKS : []),
    [`/nodes/${node}/storage/local/content`]: data(LOCAL_BACKUPS),
    [`/nodes/${node}/storage/pbs-main/content`]: data(
      readFixture('storage-content-backup-pbs__community-proxmox.json'),
    ),
  }
}

function baseAnswers(): Record<string, Answer> {
  return {
    ...nodeAnswers('pve1'),
    ...nodeAnswers('pve2'),
    '/storage': data(STORAGE_CONFIG),
    '/nodes/pve1/qemu/100/snapshot': data(SNAPSHOTS_100),
    '/nodes/pve2/lxc/101/snapshot': data(SNAPSHOTS_100.slice(1)),
    ...backupJobAnswers(encodeURIComponent),
  }
}

// Issue 26: the backup jobs, the guests in none, and one recorded log for every vzdump task
// (`segment` as the path reaches the answer table: encoded by the collector, decoded by a stub).
function backupJobAnswers(segment: (upid: string) => string): Record<string, Answer> {
  return {
    '/cluster/backup': data(readFixture('cluster-backup__cv4pve-admin-issue48.json')),
    '/cluster/backup-info/not-backed-up': data(
      readFixture('cluster-backup-info-not-backed-up__constructed-pve-manager.json'),
    ),
    ...Object.fromEntries(
      VZDUMP_TASKS.map((t) => [
        `/nodes/pve1/tasks/${segment(String((t as Record<string, unknown>).upid))}/log`,
        data(readFixture('task-log-vzdump__community-general-proxmox-backup.json')),
      ]),
    ),
  }
}

interface Replay {
  answers: Record<string, Answer>
  calls: Array<{ path: string; query: Query }>
  maxInFlight: number
  call: PveSlowContext['call']
}

function createReplay(answers: Record<string, Answer>): Replay {
  let inFlight = 0
  const replay: Replay = {
    answers,
    calls: [],
    maxInFlight: 0,
    async call(path, query, signal, _timeoutMs, each) {
      replay.calls.push({ path, query })
      inFlight++
      replay.maxInFlight = Math.max(replay.maxInFlight, inFlight)
      try {
        // A few turns of the microtask queue, so that calls overlap as they do on the wire.
        for (let i = 0; i < 3; i++) await Promise.resolve()
        const answer = replay.answers[path] ?? refuse(501)
        const data = await answer(query, signal)
        // As the client does with `each`: a list answer mapped, entries mapped to undefined left out.
        return each && Array.isArray(data)
          ? data.map(each).filter((item) => item !== undefined)
          : data
      } finally {
        inFlight--
      }
    },
  }
  return replay
}

interface Harness {
  replay: Replay
  memory: PveSlowMemory
  warnings: Array<{ obj: Record<string, unknown>; msg: string }>
  cache: { hits: number; misses: number }
  nodes: Array<{ name: string; online: boolean }>
  guests: SlowGuest[]
  resources: unknown[]
  cycle: (n: number) => Promise<PveSlowResult>
}

// Cycle n starts n poll intervals after NOW on the harness's own clock: no test sleeps.
function createHarness(answers = baseAnswers(), pollIntervalMs = 10_000): Harness {
  const h: Harness = {
    replay: createReplay(answers),
    memory: createPveSlowMemory(),
    warnings: [],
    cache: { hits: 0, misses: 0 },
    nodes: [
      { name: 'pve1', online: true },
      { name: 'pve2', online: true },
    ],
    guests: [
      { vmid: 100, node: 'pve1', type: 'qemu' },
      { vmid: 101, node: 'pve2', type: 'lxc' },
      { vmid: 9000, node: 'pve1', type: 'qemu', template: true },
    ],
    resources: RESOURCES,
    cycle: (n) =>
      pollPveSlow({
        instance: 'lab',
        call: h.replay.call,
        nodes: h.nodes,
        guests: h.guests,
        resources: h.resources,
        memory: h.memory,
        now: NOW + n * pollIntervalMs,
        pollIntervalMs,
        warn: (obj, msg) => h.warnings.push({ obj: obj as Record<string, unknown>, msg }),
        onCache: (hit) => (hit ? h.cache.hits++ : h.cache.misses++),
      }),
  }
  return h
}

function countCalls(replay: Replay): Record<string, number> {
  const counts: Record<string, number> = {}
  for (const { path } of replay.calls) counts[path] = (counts[path] ?? 0) + 1
  return counts
}

async function runCycles(h: Harness, from: number, to: number): Promise<PveSlowResult[]> {
  const results: PveSlowResult[] = []
  for (let n = from; n <= to; n++) results.push(await h.cycle(n))
  return results
}

afterEach(() => {
  vi.useRealTimers()
})

describe('pollPveSlow: first cycle', () => {
  it('collects storage with ZFS pools, disks with temperatures and the backup records', async () => {
    const h = createHarness()
    const result = await h.cycle(1)

    expect(result.storage.map((s) => s.id)).toEqual([
      'lab-pve1-local',
      'lab-pve1-local-lvm',
      'lab-pve1-pbs-main',
      'lab-pve1-vmdata',
      'lab-pve2-local',
      'lab-pve2-local-lvm',
      'lab-pve2-pbs-main',
      'lab-pve2-vmdata',
    ])
    const vmdata = result.storage.find((s) => s.id === 'lab-pve2-vmdata')
    expect(vmdata).toMatchObject({ type: 'zfspool', status: 'available', usage: 0.01 })
    expect(vmdata?.zfsPool).toMatchObject({
      name: 'tank',
      state: 'ONLINE',
      devices: [{ name: '/dev/sdb' }],
    })

    expect(result.physicalDisks.map((d) => [d.id, d.temperature])).toEqual([
      ['lab-pve1-/dev/sda', 31],
      ['lab-pve1-/dev/sdb', 32],
      ['lab-pve1-/dev/sdc', 20],
      ['lab-pve2-/dev/sda', 31],
      ['lab-pve2-/dev/sdb', 32],
      ['lab-pve2-/dev/sdc', 20],
    ])

    const { storageBackups, backupTasks, guestSnapshots } = result
    // The shared PBS storage is listed once (from pve1), local storage once per node.
    expect(storageBackups.map((b) => b.id).sort()).toEqual([
      'lab-pve1-datastore:backup/vm/931/2023-12-14T04:34:34Z',
      'lab-pve1-datastore:backup/vm/931/2023-12-14T19:36:00Z',
      'lab-pve1-local:backup/vzdump-lxc-101-2025_01_14-01_07_12.tar.zst',
      'lab-pve2-local:backup/vzdump-lxc-101-2025_01_14-01_07_12.tar.zst',
    ])
    expect(storageBackups.find((b) => b.storage === 'pbs-main')?.isPBS).toBe(true)
    expect(backupTasks.map((t) => [t.node, t.vmid, t.status])).toEqual([
      ['iaclab-01-01', 100, "command 'ifreload -a' failed: exit code 1"],
    ])
    expect(guestSnapshots.map((s) => s.id)).toEqual(['lab-pve1-100-pre-upgrade'])
    expect(result.cephClusters).toEqual([])
    expect(h.warnings).toEqual([])
  })

  it('sends the documented queries', async () => {
    const h = createHarness()
    await h.cycle(1)
    const tasks = h.replay.calls.find((c) => c.path === '/nodes/pve1/tasks')
    expect(tasks?.query).toEqual({
      typefilter: 'vzdump',
      since: Math.floor((NOW + 10_000) / 1000) - TASK_WINDOW_S,
      limit: TASK_LIMIT,
      source: 'all',
    })
    const content = h.replay.calls.find((c) => c.path === '/nodes/pve1/storage/local/content')
    expect(content?.query).toEqual({ content: 'backup' })
    const smart = h.replay.calls.filter((c) => c.path === '/nodes/pve2/disks/smart')
    expect(smart.map((c) => c.query?.disk)).toEqual(['/dev/sda', '/dev/sdb', '/dev/sdc'])
    // No Ceph storage: the Ceph paths (500 on such clusters) are never asked.
    expect(h.replay.calls.some((c) => c.path.includes('ceph'))).toBe(false)
  })
})

describe('pollPveSlow: cadences', () => {
  it('refreshes each part on its own cadence over 31 cycles', async () => {
    const h = createHarness()
    await runCycles(h, 1, 31)
    expect(countCalls(h.replay)).toEqual({
      '/nodes/pve1/storage': 31,
      '/nodes/pve2/storage': 31,
      '/storage': 6,
      '/nodes/pve1/disks/zfs': 6,
      '/nodes/pve2/disks/zfs': 6,
      '/nodes/pve1/disks/zfs/tank': 6,
      '/nodes/pve2/disks/zfs/tank': 6,
      '/nodes/pve1/disks/list': 2,
      '/nodes/pve2/disks/list': 2,
      // SMART only on every 6th disk round: cycle 1, not cycle 31.
      '/nodes/pve1/disks/smart': 3,
      '/nodes/pve2/disks/smart': 3,
      '/nodes/pve1/tasks': 6,
      '/nodes/pve2/tasks': 6,
      '/nodes/pve1/storage/local/content': 6,
      '/nodes/pve2/storage/local/content': 6,
      '/nodes/pve1/storage/pbs-main/content': 6,
      // Templates are skipped; each guest is re-read every 30 cycles.
      '/nodes/pve1/qemu/100/snapshot': 2,
      '/nodes/pve2/lxc/101/snapshot': 2,
      '/cluster/backup': 6,
      '/cluster/backup-info/not-backed-up': 6,
      // An ended task's log is read once.
      ...Object.fromEntries(
        VZDUMP_TASKS.filter((t) => t.type === 'vzdump').map((t) => [
          `/nodes/pve1/tasks/${encodeURIComponent(String((t as Record<string, unknown>).upid))}/log`,
          1,
        ]),
      ),
    })
    expect(h.cache.hits).toBeGreaterThan(h.cache.misses)
  })

  it('returns the same arrays between refreshes when nothing changed', async () => {
    const h = createHarness()
    const [first, second, , , , , seventh] = await runCycles(h, 1, 7)
    expect(second!.physicalDisks).toBe(first!.physicalDisks)
    const keys = [
      'storageBackups',
      'guestSnapshots',
      'backupTasks',
      'backupJobs',
      'backupCoverage',
    ] as const
    for (const key of keys) {
      expect(second![key]).toBe(first![key])
      // Cycle 7 re-reads tasks and backups; identical answers keep the identity.
      expect(seventh![key]).toBe(first![key])
    }
    expect(second!.cephClusters).toBe(first!.cephClusters)
    expect(seventh!.storage).toEqual(first!.storage)
  })

  it('spreads snapshot reads over cycles', async () => {
    const h = createHarness()
    h.guests = Array.from({ length: 25 }, (_, i) => ({ vmid: 200 + i, node: 'pve1', type: 'qemu' }))
    for (const g of h.guests) h.replay.answers[`/nodes/pve1/qemu/${g.vmid}/snapshot`] = data([])
    const perCycle: number[] = []
    for (let n = 1; n <= 31; n++) {
      const before = h.replay.calls.length
      await h.cycle(n)
      perCycle.push(h.replay.calls.slice(before).filter((c) => c.path.endsWith('/snapshot')).length)
    }
    // At least SNAPSHOT_MIN_BATCH (10) per cycle until all are read, then again after 30 cycles.
    expect(perCycle.slice(0, 4)).toEqual([10, 10, 5, 0])
    expect(perCycle.slice(28, 31)).toEqual([0, 0, 10])
  })

  it('lists snapshots of a new guest and forgets removed and migrated ones', async () => {
    const h = createHarness()
    await h.cycle(1)
    h.guests = [{ vmid: 100, node: 'pve2', type: 'qemu' }]
    h.replay.answers['/nodes/pve2/qemu/100/snapshot'] = data(SNAPSHOTS_100)
    const result = await h.cycle(2)
    expect(result.guestSnapshots.map((s) => s.id)).toEqual(['lab-pve2-100-pre-upgrade'])
  })
})

describe('pollPveSlow: failures', () => {
  it('falls back to /cluster/resources when a node storage call fails and warns once', async () => {
    const h = createHarness()
    await h.cycle(1)
    h.replay.answers['/nodes/pve2/storage'] = refuse()
    await h.cycle(2)
    const third = await h.cycle(3)
    const pve2 = third.storage.filter((s) => s.node === 'pve2')
    expect(pve2.map((s) => [s.name, s.type, s.status, s.used])).toEqual([
      ['local', 'dir', 'available', 7954288640],
      ['local-lvm', 'lvmthin', 'available', 138507413828],
      ['truenas-backups', 'nfs', 'available', 180708442112],
    ])
    expect(h.warnings).toEqual([
      {
        obj: { instance: 'lab', node: 'pve2', code: 'PVE_HTTP' },
        msg: 'storage refresh failed',
      },
    ])
    // Recovered, then failing again: a new warning.
    h.replay.answers['/nodes/pve2/storage'] = data(NODE_STORAGE)
    expect((await h.cycle(4)).storage.filter((s) => s.node === 'pve2')).toHaveLength(4)
    h.replay.answers['/nodes/pve2/storage'] = refuse()
    await h.cycle(5)
    expect(h.warnings).toHaveLength(2)
  })

  it('keeps the last good disks, tasks and backups of a failing call', async () => {
    const h = createHarness()
    const first = await h.cycle(1)
    h.replay.answers['/nodes/pve1/tasks'] = refuse()
    h.replay.answers['/nodes/pve1/storage/pbs-main/content'] = refuse()
    h.replay.answers['/nodes/pve1/disks/list'] = refuse()
    const results = await runCycles(h, 2, 31)
    const last = results.at(-1)!
    expect(last.backupTasks).toEqual(first.backupTasks)
    expect(last.storageBackups).toEqual(first.storageBackups)
    expect(last.physicalDisks.filter((d) => d.node === 'pve1')).toEqual(
      first.physicalDisks.filter((d) => d.node === 'pve1'),
    )
    expect(h.warnings.map((w) => w.msg).sort()).toEqual([
      'backups refresh failed',
      'disks refresh failed',
      'tasks refresh failed',
    ])
  })

  it('holds the backups pending while a listing that could be read never was, however long', async () => {
    const answers = baseAnswers()
    answers['/nodes/pve1/storage/pbs-main/content'] = refuse()
    // Cycles 10 minutes apart: the backups are due at every one.
    const h = createHarness(answers, 600_000)
    expect(h.memory.result.backupsPending).toBe(true)
    const first = await h.cycle(0)
    expect(first.backupsPending).toBe(true)
    // The other listings were read: only the PBS storage's volumes are missing.
    expect(first.storageBackups.map((b) => b.storage)).not.toContain('pbs-main')
    expect(first.storageBackups.length).toBeGreaterThan(0)
    // A day of failures: still unknown, never taken as a storage without backups.
    expect((await h.cycle(144)).backupsPending).toBe(true)
  })

  it('ends the pending state at the first good read, and a later failure does not bring it back', async () => {
    const answers = baseAnswers()
    const good = answers['/nodes/pve1/storage/pbs-main/content']!
    answers['/nodes/pve1/storage/pbs-main/content'] = refuse()
    const h = createHarness(answers, 600_000)
    expect((await h.cycle(0)).backupsPending).toBe(true)
    h.replay.answers['/nodes/pve1/storage/pbs-main/content'] = good
    const read = await h.cycle(1)
    expect(read.backupsPending).toBe(false)
    expect(read.storageBackups.some((b) => b.storage === 'pbs-main')).toBe(true)
    h.replay.answers['/nodes/pve1/storage/pbs-main/content'] = refuse()
    expect((await h.cycle(2)).backupsPending).toBe(false)
  })

  it("holds the backups pending while an online node's storage list was never read", async () => {
    const answers = baseAnswers()
    answers['/nodes/pve2/storage'] = refuse()
    const h = createHarness(answers, 600_000)
    expect((await h.cycle(0)).backupsPending).toBe(true)
    h.replay.answers['/nodes/pve2/storage'] = data(NODE_STORAGE)
    expect((await h.cycle(1)).backupsPending).toBe(false)
    // An offline node cannot be read at all: its guests are stale, not pending.
    const offline = createHarness(baseAnswers(), 600_000)
    offline.nodes[1]!.online = false
    expect((await offline.cycle(0)).backupsPending).toBe(false)
  })

  it('gives a listing that ran out of its budget twice as long at its next try', async () => {
    // Issue 27: a listing that is merely large (35 MB at 100,000 guests) must be read in the end,
    // not time out at the same 8 s for ever and hold the instance's backups pending.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] })
    const answers = baseAnswers()
    const path = '/nodes/pve1/storage/pbs-main/content'
    const good = answers[path]!
    const slowMs = SLOW_CALL_BUDGET_MS * 1.5
    answers[path] = (query, signal) =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(() => resolve(good(query, signal)), slowMs)
        signal?.addEventListener('abort', () => {
          clearTimeout(timer)
          reject(signal.reason)
        })
      })
    const h = createHarness(answers, 600_000)
    const first = h.cycle(0)
    await vi.advanceTimersByTimeAsync(slowMs)
    expect((await first).backupsPending).toBe(true)
    expect(h.warnings.map((w) => w.obj.code)).toContain('PVE_TIMEOUT')
    h.warnings.length = 0
    for (const n of [1, 2]) {
      const next = h.cycle(n)
      await vi.advanceTimersByTimeAsync(slowMs)
      const result = await next
      expect(result.backupsPending).toBe(false)
      expect(result.storageBackups.some((b) => b.storage === 'pbs-main')).toBe(true)
    }
    expect(h.warnings).toEqual([])
  })

  it('reads a slow listing again only after ten times its last read, keeping its volumes', async () => {
    // Issue 27: a 35 MB listing read every minute kept Proxmox and the server busy all minute.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] })
    const answers = baseAnswers()
    const path = '/nodes/pve1/storage/pbs-main/content'
    const good = answers[path]!
    const readMs = 7_000
    answers[path] = (query, signal) =>
      new Promise((resolve) => setTimeout(() => resolve(good(query, signal)), readMs))
    const h = createHarness(answers)
    const reads: number[] = []
    // Cycles 10 s apart: the backups are due every 6th; this listing every 70 s at the most.
    for (const n of [0, 6, 12, 18]) {
      const cycle = h.cycle(n)
      await vi.advanceTimersByTimeAsync(readMs)
      const result = await cycle
      reads.push(countCalls(h.replay)[path] ?? 0)
      expect(result.storageBackups.some((b) => b.storage === 'pbs-main')).toBe(true)
    }
    expect(reads).toEqual([1, 1, 2, 2])
    // A quick listing keeps the backups cadence.
    const quick = '/nodes/pve1/storage/local/content'
    expect(countCalls(h.replay)[quick]).toBe(4)
    expect(h.warnings).toEqual([])
  })

  it('does not let a hanging storage call hold up the others', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    const answers = baseAnswers()
    answers['/nodes/pve2/storage'] = () => new Promise(() => {}) // dead NFS: never answers
    const h = createHarness(answers)
    const pending = h.cycle(1)
    await vi.advanceTimersByTimeAsync(SLOW_CALL_BUDGET_MS)
    const result = await pending
    expect(result.storage.filter((s) => s.node === 'pve1')).toHaveLength(4)
    expect(result.storage.filter((s) => s.node === 'pve2').map((s) => s.name)).toEqual([
      'local',
      'local-lvm',
      'truenas-backups',
    ])
    expect(h.warnings).toEqual([
      {
        obj: { instance: 'lab', node: 'pve2', code: 'PVE_TIMEOUT' },
        msg: 'storage refresh failed',
      },
    ])
    expect(result.physicalDisks).toHaveLength(6)
  })

  it('ends at once when cancelled: queued calls never start, nothing is reported', async () => {
    const answers = baseAnswers()
    // Every listing hangs (an overloaded Proxmox): only the cancel can end the run.
    for (const path of Object.keys(answers)) answers[path] = () => new Promise(() => {})
    const h = createHarness(answers)
    const first = h.cycle(1)
    await vi.waitFor(() => expect(h.replay.calls.length).toBeGreaterThan(0))
    const started = h.replay.calls.length
    h.memory.cancel.abort(new CollectCancelled())
    await first
    expect(h.replay.calls.length).toBe(started)
    expect(started).toBeLessThanOrEqual(SLOW_CONCURRENCY)
    expect(h.warnings).toEqual([])
  })

  it('skips offline nodes, marks their storage unknown, and drops nodes that left', async () => {
    const h = createHarness()
    const first = await h.cycle(1)
    h.nodes = [
      { name: 'pve1', online: true },
      { name: 'pve2', online: false },
    ]
    const before = h.replay.calls.length
    const offline = await h.cycle(2)
    expect(h.replay.calls.slice(before).some((c) => c.path.startsWith('/nodes/pve2/'))).toBe(false)
    const pve2 = offline.storage.filter((s) => s.node === 'pve2')
    expect(pve2.map((s) => s.status)).toEqual(['unknown', 'unknown', 'unknown', 'unknown'])
    expect(pve2.map((s) => s.total)).toEqual(
      first.storage.filter((s) => s.node === 'pve2').map((s) => s.total),
    )
    expect(offline.physicalDisks.filter((d) => d.node === 'pve2')).toHaveLength(3)

    h.nodes = [{ name: 'pve1', online: true }]
    h.guests = h.guests.filter((g) => g.node !== 'pve2')
    const gone = await runCycles(h, 3, 7)
    const last = gone.at(-1)!
    expect(last.storage.some((s) => s.node === 'pve2')).toBe(false)
    expect(last.physicalDisks.some((d) => d.node === 'pve2')).toBe(false)
    expect(last.storageBackups.some((b) => b.node === 'pve2')).toBe(false)
    expect(last.guestSnapshots.some((s) => s.node === 'pve2')).toBe(false)
  })
})

describe('pollPveSlow: limits', () => {
  it('keeps at most 4 calls in flight', async () => {
    const h = createHarness()
    h.guests = Array.from({ length: 30 }, (_, i) => ({ vmid: 300 + i, node: 'pve1', type: 'lxc' }))
    for (const g of h.guests) h.replay.answers[`/nodes/pve1/lxc/${g.vmid}/snapshot`] = data([])
    await h.cycle(1)
    expect(h.replay.calls.length).toBeGreaterThan(20)
    expect(h.replay.maxInFlight).toBe(4)
  })

  it('returns the last result at once while a previous run is still going', async () => {
    const h = createHarness()
    const running = h.cycle(1)
    const overlapping = await h.cycle(2)
    const first = await running
    expect(overlapping.storage).toEqual([])
    expect(countCalls(h.replay)['/nodes/pve1/storage']).toBe(1)
    expect(first.storage).toHaveLength(8)
  })
})

describe('pollPveSlow: Ceph', () => {
  function cephHarness(): Harness {
    const answers = baseAnswers()
    answers['/cluster/ceph/status'] = data(readFixture('ceph-status__go-proxmox-pve8-reef.json'))
    answers['/nodes/pve1/ceph/pool'] = data(CEPH_POOLS)
    const h = createHarness(answers)
    h.resources = [
      ...RESOURCES,
      { type: 'storage', node: 'pve1', storage: 'ceph-vm', plugintype: 'rbd', status: 'available' },
    ]
    return h
  }

  it('reads Ceph every 3 cycles when the cluster has rbd storage', async () => {
    const h = cephHarness()
    const [first] = await runCycles(h, 1, 6)
    expect(first!.cephClusters).toHaveLength(1)
    expect(first!.cephClusters[0]).toMatchObject({
      id: 'lab-d11c6ea1-7ab2-41fa-99c5-b85f4d7ffd49',
      health: 'HEALTH_WARN',
      numOsds: 21,
      pools: [{ id: 2, name: 'vm_nvme', storedBytes: 300, availableBytes: 100, percentUsed: 75 }],
    })
    const counts = countCalls(h.replay)
    expect(counts['/cluster/ceph/status']).toBe(2)
    expect(counts['/nodes/pve1/ceph/pool']).toBe(2)
  })

  it('falls back to a node status when the cluster status fails', async () => {
    const h = cephHarness()
    h.replay.answers['/nodes/pve1/ceph/status'] = h.replay.answers['/cluster/ceph/status']!
    h.replay.answers['/cluster/ceph/status'] = refuse()
    const result = await h.cycle(1)
    expect(result.cephClusters[0]?.fsid).toBe('d11c6ea1-7ab2-41fa-99c5-b85f4d7ffd49')
    expect(h.warnings).toEqual([])
  })

  it('keeps the last cluster while Ceph does not answer, and drops it with the storage', async () => {
    const h = cephHarness()
    const first = await h.cycle(1)
    h.replay.answers['/cluster/ceph/status'] = refuse()
    const failing = await runCycles(h, 2, 4)
    expect(failing.at(-1)!.cephClusters).toBe(first.cephClusters)
    expect(h.warnings.map((w) => w.msg)).toEqual(['ceph refresh failed'])
    h.resources = RESOURCES
    const [, , dropped] = await runCycles(h, 5, 7)
    expect(dropped!.cephClusters).toEqual([])
  })
})

describe('pollPveSlow: over HTTPS', () => {
  // The same replayed answers, served by a real HTTPS server on 127.0.0.1 and read through the
  // real client: paths, encoded node names and query strings go over the wire.
  it('collects through createPveClient', async () => {
    const answers: Record<string, Answer> = {
      ...nodeAnswers('pve1'),
      ...nodeAnswers('pve 2'),
      '/storage': data(STORAGE_CONFIG),
      ...backupJobAnswers((upid) => upid),
    }
    answers['/nodes/pve1/qemu/100/snapshot'] = data(SNAPSHOTS_100)
    const stub = await startStubPve(await createTestCert(), (req) => {
      const url = new URL(req.path, 'https://127.0.0.1')
      const path = decodeURIComponent(url.pathname).replace(/^\/api2\/json/, '')
      const answer = answers[path]
      if (!answer) return { status: 501, reason: 'Method not implemented' }
      const query = Object.fromEntries(url.searchParams)
      return { body: { data: answer(query) } }
    })
    const client = createPveClient({
      host: stub.url,
      auth: { kind: 'token', tokenId: 'monitor@pve!dash', secret: 'secret' },
      verifySSL: false,
    })
    try {
      const h = createHarness(answers)
      h.replay.call = (path, query, signal, timeoutMs, each) =>
        client.get(path, query, signal, timeoutMs, each)
      h.nodes = [
        { name: 'pve1', online: true },
        { name: 'pve 2', online: true },
      ]
      h.guests = [{ vmid: 100, node: 'pve1', type: 'qemu' }]
      const result = await h.cycle(1)
      expect(result.storage.map((s) => s.id)).toContain('lab-pve 2-vmdata')
      expect(result.storage).toHaveLength(8)
      expect(result.physicalDisks.map((d) => d.temperature)).toEqual([31, 32, 20, 31, 32, 20])
      expect(result.guestSnapshots.map((s) => s.name)).toEqual(['pre-upgrade'])
      const seen = stub.requests.map((r) => r.path)
      expect(seen).toContain('/api2/json/nodes/pve1/disks/smart?disk=%2Fdev%2Fsda')
      expect(seen).toContain('/api2/json/nodes/pve1/storage/local/content?content=backup')
      expect(seen).toContain('/api2/json/nodes/pve%202/storage')
      expect(seen).toContain('/api2/json/nodes/pve%202/disks/zfs/tank')
      expect(h.warnings).toEqual([])
    } finally {
      await client.close()
      await stub.close()
    }
  })
})
