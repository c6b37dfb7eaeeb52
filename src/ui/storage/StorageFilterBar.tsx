import { ArrowDownWideNarrow, ArrowUpNarrowWide, RotateCcw } from 'lucide-react'
import type { RefObject } from 'react'
import { useSnapshot } from 'valtio'
import { STORAGE_SORT_KEYS, type StorageSortKey } from '../../shared/views/storage-types.ts'
import { BUTTON, FOCUS_RING } from '../components/button-classes.ts'
import { SearchField } from '../components/SearchField.tsx'
import { ToggleGroup } from '../components/ToggleGroup.tsx'
import { resetStorageFilters, STORAGE_HISTORY, storageState } from './storage-state.ts'

const LAYOUTS = [
  { value: 'node', label: 'By Node' },
  { value: 'storage', label: 'By Storage' },
] as const

/** Labels of the sort options (spec 000 §9 storage sort options). */
export const SORT_LABELS: Record<StorageSortKey, string> = {
  name: 'Name',
  node: 'Node',
  type: 'Type',
  status: 'Status',
  usage: 'Usage',
  free: 'Free',
  total: 'Total',
}

/** Pools filter bar: search with history, By Node / By Storage, sort with direction, Reset. */
export function StorageFilterBar({ searchRef }: { searchRef: RefObject<HTMLInputElement | null> }) {
  const state = useSnapshot(storageState)
  const Direction = state.sort.direction === 'asc' ? ArrowUpNarrowWide : ArrowDownWideNarrow
  return (
    <div className="flex flex-wrap items-center gap-2">
      <SearchField
        inputRef={searchRef}
        label="Search storage"
        placeholder="Search: name, type, node:pve1"
        value={state.search}
        entries={state.searchHistory}
        history={STORAGE_HISTORY}
        onChange={(value) => {
          storageState.search = value
        }}
      />
      <ToggleGroup
        label="Group storage"
        value={state.viewMode}
        options={LAYOUTS}
        onChange={(value) => {
          storageState.viewMode = value
        }}
      />
      <label className="inline-flex items-center gap-1 text-xs text-gray-600 dark:text-gray-400">
        Sort
        <select
          aria-label="Sort storage by"
          value={state.sort.key}
          onChange={(event) => {
            storageState.sort.key = event.target.value as StorageSortKey
          }}
          className={`rounded-md border border-gray-300 bg-white px-1.5 py-1 text-sm text-gray-800 dark:border-gray-600 dark:bg-gray-800 dark:text-gray-100 ${FOCUS_RING}`}
        >
          {STORAGE_SORT_KEYS.map((key) => (
            <option key={key} value={key}>
              {SORT_LABELS[key]}
            </option>
          ))}
        </select>
      </label>
      <button
        type="button"
        aria-label={state.sort.direction === 'asc' ? 'Sort ascending' : 'Sort descending'}
        title="Toggle sort direction"
        onClick={() => {
          storageState.sort.direction = storageState.sort.direction === 'asc' ? 'desc' : 'asc'
        }}
        className={`rounded-md border border-gray-300 bg-white p-1.5 text-gray-600 hover:text-gray-900 dark:border-gray-600 dark:bg-gray-800 dark:text-gray-300 ${FOCUS_RING}`}
      >
        <Direction className="size-4" aria-hidden />
      </button>
      <button type="button" className={BUTTON.secondary} onClick={resetStorageFilters}>
        <RotateCcw className="size-3.5" aria-hidden />
        Reset
      </button>
    </div>
  )
}
