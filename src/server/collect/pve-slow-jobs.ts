// Backup jobs, coverage and vzdump task logs of one PVE endpoint (issue 26; reference/
// proxmox-api-backups-history.md §1-2). pve-slow.ts runs these with the other slow collectors;
// every call goes through the endpoint's limiter and budget (run.request), and a failing call
// keeps the last good data and is reported once. A 403 on /cluster/backup (no Sys.Audit) only
// leaves the jobs unknown: nothing else depends on that call succeeding.
import { setImmediate as nextTurn } from 'node:timers/promises'
import type { BackupCoverage, BackupJob } from '../../shared/model/backup-health.ts'
import { taskRunState } from '../../shared/model/backup-health.ts'
import type { BackupTask } from '../../shared/model/state.ts'
import { CADENCE_MS } from './cadence.ts'
import type { Collector } from './collector.ts'
import { sameCoverage, toBackupCoverage, toBackupJobs } from './pve-backup-jobs.ts'
import { enc, onlineNodes, type SlowRun } from './pve-slow-context.ts'
import { lastRunOf, linkTaskToJob, TaskLogReader, type TaskLogSummary } from './pve-task-logs.ts'

/** Task logs read per node and cycle at most (failed tasks first, then the newest). */
export const LOG_READS_PER_NODE = 6
/** Task logs read per endpoint and cycle at most, over all nodes. */
export const LOG_READS_PER_CYCLE = 48
/** Lines asked per log call. */
export const LOG_PAGE_LINES = 5_000
/** Lines read of one log at most; a longer log is summarised from its first lines. */
export const LOG_MAX_LINES = 20_000
/** Tasks linked per turn of the event loop. */
const LINK_SLICE = 1000
/** A log whose read failed is asked again after this long. */
export const LOG_RETRY_MS = 60_000

/**
 * A cluster-wide read on the jobs' cadence: `keep` stores a good answer and says whether it
 * changed; a failure keeps what was stored and is reported once.
 */
function clusterRead(
  name: string,
  path: string,
  keep: (run: SlowRun, raw: unknown) => boolean,
): Collector<SlowRun, boolean> {
  return {
    name,
    intervalMs: CADENCE_MS.backupJobs,
    async collect(run) {
      try {
        const raw = await run.request(path)
        run.log.succeeded(`${name}:cluster`)
        return keep(run, raw)
      } catch (err) {
        run.log.failed(`${name}:cluster`, err, {})
        return false
      }
    },
  }
}

/** /cluster/backup: the jobs, kept until a read succeeds again. */
export const backupJobsCollector = clusterRead('backupJobs', '/cluster/backup', (run, raw) => {
  const jobs = toBackupJobs(raw, run.instance)
  if (run.memory.jobs && sameJobs(run.memory.jobs, jobs)) return false
  run.memory.jobs = jobs
  return true
})

/** /cluster/backup-info/not-backed-up: one record for the instance. */
export const coverageCollector = clusterRead(
  'backupCoverage',
  '/cluster/backup-info/not-backed-up',
  (run, raw) => {
    const coverage = toBackupCoverage(raw, run.instance, run.now)
    if (sameCoverage(run.memory.coverage, coverage)) return false
    run.memory.coverage = coverage
    return true
  },
)

/**
 * Reads the logs of ended vzdump tasks not read yet, once each (an ended task never changes):
 * per node at most LOG_READS_PER_NODE, failed tasks first, then the newest; at most
 * LOG_READS_PER_CYCLE in all. Runs every cycle after the task lists; a failed read is retried
 * after LOG_RETRY_MS and never holds up the others.
 */
