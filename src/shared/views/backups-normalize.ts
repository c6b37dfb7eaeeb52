// Backup normalisation (spec 000 §5): snapshots, PVE storage backups and PBS backups become one
// list of records (spec 000 §3 normalised backup record). Pure. This is the from-scratch form;
// the worker keeps its result current per changed record with backups-incremental.ts.
import type { Guest, GuestSnapshot, PbsBackup, StorageBackup } from '../model/state.ts'
import { localDay } from './backups-dates.ts'
import { indexGuestNames } from './backups-guests.ts'
import {
  fromPbsBackup,
  fromSnapshot,
  fromStorageBackup,
  isIgnoredStorageBackup,
  toHaystack,
} from './backups-records.ts'
import type { BackupClass, BackupRecord } from './backups-types.ts'

// Split by concept (guests, records); importers of the whole pipeline keep one path.
export {
  indexGuestHomes,
  indexGuestNames,
  storageBackupNode,
  type GuestNames,
  type NamedGuest,
} from './backups-guests.ts'
export {
  fromPbsBackup,
  fromSnapshot,
  fromStorageBackup,
  isIgnoredStorageBackup,
  toBackupGuestType,
  toHaystack,
} from './backups-records.ts'

/** Live data the normalisation reads. */
export interface BackupSources {
  guestSnapshots: readonly GuestSnapshot[]
  storageBackups: readonly StorageBackup[]
  pbsBackups: readonly PbsBackup[]
  guests: readonly Guest[]
}

/** The records plus per-record columns the later stages read without touching objects. */
export interface NormalisedBackups {
  records: BackupRecord[]
  /** Local day number of each record. */
  days: Int32Array
  /** backupTime of each record (epoch seconds); also the time sort's values. */
  times: Float64Array
  classes: BackupClass[]
  /**
   * Lower-case search text of each record (spec 000 §5 backup search fields), built on the first
   * search rather than on every data change: the default view never needs it.
   */
  haystacks(): readonly string[]
  /** Node summary id of each record: `<instance>-<node>`, or `pbs-<instance>` for PBS backups. */
  nodeIds: string[]
  /** Guest group number of each record (same class, vmid and name), for grouping by guest. */
  guestGroups: Int32Array
  hasHost: boolean
  /** Set when this result was derived from a previous one (backups-incremental.ts). */
  change?: BackupsChange
  /**
   * Records per PVE instance and node (snapshots and storage backups) and per PBS instance, kept
   * by the incremental normaliser for the node summary's Backups counts; absent from scratch.
   */
  nodeCounts?: BackupNodeCounts
  /**
   * Records per class, in all and per local day, kept by the incremental normaliser (so the
   * unfiltered view's counts and chart cost the days shown, not a pass over every record); absent
   * from scratch.
   */
  classCounts?: BackupClassCounts
}

/** Records per class (spec 000 §3), in all and per local day. */
export interface BackupClassCounts {
  total: Record<BackupClass, number>
  /** Local day → records of each class that day, in BACKUP_CLASSES order. */
  byDay: Map<number, Int32Array>
}

/** Records per place, as the node summary counts them (spec 000 §2.1). */
export interface BackupNodeCounts {
  /** instance → node → snapshots and storage backups listed there. */
  pve: Map<string, Map<string, number>>
  /** PBS instance → its backups. */
  pbs: Map<string, number>
}

/** How an incremental result relates to the previous one: what later stages may carry over. */
export interface BackupsChange {
  previous: NormalisedBackups
  /**
   * New index of each previous record, or -1 when it was dropped or rebuilt. Kept records keep
   * their relative order and every column value, so a sorted order can be carried over.
   */
  remap: Int32Array
  /** Indices of the records built anew, ascending. */
  added: Uint32Array
}

/**
 * The duplicate check of spec 000 §5: is a storage backup the same backup as a PBS one (same vmid
 * and timestamp)? Indexes by timestamp then vmid only the PBS backups whose timestamp some storage
 * backup has, so a large PBS with few PVE-side twins costs one Set lookup per backup.
 */
export function createPbsDuplicateCheck(
  pbsBackups: readonly PbsBackup[],
  storageBackups: readonly StorageBackup[],
): (backup: StorageBackup) => boolean {
  if (pbsBackups.length === 0 || storageBackups.length === 0) return () => false
  const times = new Set<number>()
  for (const backup of storageBackups) times.add(backup.ctime)
  const byTime = new Map<number, Set<string>>()
  for (const backup of pbsBackups) {
    if (!times.has(backup.backupTime)) continue
    let vmids = byTime.get(backup.backupTime)
    if (!vmids) byTime.set(backup.backupTime, (vmids = new Set()))
    vmids.add(backup.vmid)
  }
  return (backup) => byTime.get(backup.ctime)?.has(String(backup.vmid)) ?? false
}

