// The coverage view's costly stages (issue 26 item 5): one entry per GuestBackup, kept per entity
// object so a delta that replaces 1 % of the summaries derives 1 % of the entries; the age levels,
// ranks and counts in one linear pass per minute; the sorted order carried over a change by
// merging in the entries that moved. Pure.
import type { AlertConfig, AlertLevel } from '../model/alerts.ts'
import type { GuestBackup } from '../model/backup-health.ts'
import type { Guest } from '../model/state.ts'
import { backupAgeLevel, resolveBackupLimits, type BackupLimits } from './backup-alert-limits.ts'
import { getThresholdResolver } from './alert-thresholds.ts'
import type { CoverageCounts, CoverageFilter, CoverageSortKey } from './backup-coverage-types.ts'
import type { SortDirection } from './guest-view-types.ts'

const DAY_S = 86_400

/** One row's derived facts; `rank`, `level` and the marks change in place with each pass. */
export interface CoverageEntry {
  entity: GuestBackup
  /** null: no alert config known, or an orphaned group. */
  limits: BackupLimits | null
  failed: boolean
  noJob: boolean
  /** Lower-case name, vmid, node, instance and location, for the search; built on first search. */
  text: string | null
  nameKey: string
  /** The derive generation that last saw this entry in the collection. */
  gen: number
  level: AlertLevel | null
  /** Worst-first rank: 0 last job failed, 1 never, 2 critical, 3 warning, 4 no job, 5 the rest. */
  rank: number
  /** The rank the entry had when the sorted order placed it. */
  sortedRank: number
  mark: number
  /** The numeric sort value under the last sort's key. */
  k: number
}

/** The backup limits of a guest summary; null for orphaned groups or an unknown config. */
export type LimitsOf = (summary: GuestBackup) => BackupLimits | null

/**
 * The limits resolver of a config: the guest's override, then its matching custom rule's backup
 * part, then the defaults (resolveBackupLimits, as the alert engine resolves them).
 */
export function createLimitsOf(config: AlertConfig | null, guests: readonly Guest[]): LimitsOf {
  if (!config) return () => null
  const uniform = resolveBackupLimits(config)
  const overrides = config.overrides ?? {}
  const hasRules = hasBackupRules(config)
  const resolver = hasRules ? getThresholdResolver(config) : null
  const byId = hasRules ? new Map(guests.map((guest) => [guest.id, guest])) : null
  return (summary) => {
    if (summary.orphaned) return null
    const override = overrides[summary.id]?.backup
    let rule
    const guest = byId?.get(summary.id)
    if (resolver && guest) rule = resolver.rules[resolver.matchRule(guest)]?.rule.backup
    return override || rule ? resolveBackupLimits(config, override, rule) : uniform
  }
}

/** Does the config have enabled custom rules with a backup part (which match on the guests)? */
export function hasBackupRules(config: AlertConfig | null): boolean {
  return (config?.customRules ?? []).some((rule) => rule.enabled && rule.backup !== undefined)
}

/** The derive stage's result: entries in collection order. */
export interface CoverageDerived {
  entries: CoverageEntry[]
  gen: number
}

// How far ahead the derive walk looks for the next summary in the previous collection.
const REACH = 16

/**
 * A deriver keeps an entry per GuestBackup object until the limits resolver changes. It walks the
 * new collection against the previous one with a cursor (the store keeps the order: an updated
 * entity keeps its place, a new one comes last, a removed one leaves a gap), so no per-object map
 * is kept: a WeakMap of 100,000 objects costs more than the whole rank pass.
 */
