// Wire types of Proxmox Backup Server and of the PVE backups (re-exported by state.ts).
// Pure types: imported by the server, the worker and the UI alike.
import type { StorageForecast } from './history.ts'
import type { BackupTaskGuest } from './backup-health.ts'
import type { GuestType } from './state.ts'
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
  /** "Full in N days" (issue 25), present only when usage rises steadily enough to say. */
  forecast?: StorageForecast
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
  /** Issue 26: the backup job the task ran for (its logged command matched the job), if known. */
  jobId?: string
  /** Issue 26: the target storage from the logged command, if read. */
  storage?: string
  /** Issue 26: per-guest results from the task log (read for failed tasks, bounded). */
  guests?: BackupTaskGuest[]
  /** Issue 26: the last lines of a failed task's log (bounded), oldest first. */
  logTail?: string[]
}

/** The reference's grouping of the PVE backup collections (plain dialect only). */
export interface PveBackups {
  backupTasks: BackupTask[]
  storageBackups: StorageBackup[]
  guestSnapshots: GuestSnapshot[]
}
