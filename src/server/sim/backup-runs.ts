// The schedule of one vzdump run in the simulator: guests backed up one after the other, each for
// a duration derived from its disk and the target (PBS incremental minutes, file dumps longer),
// squeezed into the nightly window, with an outcome per guest.
import type { RunEntry } from './backups.ts'
import type { SimClusterModel, SimGuest } from './model.ts'
import { hash01 } from './prng.ts'

// Sequential runs per node are squeezed into this window, so a dense node still finishes by dawn.
const RUN_WINDOW_SEC = 3 * 3600

/**
 * Plans a sequential vzdump run over `vmids`: per-guest durations (PBS incremental minutes, file
 * backups longer) squeezed into the window, and a 1% error / 1.5% warning outcome per guest.
 */
export function planRun(
  cluster: SimClusterModel,
  guests: readonly SimGuest[],
  startSec: number,
  toPbs: boolean,
): RunEntry[] {
  const entries: RunEntry[] = []
  walkRun(cluster, guests, startSec, toPbs, (guest, start, end, outcome) => {
    entries.push({ vmid: guest.vmid, start, end, outcome })
  })
  return entries
}

/** Seconds one guest's backup takes before squeezing: PBS incremental minutes, file dumps longer. */
export function runDuration(seed: number, g: SimGuest, startSec: number, toPbs: boolean): number {
  const h = hash01(seed, g.vmid, startSec, 21)
  // Bigger disks take longer, sublinearly (dirty bitmaps, sparse images).
  const scale = Math.sqrt(Math.sqrt(Math.max(1, g.maxdisk) / 34359738368))
  return (toPbs ? 30 + h * 270 : 300 + h * 3300) * scale
}

/** Factor that fits a run of `total` seconds into the nightly window. */
export function squeezeFactor(total: number): number {
  return Math.min(1, RUN_WINDOW_SEC / Math.max(1, total))
}

/** One guest's result in a run: ~1% errors, ~1.5% warnings. */
export function runOutcome(seed: number, vmid: number, startSec: number): RunEntry['outcome'] {
  const o = hash01(seed, vmid, startSec, 22)
  return o < 0.01 ? 'error' : o < 0.025 ? 'warning' : 'ok'
}

/** A guest's result in a run of the nightly job: the demo's chronic failures, else runOutcome. */
export function guestOutcome(
  cluster: SimClusterModel,
  vmid: number,
  startSec: number,
): RunEntry['outcome'] {
  for (const f of cluster.backups.plan.failing) {
    if (f.vmid === vmid && startSec >= f.since) return 'error'
  }
  return runOutcome(cluster.seed, vmid, startSec)
}

/** Slot length of one guest, at least a few seconds. */
export function slotLength(duration: number, squeeze: number): number {
  return Math.max(4, Math.round(duration * squeeze))
}

/** planRun's schedule without allocating entries; returns the end of the run. */
export function walkRun(
  cluster: SimClusterModel,
  guests: readonly SimGuest[],
  startSec: number,
  toPbs: boolean,
  visit: (guest: SimGuest, start: number, end: number, outcome: RunEntry['outcome']) => void,
): number {
  const durations = guests.map((g) => runDuration(cluster.seed, g, startSec, toPbs))
  const squeeze = squeezeFactor(durations.reduce((sum, d) => sum + d + 2, 0))
  let t = startSec + 3
  guests.forEach((g, i) => {
    const length = slotLength(durations[i] ?? 60, squeeze)
    visit(g, t, t + length, guestOutcome(cluster, g.vmid, startSec))
    t += length + 2
  })
  return t
}
