import { History, RotateCcw, Search, X } from 'lucide-react'
import { useCallback, useId, useRef, useState, type FocusEvent, type RefObject } from 'react'
import { useSnapshot } from 'valtio'
import { addSearchHistory, removeSearchHistory } from '../../shared/prefs/search-history.ts'
import { BUTTON, FOCUS_RING } from '../components/button-classes.ts'
import { ToggleGroup } from '../components/ToggleGroup.tsx'
import { useDismiss } from '../hooks/useDismiss.ts'
import { resetDashboardFilters, uiState } from '../state.ts'
import { SearchHistoryMenu } from './SearchHistoryMenu.tsx'
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

const ICON_BUTTON = `rounded-md border border-gray-300 bg-white p-1.5 text-gray-500 hover:text-gray-800 dark:border-gray-600 dark:bg-gray-800 dark:text-gray-400 dark:hover:text-gray-100 ${FOCUS_RING}`

/** Saves `text` to the dashboard search history (spec 000 §5); no write when nothing changes. */
function saveSearch(text: string): void {
  const state = uiState.dashboard
  const next = addSearchHistory(state.searchHistory, text)
  if (next !== state.searchHistory) state.searchHistory = next
}

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
      <SearchField searchRef={searchRef} search={filters.search} history={filters.searchHistory} />
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

interface SearchFieldProps {
  searchRef: RefObject<HTMLInputElement | null> | undefined
  search: string
  history: readonly string[]
}

/** Search box with clear, history and tips buttons; the history dropdown hangs below it. */
function SearchField({ searchRef, search, history }: SearchFieldProps) {
  const ownRef = useRef<HTMLInputElement>(null)
  const input = searchRef ?? ownRef
  const group = useRef<HTMLDivElement>(null)
  const historyBox = useRef<HTMLDivElement>(null)
  const menuId = useId()
  // null: closed; `focus` counts ArrowDown presses, each one moves focus to the first entry.
  const [menu, setMenu] = useState<{ focus: number } | null>(null)
  const openWithFocus = () => setMenu((open) => ({ focus: (open?.focus ?? 0) + 1 }))
  const closeMenu = useCallback(
    (reason: 'escape' | 'outside') => {
      setMenu(null)
      if (reason === 'escape') input.current?.focus()
    },
    [input],
  )
  useDismiss(menu !== null, historyBox, closeMenu)
  const focusInput = useCallback(() => input.current?.focus(), [input])

  function onBlur(event: FocusEvent<HTMLInputElement>) {
    // Focus moving into the history dropdown or the tips does not count as a finished search.
    const next = event.relatedTarget
    if (next instanceof Element && next.closest('[data-search-popup]')) return
    saveSearch(uiState.dashboard.search)
  }

  return (
    <div
      ref={group}
      className="relative flex min-w-48 flex-1 basis-full items-center gap-1 sm:basis-auto md:max-w-md"
      onBlur={(event) => {
        // Tabbing out of the whole search area closes the dropdown.
        if (!(
          event.relatedTarget instanceof Node && group.current?.contains(event.relatedTarget)
        )) {
          setMenu(null)
        }
      }}
    >
      <div className="relative min-w-0 flex-1">
        <Search
          className="pointer-events-none absolute top-1/2 left-2 size-4 -translate-y-1/2 text-gray-400"
          aria-hidden
        />
        <input
          ref={input}
          type="search"
          aria-label="Search guests"
          aria-controls={menu ? menuId : undefined}
          aria-keyshortcuts="ArrowDown"
          placeholder="Search: name, cpu>80, tags:prod"
          value={search}
          onChange={(event) => {
            uiState.dashboard.search = event.target.value
          }}
          onKeyDown={(event) => {
            if (event.key === 'Enter') saveSearch(event.currentTarget.value)
            else if (event.key === 'ArrowDown') {
              event.preventDefault()
              openWithFocus()
            }
          }}
          onBlur={onBlur}
          className={`w-full rounded-md border border-gray-300 bg-white py-1.5 pr-7 pl-8 text-sm placeholder:text-gray-400 dark:border-gray-600 dark:bg-gray-800 ${FOCUS_RING}`}
        />
        {search && (
          <button
            type="button"
            aria-label="Clear search"
            onClick={() => {
              uiState.dashboard.search = ''
              input.current?.focus()
            }}
            className={`absolute top-1/2 right-1.5 -translate-y-1/2 rounded p-0.5 text-gray-400 hover:text-gray-700 dark:hover:text-gray-200 ${FOCUS_RING}`}
          >
            <X className="size-3.5" aria-hidden />
          </button>
        )}
      </div>
      <div ref={historyBox} data-search-popup="">
        <button
          type="button"
          aria-label="Search history"
          aria-expanded={menu !== null}
          aria-controls={menu ? menuId : undefined}
          onClick={() => setMenu((open) => (open ? null : { focus: 0 }))}
          onKeyDown={(event) => {
            if (event.key !== 'ArrowDown') return
            event.preventDefault()
            openWithFocus()
          }}
          className={ICON_BUTTON}
        >
          <History className="size-4" aria-hidden />
        </button>
        {menu && (
          <SearchHistoryMenu
            id={menuId}
            entries={history}
            focusRequest={menu.focus}
            onPick={(entry) => {
              uiState.dashboard.search = entry
              saveSearch(entry)
              setMenu(null)
              input.current?.focus()
            }}
            onRemove={(entry) => {
              const state = uiState.dashboard
              const next = removeSearchHistory(state.searchHistory, entry)
              if (next !== state.searchHistory) state.searchHistory = next
            }}
            onClear={() => {
              uiState.dashboard.searchHistory = []
            }}
            onExit={focusInput}
          />
        )}
      </div>
      <SearchTips />
    </div>
  )
}
