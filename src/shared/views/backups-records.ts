// One source item as a normalised backup record (spec 000 §3 normalised backup record, §5 rules):
// snapshots, PVE storage backups and PBS backups, and the text the plain search terms match. Pure.
import type { GuestSnapshot, PbsBackup, StorageBackup } from '../model/state.ts'
import {
  resolveName,
  resolvePbsName,
  storageBackupNode,
  type GuestNames,
} from './backups-guests.ts'
import type { BackupGuestType, BackupRecord } from './backups-types.ts'

/** Storage content that is not a backup (spec 000 §5: vztmpl and iso are ignored). */
export function isIgnoredStorageBackup(backup: StorageBackup): boolean {
  const type = backup.type as string
  if (type === 'vztmpl' || type === 'iso') return true
  // The wire type is the guest type; the content shows in the volume id ('local:iso/x.iso').
  // No substring: at 1,000,000 records a slice per record was a tenth of the server's summary.
  const volid = textOf(backup.volid)
  const at = volid.indexOf(':') + 1
  return volid.startsWith('vztmpl/', at) || volid.startsWith('iso/', at)
}

/** Guest class (spec 000 §5): VMID 0 or type host → Host; vm/qemu → VM; anything else → LXC. */
export function toBackupGuestType(type: string, vmid: string | number): BackupGuestType {
  if (type === 'host' || String(vmid) === '0') return 'Host'
  if (type === 'vm' || type === 'qemu') return 'VM'
  return 'LXC'
}

/** A string field as text: a malformed entity (a patch of an unknown id) must not throw. */
function textOf(value: unknown): string {
  return typeof value === 'string' ? value : ''
}

/** The file part of a volume id ('local:backup/vzdump-qemu-101-….vma.zst' → 'vzdump-…'). */
function volumeName(value: string): string {
  const volid = textOf(value)
  const path = volid.slice(volid.indexOf(':') + 1)
  return path.slice(path.lastIndexOf('/') + 1)
}

// 'YYYY-MM-DDT' per UTC day: toISOString per backup was a fifth of normalising 100k records.
const isoDays = new Map<number, string>()

/** PBS snapshot path: 'vm/101/2024-03-02T10:00:00Z'. */
function pbsSnapshotName(backup: PbsBackup): string {
  const time = backup.backupTime
  if (!Number.isFinite(time)) return `${backup.backupType}/${backup.vmid}/`
  const day = Math.floor(time / 86_400)
  let prefix = isoDays.get(day)
  if (prefix === undefined) {
    prefix = new Date(day * 86_400_000).toISOString().slice(0, 11)
    if (isoDays.size > 100_000) isoDays.clear()
    isoDays.set(day, prefix)
  }
  const rest = Math.floor(time - day * 86_400)
  const hh = pad2(Math.floor(rest / 3600))
  const mm = pad2(Math.floor(rest / 60) % 60)
  const ss = pad2(rest % 60)
  return `${backup.backupType}/${backup.vmid}/${prefix}${hh}:${mm}:${ss}Z`
}

function pad2(n: number): string {
  return n < 10 ? `0${n}` : String(n)
}

/** A snapshot as a record. */
export function fromSnapshot(snapshot: GuestSnapshot, names: GuestNames): BackupRecord {
  const vmid = String(snapshot.vmid)
  return {
    backupType: 'snapshot',
    vmid,
    name: resolveName(names, vmid, snapshot.instance, snapshot.node),
    type: toBackupGuestType(snapshot.type, vmid),
    node: snapshot.node,
    instance: snapshot.instance,
    backupTime: snapshot.time,
    backupName: snapshot.name,
    description: snapshot.description ?? '',
    status: 'ok',
    size: 0,
    storage: '',
    datastore: '',
    namespace: '',
    verified: false,
    protected: false,
    encrypted: false,
    owner: '',
  }
}

/** A PVE storage backup as a record. */
export function fromStorageBackup(backup: StorageBackup, names: GuestNames): BackupRecord {
  const vmid = String(backup.vmid)
  return {
    backupType: 'local',
    vmid,
    name: resolveName(names, vmid, backup.instance, backup.node),
    type: toBackupGuestType(backup.type, vmid),
    node: storageBackupNode(names.homes, backup),
    instance: backup.instance,
    backupTime: backup.ctime,
    backupName: volumeName(backup.volid),
    description: backup.notes ?? '',
    status: 'ok',
    size: backup.size,
    storage: backup.storage,
    datastore: '',
    namespace: '',
    verified: backup.verified,
    protected: backup.protected,
    encrypted: Boolean(backup.encryption),
    owner: '',
  }
}

/**
 * A PBS backup as a record; `twinInstance` is the PVE instance of its PVE-side twin when one is
 * known ('' when twins of several instances share its timestamp and vmid).
 */
export function fromPbsBackup(
  backup: PbsBackup,
  names: GuestNames,
  twinInstance: string | undefined,
): BackupRecord {
  const host = backup.backupType === 'host'
  return {
    backupType: 'remote',
    vmid: backup.vmid,
    // A host backup's id is the host name itself.
    name: host ? backup.vmid : resolvePbsName(names, backup, twinInstance),
    type: toBackupGuestType(backup.backupType, backup.vmid),
    node: backup.instance,
    instance: backup.instance,
    backupTime: backup.backupTime,
    backupName: pbsSnapshotName(backup),
    description: backup.comment ?? '',
    status: backup.verification ?? 'none',
    size: backup.size,
    storage: '',
    datastore: backup.datastore,
    namespace: backup.namespace,
    verified: backup.verified,
    protected: backup.protected,
    encrypted: backup.encrypted,
    owner: backup.owner ?? '',
  }
}

/** Lower-case text the plain search terms match (spec 000 §5), one separator between fields. */
export function toHaystack(record: BackupRecord): string {
  return [
    record.vmid,
    record.name,
    record.node,
    record.backupName,
    record.description,
    record.storage,
    record.datastore,
    record.namespace,
  ]
    .join('\u0001')
    .toLowerCase()
}
