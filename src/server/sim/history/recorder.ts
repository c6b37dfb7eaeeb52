// Records what the simulator reports live, tick by tick, into 1-minute rings per guest, node and
// storage (ring.ts), and remembers when guests stopped and nodes were down so that the synthetic
// past beyond the rings shows those gaps too. One pass over the guests per tick, a handful of
// typed-array writes each, no allocation.
//
// State per guest: the ring (2,337 bytes, see ring.ts) + 5 Float64 (born, down from/to, previous
// net and disk counters: 40 bytes) + 1 byte = about 2.4 KB, so ~240 MB at 100,000 guests.

import type { SimClusterModel, SimGuest } from '../model.ts'
import { RING_MINUTES, RingSet } from './ring.ts'
import { hash01 } from '../prng.ts'

/** Node ring fields. */
export const N_CPU = 0
export const N_WAIT = 1
export const N_MEM = 2
export const N_SWAP = 3
export const N_ROOT = 4
export const N_LOAD = 5

const DAY = 86_400
const MAX_OUTAGES = 256

/** A node outage in epoch seconds, `to` = Infinity while it lasts. */
export interface Outage {
  from: number
  to: number
}

/** The recorded history of one cluster. */
export interface ClusterHistory {
  /** The open minute (epoch minutes); -1 before the first tick. */
  minute: number
  /** First minute the rings cover: the minute the simulator started. */
  startMinute: number
  /** Which minute each ring position holds. */
  stamp: Float64Array
  guests: RingSet
  /** Next never-used guest slot, and slots freed by destroyed guests. */
  guestTop: number
  free: number[]
  /** Per guest slot, epoch seconds: exists since, last stopped from/to, previous counters. */
  born: Float64Array
  downFrom: Float64Array
  downTo: Float64Array
  prevNet: Float64Array
  prevIo: Float64Array
  wasRunning: Uint8Array
  nodes: RingSet
  outages: Outage[][]
  /** Storage slot = storage index x node count + node index. */
  storages: RingSet
}

/** Creates the history of a freshly built cluster and gives every guest a slot. */
export function createHistory(cluster: SimClusterModel, nowMs: number): ClusterHistory {
  // Room for the guests the random events add before the first growth (the count wanders).
  const capacity = cluster.guests.length + 256
  const history: ClusterHistory = {
    minute: -1,
    startMinute: Math.floor(nowMs / 60_000),
    stamp: new Float64Array(RING_MINUTES).fill(-1),
    guests: new RingSet(4, capacity),
    guestTop: 0,
    free: [],
    born: new Float64Array(capacity),
    downFrom: new Float64Array(capacity),
    downTo: new Float64Array(capacity),
    prevNet: new Float64Array(capacity),
    prevIo: new Float64Array(capacity),
    wasRunning: new Uint8Array(capacity),
    nodes: new RingSet(6, cluster.nodes.length),
    outages: cluster.nodes.map(() => []),
    storages: new RingSet(1, cluster.storages.length * cluster.nodes.length),
  }
  const nowSec = nowMs / 1000
  for (const guest of cluster.guests) {
    const slot = allocate(history, guest)
    // Built guests existed for a while: most for months, some only for weeks.
    const age = hash01(cluster.seed, guest.vmid, 71)
    history.born[slot] = nowSec - (age < 0.15 ? 3 + age * 150 : 40 + age * 700) * DAY
    if (!guest.running) {
      history.downFrom[slot] = nowSec - (1 + hash01(cluster.seed, guest.vmid, 72) * 20) * DAY
      history.downTo[slot] = Number.POSITIVE_INFINITY
    } else {
      // The last boot is a minute-long gap.
      history.downFrom[slot] = guest.startedAt - 60
      history.downTo[slot] = guest.startedAt
    }
  }
  return history
}

/** Gives a guest a slot (a new guest exists from now on). */
function allocate(history: ClusterHistory, guest: SimGuest, nowSec = 0): number {
  const slot = history.free.pop() ?? history.guestTop++
  ensureGuests(history, slot)
  history.guests.clear(slot)
  history.born[slot] = nowSec
  history.downFrom[slot] = 0
  history.downTo[slot] = 0
  history.prevNet[slot] = guest.netin
  history.prevIo[slot] = guest.diskwrite
  history.wasRunning[slot] = guest.running ? 1 : 0
  guest.histSlot = slot
  return slot
}

function ensureGuests(h: ClusterHistory, slot: number): void {
  if (slot < h.born.length) {
    h.guests.ensure(slot)
    return
  }
  h.guests.ensure(slot)
  const grow = <T extends Float64Array | Uint8Array>(old: T, make: (n: number) => T): T => {
    const next = make(h.guests.capacity)
    next.set(old)
    return next
  }
  const f64 = (n: number): Float64Array => new Float64Array(n)
  h.born = grow(h.born, f64)
  h.downFrom = grow(h.downFrom, f64)
  h.downTo = grow(h.downTo, f64)
  h.prevNet = grow(h.prevNet, f64)
  h.prevIo = grow(h.prevIo, f64)
  h.wasRunning = grow(h.wasRunning, (n) => new Uint8Array(n))
}