export const taskLogsCollector: Collector<SlowRun, boolean> = {
  name: 'taskLogs',
  intervalMs: 0,
  async collect(run) {
    const m = run.memory
    let changed = dropGoneLogs(run)
    const picks: { node: string; task: BackupTask }[] = []
    for (const node of onlineNodes(run)) {
      const due = (m.tasks.get(node) ?? []).filter((t) => needsLog(run, t))
      due.sort((a, b) => failedFirst(a, b) || b.startTime - a.startTime)
      for (const task of due.slice(0, LOG_READS_PER_NODE)) picks.push({ node, task })
    }
    picks.sort((a, b) => failedFirst(a.task, b.task) || b.task.startTime - a.task.startTime)
    const read = await Promise.all(
      picks.slice(0, LOG_READS_PER_CYCLE).map(({ node, task }) => readTaskLog(run, node, task)),
    )
    if (read.includes(true)) changed = true
    return changed
  },
}

function failedFirst(a: BackupTask, b: BackupTask): number {
  return Number(taskRunState(b.status) === 'failed') - Number(taskRunState(a.status) === 'failed')
}

function needsLog(run: SlowRun, task: BackupTask): boolean {
  if (task.endTime === 0 || task.status === 'running') return false
  const m = run.memory
  if (m.taskLogs.has(task.id)) return false
  const failedAt = m.taskLogFailedAt.get(task.id)
  return failedAt === undefined || run.now - failedAt >= LOG_RETRY_MS || run.now < failedAt
}

// Summaries of tasks that left the task lists go with them.
function dropGoneLogs(run: SlowRun): boolean {
  const m = run.memory
  if (m.taskLogs.size === 0 && m.taskLogFailedAt.size === 0) return false
  const present = new Set<string>()
  for (const list of m.tasks.values()) for (const t of list) present.add(t.id)
  let changed = false
  for (const id of m.taskLogs.keys()) if (!present.has(id) && m.taskLogs.delete(id)) changed = true
  for (const id of m.taskLogFailedAt.keys()) if (!present.has(id)) m.taskLogFailedAt.delete(id)
  return changed
}

// True when a summary was stored. The log is folded page by page (TaskLogReader).
async function readTaskLog(run: SlowRun, node: string, task: BackupTask): Promise<boolean> {
  const m = run.memory
  const upid = task.id.slice(run.instance.length + 1)
  const path = `/nodes/${enc(node)}/tasks/${enc(upid)}/log`
  const reader = new TaskLogReader()
  try {
    while (reader.lines < LOG_MAX_LINES) {
      const limit = Math.min(LOG_PAGE_LINES, LOG_MAX_LINES - reader.lines)
      const count = reader.feed(await run.request(path, { start: reader.lines, limit }))
      if (count < limit) break
    }
    m.taskLogs.set(task.id, reader.summary(taskRunState(task.status) === 'failed'))
    m.taskLogFailedAt.delete(task.id)
    run.log.succeeded(`taskLogs:${node}`)
    return true
  } catch (err) {
    m.taskLogFailedAt.set(task.id, run.now)
    run.log.failed(`taskLogs:${node}`, err, { node })
    return false
  }
}

/** Cached enrichment of one task: the inputs it was built from and the result. */
export interface EnrichedTask {
  base: BackupTask
  summary: TaskLogSummary | undefined
  jobs: readonly BackupJob[] | undefined
  task: BackupTask
}

/**
 * The endpoint's vzdump tasks in node order, each with what its log told (job, storage, guests,
 * log tail). An unchanged task keeps its object, and an unchanged list its array (`last`).
 */
export async function buildLinkedTasks(
  run: Pick<SlowRun, 'nodes' | 'memory'>,
  last: BackupTask[],
): Promise<BackupTask[]> {
  const m = run.memory
  const jobs = m.jobs
  const next = new Map<string, EnrichedTask>()
  const out: BackupTask[] = []
  let linked = 0
  for (const n of run.nodes) {
    for (const base of m.tasks.get(n.name) ?? []) {
      const summary = m.taskLogs.get(base.id)
      const cached = m.enrichedTasks.get(base.id)
      let entry = cached
      if (!cached || cached.base !== base || cached.summary !== summary || cached.jobs !== jobs) {
        entry = { base, summary, jobs, task: enrich(base, summary, jobs, n.name, cached) }
        // Changed jobs re-link every task (thousands at 1,000 nodes): let the loop breathe.
        if (++linked % LINK_SLICE === 0) await nextTurn()
      }
      next.set(base.id, entry!)
      out.push(entry!.task)
    }
  }
  m.enrichedTasks = next
  const same = out.length === last.length && out.every((t, i) => t === last[i])
  return same ? last : out
}

