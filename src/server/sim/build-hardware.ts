// Physical disks, ZFS pools and Ceph OSD placement of a cluster's nodes. Also decides where the
// estate's scripted faults live: one DEGRADED ZFS pool (its FAULTED member fails SMART) and one
// worn-out SSD, each exactly once.

import type { Rng } from './prng.ts'
import type { SimDisk, SimZfsPool, SimZfsVdev } from './model.ts'
import { HDD_MODELS, NVME_MODELS, SSD_MODELS, USB_MODEL, createDisk } from './hardware-catalog.ts'
import type { DiskModel } from './hardware-catalog.ts'

const WEEK = 7 * 86_400

/** What a cluster runs, decided once per cluster at build time. */
export interface ClusterPlan {
  zfs: boolean
  ceph: boolean
  pbs: boolean
  nas: boolean
  /** Node whose `tank` pool is DEGRADED; -1 when this cluster has none. */
  degradedNode: number
  /** Node carrying the SSD with wearout below 10; -1 when this cluster has none. */
  lowWearNode: number
}

/**
 * Plans cluster `index` of `clusters`: exactly one cluster runs Ceph (the second when there are
 * several, else the only one), cluster 0 always has ZFS with the degraded pool, and the last
 * cluster carries the worn-out SSD.
 */
export function planCluster(rng: Rng, index: number, clusters: number, nodes: number): ClusterPlan {
  const cephIndex = clusters >= 2 ? 1 : 0
  const ceph = index === cephIndex
  return {
    zfs: index === 0 || (!ceph && rng.chance(0.4)),
    ceph,
    pbs: index === 0 || rng.chance(0.6),
    nas: nodes > 1 && rng.chance(0.5),
    degradedNode: index === 0 ? nodes - 1 : -1,
    lowWearNode: index === clusters - 1 ? 0 : -1,
  }
}

/** One OSD of the cluster's Ceph: its id, node and size. */
export interface OsdPlacement {
  id: number
  node: number
  size: number
}

/** Disks and pools of every node, plus the Ceph OSDs and the sizes storages are derived from. */
export interface ClusterHardware {
  disks: SimDisk[][]
  pools: SimZfsPool[][]
  osds: OsdPlacement[]
  /** Usable bytes of the boot disk(s): local-lvm thin pool or rpool. */
  bootUsable: number
  /** Usable bytes of each node's `tank` pool (0 without ZFS). */
  tankUsable: number
}

/** Builds the hardware of all nodes of a cluster; nodes share one configuration, as bought. */
export function buildHardware(
  rng: Rng,
  plan: ClusterPlan,
  nodes: number,
  builtAtSec: number,
): ClusterHardware {
  const bootModel = rng.chance(0.7) ? rng.pick(NVME_MODELS) : rng.pick(SSD_MODELS)
  const tankModel = plan.ceph ? rng.pick(SSD_MODELS) : rng.pick(HDD_MODELS)
  const tankDisks = !plan.zfs ? 0 : plan.ceph ? 2 : rng.int(3, 4)
  const bootDisks = plan.zfs ? 2 : 1
  const osdsPerNode = plan.ceph ? Math.min(rng.int(2, 4), 6 - bootDisks - tankDisks) : 0
  const osdModel = rng.pick(NVME_MODELS.slice(0, 4))
  const out: ClusterHardware = { disks: [], pools: [], osds: [], bootUsable: 0, tankUsable: 0 }
  for (let n = 0; n < nodes; n++) {
    const names = deviceNamer()
    const disks: SimDisk[] = []
    const boot: SimDisk[] = []
    for (let i = 0; i < bootDisks; i++) {
      boot.push(createDisk(rng, bootModel, names.next(bootModel), plan.zfs ? 'ZFS' : 'LVM'))
    }
    disks.push(...boot)
    const tank: SimDisk[] = []
    for (let i = 0; i < tankDisks; i++)
      tank.push(createDisk(rng, tankModel, names.next(tankModel), 'ZFS'))
    disks.push(...tank)
    for (let i = 0; i < osdsPerNode; i++) {
      const osd = createDisk(rng, osdModel, names.next(osdModel), 'LVM')
      osd.osdid = out.osds.length
      out.osds.push({ id: osd.osdid, node: n, size: osd.size })
      disks.push(osd)
    }
    addExtras(rng, disks, names, plan)
    if (n === plan.lowWearNode && boot[0] !== undefined) boot[0].wearout = rng.int(3, 9)
    const pools: SimZfsPool[] = []
    if (plan.zfs) {
      pools.push(buildPool(rng, 'rpool', boot, 'mirror', builtAtSec))
      pools.push(buildPool(rng, 'tank', tank, tank.length > 2 ? 'raidz1' : 'mirror', builtAtSec))
      if (n === plan.degradedNode) degradePool(pools[1]!, tank[tank.length - 1])
    }
    out.disks.push(disks)
    out.pools.push(pools)
  }
  const rpool = out.pools[0]?.[0]
  out.bootUsable =
    rpool !== undefined ? Math.round(rpool.size * 0.96) : Math.round(bootModel.size * 0.85)
  const tankPool = out.pools[0]?.[1]
  out.tankUsable =
    tankPool !== undefined ? Math.round((tankPool.size / tankPool.rawFactor) * 0.96) : 0
  return out
}

