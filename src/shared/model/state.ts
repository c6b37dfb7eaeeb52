// Wire types of the live state (spec 000 §3; reference/wire-protocol.md §2).
// Pure types: imported by the server, the worker and the UI alike.

/** Guest kinds as Proxmox names them. */
export const GUEST_TYPES = ['qemu', 'lxc'] as const
export type GuestType = (typeof GUEST_TYPES)[number]

export interface MemoryUsage {
  /** Percent 0-100. */
  usage: number
  used: number
  total: number
  free?: number
  balloon?: number
  swapUsed?: number
  swapTotal?: number
}

export interface DiskUsage {
  used: number
  total: number
  free?: number
  /** Percent 0-100; -1 means unavailable (see diskStatusReason). */
  usage: number
}

export interface GuestDisk {
  mountpoint?: string
  device?: string
  type?: string
  used: number
  total: number
  free?: number
  usage?: number
}

export interface NetworkInterface {
  name: string
  mac?: string
  addresses?: string[]
  /** Cumulative bytes since boot. */
  rxBytes?: number
  txBytes?: number
}

/** A VM (type qemu) or container (type lxc). Rates are bytes per second. */
export interface Guest {
  id: string
  instance: string
  node: string
  vmid: number
  name: string
  type: GuestType
  status: string
  /** Seconds. */
  uptime: number
  /** Fraction 0-1. */
  cpu: number
  cpus: number
  memory: MemoryUsage
  disk: DiskUsage
  disks?: GuestDisk[]
  diskStatusReason?: string
  diskRead: number
  diskWrite: number
  networkIn: number
  networkOut: number
  /** Always an array on our wire; clients also accept a comma- or ';'-separated string. */
  tags?: string[]
  ipAddresses?: string[]
  networkInterfaces?: NetworkInterface[]
  osName?: string
  osVersion?: string
  template?: boolean
  lock?: string
  /** Epoch ms of the sample this entry comes from. */
  lastSeen?: number
}

export interface NodeTemperature {
  available: boolean
  cpuPackage?: number
  cpuMax?: number
}

export const NODE_STATUSES = ['online', 'offline', 'unknown'] as const
export type NodeStatus = (typeof NODE_STATUSES)[number]

/** A Proxmox VE node. */
export interface PveNode {
  id: string
  name: string
  displayName: string
  /** URL of the node's web UI / API endpoint, when known. */
  host: string
  instance: string
  status: NodeStatus
  type: 'pve'
  uptime: number
  /** Fraction 0-1. */
  cpu: number
  memory: MemoryUsage
  disk: DiskUsage
  loadAverage?: number[]
  cpuInfo: { cores: number; model?: string; sockets?: number }
  temperature?: NodeTemperature
  pveVersion: string
  kernelVersion?: string
  isClusterMember: boolean
  clusterName: string
  connectionHealth?: 'healthy' | 'degraded' | 'error'
  lastSeen?: number
}

// ---------------------------------------------------------------------------------------------
// Storage, Ceph, physical disks (spec 000 §3; reference/wire-protocol.md §2.4-2.6). Byte values
// are bytes, percentages 0-100, times epoch milliseconds unless a field says seconds.

/** One device of a ZFS pool's tree (leaf devices, mirrors, raidz groups). */
export interface ZfsDevice {
  name: string
  /** ONLINE, DEGRADED, FAULTED, OFFLINE, UNAVAIL, REMOVED. */
  state: string
  readErrors: number
  writeErrors: number
  checksumErrors: number
  /** readErrors + writeErrors + checksumErrors. */
  errors: number
  /** ZFS's own note on this device (e.g. 'too many errors'), when any. */
  message?: string
}

/** A ZFS pool backing a storage entry (zfspool type), from /nodes/{n}/disks/zfs/{pool}. */
export interface ZfsPool {
  name: string
  state: string
  /** ZFS's status text when the pool is not healthy. */
  status?: string
  /** Last scrub or resilver summary. */
  scan?: string
  /** 'No known data errors' or the error summary. */
  errorsText?: string
  readErrors: number
  writeErrors: number
  checksumErrors: number
  devices: ZfsDevice[]
}

/** A storage on a node (one entry per node for local storage; shared storage per node too). */
export interface Storage {
  /** `${instance}-${node}-${name}`. */
  id: string
  name: string
  node: string
  instance: string
  /** Storage plugin type: dir, zfspool, lvm, lvmthin, nfs, cifs, cephfs, rbd, pbs, ... */
  type: string
  /** Sorted comma list: backup,images,iso,rootdir,vztmpl,... */
  content: string
  /** 'available' when active and enabled; 'inactive', 'disabled' or 'unknown' otherwise. */
  status: string
  shared: boolean
  enabled: boolean
  active: boolean
  total: number
  used: number
  free: number
  /** Percent 0-100 (0 when total is 0). */
  usage: number
  zfsPool?: ZfsPool
}

