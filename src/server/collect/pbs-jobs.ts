// Pure mappers for the PBS job answers: /admin/sync, /admin/verify, /admin/prune, the GC status
// (/admin/gc or /admin/datastore/{store}/gc) and /nodes/localhost/tasks
// (reference/proxmox-api-backups-history.md §3). Job entries carry JobScheduleStatus flattened in
// (next-run, last-run-state, last-run-upid, last-run-endtime; all optional): there is no start
// time or duration field, so the start comes from the UPID; the GC status names its task `upid`.
import {
  taskRunState,
  type JobRun,
  type PbsJob,
  type PbsJobKind,
} from '../../shared/model/backup-health.ts'
import { isRecord, toOptionalNumber, toOptionalString } from './coerce.ts'

/** Which PBS instance a job list belongs to. */
export interface PbsJobSource {
  /** The configured instance name; the PBS id is `pbs-${instance}`. */
  instance: string
}

/** One entry of /nodes/localhost/tasks (snake_case keys on PBS). */
export interface PbsTask {
  upid: string
  workerType: string
  workerId: string
  /** Epoch seconds. */
  start: number
  /** Epoch seconds; absent while running. */
  end?: number
  /** Absent while running. */
  status?: string
}

/** The worker type of each job kind's scheduled task (reference §3.4). */
export const JOB_WORKER_TYPES: Record<PbsJobKind, string> = {
  sync: 'syncjob',
  verify: 'verificationjob',
  prune: 'prunejob',
  gc: 'garbage_collection',
}

/**
 * The start time a UPID encodes. A PBS UPID is
 * `UPID:<node>:<pid>:<pstart>:<task id>:<starttime>:<type>:<worker id>:<auth id>:` (hex numbers);
 * 0 for anything else.
 */
export function upidStart(upid: string): number {
  const parts = upid.split(':')
  if (parts[0] !== 'UPID' || parts.length < 9) return 0
  const hex = parts[5] ?? ''
  return /^[0-9A-Fa-f]{8}$/.test(hex) ? parseInt(hex, 16) : 0
}

/** Sync jobs from /admin/sync. */
export function toSyncJobs(data: unknown, source: PbsJobSource): PbsJob[] {
  return mapEntries(data, (e) => {
    const job = baseJob(e, 'sync', source)
    if (job === undefined) return undefined
    const remote = toOptionalString(e.remote)
    const remoteStore = toOptionalString(e['remote-store'])
    return {
      ...job,
      ...(remote !== undefined ? { remote } : {}),
      ...(remoteStore !== undefined ? { remoteStore } : {}),
    }
  })
}

/** Verify jobs from /admin/verify. */
export function toVerifyJobs(data: unknown, source: PbsJobSource): PbsJob[] {
  return mapEntries(data, (e) => baseJob(e, 'verify', source))
}

/** Prune jobs from /admin/prune (`disable` is present only when true; no next-run then). */
export function toPruneJobs(data: unknown, source: PbsJobSource): PbsJob[] {
  return mapEntries(data, (e) => {
    const job = baseJob(e, 'prune', source)
    return job && { ...job, enabled: e.disable !== true && e.disable !== 1 && e.disable !== '1' }
  })
}

/**
 * GC jobs, one per datastore, from /admin/gc (a list) or /admin/datastore/{store}/gc (one
 * object; `store` names it when the entry does not). The job id is the datastore.
 */
export function toGcJobs(data: unknown, source: PbsJobSource, store?: string): PbsJob[] {
  const entries = Array.isArray(data) ? data : [data]
  return mapEntries(entries, (e) => {
    const name = toOptionalString(e.store) ?? store
    if (name === undefined) return undefined
    const upid = toOptionalString(e.upid)
    const run = toRun(upid, toOptionalString(e['last-run-state']), e['last-run-endtime'])
    const duration = toOptionalNumber(e.duration)
    if (run !== undefined && duration !== undefined && duration >= 0) run.duration = duration
    return {
      ...identity(source, 'gc', name, name),
      schedule: toOptionalString(e.schedule) ?? '',
      enabled: true,
      nextRun: toOptionalNumber(e['next-run']) ?? 0,
      ...(run !== undefined ? { lastRun: run } : {}),
    }
  })
}

/** Task-list entries; entries without a UPID or worker type are skipped. */
export function toPbsTasks(data: unknown): PbsTask[] {
  if (!Array.isArray(data)) return []
  const out: PbsTask[] = []
  for (const e of data) {
    if (!isRecord(e)) continue
    const upid = toOptionalString(e.upid)
    const workerType = toOptionalString(e.worker_type)
    if (upid === undefined || workerType === undefined) continue
    const end = toOptionalNumber(e.endtime)
    const status = toOptionalString(e.status)
    out.push({
      upid,
      workerType,
      workerId: typeof e.worker_id === 'string' ? e.worker_id : '',
      start: toOptionalNumber(e.starttime) ?? upidStart(upid),
      ...(end !== undefined ? { end } : {}),
      ...(status !== undefined ? { status } : {}),
    })
  }
  return out
}

