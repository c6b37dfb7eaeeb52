// Benchmark: the server's per-guest backup summaries (`guestBackups`, src/server/backup-health)
// at 1k, 10k and 100k guests with 1,000,000 backup records each (55 % PBS, 45 % PVE storage, a
// tenth of those the PVE side of a PBS backup, 1 % of records of VMIDs no guest has), 3 backup
// jobs per cluster, a vzdump task per 10 guests. Times are wall-clock of one `derive` (the build
// runs in event-loop slices; nothing else runs meanwhile, so it is the CPU cost), medians of N.
// "longest slice" is the longest run between two turns of the event loop over all iterations;
// "cpu" is the process CPU time of one derive (the honest figure on a loaded machine). The
// `memory` row: heap after gc with the builder alive, minus the same without it (its caches),
// per backup record; the published summaries are counted apart.
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import type { BackupCoverage, BackupJob } from '../src/shared/model/backup-health.ts'
import type {
  BackupTask,
  Guest,
  PbsBackup,
  State,
  StorageBackup,
} from '../src/shared/model/state.ts'
import { createGuestBackupBuilder } from '../src/server/backup-health/guest-backups.ts'
import { createEstate, createRandom } from './fixtures.ts'
import { timeAsync } from './history-serve.ts'

export interface CoverageBenchResult {
  name: string
  size: number
  records: number
  iterations: number
  medianMs: number
  p95Ms: number
  longestSliceMs: number
  /** Median process CPU time of one derive. */
  cpuMedianMs?: number
  /** `memory` row: the builder's caches on the heap after gc, and that per backup record. */
  cacheBytes?: number
  bytesPerRecord?: number
  /** `memory` row: the published summaries (guestBackups) on the heap. */
  summaryBytes?: number
}

const DAY = 86_400
const NOW = 1_760_000_000

export function withBackups(guestCount: number, records: number): State {
  const state = createEstate(guestCount)
  const random = createRandom(guestCount + 7)
  const guests: Guest[] = [...state.vms, ...state.containers]
  const instances = [...new Set(guests.map((g) => g.instance))]
  const pbsBackups: PbsBackup[] = []
  const storageBackups: StorageBackup[] = []
  const at = () => Math.floor(NOW - random() * 60 * DAY)
  for (let i = 0; i < records; i++) {
    const guest = guests[Math.floor(random() * guests.length)]!
    const orphan = i % 100 === 0
    const vmid = orphan ? 900_000 + (i % 5000) : guest.vmid
    const time = at()
    if (i % 100 < 55) {
      const backupType = guest.type === 'lxc' ? 'ct' : 'vm'
      const datastore = random() < 0.7 ? 'main' : 'offsite'
      pbsBackups.push({
        id: `pbs1-${datastore}--${backupType}-${vmid}-${time}-${i}`,
        instance: 'pbs1',
        datastore,
        namespace: '',
        backupType,
        vmid: String(vmid),
        backupTime: time,
        size: Math.floor(random() * 1e10),
        protected: false,
        verified: random() < 0.95,
        verification: random() < 0.01 ? 'failed' : 'ok',
        encrypted: false,
        comment: guest.name,
        files: [],
      })
      continue
    }
    // Every tenth storage backup is a PBS storage's listing of the PBS backup just made.
    const twin = i % 10 === 0 ? pbsBackups[pbsBackups.length - 1] : undefined
    const ctime = twin ? twin.backupTime : time
    const id = twin ? Number(twin.vmid) : vmid
    const volid = `local:backup/vzdump-${guest.type}-${id}-${ctime}-${i}.vma.zst`
    storageBackups.push({
      id: `${guest.instance}-${guest.node}-${volid}`,
      storage: twin ? 'pbs-main' : random() < 0.5 ? 'local' : 'nas',
      node: guest.node,
      instance: guest.instance,
      type: guest.type,
      vmid: id,
      ctime,
      size: Math.floor(random() * 1e10),
      format: 'vma.zst',
      protected: false,
      volid,
      isPBS: Boolean(twin),
      verified: false,
    })
  }
  const backupJobs: BackupJob[] = []
  const backupCoverage: BackupCoverage[] = []
  for (const instance of instances) {
    const base = { instance, schedule: '21:00', storage: 'local', nextRun: 0, mode: 'snapshot' }
    const job = (jobId: string, patch: Partial<BackupJob>): BackupJob => ({
      ...base,
      id: `${instance}-${jobId}`,
      jobId,
      enabled: true,
      vmids: [],
      all: false,
      exclude: [],
      ...patch,
    })
    const ids = guests.filter((g) => g.instance === instance).map((g) => g.vmid)
    backupJobs.push(
      job('all', { all: true, exclude: ids.filter((_, k) => k % 20 === 0) }),
      job('pool', { pool: 'prod', enabled: false }),
      job('list', { vmids: ids.filter((_, k) => k % 3 === 0) }),
    )
    backupCoverage.push({ id: instance, instance, notBackedUp: [], collectedAt: NOW * 1000 })
  }
  const backupTasks: BackupTask[] = []
  for (let i = 0; i < guests.length; i += 10) {
    const guest = guests[i]!
    const failed = i % 70 === 0
    backupTasks.push({
      id: `${guest.instance}-UPID:${guest.node}:${i}`,
      node: guest.node,
      instance: guest.instance,
      type: 'vzdump',
      vmid: guest.vmid,
      status: failed ? 'unable to connect' : 'OK',
      startTime: NOW - DAY,
      endTime: NOW - DAY + 600,
      ...(failed ? { error: 'unable to connect' } : {}),
    })
  }
  return { ...state, storageBackups, pbsBackups, backupJobs, backupCoverage, backupTasks }
}