export interface CephPool {
  id: number
  name: string
  storedBytes: number
  availableBytes: number
  objects?: number
  percentUsed?: number
}

export interface CephService {
  /** mon, mgr, osd, mds, rgw. */
  type: string
  running: number
  total: number
  message?: string
}

/** One Ceph cluster, read through a PVE cluster that uses it. */
export interface CephCluster {
  /** `${instance}-${fsid}`. */
  id: string
  instance: string
  name: string
  fsid: string
  /** HEALTH_OK, HEALTH_WARN, HEALTH_ERR, HEALTH_UNKNOWN. */
  health: string
  healthMessage?: string
  totalBytes: number
  usedBytes: number
  availableBytes: number
  usagePercent: number
  numMons: number
  numMgrs: number
  numOsds: number
  numOsdsUp: number
  numOsdsIn: number
  numPGs: number
  pools: CephPool[]
  services: CephService[]
  /** Epoch ms. */
  lastUpdated: number
}

/** A physical disk of a node (/nodes/{n}/disks/list). */
export interface PhysicalDisk {
  /** `${instance}-${node}-${devPath}`. */
  id: string
  node: string
  instance: string
  devPath: string
  model: string
  serial: string
  /** nvme, sata, sas, ssd, hdd, usb, unknown (PVE's type, with sata/sas told apart when known). */
  type: string
  size: number
  /** As Proxmox reports it: PASSED, OK, FAILED, UNKNOWN. */
  health: string
  /** Percent of life remaining (100 = new); -1 when unknown (HDDs report N/A). */
  wearout: number
  /** Celsius; 0 when unknown. */
  temperature: number
  rpm: number
  /** What uses it: ZFS, LVM, ext4, partitions, mounted, ... ('' when unused). */
  used: string
  /** Epoch ms of the last read. */
  lastChecked: number
}

// ---------------------------------------------------------------------------------------------
// Proxmox Backup Server (spec 000 §3; wire-protocol.md §2.7-2.8)

export interface PbsNamespace {
  /** '' for the root namespace, else 'a/b'. */
  path: string
  parent?: string
  depth: number
}

export interface PbsDatastore {
  name: string
  total: number
  used: number
  free: number
  usage: number
  /** 'available', or 'error' with `error`. */
  status: string
  error?: string
  namespaces: PbsNamespace[]
  deduplicationFactor?: number
}

/** A monitored Proxmox Backup Server. */
export interface PbsInstance {
  /** `pbs-${name}`. */
  id: string
  name: string
  host: string
  status: 'online' | 'offline'
  version: string
  /** Percent 0-100. */
  cpu: number
  /** Percent 0-100. */
  memory: number
  memoryUsed: number
  memoryTotal: number
  /** Seconds. */
  uptime: number
  datastores: PbsDatastore[]
  connectionHealth: 'healthy' | 'unhealthy' | 'error'
  /** Epoch ms. */
  lastSeen: number
}

/** One backup snapshot on a PBS datastore. */
export interface PbsBackup {
  /** `${instance}-${datastore}-${namespace}-${backupType}-${vmid}-${backupTime}`. */
  id: string
  instance: string
  datastore: string
  /** '' for the root namespace. */
  namespace: string
  backupType: 'vm' | 'ct' | 'host'
  /** The backup id: a VMID for vm/ct, a host name for host backups. */
  vmid: string
  /** Epoch seconds. */
  backupTime: number
  size: number
  protected: boolean
  /** Verification state is 'ok'. */
  verified: boolean
  /** 'ok', 'failed' or absent when never verified. */
  verification?: string
  /** Any file is encrypted. */
  encrypted: boolean
  comment?: string
  owner?: string
  files: string[]
}

// ---------------------------------------------------------------------------------------------
// PVE backups: three entity collections on our wire (storageBackups, guestSnapshots,
// backupTasks); the plain dialect groups them as `pveBackups` (PveBackups), as the reference does.

/** A backup volume on PVE storage (content type backup). */
export interface StorageBackup {
  /** `${instance}-${node}-${volid}`. */
  id: string
  storage: string
  node: string
  instance: string
  /** qemu, lxc, host (vmid 0) or unknown. */
  type: 'qemu' | 'lxc' | 'host' | 'unknown'
  vmid: number
  /** Epoch seconds. */
  ctime: number
  size: number
  format: string
  notes?: string
  protected: boolean
  volid: string
  /** The storage is a PBS storage (volid like pbs-main:backup/vm/104/...). */
  isPBS: boolean
  verified: boolean
  /** Key fingerprint or '1' when encrypted. */
  encryption?: string
}

