// Creates guests with believable sizes and hidden metric drivers (reference §6.2, §6.3).

import type { Rng } from './prng.ts'
import type { GuestType, SimClusterModel, SimGuest } from './model.ts'
import type { GuestIdentity } from './names.ts'

const GIB = 1024 ** 3
const MIB = 1024 ** 2

const QEMU_CPUS = [1, 2, 2, 2, 2, 4, 4, 4, 8, 8, 16] as const
const QEMU_MEM_GIB = [1, 2, 2, 2, 4, 4, 4, 8, 8, 8, 16, 16, 32, 64] as const
const QEMU_DISK_GIB = [8, 16, 32, 32, 32, 32, 50, 64, 100, 128] as const
const LXC_CPUS = [0.5, 1, 1, 1, 1.5, 2, 2, 2, 4, 8] as const
const LXC_MEM_MIB = [256, 512, 512, 1024, 1024, 1024, 2048, 2048, 4096, 8192] as const
const LXC_DISK_GIB = [4, 8, 8, 8, 8, 16, 32, 64] as const

/** Hands out the next free vmid; 9000-9999 stays reserved for templates. */
export function allocateVmid(cluster: SimClusterModel): number {
  if (cluster.nextVmid >= 9000 && cluster.nextVmid < 10000) cluster.nextVmid = 10000
  return cluster.nextVmid++
}

/** Options for a new guest: where it lives and whether it is running and since when. */
export interface GuestPlacement {
  vmid: number
  node: number
  running: boolean
  /** Epoch seconds the guest started (ignored when stopped). */
  startedAt: number
  /** Probability of being HA-managed. */
  haShare: number
}

/** Creates a regular (non-template) guest with random sizes and metric drivers. */
export function createGuest(rng: Rng, identity: GuestIdentity, place: GuestPlacement): SimGuest {
  const qemu = identity.type === 'qemu'
  const maxcpu = qemu ? rng.pick(QEMU_CPUS) : rng.pick(LXC_CPUS)
  const maxmem = qemu ? rng.pick(QEMU_MEM_GIB) * GIB : rng.pick(LXC_MEM_MIB) * MIB
  const maxdisk = qemu ? rng.pick(QEMU_DISK_GIB) * GIB : rng.pick(LXC_DISK_GIB) * GIB
  const memTarget = identity.windows
    ? rng.range(0.9, 1)
    : qemu
      ? rng.range(0.3, 0.85)
      : rng.range(0.05, 0.6)
  const guest: SimGuest = {
    vmid: place.vmid,
    type: identity.type,
    name: identity.name,
    node: place.node,
    running: place.running,
    template: 0,
    tags: identity.tags,
    hastate: undefined,
    lock: undefined,
    lockUntil: 0,
    maxcpu,
    maxmem,
    maxdisk,
    disk: qemu ? 0 : Math.round(maxdisk * rng.range(0.2, 0.75)),
    cpu: 0,
    mem: 0,
    // Near its target already: a guest that has been up for a while, so the live value joins the
    // synthetic past (history/pve-sources.ts) without a step when the simulator starts.
    memFrac: memTarget * rng.range(0.98, 1.02),
    memTarget,
    cpuBase: chooseCpuBase(rng),
    cpuPhase: rng.range(0, Math.PI * 2),
    runawayUntil: 0,
    netRate: chooseNetRate(rng),
    netRatio: rng.logNormal(1, 0.7),
    diskRate: Math.min(20e6, Math.max(10_000, rng.logNormal(60_000, 1.3))),
    netin: 0,
    netout: 0,
    diskread: 0,
    diskwrite: 0,
    startedAt: place.startedAt,
    histSlot: -1,
  }
  if (rng.chance(place.haShare)) guest.hastate = place.running ? 'started' : 'stopped'
  return guest
}

/** Creates a template: always stopped, no counters, no tags. */
export function createTemplate(
  vmid: number,
  node: number,
  name: string,
  type: GuestType,
  rng: Rng,
): SimGuest {
  return {
    vmid,
    type,
    name,
    node,
    running: false,
    template: 1,
    tags: undefined,
    hastate: undefined,
    lock: undefined,
    lockUntil: 0,
    maxcpu: type === 'qemu' ? 2 : 1,
    maxmem: type === 'qemu' ? 2 * GIB : 512 * MIB,
    maxdisk: rng.pick([3758096384, 8 * GIB, 32 * GIB]),
    disk: 0,
    cpu: 0,
    mem: 0,
    memFrac: 0,
    memTarget: 0,
    cpuBase: 0,
    cpuPhase: 0,
    runawayUntil: 0,
    netRate: 0,
    netRatio: 1,
    diskRate: 0,
    netin: 0,
    netout: 0,
    diskread: 0,
    diskwrite: 0,
    startedAt: 0,
    histSlot: -1,
  }
}

/** Resets a guest to the state of a fresh start: counters from zero, memory climbing again. */
export function restartGuest(guest: SimGuest, startedAt: number, rng: Rng): void {
  guest.running = true
  guest.startedAt = startedAt
  guest.netin = 0
  guest.netout = 0
  guest.diskread = 0
  guest.diskwrite = 0
  guest.runawayUntil = 0
  guest.memFrac = guest.memTarget * rng.range(0.2, 0.5)
  if (guest.hastate === 'stopped') guest.hastate = 'started'
}

// Heavy-tailed: ~70% idle, ~25% moderate, ~5% busy (reference §6.2).
function chooseCpuBase(rng: Rng): number {
  const r = rng.next()
  if (r < 0.7) return rng.range(0.002, 0.03)
  if (r < 0.95) return rng.range(0.05, 0.3)
  return rng.range(0.4, 0.95)
}

// Lognormal around tens of KB/s, with ~1% hotspots moving 50-200 MB/s.
function chooseNetRate(rng: Rng): number {
  if (rng.chance(0.01)) return rng.range(50e6, 200e6)
  return Math.min(5e6, Math.max(1000, rng.logNormal(30_000, 1.4)))
}
