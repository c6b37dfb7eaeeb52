// The slower PVE collectors of one endpoint: storage, ZFS pools, Ceph, physical disks and the raw
// backup records (reference/proxmox-api.md §2.8-2.13 and §4.2-4.3). Called once per poll cycle;
// each collector runs when its interval (cadence.ts) has elapsed and is served from memory in
// between. Every call has a budget and shares one limiter, so a hanging NFS storage or a sleepy
// node cannot stall the rest; a failing part keeps its last good data and warns once until it
// recovers.
import { DEFAULT_POLL_INTERVAL_MS } from './cadence.ts'
import { budgeted, createFailureLog, runIfDue, type Collector } from './collector.ts'
import {
  buildGuestSnapshots,
  buildStorageBackups,
  backupsCollector,
  backupsPending,
  snapshotsCollector,
  tasksCollector,
} from './pve-slow-backups.ts'
import { type PveSlowContext, type PveSlowResult, type SlowRun } from './pve-slow-context.ts'
import { buildDisks, disksCollector } from './pve-slow-disks.ts'
import {
  backupJobsCollector,
  buildCoverage,
  buildJobs,
  buildLinkedTasks,
  coverageCollector,
  taskLogsCollector,
} from './pve-slow-jobs.ts'
import { cephCollector, storageCollector, zfsCollector } from './pve-slow-storage.ts'
import { attachZfsPools } from './pve-zfs.ts'

export {
  createPveSlowMemory,
  SLOW_CALL_BUDGET_MS,
  SLOW_CALL_MAX_BUDGET_MS,
  SLOW_CONCURRENCY,
  SMART_MAX_PER_ROUND,
  SNAPSHOT_MIN_BATCH,
  TASK_LIMIT,
  TASK_WINDOW_S,
  type PveSlowContext,
  type PveSlowMemory,
  type PveSlowResult,
  type SlowGuest,
} from './pve-slow-context.ts'

/** The slower collectors, by the order they run in: storage first, its dependants after it. */
export const SLOW_COLLECTORS: readonly Collector<SlowRun, boolean>[] = [
  storageCollector,
  zfsCollector,
  cephCollector,
  backupsCollector,
  disksCollector,
  tasksCollector,
  snapshotsCollector,
  backupJobsCollector,
  coverageCollector,
  taskLogsCollector,
]

/**
 * Refreshes what is due this cycle and returns the endpoint's slow data. Safe to call every
 * cycle: while a previous run is still going, it returns the last result at once. Parts not
 * refreshed come back as the same arrays as last time.
 */
export async function pollPveSlow(ctx: PveSlowContext): Promise<PveSlowResult> {
  const m = ctx.memory
  if (m.running) return m.result
  m.running = true
  try {
    await runSlow(toRun(ctx))
  } finally {
    m.running = false
  }
  return m.result
}

function toRun(ctx: PveSlowContext): SlowRun {
  const m = ctx.memory
  return {
    instance: ctx.instance,
    nodes: ctx.nodes,
    guests: ctx.guests,
    resources: ctx.resources,
    memory: m,
    now: ctx.now,
    pollIntervalMs: ctx.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS,
    onCache: ctx.onCache,
    request: budgeted(ctx.call, m.limiter, m.budgets, ctx.instance, m.cancel.signal),
    log: createFailureLog(m.warned, ctx.instance, ctx.warn),
  }
}

async function runSlow(run: SlowRun): Promise<void> {
  const m = run.memory
  const nodesChanged = syncNodes(run)
  // A collector that throws (our bug: they catch the API's failures per node) keeps its data.
  const due = (collector: Collector<SlowRun, boolean>) =>
    runIfDue(m.schedule, collector, run, (err) =>
      run.log.failed(`${collector.name}:collector`, err, {}),
    ).then((changed) => changed === true)
  // The task logs are read after the task lists they pick from.
  const [zfsCephBackups, disks, [tasks, logs], snapshots, jobs, coverage] = await Promise.all([
    due(storageCollector).then(() =>
      Promise.all([due(zfsCollector), due(cephCollector), due(backupsCollector)]),
    ),
    due(disksCollector),
    due(tasksCollector).then(async (listed) => [listed, await due(taskLogsCollector)] as const),
    due(snapshotsCollector),
    due(backupJobsCollector),
    due(coverageCollector),
  ])
  const [, cephChanged, backupsChanged] = zfsCephBackups
  const flat = run.nodes.flatMap((n) => m.storageView.get(n.name) ?? [])
  const storage = attachZfsPools(flat, m.zfs, m.zfsPoolNames)
  const physicalDisks = disks || nodesChanged ? buildDisks(run) : m.result.physicalDisks
  // Each backup list is rebuilt only when its own data changed: an unchanged array is skipped
  // whole by the server's diff, and a rebuilt one reuses its unchanged record objects.
  const last = m.result
  const tasksChanged = tasks || logs || jobs || nodesChanged
  const backupTasks = tasksChanged
    ? await buildLinkedTasks(run, last.backupTasks)
    : last.backupTasks
  m.result = {
    storage,
    cephClusters: cephChanged ? m.ceph : last.cephClusters,
    physicalDisks,
    storageBackups: backupsChanged || nodesChanged ? buildStorageBackups(run) : last.storageBackups,
    guestSnapshots: snapshots || nodesChanged ? buildGuestSnapshots(run) : last.guestSnapshots,
    backupTasks,
    backupJobs: tasksChanged ? buildJobs(run, backupTasks, last.backupJobs) : last.backupJobs,
    backupCoverage: coverage ? buildCoverage(run, last.backupCoverage) : last.backupCoverage,
    backupsPending: backupsPending(m),
  }
}

// Drops everything of nodes that left the endpoint. True when the node set or their online
// flags changed, which forces the derived arrays to be rebuilt.
function syncNodes(run: SlowRun): boolean {
  const m = run.memory
  const key = run.nodes.map((n) => `${n.name}:${n.online ? 1 : 0}`).join('|')
  if (key === m.nodeKey) return false
  m.nodeKey = key
  const present = new Set(run.nodes.map((n) => n.name))
  for (const map of [m.storage, m.storageView, m.zfs, m.disks, m.tasks, m.temperatures]) {
    for (const node of map.keys()) if (!present.has(node)) map.delete(node)
  }
  for (const [key, entry] of m.backups) if (!present.has(entry.node)) m.backups.delete(key)
  for (const [key, entry] of m.snapshots) if (!present.has(entry.node)) m.snapshots.delete(key)
  return true
}
