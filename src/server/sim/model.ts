// The simulator's canonical in-memory model. Every endpoint renders from these objects, so
// /cluster/resources, /nodes and /nodes/{n}/status always agree with each other.
// Plain mutable objects: at 100,000 guests a tick updates them in place without allocating.

import type { Rng } from './prng.ts'
import type { GuestProfile } from './guest-profile.ts'
import type { BackupState } from './backups.ts'
import type { TaskState } from './tasks.ts'
import type { SimCeph } from './ceph.ts'
import type { SimScenario } from './alert-scenarios.ts'
import type { ClusterHistory } from './history/recorder.ts'
import type { StorageFill } from './history/fill.ts'

/** PVE guest kinds as they appear in `type`. */
export type GuestType = 'qemu' | 'lxc'

/** One guest (VM or container) and the hidden parameters that drive its metrics. */
export interface SimGuest {
  vmid: number
  type: GuestType
  name: string
  /** Index into the cluster's `nodes`. */
  node: number
  running: boolean
  template: 0 | 1
  tags: string | undefined
  hastate: string | undefined
  lock: string | undefined
  /** Simulated ms at which `lock` clears; 0 when there is no lock or it never clears on its own. */
  lockUntil: number
  maxcpu: number
  maxmem: number
  maxdisk: number
  /** LXC rootfs usage in bytes; QEMU always reports 0 here. */
  disk: number
  cpu: number
  mem: number
  memFrac: number
  memTarget: number
  cpuBase: number
  cpuPhase: number
  /** Simulated ms until which the guest burns a full CPU (runaway process). */
  runawayUntil: number
  /** Median network rate in bytes/s while running. */
  netRate: number
  /** netout / netin ratio. */
  netRatio: number
  /** Median disk I/O rate in bytes/s while running. */
  diskRate: number
  netin: number
  netout: number
  diskread: number
  diskwrite: number
  /** Epoch seconds of the last start; uptime derives from it. */
  startedAt: number
  /** Slot of this guest in the cluster's history rings; -1 until the recorder assigns one. */
  histSlot: number
}

/** Static CPU description of a node, as /nodes/{n}/status `cpuinfo` shows it. */
export interface SimCpuInfo {
  model: string
  sockets: number
  cores: number
  mhz: string
  flags: string
}

/** One cluster member. */
export interface SimNode {
  name: string
  nodeid: number
  ip: string
  online: boolean
  /** Simulated ms at which a random outage ends; 0 while online or when taken down by hand. */
  offlineUntil: number
  /** Epoch seconds of the last boot. */
  bootAt: number
  level: string
  cpuinfo: SimCpuInfo
  maxcpu: number
  maxmem: number
  maxdisk: number
  cpu: number
  wait: number
  cpuBase: number
  memFrac: number
  memTarget: number
  rootUsed: number
  swapTotal: number
  swapUsed: number
  load1: number
  load5: number
  load15: number
}

/** A storage definition; local ones have per-node usage, shared ones one value for all nodes. */
export interface SimStorage {
  storage: string
  plugintype: string
  content: string
  shared: 0 | 1
  /** Total bytes per node index (shared storages repeat one value). */
  total: number[]
  /** Used bytes per node index. */
  used: number[]
  /** zfspool storages: the ZFS pool (`rpool/data` lives on rpool) whose health backs it. */
  pool?: string
  /** Set on the few storages that fill steadily (history/fill.ts). */
  fill?: StorageFill
}

/** A physical disk of a node, as /nodes/{n}/disks/list and disks/smart show it. */
export interface SimDisk {
  devpath: string
  type: 'nvme' | 'ssd' | 'hdd' | 'usb'
  model: string
  serial: string
  /** Space-padded like the kernel's sysfs value ('ATA     '), or 'unknown' for NVMe. */
  vendor: string
  wwn: string
  size: number
  /** 0 for flash; HDDs report their speed, sometimes as a string (Perl regex capture). */
  rpm: number | string
  health: 'PASSED' | 'OK' | 'FAILED' | 'UNKNOWN'
  /** Percent of life left; 'N/A' for spinning disks. */
  wearout: number | 'N/A'
  /** What uses the disk ('ZFS', 'LVM', 'partitions'); '' when unused (the key is then omitted). */
  used: string
  /** SAS drives answer SMART as text with health 'OK'. */
  sas: boolean
  /** Ceph OSD id, -1 when the disk is no OSD. */
  osdid: number
  /** Celsius at rest; the reading wanders a few degrees around it. */
  tempBase: number
  powerOnHours: number
  /** The name ZFS uses for this disk in pool trees (its /dev/disk/by-id name). */
  byId: string
}

/** One vdev of a ZFS pool tree: a mirror or raidz group, or a leaf disk. */
export interface SimZfsVdev {
  name: string
  state: string
  read: number
  write: number
  cksum: number
  msg: string
  children?: SimZfsVdev[]
}

/** A ZFS pool of a node; its allocation follows the storage it backs. */
export interface SimZfsPool {
  name: string
  /** Raw pool size in bytes, as `zpool list` reports it. */
  size: number
  /** Raw bytes per usable byte (2 for a mirror shown raw, n/(n-1) for raidz1). */
  rawFactor: number
  /** Bytes allocated besides the storage's volumes (root filesystem, metadata). */
  baseAlloc: number
  frag: number
  state: 'ONLINE' | 'DEGRADED'
  status?: string
  action?: string
  scan: string
  errors: string
  /** The top-level vdevs (children of the pool's own entry). */
  vdevs: SimZfsVdev[]
}

/** The PVE release a cluster runs. */
export interface SimVersion {
  version: string
  release: string
  repoid: string
  major: number
  kernelRelease: string
  kernelVersion: string
}

/** One cluster (or standalone host) and its generator state. */
export interface SimClusterModel {
  index: number
  name: string
  standalone: boolean
  version: SimVersion
  nodes: SimNode[]
  guests: SimGuest[]
  storages: SimStorage[]
  rng: Rng
  nextVmid: number
  /** Guest count at build time; random creation and destruction lean back towards it. */
  targetGuests: number
  /** Per name prefix, the last number used, so generated names stay unique within a cluster. */
  nameCounters: Map<string, number>
  /** Simulated ms of the last tick. */
  lastTickMs: number
  /** Bumped on every change; response caches are keyed on it. */
  revision: number
  /** Seed of this cluster's derived streams (guest profiles, hardware, backups). */
  seed: number
  /** Guests by vmid, so per-guest endpoints are O(1) at 100,000 guests. */
  byVmid: Map<number, SimGuest>
  /** Epoch seconds the estate was built; seeded history ends here. */
  builtAtSec: number
  /** Guests with a vmid below this existed at build time (they carry snapshots and history). */
  buildVmidLimit: number
  /** Separate random stream for backups, tasks and Ceph, so they never shift guest events. */
  aux: Rng
  /** Lazily derived per-guest traits, by vmid. */
  profiles: Map<number, GuestProfile>
  /** Physical disks per node index. */
  disks: SimDisk[][]
  /** ZFS pools per node index (empty on LVM nodes). */
  zfsPools: SimZfsPool[][]
  /** The Ceph cluster this PVE cluster runs, if any. */
  ceph: SimCeph | undefined
  backups: BackupState
  tasks: TaskState
  /** The demo's scripted alert conditions; undefined unless built with `alertScenarios`. */
  scenario: SimScenario | undefined
  /** Recorded metrics history (history/recorder.ts); undefined only while building. */
  history?: ClusterHistory
}
