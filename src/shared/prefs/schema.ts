// Local preferences (spec 000 §3 "Local preferences"): keys, allowed values, defaults, validation.
// Imports nothing (ARCHITECTURE.md). The allowed lists mirror the view protocol's lists in
// src/shared/views/guest-view-types.ts; tests/unit/shared/prefs checks that they stay equal, and
// src/ui/prefs.ts would stop compiling if a value here were not a valid view value.
import { SEARCH_HISTORY_MAX } from './search-history.ts'

/** Dashboard type filter values (spec 000 §4 "Dashboard filters"). */
export const DASHBOARD_VIEW_MODES = ['all', 'vm', 'lxc'] as const
/** Dashboard status filter values. */
export const DASHBOARD_STATUS_MODES = ['all', 'running', 'stopped'] as const
/** Dashboard layout values. */
export const DASHBOARD_GROUPING_MODES = ['grouped', 'flat'] as const
/** Guest table columns the dashboard can sort by. */
export const DASHBOARD_SORT_KEYS = [
  'name',
  'type',
  'vmid',
  'uptime',
  'cpu',
  'memory',
  'disk',
  'diskRead',
  'diskWrite',
  'networkIn',
  'networkOut',
] as const
/** Storage pool layouts (spec 000 §4 Storage); mirrors src/shared/views/storage-types.ts. */
export const STORAGE_VIEW_MODES = ['node', 'storage'] as const
/** Storage sort options (spec 000 §9); mirrors src/shared/views/storage-types.ts. */
export const STORAGE_SORT_KEYS = [
  'name',
  'node',
  'type',
  'status',
  'usage',
  'free',
  'total',
] as const
/** Backup sort options (spec 000 §9); mirrors src/shared/views/backups-types.ts. */
export const BACKUPS_SORT_KEYS = [
  'backupTime',
  'name',
  'node',
  'vmid',
  'backupType',
  'size',
  'storage',
  'verified',
  'type',
  'owner',
] as const
/** Alert history time filter (spec 001 §2); mirrors src/shared/views/alert-history-types.ts. */
export const ALERT_HISTORY_RANGES = ['24h', '7d', '30d', 'all'] as const
/** Alert history severity filter; mirrors src/shared/views/alert-history-types.ts. */
export const ALERT_HISTORY_SEVERITIES = ['all', 'critical', 'warning'] as const
/** Sort directions. */
export const SORT_DIRECTIONS = ['asc', 'desc'] as const

/** How one preference is checked: its default and a parser that returns undefined if invalid. */
export interface PrefField<T> {
  default: T
  parse: (raw: unknown) => T | undefined
}

/** A field whose value must be one of `allowed`. */
function oneOf<const T extends string>(allowed: readonly T[], fallback: T): PrefField<T> {
  return {
    default: fallback,
    parse: (raw) => ((allowed as readonly unknown[]).includes(raw) ? (raw as T) : undefined),
  }
}

/** A boolean field. */
function flag(fallback: boolean): PrefField<boolean> {
  return { default: fallback, parse: (raw) => (typeof raw === 'boolean' ? raw : undefined) }
}

/**
 * A search-history list: an array of at most SEARCH_HISTORY_MAX trimmed, non-empty strings with
 * no case-insensitive duplicates, i.e. only what addSearchHistory can produce.
 */
function history(): PrefField<readonly string[]> {
  return {
    default: [],
    parse: (raw) => {
      if (!Array.isArray(raw) || raw.length > SEARCH_HISTORY_MAX) return undefined
      const seen = new Set<string>()
      for (const entry of raw) {
        if (typeof entry !== 'string' || entry === '' || entry.trim() !== entry) return undefined
        const folded = entry.toLowerCase()
        if (seen.has(folded)) return undefined
        seen.add(folded)
      }
      return [...(raw as string[])]
    },
  }
}

/**
 * Every persisted preference. Add storage/backups keys here (e.g. `storageSortKey`) and bind them
 * in src/ui/prefs.ts; nothing else changes. darkMode stays with the theme code (THEME_KEY).
 */
export const PREF_FIELDS = {
  dashboardViewMode: oneOf(DASHBOARD_VIEW_MODES, 'all'),
  dashboardStatusMode: oneOf(DASHBOARD_STATUS_MODES, 'all'),
  dashboardGroupingMode: oneOf(DASHBOARD_GROUPING_MODES, 'grouped'),
  dashboardShowFilters: flag(true),
  /** The trend column (issue 25): last hour's sparkline in the guest, node and storage tables. */
  tableTrends: flag(false),
  dashboardSortKey: oneOf(DASHBOARD_SORT_KEYS, 'vmid'),
  dashboardSortDirection: oneOf(SORT_DIRECTIONS, 'asc'),
  dashboardSearchHistory: history(),
  storageViewMode: oneOf(STORAGE_VIEW_MODES, 'node'),
  storageSortKey: oneOf(STORAGE_SORT_KEYS, 'name'),
  storageSortDirection: oneOf(SORT_DIRECTIONS, 'asc'),
  storageSearchHistory: history(),
  backupsSearchHistory: history(),
  backupsSortKey: oneOf(BACKUPS_SORT_KEYS, 'backupTime'),
  backupsSortDirection: oneOf(SORT_DIRECTIONS, 'desc'),
  backupsUseRelativeTime: flag(false),
  alertHistoryRange: oneOf(ALERT_HISTORY_RANGES, '7d'),
  alertHistorySeverity: oneOf(ALERT_HISTORY_SEVERITIES, 'all'),
} as const

/** Name of a persisted preference. */
export type PrefKey = keyof typeof PREF_FIELDS

/** The validated preferences. */
export type Prefs = { [K in PrefKey]: (typeof PREF_FIELDS)[K]['default'] }

const PREF_KEYS = Object.keys(PREF_FIELDS) as PrefKey[]

/** Every preference at its default. */
export function defaultPrefs(): Prefs {
  const prefs: Record<string, unknown> = {}
  for (const key of PREF_KEYS) prefs[key] = PREF_FIELDS[key].default
  return prefs as Prefs
}

/** Validation result: the preferences and the keys that were present but rejected. */
export interface PrefsCheck {
  prefs: Prefs
  rejected: PrefKey[]
}

/**
 * Checks saved preferences field by field: a missing or invalid field takes its default without
 * affecting the others; unknown keys are ignored; anything that is not a plain object gives all
 * defaults. Never throws.
 */
export function checkPrefs(raw: unknown): PrefsCheck {
  const prefs: Record<string, unknown> = defaultPrefs()
  const rejected: PrefKey[] = []
  if (typeof raw === 'object' && raw !== null && !Array.isArray(raw)) {
    for (const key of PREF_KEYS) {
      // Own properties only: a key inherited from Object.prototype is not a saved value.
      if (!Object.hasOwn(raw, key)) continue
      const value = PREF_FIELDS[key].parse((raw as Record<string, unknown>)[key])
      if (value === undefined) rejected.push(key)
      else prefs[key] = value
    }
  }
  return { prefs: prefs as Prefs, rejected }
}

/** Saved preferences with every field outside its allowed values replaced by its default. */
export function validatePrefs(raw: unknown): Prefs {
  return checkPrefs(raw).prefs
}
