// One backup summary per guest, plus one per orphaned backup group (GuestBackup, the
// `guestBackups` collection): what the alert engine and the Backups tab's coverage view read.
// Kept incrementally by summariser.ts, folded per VMID by bucket-fold.ts. Pure. Rules:
// - newest: the newest PVE storage backup (qemu/lxc, by ctime) or PBS vm/ct backup (backupTime)
//   of the guest; snapshots never count. A storage backup duplicating a PBS backup (same vmid and
//   time: a PBS storage's listing) counts once, as the PBS backup.
// - attribution as the Backups tab: storage backups by (instance, vmid); PBS backups by
//   resolvePbsGuest (type and vmid, the twin's instance when known, the comment, else the first).
// - orphans: storage backups whose (instance, vmid) has no guest, under that instance; PBS backups
//   whose (type, vmid) no guest of any instance has, under the PBS id; a PBS backup whose twin's
//   instance has no guest of that vmid joins that instance's orphan group. Host backups never.
// - coverage: job-selection.ts; lastJob: last-job.ts; verifyFailed: PBS verification 'failed'.
import type { BackupCoverage, BackupJob, GuestBackup } from '../../model/backup-health.ts'
import { runSteps } from '../../model/delta-steps.ts'
import type { BackupTask, Guest, PbsBackup, StorageBackup } from '../../model/state.ts'
import type { BackupAggregate } from './backup-index.ts'
import type { GuestKey, Orphan } from './bucket-fold.ts'
import { coverageOf, type JobIndex } from './job-selection.ts'
import { lastJobOf, sameLastJob, type TaskIndex } from './last-job.ts'
import { createGuestBackupSummariser } from './summariser.ts'

/** The state collections a summary reads. */
export interface GuestBackupInputs {
  vms: readonly Guest[]
  containers: readonly Guest[]
  storageBackups: readonly StorageBackup[]
  pbsBackups: readonly PbsBackup[]
  backupTasks: readonly BackupTask[]
  backupJobs: readonly BackupJob[]
  backupCoverage: readonly BackupCoverage[]
}

/** Summarise from scratch, at once (tests, small estates): guests in order, then orphans by id. */
export function summariseGuestBackups(inputs: GuestBackupInputs): GuestBackup[] {
  const summariser = createGuestBackupSummariser()
  runSteps(summariser.updateSteps(inputs))
  return summariser.result() as GuestBackup[]
}

const NO_BACKUPS: BackupAggregate = {
  newest: 0,
  source: 'pve',
  location: '',
  size: 0,
  count: 0,
  verifyFailed: 0,
}

/** A guest's summary from its backups' aggregate, its jobs and its newest task. */
export function guestSummary(
  guest: GuestKey,
  sum: BackupAggregate | undefined,
  jobs: JobIndex,
  tasks: TaskIndex,
): GuestBackup {
  const task = tasks.get(guest.instance)?.get(guest.vmid)
  const summary = toSummary(sum ?? NO_BACKUPS, {
    id: guest.id,
    instance: guest.instance,
    node: guest.node,
    vmid: guest.vmid,
    type: guest.type,
    name: guest.name,
    template: guest.template === true,
    orphaned: false,
    coverage: coverageOf(jobs, guest),
  })
  if (task) summary.lastJob = lastJobOf(task, guest.vmid)
  return summary
}

/** An orphan group's summary: no guest, so no job can be said to cover it and no node to show. */
export function orphanSummary(orphan: Orphan): GuestBackup {
  const { id, instance, vmid, type } = orphan
  const base = { id, instance, node: '', vmid, type, name: '', template: false, orphaned: true }
  return toSummary(orphan, { ...base, coverage: 'unknown' })
}

type Identity = Pick<
  GuestBackup,
  'id' | 'instance' | 'node' | 'vmid' | 'type' | 'name' | 'template' | 'orphaned' | 'coverage'
>

function toSummary(sum: BackupAggregate, identity: Identity): GuestBackup {
  const summary: GuestBackup = {
    ...identity,
    newest: sum.count > 0 ? sum.newest : 0,
    count: sum.count,
    verifyFailed: sum.verifyFailed,
  }
  if (sum.count > 0) {
    summary.newestSource = sum.source
    summary.newestLocation = sum.location
    summary.newestSize = sum.size
  }
  return summary
}

/** Field-by-field equality of two summaries (lastJob included). */
export function sameGuestBackup(a: GuestBackup, b: GuestBackup): boolean {
  for (const key of Object.keys(b) as (keyof GuestBackup)[]) {
    if (key !== 'lastJob' && a[key] !== b[key]) return false
  }
  if (Object.keys(a).length !== Object.keys(b).length) return false
  const x = a.lastJob
  const y = b.lastJob
  if (!x || !y) return x === y
  return sameLastJob(x, y)
}