/** Frees a destroyed guest's slot. */
export function releaseGuest(history: ClusterHistory | undefined, guest: SimGuest): void {
  if (history === undefined || guest.histSlot < 0) return
  history.free.push(guest.histSlot)
  guest.histSlot = -1
}

/** Records one tick's live values (call after every gauge of the tick is final). */
export function recordTick(cluster: SimClusterModel, nowMs: number, dtSec: number): void {
  const h = cluster.history
  if (h === undefined) return
  const nowSec = nowMs / 1000
  const minute = Math.floor(nowMs / 60_000)
  if (minute !== h.minute) rollOver(h, cluster, minute)
  recordNodes(h, cluster, nowSec)
  recordGuests(h, cluster, nowSec, dtSec)
  recordStorages(h, cluster)
}

function rollOver(h: ClusterHistory, cluster: SimClusterModel, minute: number): void {
  if (h.minute >= 0) {
    const pos = h.minute % RING_MINUTES
    h.guests.close(pos, h.guestTop)
    h.nodes.close(pos, cluster.nodes.length)
    h.storages.close(pos, cluster.storages.length * cluster.nodes.length)
    h.stamp[pos] = h.minute
  }
  h.minute = minute
}

function recordNodes(h: ClusterHistory, cluster: SimClusterModel, nowSec: number): void {
  const ring = h.nodes
  cluster.nodes.forEach((node, i) => {
    const list = h.outages[i]!
    const last = list[list.length - 1]
    const inOutage = last !== undefined && last.to === Number.POSITIVE_INFINITY
    if (!node.online) {
      if (!inOutage) list.push({ from: nowSec, to: Number.POSITIVE_INFINITY })
      if (list.length > MAX_OUTAGES) list.shift()
      return
    }
    if (inOutage) last.to = nowSec
    ring.add(i, N_CPU, node.cpu)
    ring.add(i, N_WAIT, node.wait)
    ring.add(i, N_MEM, node.maxmem * node.memFrac)
    ring.add(i, N_SWAP, node.swapUsed)
    ring.add(i, N_ROOT, node.rootUsed)
    ring.add(i, N_LOAD, node.load1)
    ring.sampled(i)
  })
}

function recordGuests(
  h: ClusterHistory,
  cluster: SimClusterModel,
  nowSec: number,
  dtSec: number,
): void {
  const ring = h.guests
  const online = Uint8Array.from(cluster.nodes, (n) => (n.online ? 1 : 0))
  const guests = cluster.guests
  // The hot loop of the recorder: plain indexed loops over locals, RingSet.add inlined.
  for (let k = 0; k < guests.length; k++) {
    const g = guests[k]!
    let slot = g.histSlot
    if (slot < 0) slot = allocate(h, g, nowSec)
    // Nobody reports for the guests of an offline node: their minutes stay gaps.
    if (online[g.node] !== 1) continue
    const running = g.running ? 1 : 0
    if (running !== h.wasRunning[slot]) {
      if (running === 1) h.downTo[slot] = nowSec
      else {
        h.downFrom[slot] = nowSec
        h.downTo[slot] = Number.POSITIVE_INFINITY
      }
      h.wasRunning[slot] = running
    }
    const prevNet = h.prevNet[slot]!
    const prevIo = h.prevIo[slot]!
    h.prevNet[slot] = g.netin
    h.prevIo[slot] = g.diskwrite
    if (running === 0 || dtSec <= 0) continue
    // Counters restart from zero on a reboot: then the whole counter is this tick's traffic.
    const net = (g.netin >= prevNet ? g.netin - prevNet : g.netin) / dtSec
    const io = (g.diskwrite >= prevIo ? g.diskwrite - prevIo : g.diskwrite) / dtSec
    const cpu = g.cpu < 1 ? g.cpu : 1
    const acc = ring.acc
    const i = slot * 8
    const n = ring.count[slot]!
    if (n === 0) {
      acc[i] = acc[i + 1] = cpu
      acc[i + 2] = acc[i + 3] = g.mem
      acc[i + 4] = acc[i + 5] = net
      acc[i + 6] = acc[i + 7] = io
    } else {
      acc[i] = acc[i]! + cpu
      if (cpu > acc[i + 1]!) acc[i + 1] = cpu
      acc[i + 2] = acc[i + 2]! + g.mem
      if (g.mem > acc[i + 3]!) acc[i + 3] = g.mem
      acc[i + 4] = acc[i + 4]! + net
      if (net > acc[i + 5]!) acc[i + 5] = net
      acc[i + 6] = acc[i + 6]! + io
      if (io > acc[i + 7]!) acc[i + 7] = io
    }
    if (n < 255) ring.count[slot] = n + 1
  }
}

function recordStorages(h: ClusterHistory, cluster: SimClusterModel): void {
  const count = cluster.nodes.length
  cluster.storages.forEach((s, si) => {
    for (let n = 0; n < count; n++) {
      if (!(cluster.nodes[n]?.online ?? false)) continue
      const slot = si * count + n
      h.storages.add(slot, 0, s.used[n] ?? 0)
      h.storages.sampled(slot)
    }
  })
}

/** Whether node `i` was up at `tSec` as far as the recorded outages know. */
export function nodeUpAt(h: ClusterHistory, i: number, tSec: number): boolean {
  for (const o of h.outages[i] ?? []) if (tSec >= o.from && tSec < o.to) return false
  return true
}
