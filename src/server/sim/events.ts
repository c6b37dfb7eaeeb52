// Discrete events that make the estate look alive: node outages, guests created, destroyed,
// stopped, started and locked. Rates are per estate in simulated time (not per tick), and modest:
// a demo should look alive, not chaotic.

import type { SimClusterModel, SimGuest } from './model.ts'
import { inventGuest } from './names.ts'
import { allocateVmid, createGuest, restartGuest } from './guest-factory.ts'
import { recordTask } from './tasks.ts'
import { releaseGuest } from './history/recorder.ts'

/** Mean seconds between events of each kind across an estate of REFERENCE_GUESTS or more. */
const ESTATE_MEAN_SEC = {
  nodeOutage: 45 * 60,
  guestCreate: 40,
  guestDestroy: 40,
  guestPower: 30,
  guestLock: 45,
} as const

// With scenarios, the share of power events on a running guest that stop it (the rest reboot).
const STOP_SHARE = 0.04

// Smaller estates get proportionally fewer guest events, so 200 guests do not churn like 2,000.
const REFERENCE_GUESTS = 2000

/** Estate-wide figures that spread event rates over clusters. */
export interface EventScale {
  clusters: number
  guests: number
}

/** Applies the random events of one step to a cluster. */
export function applyEvents(
  cluster: SimClusterModel,
  nowMs: number,
  dtSec: number,
  scale: EventScale,
): void {
  if (dtSec <= 0) return
  const { rng } = cluster
  const guestSlowdown = Math.max(1, REFERENCE_GUESTS / Math.max(1, scale.guests))
  const odds = (kind: keyof typeof ESTATE_MEAN_SEC, weight = 1): boolean => {
    const slowdown = kind === 'nodeOutage' ? 1 : guestSlowdown
    return rng.next() < (dtSec * weight) / (ESTATE_MEAN_SEC[kind] * scale.clusters * slowdown)
  }
  recoverNodes(cluster, nowMs)
  clearLocks(cluster, nowMs)
  if (odds('nodeOutage')) startOutage(cluster, nowMs)
  // Creation and destruction lean towards the initial size, so the guest count wanders but returns.
  const drift = cluster.guests.length / Math.max(1, cluster.targetGuests)
  if (odds('guestCreate', 1 / Math.max(drift, 0.01))) addGuest(cluster, nowMs)
  if (odds('guestDestroy', drift)) removeGuest(cluster, nowMs)
  if (odds('guestPower')) toggleGuest(cluster, nowMs)
  // `lock: backup` comes from the nightly vzdump runs (backups.ts); these are the other locks.
  if (odds('guestLock')) lockGuest(cluster, nowMs)
}

/** Takes a node down or brings it back; on return its running guests have restarted. */
export function setNodeState(
  cluster: SimClusterModel,
  nodeIndex: number,
  online: boolean,
  nowMs: number,
): void {
  const node = cluster.nodes[nodeIndex]
  if (node === undefined || node.online === online) return
  if (!online) {
    node.online = false
    node.offlineUntil = 0
    return
  }
  const { rng } = cluster
  const nowSec = Math.floor(nowMs / 1000)
  node.online = true
  node.offlineUntil = 0
  node.bootAt = nowSec - rng.int(20, 90)
  node.load1 = node.load5 = node.load15 = 0
  for (const guest of cluster.guests) {
    if (guest.node !== nodeIndex || !guest.running) continue
    restartGuest(guest, Math.min(nowSec, node.bootAt + rng.int(10, 60)), rng)
  }
}

function recoverNodes(cluster: SimClusterModel, nowMs: number): void {
  cluster.nodes.forEach((node, i) => {
    if (!node.online && node.offlineUntil !== 0 && nowMs >= node.offlineUntil)
      setNodeState(cluster, i, true, nowMs)
  })
}

function startOutage(cluster: SimClusterModel, nowMs: number): void {
  // The API answers from node 1, and a single-node host that goes down takes its API with it,
  // so random outages only hit other members, one at a time. A cluster with a scheduled outage
  // (alert-scenarios.ts) gets no random ones: its demo story stays the same on every run.
  if (cluster.nodes.length < 2 || cluster.nodes.some((n) => !n.online)) return
  if (cluster.scenario?.outage !== undefined) return
  const index = cluster.rng.int(1, cluster.nodes.length - 1)
  setNodeState(cluster, index, false, nowMs)
  const node = cluster.nodes[index]
  if (node !== undefined) node.offlineUntil = nowMs + cluster.rng.int(30, 150) * 1000
}

