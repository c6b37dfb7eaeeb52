// Backup normalisation (spec 000 §5): snapshots, PVE storage backups and PBS backups become one
// list of records (spec 000 §3 normalised backup record). Pure. This is the from-scratch form;
// the worker keeps its result current per changed record with backups-incremental.ts.
import type { Guest, GuestSnapshot, PbsBackup, StorageBackup } from '../model/state.ts'
import { localDay } from './backups-dates.ts'
import type { BackupClass, BackupGuestType, BackupRecord } from './backups-types.ts'

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

/** Storage content that is not a backup (spec 000 §5: vztmpl and iso are ignored). */
export function isIgnoredStorageBackup(backup: StorageBackup): boolean {
  const type = backup.type as string
  if (type === 'vztmpl' || type === 'iso') return true
  // The wire type is the guest type; the content shows in the volume id ('local:iso/x.iso').
  const volid = textOf(backup.volid)
  const path = volid.slice(volid.indexOf(':') + 1)
  return path.startsWith('vztmpl/') || path.startsWith('iso/')
}

/** Guest class (spec 000 §5): VMID 0 or type host → Host; vm/qemu → VM; anything else → LXC. */
export function toBackupGuestType(type: string, vmid: string | number): BackupGuestType {
  if (type === 'host' || String(vmid) === '0') return 'Host'
  if (type === 'vm' || type === 'qemu') return 'VM'
  return 'LXC'
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

/** A named guest a PBS backup may belong to. */
export interface NamedGuest {
  name: string
  instance: string
}

/**
 * Guest names by instance, node and vmid; by instance and vmid (first seen wins); and by guest
 * type and vmid across every instance (in arrival order) for PBS backups. Never by vmid alone:
 * VMIDs are unique inside a cluster only, and every cluster starts counting at 100.
 */
export interface GuestNames {
  byNode: Map<string, Map<string, Map<string, string>>>
  byInstance: Map<string, Map<string, string>>
  byTypeVmid: Map<string, NamedGuest[]>
  /** The node each guest runs on, by instance and vmid: where its storage backups count. */
  homes: Map<string, Map<string, string>>
}

/** Index the guests' names for resolving backup names. */
export function indexGuestNames(guests: readonly Guest[]): GuestNames {
  const byNode: GuestNames['byNode'] = new Map()
  const byInstance: GuestNames['byInstance'] = new Map()
  const byTypeVmid = new Map<string, NamedGuest[]>()
  for (const guest of guests) {
    if (!guest.name) continue
    const vmid = String(guest.vmid)
    let nodes = byNode.get(guest.instance)
    if (!nodes) byNode.set(guest.instance, (nodes = new Map()))
    let vmids = nodes.get(guest.node)
    if (!vmids) nodes.set(guest.node, (vmids = new Map()))
    vmids.set(vmid, guest.name)
    let inInstance = byInstance.get(guest.instance)
    if (!inInstance) byInstance.set(guest.instance, (inInstance = new Map()))
    if (!inInstance.has(vmid)) inInstance.set(vmid, guest.name)
    const key = `${guest.type === 'lxc' ? 'ct' : 'vm'}/${vmid}`
    const named = byTypeVmid.get(key)
    const entry = { name: guest.name, instance: guest.instance }
    if (named) named.push(entry)
    else byTypeVmid.set(key, [entry])
  }
  return { byNode, byInstance, byTypeVmid, homes: indexGuestHomes(guests) }
}

/** The node of each guest by instance and vmid (first seen wins). */
export function indexGuestHomes(guests: readonly Guest[]): Map<string, Map<string, string>> {
  const homes = new Map<string, Map<string, string>>()
  for (const guest of guests) {
    const vmid = String(guest.vmid)
    let home = homes.get(guest.instance)
    if (!home) homes.set(guest.instance, (home = new Map()))
    if (!home.has(vmid)) home.set(vmid, guest.node)
  }
  return homes
}

/**
 * The node a storage backup counts and lists under: its guest's node when the guest is known (a
 * shared storage lists every guest's backups through one node), else the node that listed it.
 */
export function storageBackupNode(
  homes: ReadonlyMap<string, ReadonlyMap<string, string>>,
  backup: Pick<StorageBackup, 'instance' | 'vmid' | 'node'>,
): string {
  return homes.get(backup.instance)?.get(String(backup.vmid)) ?? backup.node
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

/**
 * Name of the guest a PBS backup belongs to. A PBS serves several clusters whose VMIDs repeat, so
 * the guest type must match; when the backup's PVE instance is known (from its PVE-side twin),
 * only that instance's guests qualify. Among several, the one the backup's comment names
 * (vzdump's default notes are the guest name) wins, else the first.
 */
function resolvePbsName(
  names: GuestNames,
  backup: PbsBackup,
  instance: string | undefined,
): string {
  let candidates = names.byTypeVmid.get(`${backup.backupType}/${backup.vmid}`)
  if (!candidates) return ''
  if (instance) {
    candidates = candidates.filter((guest) => guest.instance === instance)
    if (candidates.length === 0) return ''
  }
  if (candidates.length > 1 && backup.comment) {
    const comment = backup.comment.trim()
    for (const guest of candidates) if (guest.name === comment) return guest.name
  }
  return candidates[0]!.name
}

/**
 * Name of the guest a PVE backup or snapshot belongs to: the guest on that node (local storage),
 * else the guest with that vmid anywhere in the same instance (shared storage, migrated guest).
 */
function resolveName(names: GuestNames, vmid: string, instance: string, node: string): string {
  return (
    names.byNode.get(instance)?.get(node)?.get(vmid) ??
    names.byInstance.get(instance)?.get(vmid) ??
    ''
  )
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
