// Moves gauges and counters one step (reference §6.2). Runs once per tick over every guest, so it
// does a handful of arithmetic operations per guest and allocates nothing.

import type { Rng } from './prng.ts'
import type { SimClusterModel, SimGuest, SimNode } from './model.ts'
import { fillUsedAt } from './history/fill.ts'

const DAY_SEC = 86_400
// Calm estates (alert scenarios): memory shows at most 82 % and CPU bends below 75 %, under the
// default triggers (85 %, 80 %) and their clear levels.
const CALM_MEMORY = 0.82
const CALM_CPU_KNEE = 0.55
const CALM_CPU_ROOM = 0.2

const WEEK_SEC = 7 * DAY_SEC
// 1970-01-04 was a Sunday: the weekly trough is at Sunday 00:00 UTC.
const SUNDAY_SEC = 3 * DAY_SEC

/** Working-hours bump in [-1, 1]: peaks mid-afternoon UTC, trough before dawn. */
export function diurnalAt(tSec: number): number {
  const hour = (tSec / 3600) % 24
  return Math.sin(((hour - 9) / 24) * 2 * Math.PI)
}

/** Weekly rhythm in [0.85, 1]: quieter around the weekend, busiest mid-week. */
export function weekFactor(tSec: number): number {
  return 1 - 0.075 * (1 + Math.cos(((tSec - SUNDAY_SEC) / WEEK_SEC) * 2 * Math.PI))
}

/** Nightly vzdump window: 00:00 to 04:00 UTC. */
export function inBackupWindow(tSec: number): boolean {
  return (tSec / 3600) % 24 < 4
}

/** Advances every gauge and counter of a cluster by `dtSec` simulated seconds ending at `nowMs`. */
export function updateMetrics(cluster: SimClusterModel, nowMs: number, dtSec: number): void {
  const { rng } = cluster
  const backupWindow = inBackupWindow(nowMs / 1000)
  const diurnal = diurnalAt(nowMs / 1000)
  const weekly = weekFactor(nowMs / 1000)
  // With the demo's alert scenarios the rest of the estate stays below the default thresholds, so
  // the alerts shown are the scripted few (and rare runaways), not a share of 100,000 guests.
  const calm = cluster.scenario !== undefined
  const memCeiling = calm ? CALM_MEMORY : 1
  for (const node of cluster.nodes) {
    if (node.online) updateNode(rng, node, diurnal, weekly, backupWindow, dtSec, memCeiling)
  }
  const nodes = cluster.nodes
  for (const guest of cluster.guests) {
    // Guests of an offline node keep their last values: nobody is reporting for them.
    if (!(nodes[guest.node]?.online ?? false)) continue
    if (guest.running) updateRunningGuest(rng, guest, nowMs, diurnal, backupWindow, dtSec, calm)
    else if (guest.cpu !== 0 || guest.mem !== 0) {
      guest.cpu = 0
      guest.mem = 0
    }
  }
  syncLocalStorage(cluster)
  wanderStorages(cluster, rng, dtSec, nowMs / 1000)
}

function updateNode(
  rng: Rng,
  node: SimNode,
  diurnal: number,
  weekly: number,
  backupWindow: boolean,
  dtSec: number,
  memCeiling: number,
): void {
  let cpu = node.cpuBase * (1 + 0.6 * diurnal) * weekly + rng.normal() * 0.015
  if (backupWindow) cpu += rng.range(0.1, 0.3)
  node.cpu = clamp(cpu, 0.002, 1)
  node.wait = backupWindow ? rng.range(0.02, 0.15) : rng.range(0, 0.01)
  node.memFrac = clamp(
    node.memFrac + (node.memTarget - node.memFrac) * 0.02 + rng.normal() * 0.004,
    0.2,
    Math.min(0.97, memCeiling),
  )
  // Root filesystem fills very slowly (logs, ISOs), and is cleaned now and then.
  node.rootUsed = Math.min(
    node.maxdisk * 0.95,
    node.rootUsed + Math.round(dtSec * rng.range(0, 2000)),
  )
  if (node.swapTotal > 0) {
    node.swapUsed = Math.round(
      clamp(node.swapUsed / node.swapTotal + rng.normal() * 0.001, 0, 0.05) * node.swapTotal,
    )
  }
  // Load averages as exponential moving averages of threads x cpu, the kernel's own recipe.
  const target = node.maxcpu * node.cpu * rng.range(0.8, 1.2) + (backupWindow ? node.wait * 8 : 0)
  if (node.load15 === 0) {
    node.load1 = node.load5 = node.load15 = target
  } else {
    node.load1 += (target - node.load1) * (1 - Math.exp(-dtSec / 60))
    node.load5 += (target - node.load5) * (1 - Math.exp(-dtSec / 300))
    node.load15 += (target - node.load15) * (1 - Math.exp(-dtSec / 900))
  }
}

