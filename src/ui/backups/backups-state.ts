// The backups tab's UI state (valtio): what the user chose; the worker turns it into a view.
import { proxy } from 'valtio'
import { clearNodeSelection } from '../summary/selection.ts'
import type {
  BackupChartRange,
  BackupGrouping,
  BackupScope,
  BackupSortKey,
  BackupTypeFilter,
  BackupViewMode,
} from '../../shared/views/backups-types.ts'
import type { SortDirection } from '../../shared/views/guest-view-types.ts'

/** What Reset restores (spec 000 §4 Backups). */
export interface BackupsFilters {
  search: string
  viewMode: BackupViewMode
  typeFilter: BackupTypeFilter
  grouping: BackupGrouping
  sort: { key: BackupSortKey; direction: SortDirection }
  range: BackupChartRange
  /** Local day number chosen on the chart, or null. */
  selectedDay: number | null
  /** PBS namespace chosen in the selector, or null. */
  scope: BackupScope | null
}

export interface BackupsState extends BackupsFilters {
  /** Times shown as '3h ago' rather than a date (spec 000 §3 backupsUseRelativeTime). */
  useRelativeTime: boolean
  /** Past searches, newest first (spec 000 §5 "Search history"). */
  searchHistory: readonly string[]
}

/** Spec 000 §4 Reset: empty search, all views, by date, time descending, 30 days, no day. */
export function defaultBackupsFilters(): BackupsFilters {
  return {
    search: '',
    viewMode: 'all',
    typeFilter: 'all',
    grouping: 'date',
    sort: { key: 'backupTime', direction: 'desc' },
    range: 30,
    selectedDay: null,
    scope: null,
  }
}

/** The whole backups state at its defaults. */
export function defaultBackupsState(): BackupsState {
  return { ...defaultBackupsFilters(), useRelativeTime: false, searchHistory: [] }
}

export const backupsState = proxy<BackupsState>(defaultBackupsState())

/** Reset button and Escape: filters back to the defaults; history and time display kept. */
export function resetBackupsFilters(): void {
  Object.assign(backupsState, defaultBackupsFilters())
}

/** The Reset button: the filters and the node / namespace selector (the summary's selection). */
export function resetBackupsTab(): void {
  clearNodeSelection()
  resetBackupsFilters()
}

/** True when Reset would change something. */
export function hasActiveBackupsFilters(filters: BackupsFilters): boolean {
  const defaults = defaultBackupsFilters()
  const keys = Object.keys(defaults) as (keyof BackupsFilters)[]
  // Only the filter fields: the state also carries history and the time display.
  return keys.some((key) => JSON.stringify(filters[key]) !== JSON.stringify(defaults[key]))
}
