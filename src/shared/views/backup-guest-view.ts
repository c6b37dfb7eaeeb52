// One guest's backup summary (issue 26 item 7) for its detail panel and its page: the newest
// backup with its age colour, the jobs that select it and its last job result. Pure.
import type { AlertConfig } from '../model/alerts.ts'
import type { BackupJob, GuestBackup } from '../model/backup-health.ts'
import type { Guest } from '../model/state.ts'
import { createLimitsOf, rankCoverage, toCoverageEntry } from './backup-coverage-rank.ts'
import { toCoverageRow } from './backup-coverage-view.ts'
import type { CoverageRow } from './backup-coverage-types.ts'
import { memoizeStage } from './memo.ts'

export interface GuestBackupRequest {
  kind: 'guestBackup'
  /** The guest id (the GuestBackup id). */
  guestId: string
}

/** A backup job that selects the guest. */
export interface GuestJobRef {
  jobId: string
  enabled: boolean
  schedule: string
  storage: string
}

export interface GuestBackupModel {
  kind: 'guestBackup'
  version: number
  /** False until the guest backup summaries have arrived. */
  loaded: boolean
  /** null once loaded: no summary for this guest. */
  row: CoverageRow | null
  jobs: GuestJobRef[]
}

export interface GuestBackupInput {
  guestBackups: readonly GuestBackup[]
  backupJobs: readonly BackupJob[]
  guests: readonly Guest[]
  config: AlertConfig | null
  loaded: boolean
  now: number
}

/** Does a PVE backup job select this guest (pool, then vmids, then all minus exclude; node)? */
export function jobSelects(
  job: BackupJob,
  guest: Pick<Guest, 'instance' | 'vmid' | 'node' | 'pool'>,
): boolean {
  if (job.instance !== guest.instance) return false
  if (job.node && job.node !== guest.node) return false
  if (job.pool) return guest.pool === job.pool
  if (job.vmids.length > 0) return job.vmids.includes(guest.vmid)
  return job.all && !job.exclude.includes(guest.vmid)
}

/** Create the view: recomputes when its guest's summary, the jobs, the config or the minute change. */
export function createGuestBackupView(): {
  compute(input: GuestBackupInput, request: GuestBackupRequest): Omit<GuestBackupModel, 'version'>
} {
  const find = memoizeStage((summaries: readonly GuestBackup[], id: string) =>
    summaries.find((summary) => summary.id === id),
  )
  const findGuest = memoizeStage((guests: readonly Guest[], id: string) =>
    guests.find((guest) => guest.id === id),
  )
  const build = memoizeStage(
    (
      summary: GuestBackup | undefined,
      guest: Guest | undefined,
      jobs: readonly BackupJob[],
      config: AlertConfig | null,
      loaded: boolean,
      minute: number,
    ): Omit<GuestBackupModel, 'version'> => {
      let row: CoverageRow | null = null
      if (summary) {
        const entry = toCoverageEntry(
          summary,
          createLimitsOf(config, guest ? [guest] : [])(summary),
        )
        rankCoverage([entry], minute * 60)
        row = toCoverageRow(entry, minute * 60_000)
      }
      return {
        kind: 'guestBackup',
        loaded,
        row,
        jobs: guest
          ? jobs
              .filter((job) => jobSelects(job, guest))
              .map(({ jobId, enabled, schedule, storage }) => ({
                jobId,
                enabled,
                schedule,
                storage,
              }))
          : [],
      }
    },
  )
  return {
    compute(input, request) {
      return build(
        find(input.guestBackups, request.guestId),
        findGuest(input.guests, request.guestId),
        input.backupJobs,
        input.config,
        input.loaded,
        Math.floor(input.now / 60_000),
      )
    },
  }
}
