import type { RefObject } from 'react'
import { useSnapshot } from 'valtio'
import { FilterBar as Bar } from '../components/FilterBar.tsx'
import type { SearchHistoryStore } from '../components/SearchField.tsx'
import { ToggleGroup } from '../components/ToggleGroup.tsx'
import { resetDashboardFilters, uiState } from '../state.ts'
import { SearchTips } from './SearchTips.tsx'
import { TrendsToggle } from '../history/TrendsToggle.tsx'

const TYPES = [
  { value: 'all', label: 'All' },
  { value: 'vm', label: 'VMs' },
  { value: 'lxc', label: 'LXCs' },
] as const
const STATUSES = [
  { value: 'all', label: 'All' },
  { value: 'running', label: 'Running' },
  { value: 'stopped', label: 'Stopped' },
] as const
const LAYOUTS = [
  { value: 'grouped', label: 'Grouped' },
  { value: 'flat', label: 'List' },
] as const

interface FilterBarProps {
  /** The search box, for the page's global keys. */
  searchRef?: RefObject<HTMLInputElement | null>
  /** The bar's id, for the Filters button's aria-controls. */
  id?: string
}

/** Search text and toggles; the worker parses the search text, the UI only passes it on. */
export function FilterBar({ searchRef, id }: FilterBarProps) {
  const filters = useSnapshot(uiState).dashboard
  const state = uiState.dashboard
  return (
    <Bar
      id={id}
      label="Guest filters"
      search={{
        inputRef: searchRef,
        label: 'Search guests',
        placeholder: 'Search: name, cpu>80, tags:prod',
        value: filters.search,
        onChange: (value) => {
          state.search = value
        },
        entries: filters.searchHistory,
        history: HISTORY,
        children: <SearchTips />,
      }}
      onReset={resetDashboardFilters}
    >
      <ToggleGroup
        label="Guest type"
        value={filters.viewMode}
        options={TYPES}
        onChange={(value) => {
          state.viewMode = value
        }}
      />
      <ToggleGroup
        label="Guest status"
        value={filters.statusMode}
        options={STATUSES}
        onChange={(value) => {
          // Clicking the active option returns to All (spec 000 §2.2).
          state.statusMode = value === state.statusMode ? 'all' : value
        }}
      />
      <ToggleGroup
        label="Layout"
        value={filters.grouping}
        options={LAYOUTS}
        onChange={(value) => {
          state.grouping = value
        }}
      />
      <TrendsToggle />
    </Bar>
  )
}

/** The dashboard's saved search history. */
const HISTORY: SearchHistoryStore = {
  get: () => uiState.dashboard.searchHistory,
  set: (next) => {
    uiState.dashboard.searchHistory = next
  },
}
