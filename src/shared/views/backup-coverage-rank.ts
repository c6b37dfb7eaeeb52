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
  /** Lower-case name, vmid, node, instance and location, for the search. */
  text: string
  nameKey: string
  /** The derive generation that last saw this entry in the collection. */
  gen: number
  level: AlertLevel | null
  /** Worst-first rank: 0 last job failed, 1 never, 2 critical, 3 warning, 4 no job, 5 the rest. */
  rank: number
  /** The rank the entry had when the sorted order placed it. */
  sortedRank: number
  mark: number
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

/** A deriver keeps its entries per GuestBackup object until the limits resolver changes. */
export function createCoverageDeriver(): {
  derive(summaries: readonly GuestBackup[], limitsOf: LimitsOf): CoverageDerived
  /** Entries built by the last derive (tests and benches). */
  readonly built: number
} {
  let cache = new WeakMap<GuestBackup, CoverageEntry>()
  let cachedFor: LimitsOf | null = null
  let gen = 0
  let built = 0
  return {
    get built() {
      return built
    },
    derive(summaries, limitsOf) {
      if (cachedFor !== limitsOf) {
        cache = new WeakMap()
        cachedFor = limitsOf
      }
      gen++
      built = 0
      const entries = new Array<CoverageEntry>(summaries.length)
      for (let i = 0; i < summaries.length; i++) {
        const summary = summaries[i]!
        let entry = cache.get(summary)
        if (!entry) {
          entry = toCoverageEntry(summary, limitsOf(summary))
          cache.set(summary, entry)
          built++
        }
        entry.gen = gen
        entries[i] = entry
      }
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
    text: [name, summary.vmid, summary.node, summary.instance, summary.newestLocation ?? '']
      .join(' ')
      .toLowerCase(),
    nameKey: name.toLowerCase(),
    gen: 0,
    level: null,
    rank: 5,
    sortedRank: -1,
    mark: 0,
  }
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

function primary(key: CoverageSortKey, a: CoverageEntry, b: CoverageEntry): number {
  const x = a.entity
  const y = b.entity
  switch (key) {
    case 'worst':
      return a.rank - b.rank || x.newest - y.newest
    case 'name':
      return a.nameKey < b.nameKey ? -1 : a.nameKey > b.nameKey ? 1 : 0
    case 'vmid':
      return x.vmid - y.vmid
    case 'node':
      return x.node < y.node ? -1 : x.node > y.node ? 1 : 0
    case 'newest':
      return x.newest - y.newest
    case 'size':
      return (x.newestSize ?? 0) - (y.newestSize ?? 0)
    case 'lastJob':
      return (
        (x.lastJob ? JOB_ORDER[x.lastJob.state]! : 5) -
          (y.lastJob ? JOB_ORDER[y.lastJob.state]! : 5) ||
        (x.lastJob?.time ?? 0) - (y.lastJob?.time ?? 0)
      )
    case 'coverage':
      return COVERAGE_ORDER[x.coverage]! - COVERAGE_ORDER[y.coverage]!
  }
}

/** The comparator of a sort: its key in its direction, then the id (a total, stable order). */
export function compareCoverage(
  key: CoverageSortKey,
  direction: SortDirection,
): (a: CoverageEntry, b: CoverageEntry) => number {
  const sign = direction === 'desc' ? -1 : 1
  return (a, b) => {
    const first = primary(key, a, b)
    if (first !== 0) return sign * first
    const p = a.entity.id
    const q = b.entity.id
    return p < q ? -1 : p > q ? 1 : 0
  }
}

let markStamp = 0

/**
 * Sort `entries` by `compare`. With the previous order of the same comparator, keep the entries
 * that are still there unchanged (same object, same rank) in their order and merge in the sorted
 * rest: O(n + k log k) for k changed entries instead of O(n log n).
 */
export function sortCoverage(
  derived: CoverageDerived,
  compare: (a: CoverageEntry, b: CoverageEntry) => number,
  previous: readonly CoverageEntry[] | null,
  byRank: boolean,
): CoverageEntry[] {
  const { entries, gen } = derived
  if (!previous) {
    const out = entries.slice().sort(compare)
    for (const entry of out) entry.sortedRank = entry.rank
    return out
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
  for (const entry of entries) if (entry.mark !== stamp) moved.push(entry)
  moved.sort(compare)
  for (const entry of moved) entry.sortedRank = entry.rank
  if (moved.length === 0) return kept
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