/** 1 % of guests get a new PVE storage backup (a new storageBackups list, as the collector). */
function withNewBackups(state: State, round: number): State {
  const guests = [...state.vms, ...state.containers]
  const added: StorageBackup[] = []
  for (let i = round % 100; i < guests.length; i += 100) {
    const g = guests[i]!
    const volid = `local:backup/vzdump-${g.type}-${g.vmid}-${NOW + round}.vma.zst`
    added.push({
      ...state.storageBackups[0]!,
      id: `${g.instance}-${g.node}-${volid}`,
      node: g.node,
      instance: g.instance,
      type: g.type,
      vmid: g.vmid,
      ctime: NOW + round,
      volid,
      isPBS: false,
      storage: 'local',
    })
  }
  return { ...state, storageBackups: [...state.storageBackups, ...added] }
}

/** 1 % of guests renamed; the backup lists unchanged. */
function withRenames(state: State, round: number): State {
  const rename = (list: Guest[]) =>
    list.map((g, i) => (i % 100 === round % 100 ? { ...g, name: `${g.name}-r${round}` } : g))
  return { ...state, vms: rename(state.vms), containers: rename(state.containers) }
}

/** A poll: every guest a new object (metrics), nothing the summary reads changed. */
function withMetrics(state: State): State {
  const poll = (list: Guest[]) => list.map((g) => ({ ...g, cpu: g.cpu + 0.01 }))
  return { ...state, vms: poll(state.vms), containers: poll(state.containers) }
}

/**
 * A node's nightly job ends: a new vzdump task (vmid 0) naming 1 % of the guests in its log, as
 * the collector hands it (the task list a new array, every other task the same object).
 */
function withJobTaskEnded(state: State, round: number): State {
  const all = [...state.vms, ...state.containers]
  const instance = all[round % all.length]!.instance
  const mine = all.filter((g) => g.instance === instance)
  const step = Math.max(1, Math.round((mine.length * 100) / all.length))
  const guests = mine.filter((_, i) => i % step === round % step)
  const first = guests[0]!
  const task: BackupTask = {
    id: `${first.instance}-UPID:${first.node}:job-${round}`,
    node: first.node,
    instance: first.instance,
    type: 'vzdump',
    vmid: 0,
    status: 'OK',
    startTime: NOW + round,
    endTime: NOW + round + 3600,
    jobId: 'all',
    guests: guests.map((g, k) => ({ vmid: g.vmid, ok: k % 50 !== 0 })),
  }
  return { ...state, backupTasks: [...state.backupTasks, task] }
}

/** A PBS content refresh: every PBS record a new, equal object, as the collector hands them. */
function withPbsRefresh(state: State): State {
  return { ...state, pbsBackups: state.pbsBackups.map((backup) => ({ ...backup })) }
}

