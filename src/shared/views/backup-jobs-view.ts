// The backup jobs view (issue 26 item 6): PVE backup jobs by instance, PBS jobs by PBS and
// datastore, and the recent failed vzdump tasks. The lists are small (jobs, not guests), so the
// view formats them whole; it recomputes only when one of its collections (or the minute) changes.
import { formatLocalDateTime } from '../format/date-time.ts'
import { formatUptime } from '../format/uptime.ts'
import type { AlertConfig } from '../model/alerts.ts'
import {
  taskRunState,
  type BackupJob,
  type JobRun,
  type PbsJob,
  type PbsJobKind,
} from '../model/backup-health.ts'
import type { BackupTask } from '../model/state.ts'
import type {
  BackupJobsModel,
  BackupJobsRequest,
  FailedTaskRow,
  JobRunView,
  PbsJobRow,
  PveJobRow,
} from './backup-jobs-types.ts'
import { memoizeStage } from './memo.ts'

/** Failed vzdump tasks listed at most. */
export const FAILED_TASKS_SHOWN = 50
/** The PBS overdue grace when the alert config is not known (its default). */
export const DEFAULT_GRACE_MINUTES = 60

const KIND_LABELS: Record<PbsJobKind, string> = {
  sync: 'Sync',
  verify: 'Verify',
  prune: 'Prune',
  gc: 'Garbage collection',
}

export interface BackupJobsInput {
  backupJobs: readonly BackupJob[]
  pbsJobs: readonly PbsJob[]
  backupTasks: readonly BackupTask[]
  config: AlertConfig | null
  loaded: boolean
  /** Epoch ms. */
  now: number
}

export type BackupJobsResult = Omit<BackupJobsModel, 'version'>

/** Create the view: equal inputs (in the same minute) give the identical result. */
export function createBackupJobsView(): {
  compute(input: BackupJobsInput, request: BackupJobsRequest): BackupJobsResult
} {
  const build = memoizeStage(
    (
      backupJobs: readonly BackupJob[],
      pbsJobs: readonly PbsJob[],
      backupTasks: readonly BackupTask[],
      grace: number,
      loaded: boolean,
      minute: number,
    ): BackupJobsResult => {
      const tasks = new Map<string, BackupTask>()
      for (const task of backupTasks) tasks.set(task.id, task)
      return {
        kind: 'backupJobs',
        loaded,
        graceMinutes: grace,
        pveJobs: backupJobs
          .map((job) => toPveJobRow(job, tasks))
          .sort((a, b) => cmp(a.instance, b.instance) || cmp(a.jobId, b.jobId)),
        pbsJobs: pbsJobs
          .map((job) => toPbsJobRow(job, minute * 60, grace))
          .sort(
            (a, b) =>
              cmp(a.instance, b.instance) ||
              cmp(a.store, b.store) ||
              cmp(a.kind, b.kind) ||
              cmp(a.jobId, b.jobId),
          ),
        failedTasks: listFailedTasks(backupTasks),
      }
    },
  )
  const problems = memoizeStage((all: BackupJobsResult): BackupJobsResult => ({
    ...all,
    pveJobs: all.pveJobs.filter((job) => job.lastRun?.state === 'failed'),
    pbsJobs: all.pbsJobs.filter((job) => job.overdue || job.lastRun?.state === 'failed'),
  }))
  return {
    compute(input, request) {
      const grace = input.config?.backups?.overdueGraceMinutes ?? DEFAULT_GRACE_MINUTES
      const all = build(
        input.backupJobs,
        input.pbsJobs,
        input.backupTasks,
        grace,
        input.loaded,
        Math.floor(input.now / 60_000),
      )
      return request.problemsOnly ? problems(all) : all
    },
  }
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)

const timeText = (epochS: number) => (epochS > 0 ? formatLocalDateTime(epochS * 1000, false) : '')

