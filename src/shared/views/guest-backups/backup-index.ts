// Backups grouped for the per-guest summary (guest-backup-summary.ts): PVE storage backups by
// instance, vmid and type; PBS guest backups by PBS, type, vmid, PVE-side twin and comment (what
// their guest attribution depends on). Depends on the backup lists only, so the server keeps it
// while only the guests change. Written as steps (a generator yielding between slices): at
// 1,000,000 backups the server runs it in event-loop slices (run-sliced.ts). Pure.
import type { BackupSource } from '../../model/backup-health.ts'
import type { PbsBackup, StorageBackup } from '../../model/state.ts'
import { isIgnoredStorageBackup } from '../backups-records.ts'

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

/** PVE storage backups of one (instance, vmid, type) that no PBS backup duplicates. */
export interface PveGroup extends BackupAggregate {
  instance: string
  vmid: number
  type: 'qemu' | 'lxc'
}

/** PBS vm/ct backups that share everything their guest attribution reads. */
export interface PbsGroup extends BackupAggregate {
  /** The PBS instance name. */
  pbs: string
  backupType: 'vm' | 'ct'
  vmid: string
  /** Its PVE-side twins' instance; '' when twins of several instances; undefined for none. */
  twin: string | undefined
  /** The backups' comment, trimmed ('' for none). */
  comment: string
}

export interface BackupIndex {
  pve: PveGroup[]
  pbs: PbsGroup[]
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

function emptyAggregate(source: BackupSource): BackupAggregate {
  return { newest: 0, source, location: '', size: 0, count: 0, verifyFailed: 0 }
}

/**
 * Group the backups. A storage backup with the vmid and timestamp of a PBS backup is that PBS
 * backup seen through a PBS storage on PVE (spec 000 §5 duplicate rule, as the Backups tab): it
 * counts once, as the PBS backup, and names the PVE instance its guest is looked up in. Storage
 * backups of hosts and unknown types, ISOs and templates never count for a guest.
 */
export function* indexBackupSteps(
  storageBackups: readonly StorageBackup[],
  pbsBackups: readonly PbsBackup[],
): Generator<void, BackupIndex, void> {
  // Duplicate keys: PBS (time, vmid) pairs whose time some storage backup has.
  const times = new Set<number>()
  for (let i = 0; i < storageBackups.length; i++) {
    times.add(storageBackups[i]!.ctime)
    if (i % STEP_ITEMS === 0) yield
  }
  const pbsKeys = new Map<number, Set<string>>()
  for (let i = 0; i < pbsBackups.length; i++) {
    const backup = pbsBackups[i]!
    if (i % STEP_ITEMS === 0) yield
    if (!times.has(backup.backupTime)) continue
    let vmids = pbsKeys.get(backup.backupTime)
    if (!vmids) pbsKeys.set(backup.backupTime, (vmids = new Set()))
    vmids.add(backup.vmid)
  }
  // Nested maps keyed by the records' own strings and numbers (hashes cached on them): no key
  // string built per record, which at 1,000,000 records was most of the cost.
  const twins = new Map<number, Map<string, string>>()
  const pve: PveGroup[] = []
  const pveKeys = new Map<string, Map<number, PveGroup>>()
  for (let i = 0; i < storageBackups.length; i++) {
    const backup = storageBackups[i]!
    if (i % STEP_ITEMS === 0) yield
    if (isIgnoredStorageBackup(backup)) continue
    const sameTime = pbsKeys.get(backup.ctime)
    if (sameTime?.has(String(backup.vmid))) {
      let byVmid = twins.get(backup.ctime)
      if (!byVmid) twins.set(backup.ctime, (byVmid = new Map()))
      const vmid = String(backup.vmid)
      const known = byVmid.get(vmid)
      byVmid.set(vmid, known === undefined || known === backup.instance ? backup.instance : '')
      continue
    }
    if (backup.type !== 'qemu' && backup.type !== 'lxc') continue
    let inInstance = pveKeys.get(backup.instance)
    if (!inInstance) pveKeys.set(backup.instance, (inInstance = new Map()))
    const key = backup.vmid * 2 + (backup.type === 'lxc' ? 1 : 0)
    let group = inInstance.get(key)
    if (!group) {
      const { instance, vmid, type } = backup
      group = { ...emptyAggregate('pve'), instance, vmid, type }
      inInstance.set(key, group)
      pve.push(group)
    }
    addBackup(group, backup.ctime, 'pve', backup.storage, backup.size)
  }
  const pbs: PbsGroup[] = []
  // PBS → type → vmid → twin → comment.
  const pbsGroups = new Map<string, Map<string, Map<string, Map<string, Map<string, PbsGroup>>>>>()
  const level = <K, V>(map: Map<K, V>, key: K, make: () => V): V => {
    let value = map.get(key)
    if (value === undefined) map.set(key, (value = make()))
    return value
  }
  for (let i = 0; i < pbsBackups.length; i++) {
    const backup = pbsBackups[i]!
    if (i % STEP_ITEMS === 0) yield
    const { backupType } = backup
    if (backupType !== 'vm' && backupType !== 'ct') continue
    const twin = twins.size === 0 ? undefined : twins.get(backup.backupTime)?.get(backup.vmid)
    const comment = backup.comment === undefined ? '' : backup.comment.trim()
    const byType = level(pbsGroups, backup.instance, () => new Map())
    const byVmid = level(byType, backupType, () => new Map())
    const byTwin = level(byVmid, backup.vmid, () => new Map())
    const byComment = level(byTwin, twin ?? '\u0001', () => new Map<string, PbsGroup>())
    let group = byComment.get(comment)
    if (!group) {
      const base = emptyAggregate('pbs')
      group = { ...base, pbs: backup.instance, backupType, vmid: backup.vmid, twin, comment }
      byComment.set(comment, group)
      pbs.push(group)
    }
    // The location string only for a backup that may be the newest.
    if (group.count === 0 || backup.backupTime >= group.newest) {
      addBackup(group, backup.backupTime, 'pbs', pbsLocation(backup), backup.size)
    } else group.count++
    if (backup.verification === 'failed') group.verifyFailed++
  }
  return { pve, pbs }
}
