// The engine's memory of past polls, as pure functions over its maps: condition delays, re-fire
// suppression after a resolution (minimumDelta / suppressionWindow), flapping records, and the
// pruning that keeps every map bounded to what a later poll can still read.
import type { AlertConfig, ResolvedAlert, ResourceClass } from '../../shared/model/alerts.ts'
import type { FlapRecord } from './engine-types.ts'
import { RECENTLY_RESOLVED_MAX, RECENTLY_RESOLVED_MS } from './engine-types.ts'
import type { Observation } from './observations.ts'

export const MINUTE = 60_000

/** A resolution remembered for re-fire suppression: when, and the resolved alert's peak. */
export interface LastResolved {
  at: number
  value: number
}

/** How long a condition of this class and metric (or alert type) must hold before it fires. */
export function delayMs(config: AlertConfig, klass: ResourceClass, key: string): number {
  const per = config.metricTimeThresholds[klass]
  const seconds =
    per?.[key] ??
    per?.[key.toLowerCase()] ??
    per?.default ??
    config.timeThresholds[klass] ??
    config.timeThreshold
  return Math.max(0, seconds) * 1000
}

/**
 * Within suppressionWindow minutes of a metric alert resolving, a re-crossing that is not at least
 * minimumDelta above the resolved peak waits (true). A condition held through the whole window is
 * reported, with its true start.
 */
export function isSuppressed(
  config: AlertConfig,
  o: Observation,
  since: number,
  cond: number,
  last: LastResolved | undefined,
): boolean {
  if (!o.metric || !last) return false
  const windowEnd = last.at + config.suppressionWindow * MINUTE
  if (cond >= windowEnd || since < last.at) return false
  return o.value < last.value + config.minimumDelta
}

/** How many of the record's changes fall within the flapping window ending at `cond`. */
export function countRecent(
  config: AlertConfig,
  record: FlapRecord | undefined,
  cond: number,
): number {
  if (!record) return 0
  const from = cond - config.flapping.window * MINUTE
  const changes = record.changes
  let count = 0
  for (let i = 0; i < changes.length; i++) if (changes[i]! > from) count++
  return count
}

/** The record after one more fire or resolve at `cond`; held when it now counts as flapping. */
export function nextFlapRecord(
  config: AlertConfig,
  record: FlapRecord | undefined,
  cond: number,
): FlapRecord {
  const flap = config.flapping
  // One array per change: the recent changes and this one (no filter-then-spread copy).
  const from = cond - flap.window * MINUTE
  const changes: number[] = []
  if (record) for (const t of record.changes) if (t > from) changes.push(t)
  changes.push(cond)
  let heldUntil = record?.heldUntil ?? 0
  if (changes.length > flap.threshold && heldUntil <= cond) {
    heldUntil = cond + flap.suppression * MINUTE
  }
  return { changes, heldUntil }
}

/** The flapping records still held or with a change in the window; the same map when none went. */
export function pruneFlaps(
  config: AlertConfig,
  map: ReadonlyMap<string, FlapRecord>,
  cond: number,
): ReadonlyMap<string, FlapRecord> {
  const from = cond - config.flapping.window * MINUTE
  let out: Map<string, FlapRecord> | null = null
  for (const [id, record] of map) {
    const last = record.changes[record.changes.length - 1] ?? 0
    if (record.heldUntil > cond || last > from) continue
    out ??= new Map(map)
    out.delete(id)
  }
  return out ?? map
}

/** The resolutions still within the suppression window; the same map when none went. */
export function pruneResolved(
  config: AlertConfig,
  map: ReadonlyMap<string, LastResolved>,
  cond: number,
): ReadonlyMap<string, LastResolved> {
  const from = cond - config.suppressionWindow * MINUTE
  let out: Map<string, LastResolved> | null = null
  for (const [id, entry] of map) {
    if (entry.at > from) continue
    out ??= new Map(map)
    out.delete(id)
  }
  return out ?? map
}

/**
 * The recently resolved list: this evaluation's resolutions (last first), then the previous ones
 * still within RECENTLY_RESOLVED_MS; only the newest RECENTLY_RESOLVED_MAX are looked at. The
 * previous array itself when nothing was added or expired.
 */
export function recentResolved(
  prev: readonly ResolvedAlert[],
  resolved: readonly ResolvedAlert[],
  now: number,
): readonly ResolvedAlert[] {
  const from = now - RECENTLY_RESOLVED_MS
  const oldest = prev[prev.length - 1]
  const expired = oldest !== undefined && Date.parse(oldest.resolvedTime) < from
  if (resolved.length === 0 && !expired) return prev
  const out: ResolvedAlert[] = []
  for (let i = resolved.length - 1; i >= 0 && out.length < RECENTLY_RESOLVED_MAX; i--) {
    out.push(resolved[i]!)
  }
  for (let i = 0; i < prev.length && out.length < RECENTLY_RESOLVED_MAX; i++) {
    const r = prev[i]!
    if (Date.parse(r.resolvedTime) >= from) out.push(r)
  }
  return out
}