/** '45s', '12m', '1h 3m'; '' when unknown. */
export function formatDuration(seconds: number): string {
  if (!(seconds > 0)) return ''
  return seconds < 60 ? `${Math.round(seconds)}s` : formatUptime(seconds)
}

function toRunView(run: JobRun, logTail: readonly string[] | undefined): JobRunView {
  return {
    state: run.state,
    status: run.status,
    startText: timeText(run.startTime),
    durationText: formatDuration(run.duration),
    logTail: run.state === 'failed' || run.state === 'warning' ? [...(logTail ?? [])] : [],
  }
}

/** The selection, in Proxmox's precedence: pool, then vmids, then all minus exclude. */
export function describeSelection(job: BackupJob): string {
  let text: string
  if (job.pool) text = `Pool ${job.pool}`
  else if (job.vmids.length > 0) text = `VMIDs ${job.vmids.join(', ')}`
  else if (job.all)
    text = job.exclude.length > 0 ? `All except ${job.exclude.join(', ')}` : 'All guests'
  else text = 'No guests'
  return job.node ? `${text} on ${job.node}` : text
}

function toPveJobRow(job: BackupJob, tasks: ReadonlyMap<string, BackupTask>): PveJobRow {
  const run = job.lastRun
  const task = run?.upid ? tasks.get(`${job.instance}-${run.upid}`) : undefined
  return {
    id: job.id,
    instance: job.instance,
    jobId: job.jobId,
    schedule: job.schedule,
    storage: job.storage,
    selection: describeSelection(job),
    enabled: job.enabled,
    mode: job.mode,
    comment: job.comment ?? '',
    lastRun: run ? toRunView(run, task?.logTail) : null,
    nextRunText: timeText(job.nextRun),
  }
}

/** A PBS job's next run is past by more than the grace, and no run started since it was due. */
export function isPbsJobOverdue(job: PbsJob, nowS: number, graceMinutes: number): boolean {
  if (!job.enabled || !(job.nextRun > 0)) return false
  if (nowS <= job.nextRun + graceMinutes * 60) return false
  return (job.lastRun?.startTime ?? 0) < job.nextRun
}

function toPbsJobRow(job: PbsJob, nowS: number, grace: number): PbsJobRow {
  return {
    id: job.id,
    instance: job.instance,
    store: job.store,
    kind: job.kind,
    kindLabel: KIND_LABELS[job.kind],
    jobId: job.jobId,
    schedule: job.schedule,
    enabled: job.enabled,
    remote: job.remote ? `${job.remote}:${job.remoteStore ?? ''}` : '',
    lastRun: job.lastRun ? toRunView(job.lastRun, job.logTail) : null,
    nextRunText: timeText(job.nextRun),
    overdue: isPbsJobOverdue(job, nowS, grace),
  }
}

/** The newest failed vzdump tasks, newest first, at most FAILED_TASKS_SHOWN. */
export function listFailedTasks(tasks: readonly BackupTask[]): FailedTaskRow[] {
  const failed = tasks.filter((task) => taskRunState(task.status) === 'failed')
  failed.sort((a, b) => b.startTime - a.startTime || cmp(a.id, b.id))
  return failed.slice(0, FAILED_TASKS_SHOWN).map((task) => {
    const bad = (task.guests ?? []).filter((guest) => !guest.ok).map((guest) => guest.vmid)
    const duration = task.endTime > 0 ? task.endTime - task.startTime : 0
    return {
      id: task.id,
      instance: task.instance,
      node: task.node,
      guests: task.vmid > 0 ? String(task.vmid) : bad.length > 0 ? bad.join(', ') : 'all',
      jobId: task.jobId ?? '',
      storage: task.storage ?? '',
      error: task.error ?? task.status,
      run: {
        state: 'failed',
        status: task.status,
        startText: timeText(task.startTime),
        durationText: formatDuration(duration),
        logTail: [...(task.logTail ?? [])],
      },
    }
  })
}
