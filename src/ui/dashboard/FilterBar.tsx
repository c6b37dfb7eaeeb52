import { RotateCcw } from 'lucide-react'
import type { RefObject } from 'react'
import { useSnapshot } from 'valtio'
import { BUTTON } from '../components/button-classes.ts'
import { SearchField, type SearchHistoryStore } from '../components/SearchField.tsx'
import { ToggleGroup } from '../components/ToggleGroup.tsx'
import { resetDashboardFilters, uiState } from '../state.ts'
import { SearchTips } from './SearchTips.tsx'

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
}

/** Search text and toggles; the worker parses the search text, the UI only passes it on. */
export function FilterBar({ searchRef }: FilterBarProps) {
  const filters = useSnapshot(uiState).dashboard
  const state = uiState.dashboard
  return (
    <div className="flex flex-wrap items-center gap-2">
      <SearchField
        inputRef={searchRef}
        label="Search guests"
        placeholder="Search: name, cpu>80, tags:prod"
        value={filters.search}
        onChange={(value) => {
          state.search = value
        }}
        entries={filters.searchHistory}
        history={HISTORY}
      >
        <SearchTips />
      </SearchField>
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
      <button type="button" className={BUTTON.secondary} onClick={resetDashboardFilters}>
        <RotateCcw className="size-3.5" aria-hidden />
        Reset
      </button>
    </div>
  )
}

/** The dashboard's saved search history. */
const HISTORY: SearchHistoryStore = {
  get: () => uiState.dashboard.searchHistory,
  set: (next) => {
    uiState.dashboard.searchHistory = next
  },
}