export function createCoverageDeriver(): {
  derive(summaries: readonly GuestBackup[], limitsOf: LimitsOf): CoverageDerived
  /** Entries built by the last derive (tests and benches). */
  readonly built: number
} {
  let cachedFor: LimitsOf | null = null
  let gen = 0
  let built = 0
  let lastSummaries: readonly GuestBackup[] = []
  let lastEntries: CoverageEntry[] = []
  return {
    get built() {
      return built
    },
    derive(summaries, limitsOf) {
      if (cachedFor !== limitsOf) {
        cachedFor = limitsOf
        lastSummaries = []
        lastEntries = []
      }
      gen++
      built = 0
      const entries = new Array<CoverageEntry>(summaries.length)
      let cursor = 0
      for (let i = 0; i < summaries.length; i++) {
        const summary = summaries[i]!
        let entry: CoverageEntry | undefined
        for (let k = 0; k < REACH && cursor + k < lastSummaries.length; k++) {
          if (lastSummaries[cursor + k] === summary) {
            entry = lastEntries[cursor + k]
            cursor += k
            break
          }
        }
        // Found: step past it. Not found: a replaced entity (its old one sat here), or a new one.
        cursor++
        if (!entry) {
          entry = toCoverageEntry(summary, limitsOf(summary))
          built++
        }
        entry.gen = gen
        entries[i] = entry
      }
      lastSummaries = summaries
      lastEntries = entries
      return { entries, gen }
    },
  }
}

/** A fresh entry of one summary (levels and ranks come from rankCoverage). */
export function toCoverageEntry(summary: GuestBackup, limits: BackupLimits | null): CoverageEntry {
  const name = summary.name ?? ''
  return {
    entity: summary,
    limits,
    failed: summary.lastJob?.state === 'failed',
    noJob: !summary.orphaned && (summary.coverage === 'none' || summary.coverage === 'disabled'),
    text: null,
    nameKey: name.toLowerCase(),
    gen: 0,
    level: null,
    rank: 5,
    sortedRank: -1,
    mark: 0,
    k: 0,
  }
}

/** The entry's search text (lower case), built once. */
export function searchText(entry: CoverageEntry): string {
  const e = entry.entity
  return (entry.text ??=
    `${e.name ?? ''} ${e.vmid} ${e.node} ${e.instance} ${e.newestLocation ?? ''}`.toLowerCase())
}

/** Is this entry overdue (not a template, has a backup older than its warning limit)? */
export function isOverdue(entry: CoverageEntry): boolean {
  return entry.level !== null && entry.entity.newest > 0
}

/** Never backed up (templates and orphaned groups aside). */
export function isNever(entry: CoverageEntry): boolean {
  const { entity } = entry
  return entity.newest <= 0 && !entity.orphaned && !entity.template
}

/** The levels and ranks of every entry at `nowS`, and the counts on top. Mutates the entries. */
export function rankCoverage(entries: readonly CoverageEntry[], nowS: number): CoverageCounts {
  const counts: CoverageCounts = {
    guests: 0,
    backedUp24h: 0,
    overdue: 0,
    never: 0,
    noJob: 0,
    failed24h: 0,
    failed: 0,
    orphaned: 0,
  }
  const dayAgo = nowS - DAY_S
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i]!
    const entity = entry.entity
    const limits = entry.limits
    entry.level =
      limits && !entity.template && !entity.orphaned
        ? backupAgeLevel(limits, entity.newest, nowS)
        : null
    const never = isNever(entry)
    entry.rank = entry.failed
      ? 0
      : never
        ? 1
        : entry.level === 'critical'
          ? 2
          : entry.level === 'warning'
            ? 3
            : entry.noJob
              ? 4
              : 5
    if (entity.orphaned) {
      counts.orphaned++
      continue
    }
    counts.guests++
    if (entity.newest >= dayAgo) counts.backedUp24h++
    if (never) counts.never++
    else if (entry.level !== null) counts.overdue++
    if (entry.noJob) counts.noJob++
    if (entry.failed) {
      counts.failed++
      if ((entity.lastJob?.time ?? 0) >= dayAgo) counts.failed24h++
    }
  }
  return counts
}

const JOB_ORDER: Record<string, number> = { failed: 0, warning: 1, running: 2, unknown: 3, ok: 4 }
const COVERAGE_ORDER: Record<string, number> = { none: 0, disabled: 1, unknown: 2, enabled: 3 }
// Epoch seconds stay below 2^34 until the year 2514: a rank above them keeps the key exact.
const HIGH = 2 ** 34

