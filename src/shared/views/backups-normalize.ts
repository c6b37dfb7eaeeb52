// Backup normalisation (spec 000 §5): snapshots, PVE storage backups and PBS backups become one
// list of records (spec 000 §3 normalised backup record). Pure; run once per data change.
import type { Guest, GuestSnapshot, PbsBackup, PveBackups, StorageBackup } from '../model/state.ts'
import { localDay } from './backups-dates.ts'
import type { BackupClass, BackupGuestType, BackupRecord } from './backups-types.ts'

/** Live data the normalisation reads. */
export interface BackupSources {
  /** Absent until the server sent any PVE backup data. */
  pveBackups: PveBackups | undefined
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
  /** Guest group number of each record (same class and vmid), for grouping by guest. */
  guestGroups: Int32Array
  hasHost: boolean
}

/** Storage content that is not a backup (spec 000 §5: vztmpl and iso are ignored). */
export function isIgnoredStorageBackup(backup: StorageBackup): boolean {
  const type = backup.type as string
  if (type === 'vztmpl' || type === 'iso') return true
  // The wire type is the guest type; the content shows in the volume id ('local:iso/x.iso').
  const path = backup.volid.slice(backup.volid.indexOf(':') + 1)
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

/**
 * Guest names by instance, node and vmid; by guest type and vmid (every name, in arrival order);
 * and by vmid alone (first seen wins).
 */
interface GuestNames {
  byNode: Map<string, Map<string, Map<string, string>>>
  byTypeVmid: Map<string, string[]>
  byVmid: Map<string, string>
}

function indexGuestNames(guests: readonly Guest[]): GuestNames {
  const byNode: GuestNames['byNode'] = new Map()
  const byTypeVmid = new Map<string, string[]>()
  const byVmid = new Map<string, string>()
  for (const guest of guests) {
    if (!guest.name) continue
    const vmid = String(guest.vmid)
    let nodes = byNode.get(guest.instance)
    if (!nodes) byNode.set(guest.instance, (nodes = new Map()))
    let vmids = nodes.get(guest.node)
    if (!vmids) nodes.set(guest.node, (vmids = new Map()))
    vmids.set(vmid, guest.name)
    const key = `${guest.type === 'lxc' ? 'ct' : 'vm'}/${vmid}`
    const named = byTypeVmid.get(key)
    if (named) named.push(guest.name)
    else byTypeVmid.set(key, [guest.name])
    if (!byVmid.has(vmid)) byVmid.set(vmid, guest.name)
  }
  return { byNode, byTypeVmid, byVmid }
}

/**
 * Name of the guest a PBS backup belongs to. A PBS serves several clusters whose VMIDs repeat, so
 * the guest type must match, and among several guests with that type and VMID the one the
 * backup's comment names (vzdump's default notes are the guest name) wins, else the first.
 */
function resolvePbsName(names: GuestNames, backup: PbsBackup): string {
  const candidates = names.byTypeVmid.get(`${backup.backupType}/${backup.vmid}`)
  if (!candidates) return ''
  if (candidates.length > 1 && backup.comment) {
    const comment = backup.comment.trim()
    for (const name of candidates) if (name === comment) return name
  }
  return candidates[0]!
}

/** Name of the guest a backup belongs to: same node first, then any guest with the vmid. */
function resolveName(names: GuestNames, vmid: string, instance: string, node: string): string {
  return names.byNode.get(instance)?.get(node)?.get(vmid) ?? names.byVmid.get(vmid) ?? ''
}

/** The file part of a volume id ('local:backup/vzdump-qemu-101-….vma.zst' → 'vzdump-…'). */
function volumeName(volid: string): string {
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

function fromSnapshot(snapshot: GuestSnapshot, names: GuestNames): BackupRecord {
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

function fromStorageBackup(backup: StorageBackup, names: GuestNames): BackupRecord {
  const vmid = String(backup.vmid)
  return {
    backupType: 'local',
    vmid,
    name: resolveName(names, vmid, backup.instance, backup.node),
    type: toBackupGuestType(backup.type, vmid),
    node: backup.node,
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

function fromPbsBackup(backup: PbsBackup, names: GuestNames): BackupRecord {
  const host = backup.backupType === 'host'
  return {
    backupType: 'remote',
    vmid: backup.vmid,
    // A host backup's id is the host name itself.
    name: host ? backup.vmid : resolvePbsName(names, backup),
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
function toHaystack(record: BackupRecord): string {
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
  const pve = sources.pveBackups
  for (const snapshot of pve?.guestSnapshots ?? []) records.push(fromSnapshot(snapshot, names))
  const isDuplicate = createPbsDuplicateCheck(sources.pbsBackups, pve?.storageBackups ?? [])
  for (const backup of pve?.storageBackups ?? []) {
    if (isIgnoredStorageBackup(backup)) continue
    // The same backup seen through a PBS storage on PVE and on the PBS itself: keep the PBS one.
    if (isDuplicate(backup)) continue
    records.push(fromStorageBackup(backup, names))
  }
  for (const backup of sources.pbsBackups) records.push(fromPbsBackup(backup, names))
  return indexRecords(records)
}

/** Per-record columns of `records`. */
export function indexRecords(records: BackupRecord[]): NormalisedBackups {
  const days = new Int32Array(records.length)
  const times = new Float64Array(records.length)
  const classes: BackupClass[] = new Array<BackupClass>(records.length)
  const nodeIds: string[] = new Array<string>(records.length)
  const guestGroups = new Int32Array(records.length)
  // Interned without building a key string per record: 100k records made that a GC storm.
  const idCache = new Map<string, Map<string, string>>()
  const nodeIdOf = (record: BackupRecord) => {
    const remote = record.backupType === 'remote'
    let byNode = idCache.get(remote ? '' : record.instance)
    if (!byNode) idCache.set(remote ? '' : record.instance, (byNode = new Map()))
    const node = remote ? record.instance : record.node
    let id = byNode.get(node)
    if (id === undefined)
      byNode.set(node, (id = remote ? `pbs-${node}` : `${record.instance}-${node}`))
    return id
  }
  const groups = new Map<string, Map<string, number>>()
  let groupCount = 0
  const groupOf = (record: BackupRecord) => {
    let byVmid = groups.get(record.type)
    if (!byVmid) groups.set(record.type, (byVmid = new Map()))
    let group = byVmid.get(record.vmid)
    if (group === undefined) byVmid.set(record.vmid, (group = groupCount++))
    return group
  }
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