async function timeCase(
  name: string,
  size: number,
  records: number,
  runs: number,
  prepare: (round: number) => void,
  once: () => Promise<number>,
): Promise<CoverageBenchResult> {
  let longest = 0
  const cpu: number[] = []
  prepare(-1)
  await once() // warm-up
  const result = await timeAsync(name, size, runs, prepare, async () => {
    const start = process.cpuUsage()
    longest = Math.max(longest, await once())
    const used = process.cpuUsage(start)
    cpu.push((used.user + used.system) / 1000)
  })
  const { medianMs, p95Ms } = result
  cpu.sort((a, b) => a - b)
  const cpuMedianMs = cpu[Math.floor((cpu.length - 1) / 2)]!
  return {
    name,
    size,
    records,
    iterations: runs,
    medianMs,
    p95Ms,
    longestSliceMs: longest,
    cpuMedianMs,
  }
}

setFlagsFromString('--expose-gc')
const collect = runInNewContext('gc') as () => void
const heapAfterGc = () => {
  collect()
  collect()
  return process.memoryUsage().heapUsed
}

/** The `memory` row: what a built summariser holds beyond the inputs and the summaries. */
async function measureMemory(base: State, size: number, records: number) {
  const before = heapAfterGc()
  let builder: ReturnType<typeof createGuestBackupBuilder> | null = createGuestBackupBuilder()
  await builder.derive({ ...base })
  const withCaches = heapAfterGc()
  const summaries = builder.current()
  builder = null
  const summaryBytes = heapAfterGc() - before
  const cacheBytes = withCaches - before - summaryBytes
  const row: CoverageBenchResult = {
    name: 'memory',
    size,
    records,
    iterations: 1,
    medianMs: 0,
    p95Ms: 0,
    longestSliceMs: 0,
    cacheBytes,
    bytesPerRecord: cacheBytes / records,
    summaryBytes: summaries.length > 0 ? summaryBytes : 0,
  }
  return row
}

/** The cases at one size; the input change of each run is made before its timing starts. */
export async function benchCoverage(
  size: number,
  records = 1_000_000,
): Promise<CoverageBenchResult[]> {
  const base = withBackups(size, records)
  const runs = size >= 100_000 ? 5 : 9
  const out: CoverageBenchResult[] = []
  let next: State = { ...base }
  const fresh = () => {
    next = { ...base }
  }
  const build = async () => (await createGuestBackupBuilder().derive(next)).longestSliceMs
  out.push(await timeCase('full build', size, records, runs, fresh, build))
  out.push(await measureMemory(base, size, records))
  const builder = createGuestBackupBuilder()
  let state: State = { ...base }
  await builder.derive(state)
  const change = (make: (s: State, round: number) => State) => (round: number) => {
    state = make(state, round + 1000)
  }
  const derive = async () => (await builder.derive(state)).longestSliceMs
  const cases = [
    ['1 % new backups', withNewBackups],
    ['1 % renamed', withRenames],
    ['poll, no change read', withMetrics],
    ['PBS refresh, records equal', withPbsRefresh],
    ["a node's job task ends (1 % of guests)", withJobTaskEnded],
  ] as const
  for (const [name, make] of cases) {
    out.push(await timeCase(name, size, records, runs, change(make), derive))
  }
  return out
}

/** Print the table. */
export function printCoverage(results: readonly CoverageBenchResult[]): void {
  console.log('\nGuest backup summaries (server, guestBackups): one derive, sliced')
  const head = [
    'case',
    'guests',
    'records',
    'N',
    'median ms',
    'p95 ms',
    'longest slice ms',
    'cpu ms',
  ]
  const rows = results.map((r) =>
    r.name === 'memory'
      ? [
          'memory: caches B/record',
          r.size.toLocaleString('en-US'),
          r.records.toLocaleString('en-US'),
          '1',
          `${(r.bytesPerRecord ?? 0).toFixed(1)} B`,
          `${((r.cacheBytes ?? 0) / 1048576).toFixed(1)} MB`,
          `summaries ${((r.summaryBytes ?? 0) / 1048576).toFixed(1)} MB`,
          '',
        ]
      : [
          r.name,
          r.size.toLocaleString('en-US'),
          r.records.toLocaleString('en-US'),
          String(r.iterations),
          r.medianMs.toFixed(1),
          r.p95Ms.toFixed(1),
          r.longestSliceMs.toFixed(1),
          (r.cpuMedianMs ?? 0).toFixed(1),
        ],
  )
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)))
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ')
  console.log(line(head))
  console.log(widths.map((w) => '-'.repeat(w)).join('  '))
  for (const row of rows) console.log(line(row))
}
