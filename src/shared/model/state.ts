// Wire types of the live state (spec 000 §3; reference/wire-protocol.md §2).
// Pure types: imported by the server, the worker and the UI alike.
import type { CephCluster, PhysicalDisk, Storage } from './storage.ts'
import type { BackupTask, GuestSnapshot, PbsBackup, PbsInstance, StorageBackup } from './backups.ts'
import type { BackupCoverage, BackupJob, GuestBackup, PbsJob } from './backup-health.ts'

export type {
  ZfsDevice,
  ZfsPool,
  Storage,
  CephPool,
  CephService,
  CephCluster,
  PhysicalDisk,
} from './storage.ts'
export type {
  PbsNamespace,
  PbsDatastore,
  PbsInstance,
  PbsBackup,
  StorageBackup,
  GuestSnapshot,
  BackupTask,
  PveBackups,
} from './backups.ts'
export type {
  BackupCoverage,
  BackupJob,
  BackupTaskGuest,
  GuestBackup,
  JobRun,
  JobRunState,
  PbsJob,
  PbsJobKind,
} from './backup-health.ts'

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
  /** The resource pool the guest belongs to (/cluster/resources `pool`); backup job selection. */
  pool?: string
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
  /** Issue 26: PVE backup jobs (/cluster/backup) of every instance. */
  backupJobs: BackupJob[]
  /** Issue 26: per PVE instance, the guests in no backup job (/cluster/backup-info/not-backed-up). */
  backupCoverage: BackupCoverage[]
  /** Issue 26: PBS sync, verify, prune and GC jobs of the monitored PBS instances. */
  pbsJobs: PbsJob[]
  /** Issue 26: one backup summary per guest and per orphaned backup group (on demand). */
  guestBackups: GuestBackup[]
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
  /**
   * Sources (PVE instance or PBS endpoint names) whose backups are not all read yet: a listing
   * failed at its first tries or was not made yet. Their guests' missing backups are unknown, so
   * no age alert fires for them and the views say so. Absent from older servers.
   */
  backupsPending?: string[]
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
  'backupJobs',
  'backupCoverage',
  'pbsJobs',
  'guestBackups',
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
  'backupsPending',
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
    backupJobs: [],
    backupCoverage: [],
    pbsJobs: [],
    guestBackups: [],
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
    backupsPending: [],
  }
}
