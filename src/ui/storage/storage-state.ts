// The storage tab's UI state (valtio): what the user chose; the worker turns it into a view.
import { proxy } from 'valtio'
import type { SearchHistoryStore } from '../components/SearchField.tsx'
import type { SortDirection } from '../../shared/views/guest-view-types.ts'
import type {
  StorageSortKey,
  StorageTab,
  StorageViewMode,
} from '../../shared/views/storage-types.ts'

/** Filters Reset and Escape restore (spec 000 §4 Storage default: name ascending, by node). */
export interface StorageFilters {
  search: string
  diskSearch: string
  viewMode: StorageViewMode
  sort: { key: StorageSortKey; direction: SortDirection }
}

export interface StorageState extends StorageFilters {
  /** Sub-tab shown: Storage Pools or Physical Disks. */
  tab: StorageTab
  /** Past searches, newest first (spec 000 §5 "Search history"); pool and disk searches share it. */
  searchHistory: readonly string[]
  /** Keys of expanded Ceph rows, for the session. */
  expanded: string[]
}

/** Spec 000 §4 Storage defaults. */
export function defaultStorageFilters(): StorageFilters {
  return { search: '', diskSearch: '', viewMode: 'node', sort: { key: 'name', direction: 'asc' } }
}

/** The whole storage state at its defaults. */
export function defaultStorageState(): StorageState {
  return { ...defaultStorageFilters(), tab: 'pools', searchHistory: [], expanded: [] }
}

export const storageState = proxy<StorageState>(defaultStorageState())

/** The storage tab's saved search history (pool and disk searches share it). */
export const STORAGE_HISTORY: SearchHistoryStore = {
  get: () => storageState.searchHistory,
  set: (next) => {
    storageState.searchHistory = next
  },
}

/** Reset button and Escape: filters back to the defaults; sub-tab, history and expansion kept. */
export function resetStorageFilters(): void {
  Object.assign(storageState, defaultStorageFilters())
}

/** True when Reset would change something. */
export function hasActiveStorageFilters(filters: StorageFilters): boolean {
  const d = defaultStorageFilters()
  return (
    filters.search !== d.search ||
    filters.diskSearch !== d.diskSearch ||
    filters.viewMode !== d.viewMode ||
    filters.sort.key !== d.sort.key ||
    filters.sort.direction !== d.sort.direction
  )
}

/** Expands or collapses a Ceph row. */
export function toggleExpanded(key: string): void {
  const at = storageState.expanded.indexOf(key)
  if (at >= 0) storageState.expanded.splice(at, 1)
  else storageState.expanded.push(key)
}
