import { RotateCcw, Search, X } from 'lucide-react'
import { useSnapshot } from 'valtio'
import { BUTTON, FOCUS_RING } from '../components/button-classes.ts'
import { ToggleGroup } from '../components/ToggleGroup.tsx'
import { defaultDashboardFilters, uiState } from '../state.ts'

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

/** Search text and toggles; the worker parses the search text, the UI only passes it on. */
export function FilterBar() {
  const filters = useSnapshot(uiState).dashboard
  const state = uiState.dashboard
  return (
    <div className="flex flex-wrap items-center gap-2">
      <div className="relative min-w-48 flex-1 sm:max-w-md">
        <Search
          className="pointer-events-none absolute top-1/2 left-2 size-4 -translate-y-1/2 text-gray-400"
          aria-hidden
        />
        <input
          type="search"
          aria-label="Search guests"
          placeholder="Search: name, cpu>80, tags:prod, node:pve1"
          value={filters.search}
          onChange={(event) => {
            state.search = event.target.value
          }}
          className={`w-full rounded-md border border-gray-300 bg-white py-1.5 pr-7 pl-8 text-sm placeholder:text-gray-400 dark:border-gray-600 dark:bg-gray-800 ${FOCUS_RING}`}
        />
        {filters.search && (
          <button
            type="button"
            aria-label="Clear search"
            onClick={() => {
              state.search = ''
            }}
            className={`absolute top-1/2 right-1.5 -translate-y-1/2 rounded p-0.5 text-gray-400 hover:text-gray-700 dark:hover:text-gray-200 ${FOCUS_RING}`}
          >
            <X className="size-3.5" aria-hidden />
          </button>
        )}
      </div>
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
      <button
        type="button"
        className={BUTTON.secondary}
        onClick={() => {
          uiState.dashboard = defaultDashboardFilters()
        }}
      >
        <RotateCcw className="size-3.5" aria-hidden />
        Reset
      </button>
    </div>
  )
}