function enrich(
  base: BackupTask,
  summary: TaskLogSummary | undefined,
  jobs: readonly BackupJob[] | undefined,
  node: string,
  cached: EnrichedTask | undefined,
): BackupTask {
  if (!summary) return base
  const job = linkTaskToJob(jobs ?? [], summary.command, base.node || node)
  const task: BackupTask = { ...base }
  if (job) task.jobId = job.jobId
  if (summary.command?.storage) task.storage = summary.command.storage
  if (summary.guests.length > 0) task.guests = summary.guests
  if (summary.logTail) task.logTail = summary.logTail
  // A re-link that came out the same (the job list changed elsewhere) keeps the object.
  const old = cached?.task
  if (old && old !== cached.base && sameTask(old, task)) return old
  return task
}

function sameTask(a: BackupTask, b: BackupTask): boolean {
  const ka = Object.keys(a) as (keyof BackupTask)[]
  if (ka.length !== Object.keys(b).length) return false
  return ka.every((k) => a[k] === b[k])
}

/**
 * The endpoint's jobs, each with its last run from the linked tasks. An unchanged job keeps its
 * object, and an unchanged list its array (`last`).
 */
export function buildJobs(
  run: Pick<SlowRun, 'memory'>,
  tasks: readonly BackupTask[],
  last: BackupJob[],
): BackupJob[] {
  const jobs = run.memory.jobs
  if (!jobs) return last
  const byJob = new Map<string, BackupTask[]>()
  for (const t of tasks) {
    if (t.jobId === undefined) continue
    let list = byJob.get(t.jobId)
    if (!list) byJob.set(t.jobId, (list = []))
    list.push(t)
  }
  const previous = new Map(last.map((j) => [j.id, j]))
  const out = jobs.map((job) => {
    const lastRun = lastRunOf(byJob.get(job.jobId) ?? [])
    const built: BackupJob = lastRun ? { ...job, lastRun } : job
    const old = previous.get(job.id)
    return old && sameJob(old, built) ? old : built
  })
  const same = out.length === last.length && out.every((j, i) => j === last[i])
  return same ? last : out
}

/** The instance's coverage record as a list (empty until the first good read). */
export function buildCoverage(run: Pick<SlowRun, 'memory'>, last: BackupCoverage[]) {
  const coverage = run.memory.coverage
  if (!coverage) return last
  return last.length === 1 && last[0] === coverage ? last : [coverage]
}

function sameNumbers(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i])
}

/** Field-by-field equality of two jobs, their selections and last runs included. */
export function sameJob(a: BackupJob, b: BackupJob): boolean {
  const ka = Object.keys(a) as (keyof BackupJob)[]
  if (ka.length !== Object.keys(b).length) return false
  return ka.every((k) => {
    const x = a[k]
    const y = b[k]
    if (Array.isArray(x) && Array.isArray(y)) return sameNumbers(x, y)
    if (k === 'lastRun' && x && y) {
      const rx = x as unknown as Record<string, unknown>
      const ry = y as unknown as Record<string, unknown>
      return Object.keys(rx).every((f) => rx[f] === ry[f])
    }
    return x === y
  })
}

/** Equality of two job lists (without last runs, as read). */
export function sameJobs(a: readonly BackupJob[], b: readonly BackupJob[]): boolean {
  return a.length === b.length && a.every((job, i) => sameJob(job, b[i]!))
}
