// Maps backup volumes (/nodes/{n}/storage/{s}/content?content=backup), guest snapshots
// (/nodes/{n}/(qemu|lxc)/{id}/snapshot) and vzdump tasks (/nodes/{n}/tasks) to the raw
// pveBackups records (reference/proxmox-api.md §2.8-2.10, wire-protocol.md §2.8). Pure. The
// backups tab normalises these later (spec 000 §5); nothing here merges or de-duplicates.
import type {
  BackupTask,
  GuestSnapshot,
  GuestType,
  Storage,
  StorageBackup,
} from '../../shared/model/state.ts'
import { isRecord, toBool, toNumber, toOptionalNumber, toOptionalString } from './coerce.ts'
import { flatId, NO_INTERN, type Interner } from './intern.ts'
import { hasBackupContent } from './pve-storage.ts'
import { shallowEqual } from './sliced.ts'

/** Where a backup listing was read. */
export interface BackupContext {
  instance: string
  node: string
  storage: string
  /** The storage's plugin type ('pbs' marks every volume as a PBS backup). */
  storageType: string
}

// pbs-main:backup/vm/1204/2025-01-14T01:00:04Z
const PBS_VOLID = /^[^:]+:backup\/(vm|ct|host)\/([^/]+)\/(\S+)$/
// nas:backup/vzdump-qemu-1204-2025_01_14-01_00_04.vma.zst (openvz: pre-4.0 containers)
const VZDUMP_VOLID = /vzdump-(qemu|lxc|openvz)-(\d+)-/

function readBackupType(
  entry: Record<string, unknown>,
  volid: string,
  vmid: number,
): StorageBackup['type'] {
  const subtype = toOptionalString(entry.subtype)
  if (subtype === 'qemu' || subtype === 'lxc') return subtype
  const format = toOptionalString(entry.format)
  if (format === 'pbs-vm') return 'qemu'
  if (format === 'pbs-ct') return 'lxc'
  const vzdump = VZDUMP_VOLID.exec(volid)?.[1]
  if (vzdump) return vzdump === 'qemu' ? 'qemu' : 'lxc'
  const pbs = PBS_VOLID.exec(volid)?.[1]
  if (pbs === 'vm') return 'qemu'
  if (pbs === 'ct') return 'lxc'
  if (pbs === 'host' || vmid === 0) return 'host'
  return 'unknown'
}

// vmid is absent for host backups and arrives as a number or a string otherwise; the volid
// carries it too.
function readVmid(entry: Record<string, unknown>, volid: string): number {
  const direct = toOptionalNumber(entry.vmid)
  if (direct !== undefined && Number.isInteger(direct)) return direct
  const fromVolid = VZDUMP_VOLID.exec(volid)?.[2] ?? PBS_VOLID.exec(volid)?.[2]
  const parsed = toOptionalNumber(fromVolid)
  return parsed !== undefined && Number.isInteger(parsed) ? parsed : 0
}

// PBS volids end in the backup time (UTC); used only when ctime is missing.
function readCtime(entry: Record<string, unknown>, volid: string): number {
  const ctime = toOptionalNumber(entry.ctime)
  if (ctime !== undefined) return ctime
  const iso = PBS_VOLID.exec(volid)?.[3]
  const ms = iso ? Date.parse(iso) : NaN
  return Number.isFinite(ms) ? Math.floor(ms / 1000) : 0
}

/**
 * Maps one content entry; undefined for templates, ISOs and entries without a volid. The
 * interner shares the strings many volumes repeat (a guest's notes, the format; intern.ts).
 */
export function toStorageBackup(
  entry: unknown,
  ctx: BackupContext,
  intern: Interner = NO_INTERN,
): StorageBackup | undefined {
  if (!isRecord(entry)) return undefined
  const volid = toOptionalString(entry.volid)
  const content = toOptionalString(entry.content)
  if (!volid || content === 'vztmpl' || content === 'iso') return undefined
  const vmid = readVmid(entry, volid)
  const notes = intern.string(toOptionalString(entry.notes)?.split('\n')[0]?.trim())
  const verification = isRecord(entry.verification) ? entry.verification : undefined
  const encrypted = intern.string(toOptionalString(entry.encrypted))
  return {
    id: flatId(ctx.instance, ctx.node, volid),
    storage: ctx.storage,
    node: ctx.node,
    instance: ctx.instance,
    type: readBackupType(entry, volid, vmid),
    vmid,
    ctime: readCtime(entry, volid),
    size: toNumber(entry.size),
    format: intern.string(toOptionalString(entry.format) ?? ''),
    ...(notes ? { notes } : {}),
    protected: toBool(entry.protected),
    volid,
    isPBS: ctx.storageType === 'pbs' || PBS_VOLID.test(volid),
    verified: verification?.state === 'ok',
    ...(encrypted && encrypted !== '0' ? { encryption: encrypted } : {}),
  }
}

