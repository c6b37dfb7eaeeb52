// The backups of one VMID folded into per-guest aggregates and orphan groups. Every rule of the
// summary links records and guests of one VMID only (storage backups by (instance, vmid), PBS
// backups by type and vmid, twins by (time, vmid), orphan ids by vmid), so the summariser keeps
// the estate in buckets by VMID and re-folds only the buckets whose records or guests changed.
// Rules as summary.ts states them. Pure.
import type { BackupSource } from '../../model/backup-health.ts'
import type { Guest, PbsBackup, StorageBackup } from '../../model/state.ts'
import { isIgnoredStorageBackup } from '../backups-records.ts'
import { resolvePbsGuest } from '../backups-guests.ts'
import { addBackup, pbsLocation, type BackupAggregate } from './backup-index.ts'

/** The guest fields the summary reads (a small copy: the buckets never hold a polled guest). */
export type GuestKey = Pick<
  Guest,
  'id' | 'instance' | 'node' | 'vmid' | 'type' | 'name' | 'template' | 'pool'
>

/** An orphan group: backups whose guest is gone, under the instance or PBS that holds them. */
export interface Orphan extends BackupAggregate {
  id: string
  instance: string
  vmid: number
  type: Guest['type']
}

/** The fold of one bucket. */
export interface BucketFold {
  /** Aligned with the bucket's guests; undefined: no backups (or not the first of its instance). */
  sums: (BackupAggregate | undefined)[]
  orphans: readonly Orphan[]
}

/** The bucket a storage backup belongs to. */
export function storageBucket(backup: StorageBackup): number {
  return backup.vmid
}

/** The bucket a PBS backup belongs to (its vmid as a number, as its orphan id reads it). */
export function pbsBucket(backup: PbsBackup): number {
  return Number(backup.vmid)
}

/** Whether two storage backups are the same for the summary (id and every field it reads). */
export function sameStorageBackup(a: StorageBackup, b: StorageBackup): boolean {
  return (
    a.id === b.id &&
    a.vmid === b.vmid &&
    a.ctime === b.ctime &&
    a.instance === b.instance &&
    a.storage === b.storage &&
    a.type === b.type &&
    a.size === b.size &&
    a.volid === b.volid
  )
}

/** Whether two PBS backups are the same for the summary (id and every field it reads). */
export function samePbsBackup(a: PbsBackup, b: PbsBackup): boolean {
  return (
    a.id === b.id &&
    a.vmid === b.vmid &&
    a.backupTime === b.backupTime &&
    a.instance === b.instance &&
    a.datastore === b.datastore &&
    a.backupType === b.backupType &&
    a.size === b.size &&
    a.verification === b.verification &&
    a.comment === b.comment
  )
}

const NO_ORPHANS: readonly Orphan[] = Object.freeze([])

function emptyAggregate(source: BackupSource): BackupAggregate {
  return { newest: 0, source, location: '', size: 0, count: 0, verifyFailed: 0 }
}

function addPbs(group: BackupAggregate, backup: PbsBackup): void {
  // The location string only for a backup that may be the newest.
  if (group.count === 0 || backup.backupTime >= group.newest) {
    addBackup(group, backup.backupTime, 'pbs', pbsLocation(backup), backup.size)
  } else group.count++
  if (backup.verification === 'failed') group.verifyFailed++
}

const kindOf = (type: Guest['type']) => (type === 'lxc' ? 'ct' : 'vm')

/**
 * Fold one VMID's backups onto its guests (in estate order). A storage backup with the time and
 * vmid of a PBS backup is that PBS backup seen through a PBS storage: it counts once, as the PBS
 * backup, and names the instance (its twin) the PBS backup's guest is looked up in.
 */
export function foldBucket(
  storage: readonly StorageBackup[],
  pbs: readonly PbsBackup[],
  guests: readonly GuestKey[],
): BucketFold {
  const sums: (BackupAggregate | undefined)[] = new Array<undefined>(guests.length)
  let orphans: Map<string, Orphan> | undefined
  // The first guest of an instance owns the VMID's backups there (a duplicate gets none).
  const firstOf = (instance: string): number => {
    for (let k = 0; k < guests.length; k++) if (guests[k]!.instance === instance) return k
    return -1
  }
  const sumOf = (at: number, source: BackupSource): BackupAggregate =>
    (sums[at] ??= emptyAggregate(source))
  const orphanOf = (instance: string, type: Guest['type'], vmid: number, source: BackupSource) => {
    const id = `orphan-${instance}-${kindOf(type)}-${vmid}`
    orphans ??= new Map()
    let orphan = orphans.get(id)
    if (!orphan) orphans.set(id, (orphan = { ...emptyAggregate(source), id, instance, vmid, type }))
    return orphan
  }
  // The vmid as every storage backup and guest of the bucket spells it.
  const spelled = String(storage[0]?.vmid ?? guests[0]?.vmid)
  let pbsTimes: Set<number> | undefined
  if (storage.length > 0) {
    for (const backup of pbs) {
      if (backup.vmid === spelled) (pbsTimes ??= new Set()).add(backup.backupTime)
    }
  }
  let twins: Map<number, string> | undefined
  for (const backup of storage) {
    if (isIgnoredStorageBackup(backup)) continue
    if (pbsTimes?.has(backup.ctime)) {
      twins ??= new Map()
      const known = twins.get(backup.ctime)
      const one = known === undefined || known === backup.instance
      twins.set(backup.ctime, one ? backup.instance : '')
      continue
    }
    if (backup.type !== 'qemu' && backup.type !== 'lxc') continue
    const at = firstOf(backup.instance)
    const group =
      at >= 0 ? sumOf(at, 'pve') : orphanOf(backup.instance, backup.type, backup.vmid, 'pve')
    addBackup(group, backup.ctime, 'pve', backup.storage, backup.size)
  }
  // Guests by type for PBS attribution: the named ones (as indexGuestNames), and whether any.
  const named: Record<'vm' | 'ct', GuestKey[] | undefined> = { vm: undefined, ct: undefined }
  const any = { vm: false, ct: false }
  for (const guest of guests) {
    const kind = kindOf(guest.type)
    any[kind] = true
    if (guest.name) (named[kind] ??= []).push(guest)
  }
  for (const backup of pbs) {
    const { backupType } = backup
    if (backupType !== 'vm' && backupType !== 'ct') continue
    // A PBS vmid spelled otherwise ('0100') names no guest, as in the Backups tab.
    const typed = guests.length > 0 && backup.vmid === spelled
    const twin =
      twins !== undefined && backup.vmid === spelled ? twins.get(backup.backupTime) : undefined
    const guest = resolvePbsGuest(typed ? named[backupType] : undefined, backup, twin)
    const type = backupType === 'ct' ? 'lxc' : 'qemu'
    if (guest) addPbs(sumOf(firstOf(guest.instance), 'pbs'), backup)
    else if (twin) {
      // Listed on that instance, whose guests have no such vmid: that instance's orphan.
      if (firstOf(twin) < 0) addPbs(orphanOf(twin, type, Number(backup.vmid), 'pbs'), backup)
    } else if (!(typed && any[backupType])) {
      addPbs(orphanOf(`pbs-${backup.instance}`, type, Number(backup.vmid), 'pbs'), backup)
    }
  }
  return { sums, orphans: orphans ? [...orphans.values()] : NO_ORPHANS }
}
