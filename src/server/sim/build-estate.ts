// Builds the initial estate from the seed: clusters, nodes, storages and guests.

import { createRng, deriveSeed } from './prng.ts'
import type { Rng } from './prng.ts'
import type { SimClusterModel, SimGuest, SimNode, SimStorage } from './model.ts'
import { TEMPLATE_NAMES, inventGuest, nameCluster, nameNode } from './names.ts'
import { chooseHardware, chooseVersion } from './profiles.ts'
import { allocateVmid, createGuest, createTemplate } from './guest-factory.ts'
import { buildHardware, planCluster } from './build-hardware.ts'
import { buildStorages } from './build-storage.ts'
import { buildCeph, startWithOsdDown } from './ceph.ts'
import { createBackupState, emptyBackupState } from './backups.ts'
import { seedBackupHistory } from './backup-history.ts'
import { createTaskState } from './tasks.ts'
import { SCENARIO_RUNNING_SHARE, planScenario } from './alert-scenarios.ts'
import { createHistory } from './history/recorder.ts'
import { planFills } from './history/fill.ts'

const GIB = 1024 ** 3
const DAY = 86_400
// Days of backups and vzdump tasks that already exist when the estate is built.
const HISTORY_DAYS = 30

/** Size of the estate to build. */
export interface EstateShape {
  seed: number
  clusters: number
  nodesPerCluster: number
  guestsPerNode: number
  /** One OSD starts down (see SimulatorOptions.cephOsdDownAtStart). */
  cephOsdDownAtStart?: boolean
  /** The demo's scripted alert conditions (see SimulatorOptions.alertScenarios). */
  alertScenarios?: boolean
  /** Backups kept per guest (see SimulatorOptions.backupKeep). */
  backupKeep?: number
}

/** Builds every cluster of the estate at simulated time `nowMs`. */
export function buildEstate(shape: EstateShape, nowMs: number): SimClusterModel[] {
  const out: SimClusterModel[] = []
  for (let c = 0; c < shape.clusters; c++) out.push(buildCluster(shape, c, nowMs))
  return out
}

/** Loopback address of a node as /cluster/status reports it: 127.0.0.x while it fits. */
export function chooseNodeIp(globalIndex: number): string {
  const n = globalIndex + 11
  if (n <= 254) return `127.0.0.${n}`
  return `127.0.${Math.floor(n / 254)}.${(n % 254) + 1}`
}

function buildCluster(shape: EstateShape, index: number, nowMs: number): SimClusterModel {
  const rng = createRng(deriveSeed(shape.seed, index + 1))
  const name = nameCluster(index)
  const nodeCount = Math.max(1, shape.nodesPerCluster)
  const nowSec = Math.floor(nowMs / 1000)
  const seed = deriveSeed(shape.seed, 3000 + index)
  const cluster: SimClusterModel = {
    index,
    name,
    standalone: nodeCount === 1,
    version: chooseVersion(rng, index),
    nodes: [],
    guests: [],
    storages: [],
    rng,
    nextVmid: 100,
    targetGuests: 0,
    nameCounters: new Map(),
    lastTickMs: nowMs,
    revision: 0,
    seed,
    byVmid: new Map(),
    builtAtSec: nowSec,
    buildVmidLimit: 0,
    aux: createRng(deriveSeed(shape.seed, 5000 + index)),
    profiles: new Map(),
    disks: [],
    zfsPools: [],
    ceph: undefined,
    backups: emptyBackupState(),
    tasks: createTaskState(nodeCount, seed),
    scenario: undefined,
  }
  const level = rng.pick(['', 'c', 'c', 'b', 's', 'p'])
  const profile = rng.int(0, 100)
  // Plan ~4 GiB average per guest so node memory is sized to what it hosts.
  const plannedMem = shape.guestsPerNode * 4 * GIB * 0.6
  for (let n = 0; n < nodeCount; n++) {
    cluster.nodes.push(
      buildNode(rng, name, n, index * nodeCount + n, level, profile, plannedMem, nowSec),
    )
  }
  const scenarios = shape.alertScenarios ?? false
  // Calm hosts: no node hovers at the 85 % memory trigger, so node alerts mean something.
  if (scenarios) for (const node of cluster.nodes) calmNode(node)
  buildInfrastructure(cluster, shape, nowSec)
  addGuests(cluster, shape.guestsPerNode, nowSec, scenarios ? SCENARIO_RUNNING_SHARE : 0.8)
  for (const guest of cluster.guests) cluster.byVmid.set(guest.vmid, guest)
  if (scenarios) cluster.scenario = planScenario(cluster, nowMs)
  planFills(cluster, nowSec)
  cluster.buildVmidLimit = cluster.nextVmid
  cluster.backups = createBackupState(cluster, nowSec, shape.backupKeep)
  seedBackupHistory(cluster, HISTORY_DAYS)
  cluster.history = createHistory(cluster, nowMs)
  return cluster
}