/** Maps one snapshot entry; undefined for the 'current' pseudo entry ("You are here!"). */
export function toGuestSnapshot(
  entry: unknown,
  guest: { instance: string; node: string; type: GuestType; vmid: number },
): GuestSnapshot | undefined {
  if (!isRecord(entry)) return undefined
  const name = toOptionalString(entry.name)
  if (!name || name === 'current') return undefined
  const description = toOptionalString(entry.description)?.trim()
  const parent = toOptionalString(entry.parent)
  return {
    id: `${guest.instance}-${guest.node}-${guest.vmid}-${name}`,
    name,
    node: guest.node,
    instance: guest.instance,
    type: guest.type,
    vmid: guest.vmid,
    time: toNumber(entry.snaptime),
    ...(description ? { description } : {}),
    ...(parent ? { parent } : {}),
    // Only QEMU snapshots may include RAM; containers never send the key.
    vmstate: toBool(entry.vmstate),
  }
}

/** Maps one /nodes/{n}/tasks entry; undefined unless it is a vzdump task with a UPID. */
export function toBackupTask(
  entry: unknown,
  instance: string,
  node: string,
): BackupTask | undefined {
  if (!isRecord(entry) || entry.type !== 'vzdump') return undefined
  const upid = toOptionalString(entry.upid)
  if (!upid) return undefined
  // No status while the task runs (source=all lists running tasks too).
  const finished = toOptionalString(entry.status)
  const status = finished ?? 'running'
  // `id` is the vmid for a single-guest run and '' for a job covering several guests.
  const vmid = toOptionalNumber(entry.id)
  return {
    id: `${instance}-${upid}`,
    node: toOptionalString(entry.node) ?? node,
    instance,
    type: 'vzdump',
    vmid: vmid !== undefined && Number.isInteger(vmid) ? vmid : 0,
    status,
    startTime: toNumber(entry.starttime),
    endTime: finished ? toNumber(entry.endtime) : 0,
    ...(finished && finished !== 'OK' ? { error: finished } : {}),
  }
}

/** Maps a content listing (the entries that are not backups are dropped). */
export function toStorageBackups(
  raw: unknown,
  ctx: BackupContext,
  intern: Interner = NO_INTERN,
): StorageBackup[] {
  return (Array.isArray(raw) ? raw : [])
    .map((e) => toStorageBackup(e, ctx, intern))
    .filter((b): b is StorageBackup => b !== undefined)
}

/** Maps a snapshot list, oldest first, without 'current'. */
export function toGuestSnapshots(
  raw: unknown,
  guest: { instance: string; node: string; type: GuestType; vmid: number },
): GuestSnapshot[] {
  return (Array.isArray(raw) ? raw : [])
    .map((e) => toGuestSnapshot(e, guest))
    .filter((s): s is GuestSnapshot => s !== undefined)
    .sort((a, b) => a.time - b.time)
}

/** Maps a task list to vzdump tasks, newest first. */
export function toBackupTasks(raw: unknown, instance: string, node: string): BackupTask[] {
  return (Array.isArray(raw) ? raw : [])
    .map((e) => toBackupTask(e, instance, node))
    .filter((t): t is BackupTask => t !== undefined)
    .sort((a, b) => b.startTime - a.startTime)
}

/** One content listing to make: `node` is undefined when no online node can answer for it now. */
export interface BackupListing {
  node?: string
  storage: Storage
}

/**
 * The content listings a backup refresh makes, keyed `shared:<storage>` (one listing, from the
 * first online node where the shared storage is available) or `<node>/<storage>`. Inactive
 * storage is not listed: its listing would hang or fail.
 */
export function planBackupListings(
  nodes: readonly { name: string; online: boolean }[],
  storageOf: (node: string) => readonly Storage[] | undefined,
): Map<string, BackupListing> {
  const plan = new Map<string, BackupListing>()
  for (const { name: node, online } of nodes) {
    for (const storage of storageOf(node) ?? []) {
      if (!hasBackupContent(storage)) continue
      const key = storage.shared ? `shared:${storage.name}` : `${node}/${storage.name}`
      const usable = online && storage.status === 'available'
      const known = plan.get(key)
      if (!known || (!known.node && usable))
        plan.set(key, { node: usable ? node : undefined, storage })
    }
  }
  return plan
}

/** Field-by-field equality of lists of flat records: unchanged lists keep their identity. */
export function sameRecords<T extends object>(
  a: readonly T[] | undefined,
  b: readonly T[],
): boolean {
  if (!a || a.length !== b.length) return false
  return a.every((x, i) => shallowEqual(x, b[i]!))
}

/**
 * `next` with each record replaced by the previous read's object of the same id when their fields
 * are equal: the server's diff skips an identical object without comparing it, so a listing that
 * gained one backup sends one record, not the listing.
 */
export function reuseRecords<T extends { id: string }>(
  previous: readonly T[] | undefined,
  next: T[],
): T[] {
  if (!previous?.length) return next
  const byId = new Map<string, T>()
  for (const record of previous) byId.set(record.id, record)
  let reused = 0
  const out = next.map((record) => {
    const old = byId.get(record.id)
    if (!old || !shallowEqual(old, record)) return record
    reused++
    return old
  })
  return reused === 0 ? next : out
}
