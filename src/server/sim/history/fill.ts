// Storages that fill steadily, so a "full in N days" forecast has something to say in the demo: a
// few per cluster grow linearly (with a little noise) over the 45 days before the estate was built
// and reach full 30 to 90 days after it. Live usage and history both read fillUsedAt, so the newest
// history point is the live value and the sim keeps growing at the same rate while it runs.

import type { SimClusterModel, SimStorage } from '../model.ts'
import { hash01 } from '../prng.ts'

const DAY = 86_400
/** Days of steady growth before the estate was built. */
export const FILL_HISTORY_DAYS = 45
// Noise of the fill line, as a share of the storage's size; changes once a minute.
const NOISE = 2e-4

/** A storage's linear growth per node (shared storages grow alike on every node). */
export interface StorageFill {
  fromSec: number
  fromUsed: number[]
  perSec: number[]
  salt: number
}

/** Used bytes of a filling storage on node `n` at `tSec` (flat before the growth began). */
export function fillUsedAt(storage: SimStorage, n: number, tSec: number): number {
  const fill = storage.fill
  const total = storage.total[n] ?? 0
  if (fill === undefined) return storage.used[n] ?? 0
  const base = fill.fromUsed[n] ?? 0
  const grown = base + (fill.perSec[n] ?? 0) * Math.max(0, tSec - fill.fromSec)
  const key = storage.shared === 1 ? 0 : n
  const noise = (hash01(fill.salt, Math.floor(tSec / 60), key) - 0.5) * NOISE * total
  return Math.round(Math.min(total * 0.999, Math.max(0, grown + noise)))
}

/**
 * Picks the filling storages of a cluster: its first shared storage and its last local image
 * storage (never the one the alert scenario pins above 85 %), and sets their usage to the line.
 */
export function planFills(cluster: SimClusterModel, nowSec: number): void {
  const pinned = cluster.scenario?.fullStorage?.storage ?? -1
  const shared = cluster.storages.findIndex((s) => s.shared === 1)
  let local = -1
  cluster.storages.forEach((s, i) => {
    if (s.shared === 0 && s.storage !== 'local' && s.content.includes('images')) local = i
  })
  for (const index of [shared, local]) {
    const storage = cluster.storages[index]
    if (index < 0 || index === pinned || storage === undefined) continue
    const salt = cluster.seed ^ (index * 7919)
    const fromUsed: number[] = []
    const perSec: number[] = []
    let span = FILL_HISTORY_DAYS * DAY
    storage.total.forEach((total, n) => {
      // Shared storages are one pool: every node sees the same line.
      const key = storage.shared === 1 ? 0 : n
      // 60-80 % used now (under the 85 % alert), full in 30-90 days: so 40+ days of growth.
      const share = 0.6 + hash01(salt, key, 2) * 0.2
      const daysToFull = 30 + hash01(salt, key, 1) * 60
      const rate = (total * (1 - share)) / (daysToFull * DAY)
      span = Math.min(span, ((share - 0.05) * total) / rate)
      perSec.push(rate)
      fromUsed.push(total * share)
    })
    const fromSec = nowSec - span
    perSec.forEach((rate, n) => {
      fromUsed[n] = fromUsed[n]! - rate * span
    })
    storage.fill = { fromSec, fromUsed, perSec, salt }
    storage.total.forEach((_, n) => {
      storage.used[n] = fillUsedAt(storage, n, nowSec)
    })
  }
}