function clearLocks(cluster: SimClusterModel, nowMs: number): void {
  for (const guest of cluster.guests) {
    if (guest.lockUntil === 0 || nowMs < guest.lockUntil) continue
    const created = guest.lock === 'create'
    guest.lock = undefined
    guest.lockUntil = 0
    // A guest finishes being created, then gets started.
    if (created) {
      restartGuest(guest, Math.floor(nowMs / 1000), cluster.rng)
      recordPower(cluster, guest, 'start', nowMs)
    }
  }
}

function addGuest(cluster: SimClusterModel, nowMs: number): void {
  const { rng } = cluster
  const online = cluster.nodes.map((n, i) => (n.online ? i : -1)).filter((i) => i >= 0)
  if (online.length === 0) return
  const identity = inventGuest(rng, cluster.nameCounters, 0.6)
  const node = rng.pick(online)
  const haShare = cluster.standalone ? 0 : 0.2
  const vmid = allocateVmid(cluster)
  const guest = createGuest(rng, identity, { vmid, node, running: false, startedAt: 0, haShare })
  guest.lock = 'create'
  guest.lockUntil = nowMs + rng.int(5, 30) * 1000
  cluster.guests.push(guest)
  cluster.byVmid.set(guest.vmid, guest)
  recordPower(cluster, guest, 'create', nowMs)
}

function removeGuest(cluster: SimClusterModel, nowMs: number): void {
  // PVE only destroys stopped guests; try a few random picks rather than scanning 100k guests.
  // With scenarios so few are stopped that the picks would mostly miss and the estate would grow,
  // so a running guest is shut down first, as an administrator retiring it does.
  const calm = cluster.scenario !== undefined
  const victim = pickGuest(
    cluster,
    (g) => (calm || !g.running) && g.template === 0 && g.lock === undefined,
  )
  if (victim === undefined) return
  if (victim.running) recordPower(cluster, victim, 'shutdown', nowMs)
  cluster.guests.splice(cluster.guests.indexOf(victim), 1)
  cluster.byVmid.delete(victim.vmid)
  cluster.profiles.delete(victim.vmid)
  releaseGuest(cluster.history, victim)
  recordPower(cluster, victim, 'destroy', nowMs)
}

function toggleGuest(cluster: SimClusterModel, nowMs: number): void {
  const { rng } = cluster
  const guest = pickGuest(cluster, (g) => g.template === 0 && g.lock === undefined)
  if (guest === undefined) return
  const nowSec = Math.floor(nowMs / 1000)
  // With scenarios most running picks reboot rather than stop, so the stopped share stays near
  // 1.5 % (starts, destroys and these stops balance there) instead of drifting towards 10 %.
  const calm = cluster.scenario !== undefined
  if (!guest.running || rng.chance(0.3) || (calm && !rng.chance(STOP_SHARE))) {
    // Start, or reboot a running guest: counters restart from zero either way.
    recordPower(cluster, guest, guest.running ? 'reboot' : 'start', nowMs)
    restartGuest(guest, nowSec, rng)
    return
  }
  stopGuest(guest)
  recordPower(cluster, guest, 'shutdown', nowMs)
}

// Every power operation leaves a task on the guest's node (qmstart, vzshutdown, ...).
function recordPower(
  cluster: SimClusterModel,
  guest: SimGuest,
  action: string,
  nowMs: number,
): void {
  const prefix = guest.type === 'qemu' ? 'qm' : 'vz'
  recordTask(
    cluster,
    guest.node,
    `${prefix}${action}`,
    String(guest.vmid),
    Math.floor(nowMs / 1000),
  )
}

function lockGuest(cluster: SimClusterModel, nowMs: number): void {
  const { rng } = cluster
  const guest = pickGuest(cluster, (g) => g.running && g.lock === undefined)
  if (guest === undefined) return
  guest.lock = rng.pick(['snapshot', 'snapshot', 'migrate', 'clone'])
  guest.lockUntil = nowMs + rng.int(20, 180) * 1000
}

/** Stops a guest: counters and gauges read 0 while stopped. */
function stopGuest(guest: SimGuest): void {
  guest.running = false
  guest.cpu = 0
  guest.mem = 0
  guest.netin = guest.netout = guest.diskread = guest.diskwrite = 0
  guest.runawayUntil = 0
  if (guest.hastate === 'started') guest.hastate = 'stopped'
}

// Guests on offline nodes are frozen, and scenario guests follow their script, so events never
// touch either.
function pickGuest(
  cluster: SimClusterModel,
  accept: (g: SimGuest) => boolean,
): SimGuest | undefined {
  const { rng, guests, nodes } = cluster
  if (guests.length === 0) return undefined
  for (let attempt = 0; attempt < 8; attempt++) {
    const g = guests[Math.floor(rng.next() * guests.length)]
    if (g === undefined || !(nodes[g.node]?.online ?? false)) continue
    if (cluster.scenario?.protectedVmids.has(g.vmid) !== true && accept(g)) return g
  }
  return undefined
}
