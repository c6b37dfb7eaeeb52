// The backup jobs view protocol (issue 26 item 6): PVE backup jobs, PBS sync / verify / prune /
// GC jobs and the recent failed vzdump tasks, each run with its log tail. Pure types.
import type { JobRunState, PbsJobKind } from '../model/backup-health.ts'

export interface BackupJobsRequest {
  kind: 'backupJobs'
  /** Only jobs whose last run failed (and PBS jobs overdue). */
  problemsOnly: boolean
}

/** A run as shown: state, start, duration, and the log tail of a failed run. */
export interface JobRunView {
  state: JobRunState
  /** The raw status ('OK', 'WARNINGS: 2', 'job errors'). */
  status: string
  startText: string
  durationText: string
  /** The failed run's last log lines, oldest first; [] when none were read. */
  logTail: string[]
}

export interface PveJobRow {
  id: string
  instance: string
  jobId: string
  schedule: string
  storage: string
  /** 'All guests', 'All except 101, 102', 'Pool prod', 'VMIDs 101, 102', plus ' on <node>'. */
  selection: string
  enabled: boolean
  mode: string
  comment: string
  lastRun: JobRunView | null
  /** '' when unknown. */
  nextRunText: string
}

export interface PbsJobRow {
  id: string
  /** The PBS instance name. */
  instance: string
  store: string
  kind: PbsJobKind
  kindLabel: string
  jobId: string
  schedule: string
  enabled: boolean
  /** Sync jobs: 'remote:store'. */
  remote: string
  lastRun: JobRunView | null
  nextRunText: string
  /** The next run is past by more than the grace with no run since. */
  overdue: boolean
}

/** A recent vzdump task that failed. */
export interface FailedTaskRow {
  id: string
  instance: string
  node: string
  /** The VMID of a one-guest task, else the failed guests' VMIDs ('all' when none are named). */
  guests: string
  jobId: string
  storage: string
  run: JobRunView
  error: string
}

export interface BackupJobsModel {
  kind: 'backupJobs'
  version: number
  /** False until the jobs and the backup tasks have arrived. */
  loaded: boolean
  pveJobs: PveJobRow[]
  pbsJobs: PbsJobRow[]
  /** Newest first, at most FAILED_TASKS_SHOWN. */
  failedTasks: FailedTaskRow[]
  /** The grace the overdue markers use, in minutes. */
  graceMinutes: number
}
