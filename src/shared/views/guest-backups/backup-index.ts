// The aggregate the per-guest summary folds backups into (bucket-fold.ts): the newest backup by
// one total order, counts, and where a PBS backup is. Pure.
import type { BackupSource } from '../../model/backup-health.ts'
import type { PbsBackup } from '../../model/state.ts'

/** Items handled between two yields. */
export const STEP_ITEMS = 1024

/** A group's backups summed up: the newest one and counts. */
export interface BackupAggregate {
  newest: number
  source: BackupSource
  location: string
  size: number
  count: number
  /** PBS backups whose verification failed. */
  verifyFailed: number
}

/**
 * One total order for "newest": the later time; at equal times the greater location, then the
 * greater size (so the result never depends on list order).
 */
export function isNewer(
  time: number,
  location: string,
  size: number,
  than: Pick<BackupAggregate, 'newest' | 'location' | 'size'>,
): boolean {
  if (time !== than.newest) return time > than.newest
  if (location !== than.location) return location > than.location
  return size > than.size
}

/** Add one backup to a group. */
export function addBackup(
  group: BackupAggregate,
  time: number,
  source: BackupSource,
  location: string,
  size: number,
): void {
  group.count++
  if (group.count === 1 || isNewer(time, location, size, group)) {
    group.newest = time
    group.source = source
    group.location = location
    group.size = size
  }
}

/** Where a PBS backup is: `pbs-<name>:<datastore>` (the PBS instance id and the store). */
export function pbsLocation(backup: Pick<PbsBackup, 'instance' | 'datastore'>): string {
  return `pbs-${backup.instance}:${backup.datastore}`
}
