// The demo's alert scenarios (SimulatorOptions.alertScenarios): picks the handful of guests, the
// node and the storage that alert-schedule.ts drives, and applies that schedule each tick. The
// work per tick is a few map lookups, whatever the size of the estate: the guests are found by
// vmid, never by scanning.

import type { SimClusterModel, SimGuest } from './model.ts'
import { hashInt } from './prng.ts'
import {
  CPU_SPIKERS,
  MEMORY_HOGS,
  cpuAt,
  isNodeDown,
  memoryAt,
  planCpuSpike,
  planMemoryLeak,
  planNodeOutage,
} from './alert-schedule.ts'
import type { CpuSpike, MemoryLeak, NodeOutage } from './alert-schedule.ts'
import { setNodeState } from './events.ts'

/** What one cluster's scenario drives, decided at build time. */
export interface SimScenario {
  /** Simulated ms the estate was built: elapsed time counts from here. */
  startMs: number
  spikes: { vmid: number; plan: CpuSpike }[]
  leaks: { vmid: number; plan: MemoryLeak }[]
  /** Stopped from the start and kept stopped (the powered-off warning). */
  parked: number[]
  /** Scenario guests: random events leave them alone, so their story is not cut short. */
  protectedVmids: Set<number>
  /** The node that goes down every hour (first cluster only); `down` is what was last applied. */
  outage: { node: number; plan: NodeOutage; down: boolean } | undefined
  /** The storage kept above 85 % on one node (first cluster only). */
  fullStorage: { storage: number; node: number } | undefined
}

// The full storage stays in this band, above the 85 % trigger and clear of random wander.
const FULL_LOW = 0.86
const FULL_HIGH = 0.9
const SCENARIO_SALT = 0x5ce7

/** Running share of guests built with scenarios: about 1.5 % stopped, not PVE's usual fifth. */
export const SCENARIO_RUNNING_SHARE = 0.985

/** Chooses the scenario's guests, node and storage for a freshly built cluster. */
export function planScenario(cluster: SimClusterModel, startMs: number): SimScenario {
  const first = cluster.index === 0
  // Node 0 answers the cluster's API (the random outages spare it too), so another one goes down.
  const outageNode = first && cluster.nodes.length >= 2 ? 1 : -1
  const scenario: SimScenario = {
    startMs,
    spikes: [],
    leaks: [],
    parked: [],
    protectedVmids: new Set(),
    outage:
      outageNode >= 0
        ? { node: outageNode, plan: planNodeOutage(cluster.seed), down: false }
        : undefined,
    fullStorage: first ? chooseFullStorage(cluster) : undefined,
  }
  const busy = (g: SimGuest): boolean =>
    g.running && g.template === 0 && g.lock === undefined && g.node !== outageNode
  for (let slot = 0; slot < CPU_SPIKERS; slot++) {
    const guest = chooseGuest(cluster, scenario, slot, busy)
    if (guest !== undefined)
      scenario.spikes.push({ vmid: guest.vmid, plan: planCpuSpike(cluster.seed, slot) })
  }
  for (let slot = 0; slot < MEMORY_HOGS; slot++) {
    const guest = chooseGuest(cluster, scenario, 100 + slot, busy)
    if (guest !== undefined)
      scenario.leaks.push({ vmid: guest.vmid, plan: planMemoryLeak(cluster.seed, slot) })
  }
  const parked =
    chooseGuest(cluster, scenario, 200, (g) => !g.running && g.template === 0) ??
    chooseGuest(cluster, scenario, 200, busy)
  if (parked !== undefined) {
    parkGuest(parked)
    scenario.parked.push(parked.vmid)
  }
  return scenario
}

/** Takes the scheduled node down or brings it back; call after the tick's random events. */
export function applyScenarioNodes(cluster: SimClusterModel, nowMs: number): void {
  const outage = cluster.scenario?.outage
  if (outage === undefined) return
  const down = isNodeDown(outage.plan, nowMs - cluster.scenario!.startMs)
  // Only on a change of schedule: a test may still take the node down or up by hand in between.
  if (down === outage.down) return
  outage.down = down
  setNodeState(cluster, outage.node, !down, nowMs)
}

/** Overrides the scenario guests' gauges and pins the full storage; call after updateMetrics. */
export function applyScenarioMetrics(cluster: SimClusterModel, nowMs: number): void {
  const scenario = cluster.scenario
  if (scenario === undefined) return
  const elapsed = nowMs - scenario.startMs
  for (const { vmid, plan } of scenario.spikes) {
    const guest = liveGuest(cluster, vmid)
    if (guest !== undefined) guest.cpu = cpuAt(plan, elapsed)
  }
  for (const { vmid, plan } of scenario.leaks) {
    const guest = liveGuest(cluster, vmid)
    if (guest === undefined) continue
    guest.memFrac = memoryAt(plan, elapsed)
    guest.mem = Math.round(guest.maxmem * guest.memFrac)
  }
  const full = scenario.fullStorage
  const storage = full === undefined ? undefined : cluster.storages[full.storage]
  if (full !== undefined && storage !== undefined) {
    const total = storage.total[full.node] ?? 0
    const used = storage.used[full.node] ?? 0
    if (used < total * FULL_LOW || used > total * FULL_HIGH)
      storage.used[full.node] = Math.round((total * (FULL_LOW + FULL_HIGH)) / 2)
  }
}

// A running guest on an online node; a guest the scenario lost (destroyed by hand) is skipped.
function liveGuest(cluster: SimClusterModel, vmid: number): SimGuest | undefined {
  const guest = cluster.byVmid.get(vmid)
  if (guest === undefined || !guest.running) return undefined
  return (cluster.nodes[guest.node]?.online ?? false) ? guest : undefined
}

// Walks the guest list from a seeded position; with scenarios at build time nearly every guest
// qualifies, so this stops after a step or two.
function chooseGuest(
  cluster: SimClusterModel,
  scenario: SimScenario,
  salt: number,
  accept: (g: SimGuest) => boolean,
): SimGuest | undefined {
  const { guests } = cluster
  if (guests.length === 0) return undefined
  const start = hashInt(cluster.seed, SCENARIO_SALT, salt) % guests.length
  for (let i = 0; i < guests.length; i++) {
    const guest = guests[(start + i) % guests.length]!
    if (scenario.protectedVmids.has(guest.vmid) || !accept(guest)) continue
    scenario.protectedVmids.add(guest.vmid)
    return guest
  }
  return undefined
}

// Local image storage of the first node, where a thin pool filling up is a classic.
function chooseFullStorage(
  cluster: SimClusterModel,
): { storage: number; node: number } | undefined {
  const index = cluster.storages.findIndex(
    (s) => s.shared === 0 && s.storage !== 'local' && s.content.includes('images'),
  )
  return index < 0 ? undefined : { storage: index, node: 0 }
}

function parkGuest(guest: SimGuest): void {
  guest.running = false
  guest.cpu = guest.mem = 0
  guest.netin = guest.netout = guest.diskread = guest.diskwrite = 0
  if (guest.hastate === 'started') guest.hastate = 'stopped'
}