/**
 * PVE instances of the storage backups that duplicate a PBS backup (its PVE-side twin), by
 * timestamp then vmid; '' when twins of two instances share a timestamp and vmid. Only duplicates
 * land here, so it stays small however many backups there are.
 */
type PbsTwins = Map<number, Map<string, string>>

function addTwin(twins: PbsTwins, backup: StorageBackup): void {
  let byVmid = twins.get(backup.ctime)
  if (!byVmid) twins.set(backup.ctime, (byVmid = new Map()))
  const vmid = String(backup.vmid)
  const known = byVmid.get(vmid)
  byVmid.set(vmid, known === undefined || known === backup.instance ? backup.instance : '')
}

/** Normalise every source into records (spec 000 §5 backup normalisation). */
export function normaliseBackups(sources: BackupSources): NormalisedBackups {
  const names = indexGuestNames(sources.guests)
  const records: BackupRecord[] = []
  for (const snapshot of sources.guestSnapshots) records.push(fromSnapshot(snapshot, names))
  const isDuplicate = createPbsDuplicateCheck(sources.pbsBackups, sources.storageBackups)
  const twins: PbsTwins = new Map()
  for (const backup of sources.storageBackups) {
    if (isIgnoredStorageBackup(backup)) continue
    // The same backup seen through a PBS storage on PVE and on the PBS itself: keep the PBS one,
    // but remember which PVE instance it came from to name its guest.
    if (isDuplicate(backup)) {
      addTwin(twins, backup)
      continue
    }
    records.push(fromStorageBackup(backup, names))
  }
  for (const backup of sources.pbsBackups) {
    const twin = twins.size === 0 ? undefined : twins.get(backup.backupTime)?.get(backup.vmid)
    records.push(fromPbsBackup(backup, names, twin))
  }
  return indexRecords(records)
}

/** Node summary id of a record, interned: `<instance>-<node>`, or `pbs-<instance>` for PBS. */
export function createNodeIdInterner(): (record: BackupRecord) => string {
  // Interned without building a key string per record: 100k records made that a GC storm.
  const idCache = new Map<string, Map<string, string>>()
  return (record) => {
    const remote = record.backupType === 'remote'
    let byNode = idCache.get(remote ? '' : record.instance)
    if (!byNode) idCache.set(remote ? '' : record.instance, (byNode = new Map()))
    const node = remote ? record.instance : record.node
    let id = byNode.get(node)
    if (id === undefined)
      byNode.set(node, (id = remote ? `pbs-${node}` : `${record.instance}-${node}`))
    return id
  }
}

/** Guest group numbers: a guest is its class, vmid and resolved name (one VMID in two clusters is two guests). */
export function createGroupInterner(): { groupOf(record: BackupRecord): number; size(): number } {
  const groups = new Map<string, Map<string, Map<string, number>>>()
  let groupCount = 0
  return {
    groupOf(record) {
      let byVmid = groups.get(record.type)
      if (!byVmid) groups.set(record.type, (byVmid = new Map()))
      let byName = byVmid.get(record.vmid)
      if (!byName) byVmid.set(record.vmid, (byName = new Map()))
      let group = byName.get(record.name)
      if (group === undefined) byName.set(record.name, (group = groupCount++))
      return group
    },
    size: () => groupCount,
  }
}

/** Per-record columns of `records`. */
export function indexRecords(records: BackupRecord[]): NormalisedBackups {
  const days = new Int32Array(records.length)
  const times = new Float64Array(records.length)
  const classes: BackupClass[] = new Array<BackupClass>(records.length)
  const nodeIds: string[] = new Array<string>(records.length)
  const guestGroups = new Int32Array(records.length)
  const nodeIdOf = createNodeIdInterner()
  const { groupOf } = createGroupInterner()
  let hasHost = false
  for (let i = 0; i < records.length; i++) {
    const record = records[i]!
    days[i] = localDay(record.backupTime)
    times[i] = record.backupTime
    classes[i] = record.backupType
    nodeIds[i] = nodeIdOf(record)
    guestGroups[i] = groupOf(record)
    if (record.type === 'Host') hasHost = true
  }
  let haystacks: string[] | null = null
  const getHaystacks = () => (haystacks ??= records.map(toHaystack))
  return { records, days, times, classes, haystacks: getHaystacks, nodeIds, guestGroups, hasHost }
}
