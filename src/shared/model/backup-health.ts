// Wire types of backup health (issue 26): PVE backup jobs and coverage, PBS sync / verify / prune /
// GC jobs, and one backup summary per guest. Pure types and constants: imported by the server, the
// worker and the UI alike. Facts about the Proxmox answers behind them:
// reference/proxmox-api-backups-history.md §1-4 (summarised in the collectors' comments).
import type { GuestType } from './state.ts'

/** A run's outcome, normalised from a Proxmox task status (`OK`, `WARNINGS: n`, error text). */
export const JOB_RUN_STATES = ['ok', 'warning', 'failed', 'running', 'unknown'] as const
export type JobRunState = (typeof JOB_RUN_STATES)[number]

/** The normalised state of a Proxmox task status string (PVE and PBS use the same strings). */
export function taskRunState(status: string | undefined): JobRunState {
  if (status === undefined || status === '') return 'unknown'
  if (status === 'running' || status === 'RUNNING') return 'running'
  if (status === 'OK') return 'ok'
  if (/^WARNINGS: \d+$/.test(status)) return 'warning'
  if (status === 'unknown' || status === 'unexpected status') return 'unknown'
  return 'failed'
}

/** One run of a job: a task, as far as the source tells it. */
export interface JobRun {
  /** The task's UPID ('' when the source names none). */
  upid: string
  state: JobRunState
  /** The raw status text (`OK`, `WARNINGS: 2`, `job errors`, …). */
  status: string
  /** Epoch seconds; 0 when unknown. */
  startTime: number
  /** Epoch seconds; 0 while running or unknown. */
  endTime: number
  /** Seconds; 0 while running or unknown. */
  duration: number
  /** The node the task ran on (PVE); 'localhost' on PBS. */
  node?: string
}

/** A PVE backup job (`GET /cluster/backup`), one per job and instance. */
export interface BackupJob {
  /** `${instance}-${jobId}`. */
  id: string
  instance: string
  /** The job's id in Proxmox (`backup-1a2b3c4d-…`). */
  jobId: string
  /** Calendar event ('' for none). */
  schedule: string
  /** Target storage ('' when the job names none). */
  storage: string
  enabled: boolean
  /** Epoch seconds of the next run (Proxmox sets it for disabled jobs too); 0 when unknown. */
  nextRun: number
  /** Selection, with Proxmox's precedence: pool, then vmids, then all minus exclude. */
  pool?: string
  vmids: number[]
  all: boolean
  exclude: number[]
  /** The job runs only on this node. */
  node?: string
  /** snapshot, suspend or stop. */
  mode: string
  comment?: string
  /** The newest vzdump task linked to this job (heuristic: its logged command), if any. */
  lastRun?: JobRun
}

/**
 * Guests of one PVE instance covered by no backup job at all (`GET /cluster/backup-info/
 * not-backed-up`, which counts disabled jobs as coverage). One record per instance.
 */
export interface BackupCoverage {
  /** The instance name. */
  id: string
  instance: string
  notBackedUp: { vmid: number; type: GuestType; name?: string }[]
  /** Epoch ms of the read. */
  collectedAt: number
}

/** One guest's result inside a vzdump task, read from the task log. */
export interface BackupTaskGuest {
  vmid: number
  ok: boolean
  /** `ERROR: Backup of VM <vmid> failed - <error>`. */
  error?: string
}

export const PBS_JOB_KINDS = ['sync', 'verify', 'prune', 'gc'] as const
export type PbsJobKind = (typeof PBS_JOB_KINDS)[number]

/** A PBS sync, verify, prune or garbage-collection job (`/admin/sync|verify|prune`, GC status). */
export interface PbsJob {
  /** `${pbsId}-${kind}-${jobId}`; for GC the job id is the datastore. */
  id: string
  /** The PBS instance id (`pbs-<name>`). */
  pbs: string
  /** The PBS instance name. */
  instance: string
  kind: PbsJobKind
  jobId: string
  store: string
  /** Calendar event ('' for none: a GC without a gc-schedule, a job run by hand only). */
  schedule: string
  /** False for a prune job with `disable`; true otherwise (sync and verify have no switch). */
  enabled: boolean
  /** Epoch seconds; 0 when unknown (never scheduled, or disabled). */
  nextRun: number
  lastRun?: JobRun
  comment?: string
  /** Sync jobs: the remote ('' or absent for a local sync) and its store. */
  remote?: string
  remoteStore?: string
  /** The last failed run's task log, its last lines (bounded), oldest first. */
  logTail?: string[]
}

/** Where a guest's newest backup is. */
export type BackupSource = 'pve' | 'pbs'

/** Whether any backup job selects a guest. */
export const COVERAGE_STATES = ['enabled', 'disabled', 'none', 'unknown'] as const
/**
 * enabled: an enabled job selects it; disabled: only disabled jobs do; none: no job; unknown: the
 * jobs of its instance have not been read (yet, or the read failed).
 */
export type CoverageState = (typeof COVERAGE_STATES)[number]

/**
 * One guest's backup summary (`guestBackups`, an on-demand collection), or one orphaned backup
 * group (backups of a VMID that no monitored instance has). Built on the server from the backup
 * collections, the jobs and the tasks; the alert engine and the coverage view both read it.
 */
export interface GuestBackup {
  /** The guest id; `orphan-${source instance}-${vm|ct}-${vmid}` for an orphaned group. */
  id: string
  /** The guest's PVE instance; for an orphan, the instance or PBS id holding the backups. */
  instance: string
  /** The guest's node ('' for an orphan). */
  node: string
  vmid: number
  type: GuestType
  /** The guest's name ('' for an orphan). */
  name: string
  template: boolean
  orphaned: boolean
  /** Epoch seconds of the newest backup (PVE storage or PBS; snapshots do not count); 0 = never. */
  newest: number
  newestSource?: BackupSource
  /** The storage, or `pbs-name:store` for PBS. */
  newestLocation?: string
  newestSize?: number
  /** Backups of this guest across all sources. */
  count: number
  /** The newest vzdump result for this guest. */
  lastJob?: {
    state: JobRunState
    /** Epoch seconds: the task's end, or its start while running. */
    time: number
    /** BackupTask id (`${instance}-${upid}`). */
    taskId: string
    jobId?: string
    error?: string
  }
  coverage: CoverageState
  /** PBS snapshots of this guest whose verification failed. */
  verifyFailed: number
}
