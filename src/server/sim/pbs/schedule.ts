// The backup timeline of a group as a pure function of the clock: which nightly runs happened,
// which failed, what the last prune run kept (PBS's own keep-* algorithm), and when a snapshot
// got verified. Being pure, the same clock always yields the same snapshots, and time passing
// the nightly window makes new ones appear with no stored state.

import { deriveSeed } from '../prng.ts'
import type { Retention, SimGroup, SimNamespace, SimStore } from './model.ts'

export const DAY_SEC = 86_400
/** How far back runs are considered; retention never reaches further. */
export const HORIZON_DAYS = 45
const RUN_FAIL_RATE = 0.02
// Rare, as on a healthy store: each failure raises a critical alert (issue 26).
const VERIFY_FAIL_RATE = 0.0005

/** A snapshot that exists at the moment asked about. */
export interface SimSnapshot {
  group: SimGroup
  /** backup-time, epoch seconds. */
  time: number
  /** Epoch day of the run that made it. */
  day: number
  protected: boolean
}

/** Deterministic uniform [0, 1) for a question about (salt, parts...). */
export function hashUnit(salt: number, ...parts: number[]): number {
  let h = salt >>> 0
  for (const part of parts) h = deriveSeed(h, part)
  return h / 4294967296
}

/** 0 = Sunday ... 6 = Saturday (epoch day 0 was a Thursday). */
export function weekdayOf(day: number): number {
  return (((day + 4) % 7) + 7) % 7
}

/** Monday-based week number: PBS's keep-weekly groups by ISO week. */
export function weekOf(day: number): number {
  return Math.floor((day + 3) / 7)
}

/** Start of the group's run on epoch day `day` (epoch s), or undefined when it has none that day. */
export function runStart(group: SimGroup, day: number): number | undefined {
  if (group.everyDays === 7 && weekdayOf(day) !== group.weekday) return undefined
  // Sequential jobs drift by a minute or so from night to night.
  return day * DAY_SEC + group.startSec + Math.floor(hashUnit(group.salt, day, 1) * 90)
}

/** About 2% of runs fail ('job errors'): no snapshot that night, an error task instead. */
export function runFailed(group: SimGroup, day: number): boolean {
  return day !== group.protectedDay && hashUnit(group.salt, day, 2) < RUN_FAIL_RATE
}

/** Seconds a run took (it varies a little per night). */
export function runDuration(group: SimGroup, day: number): number {
  return Math.round(group.durationSec * (0.8 + 0.4 * hashUnit(group.salt, day, 3)))
}

/** Start of the latest daily job at `startSec` that began at or before `nowSec`. */
export function lastDailyRun(startSec: number, nowSec: number): number {
  const today = Math.floor(nowSec / DAY_SEC) * DAY_SEC + startSec
  return today <= nowSec ? today : today - DAY_SEC
}

/** Every finished snapshot of a group at `nowSec`, newest first, after the last prune run. */
export function groupSnapshots(
  group: SimGroup,
  retention: Retention,
  pruneStartSec: number,
  nowSec: number,
): SimSnapshot[] {
  const today = Math.floor(nowSec / DAY_SEC)
  const finished: SimSnapshot[] = []
  for (let day = today; day >= today - HORIZON_DAYS; day--) {
    const start = runStart(group, day)
    if (start === undefined || runFailed(group, day)) continue
    if (start + runDuration(group, day) > nowSec) continue
    finished.push({ group, time: start, day, protected: day === group.protectedDay })
  }
  // Snapshots made after the last prune run are all still there; older ones went through it.
  const pruneAt = lastDailyRun(pruneStartSec, nowSec)
  const pruned = finished.filter((s) => s.time + runDuration(group, s.day) <= pruneAt)
  const kept = keptByPrune(pruned, retention)
  return finished.filter((s) => !pruned.includes(s) || kept.has(s))
}

type Mark = 'keep' | 'remove' | 'protected'

/** PBS's prune selection (pbs-datastore prune.rs): `list` newest first; returns what survives. */
export function keptByPrune(list: readonly SimSnapshot[], retention: Retention): Set<SimSnapshot> {
  const none = retention.last === undefined && retention.daily === undefined
  if (none && retention.weekly === undefined) return new Set(list)
  const marks = new Map<SimSnapshot, Mark>()
  if (retention.last !== undefined) markSelections(marks, list, retention.last, (s) => s.time)
  if (retention.daily !== undefined) markSelections(marks, list, retention.daily, (s) => s.day)
  if (retention.weekly !== undefined)
    markSelections(marks, list, retention.weekly, (s) => weekOf(s.day))
  // Unmarked snapshots are removed; protected ones survive whatever the options say.
  return new Set(list.filter((s) => s.protected || marks.get(s) === 'keep'))
}

