import type { RefObject } from 'react'
import { useSnapshot } from 'valtio'
import { STORAGE_SORT_KEYS, type StorageSortKey } from '../../shared/views/storage-types.ts'
import { FilterBar } from '../components/FilterBar.tsx'
import { SortControl } from '../components/SortControl.tsx'
import { ToggleGroup } from '../components/ToggleGroup.tsx'
import { TrendsToggle } from '../history/TrendsToggle.tsx'
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
  return (
    <FilterBar
      label="Storage filters"
      search={{
        inputRef: searchRef,
        label: 'Search storage',
        placeholder: 'Search: name, type, node:pve1',
        value: state.search,
        entries: state.searchHistory,
        history: STORAGE_HISTORY,
        onChange: (value) => {
          storageState.search = value
        },
      }}
      onReset={resetStorageFilters}
    >
      <ToggleGroup
        label="Group storage"
        value={state.viewMode}
        options={LAYOUTS}
        onChange={(value) => {
          storageState.viewMode = value
        }}
      />
      <SortControl
        label="Sort storage by"
        keys={STORAGE_SORT_KEYS}
        labels={SORT_LABELS}
        sort={state.sort}
        onKey={(key) => {
          storageState.sort.key = key
        }}
        onToggleDirection={() => {
          storageState.sort.direction = storageState.sort.direction === 'asc' ? 'desc' : 'asc'
        }}
      />
      <TrendsToggle />
    </FilterBar>
  )
}