/** The numeric sort value of an entry under `key` (name and node sort as text instead). */
function numericKey(key: CoverageSortKey, entry: CoverageEntry): number {
  const e = entry.entity
  switch (key) {
    case 'worst':
      return entry.rank * HIGH + Math.max(0, e.newest)
    case 'vmid':
      return e.vmid
    case 'newest':
      return e.newest
    case 'size':
      return e.newestSize ?? 0
    case 'lastJob':
      return (e.lastJob ? JOB_ORDER[e.lastJob.state]! : 5) * HIGH + (e.lastJob?.time ?? 0)
    case 'coverage':
      return COVERAGE_ORDER[e.coverage]!
    default:
      return 0
  }
}

const byId = (a: CoverageEntry, b: CoverageEntry) => {
  const p = a.entity.id
  const q = b.entity.id
  return p < q ? -1 : p > q ? 1 : 0
}

/**
 * The comparator of a sort: its key in its direction, then the id (a total, stable order). Numeric
 * keys compare `entry.k`, which sortCoverage fills before it sorts.
 */
export function compareCoverage(
  key: CoverageSortKey,
  direction: SortDirection,
): (a: CoverageEntry, b: CoverageEntry) => number {
  const sign = direction === 'desc' ? -1 : 1
  if (key === 'name') {
    return (a, b) =>
      sign * (a.nameKey < b.nameKey ? -1 : a.nameKey > b.nameKey ? 1 : 0) || byId(a, b)
  }
  if (key === 'node') {
    return (a, b) => {
      const x = a.entity.node
      const y = b.entity.node
      return sign * (x < y ? -1 : x > y ? 1 : 0) || byId(a, b)
    }
  }
  return (a, b) => sign * (a.k - b.k) || byId(a, b)
}

let markStamp = 0

/**
 * Sort `entries` by `key`. With the previous order of the same key and direction, keep the
 * entries that are still there unchanged (same object, same rank) in their order and merge in the
 * sorted rest: O(n + k log k) for k changed entries instead of O(n log n).
 */
export function sortCoverage(
  derived: CoverageDerived,
  key: CoverageSortKey,
  direction: SortDirection,
  previous: readonly CoverageEntry[] | null,
): CoverageEntry[] {
  const { entries, gen } = derived
  const compare = compareCoverage(key, direction)
  const byRank = key === 'worst'
  if (!previous) {
    for (const entry of entries) {
      entry.k = numericKey(key, entry)
      entry.sortedRank = entry.rank
    }
    return entries.slice().sort(compare)
  }
  const stamp = ++markStamp
  const kept: CoverageEntry[] = []
  for (const entry of previous) {
    if (entry.gen !== gen || (byRank && entry.sortedRank !== entry.rank)) continue
    // An entity listed twice under one id is not expected; the mark keeps one placement.
    if (entry.mark === stamp) continue
    entry.mark = stamp
    kept.push(entry)
  }
  const moved: CoverageEntry[] = []
  for (const entry of entries) {
    if (entry.mark === stamp) continue
    entry.k = numericKey(key, entry)
    entry.sortedRank = entry.rank
    moved.push(entry)
  }
  if (moved.length === 0) return kept
  moved.sort(compare)
  const out = new Array<CoverageEntry>(kept.length + moved.length)
  let i = 0
  let j = 0
  let k = 0
  while (i < kept.length && j < moved.length) {
    out[k++] = compare(kept[i]!, moved[j]!) <= 0 ? kept[i++]! : moved[j++]!
  }
  while (i < kept.length) out[k++] = kept[i++]!
  while (j < moved.length) out[k++] = moved[j++]!
  return out
}

/** Does an entry pass the filter chip? */
export function passesFilter(entry: CoverageEntry, filter: CoverageFilter): boolean {
  switch (filter) {
    case 'all':
      return true
    case 'overdue':
      return isOverdue(entry)
    case 'never':
      return isNever(entry)
    case 'noJob':
      return entry.noJob
    case 'failed':
      return entry.failed
    case 'orphaned':
      return entry.entity.orphaned
  }
}