// One keep-* option: the newest snapshot of each period is kept until `keep` periods are
// covered; periods already covered by an earlier option's keeps do not count again.
function markSelections(
  marks: Map<SimSnapshot, Mark>,
  list: readonly SimSnapshot[],
  keep: number,
  select: (s: SimSnapshot) => number,
): void {
  const already = new Set<number>()
  for (const s of list) if (marks.get(s) === 'keep') already.add(select(s))
  const included = new Set<number>()
  for (const s of list) {
    if (marks.has(s)) continue
    if (s.protected) {
      marks.set(s, 'protected')
      continue
    }
    const id = select(s)
    if (already.has(id)) continue
    if (!included.has(id)) {
      if (included.size >= keep) break
      included.add(id)
      marks.set(s, 'keep')
    } else {
      marks.set(s, 'remove')
    }
  }
}

/** Size in bytes of one archive of a snapshot made on `day`. */
export function archiveSize(
  group: SimGroup,
  archive: { baseSize: number; growthPerDay: number; index: boolean },
  archiveIndex: number,
  day: number,
  baseDay: number,
): number {
  if (archive.growthPerDay === 0 && archive.index) return archive.baseSize
  const grown = archive.baseSize * Math.max(0.5, 1 + archive.growthPerDay * (day - baseDay))
  // Blobs (configs, logs) and file archives wobble a little from run to run.
  const wobble = 1 + (hashUnit(group.salt, day, 10 + archiveIndex) - 0.5) * 0.04
  return Math.max(1, Math.round(grown * wobble))
}

/** When and by which run a snapshot was verified, or undefined while it still waits. */
export interface Verification {
  state: 'ok' | 'failed'
  /** Start of the verifying task, epoch s. */
  at: number
}

/** Verification of a snapshot at `nowSec` under the store's policy. */
export function verificationOf(
  store: SimStore,
  snapshot: SimSnapshot,
  nowSec: number,
): Verification | undefined {
  const done = snapshot.time + runDuration(snapshot.group, snapshot.day)
  const state = hashUnit(snapshot.group.salt, snapshot.day, 4) < VERIFY_FAIL_RATE ? 'failed' : 'ok'
  if (store.verify.kind === 'new') {
    // verify-new: the datastore verifies each snapshot right after it is finished.
    return done + 5 <= nowSec ? { state, at: done + 5 } : undefined
  }
  const { weekday, startSec } = store.verify
  for (let day = Math.floor(done / DAY_SEC); day <= Math.floor(nowSec / DAY_SEC); day++) {
    if (weekdayOf(day) !== weekday) continue
    const at = day * DAY_SEC + startSec
    if (at < done || at > nowSec) continue
    // The latest weekly run failed (jobs.ts): it found the victims' snapshots broken.
    const latest = at + 7 * DAY_SEC > nowSec
    return { state: latest && verifyVictims(store).has(snapshot.group) ? 'failed' : state, at }
  }
  return undefined
}

/**
 * Groups whose snapshots the failed verify run marks failed: the two with the lowest hash of the
 * store (deterministic, at least one whenever the store has groups).
 */
export function verifyVictims(store: SimStore): ReadonlySet<SimGroup> {
  let set = victims.get(store)
  if (set === undefined) {
    const groups = store.namespaces.flatMap((ns) => ns.groups)
    groups.sort((a, b) => hashUnit(a.salt, 99) - hashUnit(b.salt, 99))
    set = new Set(groups.slice(0, 2))
    victims.set(store, set)
  }
  return set
}
const victims = new WeakMap<SimStore, Set<SimGroup>>()

/** Depth of a namespace path: 0 for the root '', 1 for 'a', 2 for 'a/b'. */
export function namespaceDepth(path: string): number {
  return path === '' ? 0 : path.split('/').length
}

/** Snapshots of a namespace at `nowSec`, grouped by their group in declaration order. */
export function namespaceSnapshots(
  store: SimStore,
  ns: SimNamespace,
  nowSec: number,
): SimSnapshot[][] {
  return ns.groups.map((g) => groupSnapshots(g, ns.retention, store.pruneStartSec, nowSec))
}