function updateRunningGuest(
  rng: Rng,
  g: SimGuest,
  nowMs: number,
  diurnal: number,
  backupWindow: boolean,
  dtSec: number,
  calm: boolean,
): void {
  const nowSec = nowMs / 1000
  // Runaways: rare, last a few minutes, pin the guest near 100%.
  if (g.runawayUntil === 0 && rng.next() < dtSec * 2e-7)
    g.runawayUntil = nowMs + rng.int(120, 900) * 1000
  if (g.runawayUntil !== 0 && nowMs >= g.runawayUntil) g.runawayUntil = 0
  if (g.runawayUntil !== 0) {
    g.cpu = clamp(rng.range(0.95, 1.02), 0, 1.02)
  } else {
    const cpu = guestCpuLevel(g, nowSec, diurnal) * Math.exp(0.35 * rng.normal())
    g.cpu = clamp(calm ? bendCpu(cpu) : cpu, 0, 1)
  }
  g.memFrac = clamp(g.memFrac + (g.memTarget - g.memFrac) * 0.01 + rng.normal() * 0.003, 0.02, 1)
  // Scaled rather than capped, so Windows guests (targets of 90-100 %) do not all sit at one line.
  g.mem = Math.round(g.maxmem * g.memFrac * (calm ? CALM_MEMORY : 1))
  if (dtSec <= 0) return
  // Bursty traffic: usually near the median rate, sometimes ten times it.
  const netBurst = rng.next() < 0.05 ? 10 : Math.exp(0.5 * rng.normal())
  const netin = Math.round(g.netRate * dtSec * netBurst)
  g.netin += netin
  g.netout += Math.round(netin * g.netRatio)
  const ioBurst = (backupWindow ? 4 : 1) * (rng.next() < 0.05 ? 8 : Math.exp(0.5 * rng.normal()))
  g.diskread += Math.round(g.diskRate * dtSec * ioBurst * (backupWindow ? 1.5 : 0.6))
  g.diskwrite += Math.round(g.diskRate * dtSec * ioBurst)
  if (g.type === 'lxc' && rng.next() < 0.02) {
    g.disk = Math.round(clamp(g.disk / g.maxdisk + rng.normal() * 0.002, 0.05, 0.98) * g.maxdisk)
  }
}

function syncLocalStorage(cluster: SimClusterModel): void {
  const local = cluster.storages[0]
  if (local === undefined) return
  cluster.nodes.forEach((node, i) => {
    local.used[i] = node.rootUsed
  })
}

// Shared and thin-pool usage wanders a little, so storage bars are not frozen.
function wanderStorages(cluster: SimClusterModel, rng: Rng, dtSec: number, nowSec: number): void {
  for (const s of cluster.storages) {
    if (s.storage === 'local') continue
    // Filling storages follow their line (history/fill.ts), whatever the random stream says.
    if (s.fill !== undefined) {
      for (let i = 0; i < s.used.length; i++) s.used[i] = fillUsedAt(s, i, nowSec)
      continue
    }
    for (let i = 0; i < s.used.length; i++) {
      if (s.shared === 1 && i > 0) {
        s.used[i] = s.used[0] ?? 0
        continue
      }
      const total = s.total[i] ?? 0
      const used = (s.used[i] ?? 0) + Math.round(total * rng.normal() * 2e-6 * Math.max(1, dtSec))
      s.used[i] = Math.round(clamp(used, total * 0.05, total * 0.97))
    }
  }
}

/** A running guest's CPU before tick noise: its own daily wave, the estate's rhythm. */
export function guestCpuLevel(g: SimGuest, tSec: number, diurnal: number): number {
  const wave = 1 + 0.35 * Math.sin(g.cpuPhase + (tSec / DAY_SEC) * 2 * Math.PI) + 0.2 * diurnal
  return g.cpuBase * wave * weekFactor(tSec)
}

// Linear up to the knee, then a soft approach to knee + room: busy guests stay busy, never alerting.
export function bendCpu(cpu: number): number {
  if (cpu <= CALM_CPU_KNEE) return cpu
  return CALM_CPU_KNEE + CALM_CPU_ROOM * (1 - Math.exp(-(cpu - CALM_CPU_KNEE) / CALM_CPU_ROOM))
}

function clamp(v: number, lo: number, hi: number): number {
  return v < lo ? lo : v > hi ? hi : v
}