// Hardware, Ceph and storages come from their own stream, so they never shift the guests.
function buildInfrastructure(cluster: SimClusterModel, shape: EstateShape, nowSec: number): void {
  const rng = createRng(deriveSeed(shape.seed, 4000 + cluster.index))
  const plan = planCluster(rng, cluster.index, shape.clusters, cluster.nodes.length)
  const hardware = buildHardware(rng, plan, cluster.nodes.length, nowSec)
  cluster.disks = hardware.disks
  cluster.zfsPools = hardware.pools
  let cephStorages: SimStorage[] = []
  if (plan.ceph && hardware.osds.length > 0) {
    const built = buildCeph(rng, cluster.nodes.length, hardware.osds, cluster.version.major, nowSec)
    if (shape.cephOsdDownAtStart) startWithOsdDown(built.ceph, nowSec)
    cluster.ceph = built.ceph
    cephStorages = built.storages
  }
  cluster.storages = buildStorages(rng, cluster.nodes, plan, hardware, cephStorages)
}

function buildNode(
  rng: Rng,
  cluster: string,
  n: number,
  globalIndex: number,
  level: string,
  profile: number,
  plannedMem: number,
  nowSec: number,
): SimNode {
  const hw = chooseHardware(rng, profile, plannedMem)
  const memTarget = rng.range(0.4, 0.85)
  const swapTotal = rng.chance(0.6) ? 8589930496 : 0
  return {
    name: nameNode(cluster, n),
    nodeid: n + 1,
    ip: chooseNodeIp(globalIndex),
    online: true,
    offlineUntil: 0,
    bootAt: nowSec - rng.int(DAY, 120 * DAY),
    level,
    cpuinfo: hw.cpuinfo,
    maxcpu: hw.maxcpu,
    maxmem: hw.maxmem,
    maxdisk: hw.maxdisk,
    cpu: 0,
    wait: 0,
    cpuBase: rng.range(0.05, 0.25),
    memFrac: memTarget,
    memTarget,
    rootUsed: Math.round(hw.maxdisk * rng.range(0.08, 0.3)),
    swapTotal,
    swapUsed: Math.round(swapTotal * rng.range(0, 0.05)),
    load1: 0,
    load5: 0,
    load15: 0,
  }
}

function calmNode(node: SimNode): void {
  node.memTarget = Math.min(node.memTarget, 0.75)
  node.memFrac = node.memTarget
}

function addGuests(
  cluster: SimClusterModel,
  perNode: number,
  nowSec: number,
  runningShare: number,
): void {
  const { rng, nodes } = cluster
  const total = nodes.length * perNode
  // Interleave nodes across the vmid sequence, as years of creating guests on whichever node had room do.
  const slots: number[] = []
  for (let n = 0; n < nodes.length; n++) for (let i = 0; i < perNode; i++) slots.push(n)
  shuffle(rng, slots)
  const templates = total < 8 ? 0 : Math.min(4, Math.max(1, Math.floor(total / 100)))
  const haShare = cluster.standalone ? 0 : nodes.length >= 3 ? 0.35 : 0.1
  const guests: SimGuest[] = []
  for (let i = templates; i < slots.length; i++) {
    const node = slots[i] ?? 0
    const bootAt = nodes[node]?.bootAt ?? nowSec
    const running = rng.chance(runningShare)
    // Most guests are as old as their node's boot; some were (re)started since.
    const startedAt = rng.chance(0.7) ? bootAt + rng.int(20, 300) : rng.int(bootAt, nowSec - 60)
    const identity = inventGuest(rng, cluster.nameCounters, 0.6)
    const guest = createGuest(rng, identity, {
      vmid: allocateVmid(cluster),
      node,
      running,
      startedAt,
      haShare,
    })
    if (running) seedCounters(rng, guest, Math.max(0, nowSec - startedAt))
    if (running && rng.chance(0.004)) {
      guest.lock = rng.pick(['snapshot', 'migrate', 'clone'])
      guest.lockUntil = (nowSec + rng.int(60, 600)) * 1000
    }
    guests.push(guest)
  }
  for (let t = 0; t < templates; t++) {
    const name = TEMPLATE_NAMES[t % TEMPLATE_NAMES.length] ?? 'tpl-debian-12'
    const type = name.startsWith('tpl-alpine') ? 'lxc' : 'qemu'
    guests.push(createTemplate(9000 + t, slots[t] ?? 0, name, type, rng))
  }
  cluster.guests = guests
  cluster.targetGuests = guests.length
}

// Counters of a guest that has been running for `uptime` seconds at roughly its median rates.
function seedCounters(rng: Rng, guest: SimGuest, uptime: number): void {
  guest.netin = Math.round(guest.netRate * uptime * rng.range(0.5, 1.5))
  guest.netout = Math.round(guest.netin * guest.netRatio)
  guest.diskread = Math.round(guest.diskRate * uptime * rng.range(0.3, 1))
  guest.diskwrite = Math.round(guest.diskRate * uptime * rng.range(0.5, 1.5))
}

function shuffle(rng: Rng, items: number[]): void {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(rng.next() * (i + 1))
    const tmp = items[i] as number
    items[i] = items[j] as number
    items[j] = tmp
  }
}