/** A guest snapshot (not a backup): /nodes/{n}/(qemu|lxc)/{id}/snapshot without 'current'. */
export interface GuestSnapshot {
  /** `${instance}-${node}-${vmid}-${name}`. */
  id: string
  name: string
  node: string
  instance: string
  type: GuestType
  vmid: number
  /** Epoch seconds. */
  time: number
  description?: string
  parent?: string
  vmstate: boolean
}

/** A vzdump task (/nodes/{n}/tasks?typefilter=vzdump). */
export interface BackupTask {
  /** `${instance}-${upid}`. */
  id: string
  node: string
  instance: string
  type: 'vzdump'
  /** 0 for a multi-guest job. */
  vmid: number
  /** OK, 'WARNINGS: n', an error text, or 'running'. */
  status: string
  /** Epoch seconds. */
  startTime: number
  /** Epoch seconds; 0 while running. */
  endTime: number
  error?: string
}

/** The reference's grouping of the PVE backup collections (plain dialect only). */
export interface PveBackups {
  backupTasks: BackupTask[]
  storageBackups: StorageBackup[]
  guestSnapshots: GuestSnapshot[]
}

export interface Performance {
  /** Median duration in ms of API calls in the last cycle, per endpoint class. */
  apiCallDuration: Record<string, number>
  /** Seconds the last full poll cycle took. */
  lastPollDuration: number
  /** Epoch ms the current/last poll started. */
  pollingStartTime: number
  totalApiCalls: number
  failedApiCalls: number
  cacheHits: number
  cacheMisses: number
}

export interface Stats {
  /** Epoch ms the server started. */
  startTime: number
  /** Seconds since start. */
  uptime: number
  pollingCycles: number
  webSocketClients: number
  version: string
}

/** Per monitored endpoint (instance name): healthy or not, with the last error. */
export type ConnectionHealth = Record<string, boolean>

/** The live state. Collections not yet collected are empty arrays. */
export interface State {
  nodes: PveNode[]
  vms: Guest[]
  containers: Guest[]
  storage: Storage[]
  cephClusters: CephCluster[]
  physicalDisks: PhysicalDisk[]
  pbs: PbsInstance[]
  pbsBackups: PbsBackup[]
  /** PVE backup volumes; an entity collection, so a delta carries only the records that changed. */
  storageBackups: StorageBackup[]
  guestSnapshots: GuestSnapshot[]
  backupTasks: BackupTask[]
  metrics: unknown[]
  performance: Performance
  connectionHealth: ConnectionHealth
  /** Last error text per endpoint whose health is false. */
  connectionErrors: Record<string, string>
  stats: Stats
  activeAlerts: Entity[]
  recentlyResolved: Entity[]
  /** Epoch ms of the last completed poll. */
  lastUpdate: number
  /**
   * Epoch ms of the first completed poll after which every connected source's storage and backups
   * had been read at least once; 0 until then (the slow collectors may land a few cycles late).
   */
  backupsCollectedAt: number
}

/** Entities not yet modelled in this slice: anything with an id. */
export interface Entity {
  id: string
  [key: string]: unknown
}

/** Keys of State whose value is an array of entities with an id; deltas address these by id. */
export const ENTITY_COLLECTIONS = [
  'nodes',
  'vms',
  'containers',
  'storage',
  'cephClusters',
  'physicalDisks',
  'pbs',
  'pbsBackups',
  'storageBackups',
  'guestSnapshots',
  'backupTasks',
  'activeAlerts',
  'recentlyResolved',
] as const
export type EntityCollection = (typeof ENTITY_COLLECTIONS)[number]

/** Keys of State that are replaced whole when they change. */
export const SCALAR_KEYS = [
  'metrics',
  'performance',
  'connectionHealth',
  'connectionErrors',
  'stats',
  'lastUpdate',
  'backupsCollectedAt',
] as const
export type ScalarKey = (typeof SCALAR_KEYS)[number]

/** An empty state, as served before the first poll completes. */
export function createEmptyState(now: number, version: string): State {
  return {
    nodes: [],
    vms: [],
    containers: [],
    storage: [],
    cephClusters: [],
    physicalDisks: [],
    pbs: [],
    pbsBackups: [],
    storageBackups: [],
    guestSnapshots: [],
    backupTasks: [],
    metrics: [],
    performance: {
      apiCallDuration: {},
      lastPollDuration: 0,
      pollingStartTime: 0,
      totalApiCalls: 0,
      failedApiCalls: 0,
      cacheHits: 0,
      cacheMisses: 0,
    },
    connectionHealth: {},
    connectionErrors: {},
    stats: { startTime: now, uptime: 0, pollingCycles: 0, webSocketClients: 0, version },
    activeAlerts: [],
    recentlyResolved: [],
    lastUpdate: 0,
    backupsCollectedAt: 0,
  }
}
