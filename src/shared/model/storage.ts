// Wire types of storage, Ceph and physical disks (re-exported by state.ts).
// Pure types: imported by the server, the worker and the UI alike.
// Storage, Ceph, physical disks (spec 000 §3; reference/wire-protocol.md §2.4-2.6). Byte values
// are bytes, percentages 0-100, times epoch milliseconds unless a field says seconds.
import type { StorageForecast } from './history.ts'

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
  /** "Full in N days" (issue 25), present only when usage rises steadily enough to say. */
  forecast?: StorageForecast
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