// LVM-only nodes get a spare disk or two so every node reports 2-6 disks; a few keep a USB stick.
function addExtras(rng: Rng, disks: SimDisk[], names: DeviceNamer, plan: ClusterPlan): void {
  if (!plan.zfs && !plan.ceph) {
    const extra = rng.int(1, 2)
    for (let i = 0; i < extra; i++) {
      const model = rng.pick(HDD_MODELS)
      disks.push(createDisk(rng, model, names.next(model), rng.chance(0.5) ? 'ext4' : ''))
    }
  }
  if (disks.length < 6 && rng.chance(0.1))
    disks.push(createDisk(rng, USB_MODEL, names.next(USB_MODEL), 'partitions'))
}

interface DeviceNamer {
  next(model: DiskModel): string
}

// NVMe drives are nvme0n1, nvme1n1...; SATA, SAS and USB share the sda, sdb... sequence.
function deviceNamer(): DeviceNamer {
  let nvme = 0
  let sd = 0
  return {
    next(model) {
      if (model.type === 'nvme') return `/dev/nvme${nvme++}n1`
      return `/dev/sd${String.fromCharCode(97 + sd++)}`
    },
  }
}

function buildPool(
  rng: Rng,
  name: string,
  disks: SimDisk[],
  layout: 'mirror' | 'raidz1',
  builtAtSec: number,
): SimZfsPool {
  const diskSize = disks[0]?.size ?? 0
  const bootPart = name === 'rpool'
  // zpool list shows a mirror's usable size but a raidz's raw size (parity included).
  const size = Math.round(
    (layout === 'mirror' ? diskSize : diskSize * disks.length) * (bootPart ? 0.994 : 0.996),
  )
  const leaves: SimZfsVdev[] = disks.map((d) => ({
    name: bootPart ? `${d.byId}-part3` : d.byId,
    state: 'ONLINE',
    read: 0,
    write: 0,
    cksum: 0,
    msg: '',
  }))
  return {
    name,
    size,
    rawFactor: layout === 'mirror' ? 1 : disks.length / (disks.length - 1),
    baseAlloc: Math.round(size * rng.range(0.002, 0.01)),
    frag: rng.int(1, 14),
    state: 'ONLINE',
    scan: scrubText(rng, builtAtSec, size),
    errors: 'No known data errors',
    vdevs: [
      {
        name: `${layout}-0`,
        state: 'ONLINE',
        read: 0,
        write: 0,
        cksum: 0,
        msg: '',
        children: leaves,
      },
    ],
  }
}

// The last member faults with checksum errors; the pool keeps running on its redundancy.
function degradePool(pool: SimZfsPool, disk: SimDisk | undefined): void {
  const group = pool.vdevs[0]
  const leaf = group?.children?.[group.children.length - 1]
  if (group === undefined || leaf === undefined) return
  Object.assign(leaf, { state: 'FAULTED', read: 2, write: 0, cksum: 41, msg: 'too many errors' })
  group.state = 'DEGRADED'
  pool.state = 'DEGRADED'
  pool.status =
    'One or more devices are faulted in response to persistent errors.\n\tSufficient replicas exist for the pool to continue functioning in a\n\tdegraded state.'
  pool.action = "Replace the faulted device, or use 'zpool clear' to mark the device\n\trepaired."
  if (disk !== undefined) {
    disk.health = 'FAILED'
    disk.tempBase += 8
  }
}

// PVE scrubs every pool on the second Sunday of the month; the text is zpool status' own.
function scrubText(rng: Rng, builtAtSec: number, size: number): string {
  const lastSunday =
    builtAtSec - (new Date(builtAtSec * 1000).getUTCDay() * 86_400 + (builtAtSec % 86_400))
  const finished = lastSunday - rng.int(1, 4) * WEEK + 24 * 60 + rng.int(60, 3 * 3600)
  const seconds = Math.max(40, Math.round((size / 1e12) * rng.int(200, 900)))
  const hms = [seconds / 3600, (seconds / 60) % 60, seconds % 60]
    .map((v) => String(Math.floor(v)).padStart(2, '0'))
    .join(':')
  return `scrub repaired 0B in ${hms} with 0 errors on ${ctime(finished)}`
}

/** C's ctime() layout in UTC: 'Sun Jun  8 00:28:13 2025' (day padded with a space). */
export function ctime(sec: number): string {
  const d = new Date(sec * 1000)
  const days = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat']
  const months = [
    'Jan',
    'Feb',
    'Mar',
    'Apr',
    'May',
    'Jun',
    'Jul',
    'Aug',
    'Sep',
    'Oct',
    'Nov',
    'Dec',
  ]
  const time = d.toISOString().slice(11, 19)
  return `${days[d.getUTCDay()]} ${months[d.getUTCMonth()]} ${String(d.getUTCDate()).padStart(2, ' ')} ${time} ${d.getUTCFullYear()}`
}
