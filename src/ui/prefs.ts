// Persists the user's preferences (spec 000 §3 "Local preferences"); src/shared/prefs validates.
//
// localStorage, not idb-keyval: it is synchronous, so main.tsx applies the saved filters before
// the first render and the first guest-view request to the worker already carries them (no flash
// of the default view, no second request). The value is a few hundred bytes of JSON.
import { subscribe } from 'valtio'
import { checkPrefs, defaultPrefs, type Prefs } from '../shared/prefs/schema.ts'
import { historyState } from './alerts/history-state.ts'
import { backupsState } from './backups/backups-state.ts'
import { uiState } from './state.ts'
import { storageState } from './storage/storage-state.ts'

/** localStorage key of the saved preferences (JSON). */
export const PREFS_KEY = 'pulse.prefs'

/** Preferences that live in src/ui state, read from it (search text is never persisted). */
function prefsFromState(base: Prefs): Prefs {
  const dashboard = uiState.dashboard
  return {
    // Keys no screen binds yet (storage/backups histories) keep their loaded values.
    ...base,
    dashboardViewMode: dashboard.viewMode,
    dashboardStatusMode: dashboard.statusMode,
    dashboardGroupingMode: dashboard.grouping,
    dashboardShowFilters: dashboard.showFilters,
    tableTrends: uiState.trends,
    dashboardSortKey: dashboard.sort.key,
    dashboardSortDirection: dashboard.sort.direction,
    dashboardSearchHistory: [...dashboard.searchHistory],
    storageViewMode: storageState.viewMode,
    storageSortKey: storageState.sort.key,
    storageSortDirection: storageState.sort.direction,
    storageSearchHistory: [...storageState.searchHistory],
    backupsSortKey: backupsState.sort.key,
    backupsSortDirection: backupsState.sort.direction,
    backupsUseRelativeTime: backupsState.useRelativeTime,
    backupsSearchHistory: [...backupsState.searchHistory],
    alertHistoryRange: historyState.range,
    alertHistorySeverity: historyState.severity,
  }
}

/** Writes validated preferences into the UI state. */
export function applyPrefs(prefs: Prefs): void {
  // Field by field (not Object.assign) so a schema value the view protocol lacks fails to compile.
  const dashboard = uiState.dashboard
  dashboard.viewMode = prefs.dashboardViewMode
  dashboard.statusMode = prefs.dashboardStatusMode
  dashboard.grouping = prefs.dashboardGroupingMode
  dashboard.showFilters = prefs.dashboardShowFilters
  uiState.trends = prefs.tableTrends
  dashboard.sort = { key: prefs.dashboardSortKey, direction: prefs.dashboardSortDirection }
  dashboard.searchHistory = prefs.dashboardSearchHistory
  storageState.viewMode = prefs.storageViewMode
  storageState.sort = { key: prefs.storageSortKey, direction: prefs.storageSortDirection }
  storageState.searchHistory = prefs.storageSearchHistory
  backupsState.sort = { key: prefs.backupsSortKey, direction: prefs.backupsSortDirection }
  backupsState.useRelativeTime = prefs.backupsUseRelativeTime
  backupsState.searchHistory = prefs.backupsSearchHistory
  historyState.range = prefs.alertHistoryRange
  historyState.severity = prefs.alertHistorySeverity
}

/**
 * Reads the saved preferences. Unreadable JSON or blocked storage gives the defaults, invalid
 * fields take their own defaults; either logs one warning.
 */
export function loadPrefs(storage: Storage | null = safeLocalStorage()): Prefs {
  let text: string | null
  try {
    text = storage ? storage.getItem(PREFS_KEY) : null
  } catch (error) {
    console.warn('Saved preferences could not be read; using defaults.', error)
    return defaultPrefs()
  }
  if (text === null) return defaultPrefs()
  let raw: unknown
  try {
    raw = JSON.parse(text)
  } catch (error) {
    console.warn('Saved preferences are not valid JSON; using defaults.', error)
    return defaultPrefs()
  }
  const { prefs, rejected } = checkPrefs(raw)
  if (rejected.length > 0) {
    console.warn(
      `Saved preferences outside their allowed values were reset: ${rejected.join(', ')}`,
    )
  }
  return prefs
}

/**
 * Loads the saved preferences into the UI state and saves them again whenever they change.
 * Call before the first render; returns a function that stops saving.
 */
export function startPrefs(storage: Storage | null = safeLocalStorage()): () => void {
  let base = loadPrefs(storage)
  applyPrefs(base)
  let saved = JSON.stringify(prefsFromState(base))
  let warned = false
  // valtio batches changes into one notification per tick, so no extra debounce is needed; the
  // string compare skips writes for changes that are not preferences (search text, theme).
  const save = () => {
    const next = prefsFromState(base)
    const text = JSON.stringify(next)
    if (text === saved) return
    base = next
    saved = text
    try {
      storage?.setItem(PREFS_KEY, text)
    } catch (error) {
      // Quota or blocked storage: keep working for this page, say so once.
      if (!warned) console.warn('Preferences could not be saved.', error)
      warned = true
    }
  }
  const stopUi = subscribe(uiState, save)
  const stopStorage = subscribe(storageState, save)
  const stopBackups = subscribe(backupsState, save)
  const stopHistory = subscribe(historyState, save)
  return () => {
    stopUi()
    stopStorage()
    stopBackups()
    stopHistory()
  }
}

/** localStorage, or null where merely touching it throws (sandboxed frames). */
function safeLocalStorage(): Storage | null {
  try {
    return globalThis.localStorage ?? null
  } catch {
    return null
  }
}