/**
 * Whether a task ran `job` (reference §3.4): syncjob `<remote|->:<remote-store>:<store>:<ns>:<id>`
 * (matched on the id, which is unique among sync jobs; the head changed with push syncs),
 * verificationjob `<store>:<id>`, prunejob `<store>` or `<store>:<ns>` (we take the store),
 * garbage_collection `<store>`.
 */
export function taskMatchesJob(task: PbsTask, job: PbsJob): boolean {
  if (task.workerType !== JOB_WORKER_TYPES[job.kind]) return false
  const id = task.workerId
  switch (job.kind) {
    case 'sync':
      return id.split(':').at(-1) === job.jobId
    case 'verify':
      return id === `${job.store}:${job.jobId}`
    case 'prune':
      return id === job.store || id.startsWith(`${job.store}:`)
    case 'gc':
      return id === job.store
  }
}

/**
 * The job with its last run completed from the task list: the newest matching task wins when it
 * started after the run the job status names (a run in progress, or a status without state); the
 * task of the named run fills in what the status leaves out (end, state).
 */
export function withTaskRun(job: PbsJob, tasks: readonly PbsTask[]): PbsJob {
  let newest: PbsTask | undefined
  let named: PbsTask | undefined
  for (const task of tasks) {
    if (!taskMatchesJob(task, job)) continue
    if (newest === undefined || task.start > newest.start) newest = task
    if (task.upid === job.lastRun?.upid) named = task
  }
  const run = job.lastRun
  if (newest !== undefined && (run === undefined || newest.start > run.startTime)) {
    return { ...job, lastRun: fromTask(newest) }
  }
  if (run === undefined || named === undefined) return job
  const fromList = fromTask(named)
  if (run.state !== 'unknown' && run.state !== 'running' && run.endTime > 0) return job
  return { ...job, lastRun: { ...fromList, duration: run.duration || fromList.duration } }
}

function fromTask(task: PbsTask): JobRun {
  const end = task.end ?? 0
  const status = task.status ?? (task.end === undefined ? 'running' : '')
  return {
    upid: task.upid,
    state: taskRunState(status),
    status,
    startTime: task.start,
    endTime: end,
    duration: end > 0 && task.start > 0 ? Math.max(0, end - task.start) : 0,
    node: 'localhost',
  }
}

// A run from the JobScheduleStatus fields: a UPID without a state is a run in progress.
function toRun(upid: string | undefined, state: string | undefined, endRaw: unknown) {
  if (upid === undefined) return undefined
  const start = upidStart(upid)
  const end = toOptionalNumber(endRaw) ?? 0
  const status = state ?? (end > 0 ? '' : 'running')
  const run: JobRun = {
    upid,
    state: taskRunState(status),
    status,
    startTime: start,
    endTime: end,
    duration: end > 0 && start > 0 ? Math.max(0, end - start) : 0,
    node: 'localhost',
  }
  return run
}

function identity(source: PbsJobSource, kind: PbsJobKind, jobId: string, store: string) {
  const pbs = `pbs-${source.instance}`
  return { id: `${pbs}-${kind}-${jobId}`, pbs, instance: source.instance, kind, jobId, store }
}

// id, store, schedule, comment and the schedule status, common to sync, verify and prune jobs.
function baseJob(
  e: Record<string, unknown>,
  kind: PbsJobKind,
  source: PbsJobSource,
): PbsJob | undefined {
  const id = toOptionalString(e.id)
  const store = toOptionalString(e.store)
  if (id === undefined || store === undefined) return undefined
  const comment = toOptionalString(e.comment)
  const run = toRun(
    toOptionalString(e['last-run-upid']),
    toOptionalString(e['last-run-state']),
    e['last-run-endtime'],
  )
  return {
    ...identity(source, kind, id, store),
    schedule: toOptionalString(e.schedule) ?? '',
    enabled: true,
    nextRun: toOptionalNumber(e['next-run']) ?? 0,
    ...(run !== undefined ? { lastRun: run } : {}),
    ...(comment !== undefined ? { comment } : {}),
  }
}

function mapEntries(
  data: unknown,
  map: (entry: Record<string, unknown>) => PbsJob | undefined,
): PbsJob[] {
  if (!Array.isArray(data)) return []
  const out: PbsJob[] = []
  const seen = new Set<string>()
  for (const entry of data) {
    if (!isRecord(entry)) continue
    const job = map(entry)
    if (job === undefined || seen.has(job.id)) continue
    seen.add(job.id)
    out.push(job)
  }
  return out
}
