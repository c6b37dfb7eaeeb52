import { ArrowDown, ArrowUp, History, RotateCcw, Search, X } from 'lucide-react'
import { useCallback, useId, useRef, useState, type FocusEvent, type RefObject } from 'react'
import { useSnapshot } from 'valtio'
import { addSearchHistory, removeSearchHistory } from '../../shared/prefs/search-history.ts'
import { BACKUP_SORT_KEYS, type BackupSortKey } from '../../shared/views/backups-types.ts'
import { BUTTON, FOCUS_RING } from '../components/button-classes.ts'
import { Switch } from '../components/Switch.tsx'
import { ToggleGroup } from '../components/ToggleGroup.tsx'
import { SearchHistoryMenu } from '../dashboard/SearchHistoryMenu.tsx'
import { useDismiss } from '../hooks/useDismiss.ts'
import { backupsState, resetBackupsFilters } from './backups-state.ts'

const VIEW_MODES = [
  { value: 'all', label: 'All' },
  { value: 'snapshot', label: 'Snapshots' },
  { value: 'pve', label: 'PVE' },
  { value: 'pbs', label: 'PBS' },
] as const
const GROUPINGS = [
  { value: 'date', label: 'By date' },
  { value: 'guest', label: 'By guest' },
] as const
/** Labels of the sort options (spec 000 §9: backupTime is 'Time'). */
export const SORT_LABELS: Record<BackupSortKey, string> = {
  backupTime: 'Time',
  name: 'Name',
  node: 'Node',
  vmid: 'VMID',
  backupType: 'Backup',
  size: 'Size',
  storage: 'Location',
  verified: 'Verified',
  type: 'Type',
  owner: 'Owner',
}

const CONTROL = `rounded-md border border-gray-300 bg-white px-2 py-1 text-xs dark:border-gray-600 dark:bg-gray-800 ${FOCUS_RING}`
const ICON_BUTTON = `rounded-md border border-gray-300 bg-white p-1.5 text-gray-500 hover:text-gray-800 dark:border-gray-600 dark:bg-gray-800 dark:text-gray-400 dark:hover:text-gray-100 ${FOCUS_RING}`

interface Props {
  searchRef: RefObject<HTMLInputElement | null>
  /** Host backups exist: the type filter offers Host (spec 000 §2.4). */
  hasHost: boolean
  /** The view mode in force (a selected PBS forces 'pbs'). */
  viewMode: (typeof VIEW_MODES)[number]['value']
  /** A PBS is selected: the view mode cannot change. */
  viewModeLocked: boolean
}

/** Saves `text` to the backups search history (spec 000 §5); no write when nothing changes. */
function saveSearch(text: string): void {
  const next = addSearchHistory(backupsState.searchHistory, text)
  if (next !== backupsState.searchHistory) backupsState.searchHistory = next
}

/** Search, view mode, type, grouping, sort, Reset and the relative-time toggle. */
export function BackupsFilterBar({ searchRef, hasHost, viewMode, viewModeLocked }: Props) {
  const filters = useSnapshot(backupsState)
  const types = [
    { value: 'all', label: 'All' },
    { value: 'VM', label: 'VM' },
    { value: 'LXC', label: 'LXC' },
    ...(hasHost || filters.typeFilter === 'Host' ? [{ value: 'Host', label: 'Host' }] : []),
  ] as { value: typeof filters.typeFilter; label: string }[]
  const relativeId = useId()
  return (
    <div className="flex flex-wrap items-center gap-2">
      <SearchField searchRef={searchRef} search={filters.search} history={filters.searchHistory} />
      <div className={viewModeLocked ? 'pointer-events-none opacity-60' : undefined}>
        <ToggleGroup
          label="Backup source"
          value={viewMode}
          options={VIEW_MODES}
          onChange={(value) => {
            backupsState.viewMode = value
          }}
        />
      </div>
      <ToggleGroup
        label="Guest type"
        value={filters.typeFilter}
        options={types}
        onChange={(value) => {
          backupsState.typeFilter = value
        }}
      />
      <ToggleGroup
        label="Grouping"
        value={filters.grouping}
        options={GROUPINGS}
        onChange={(value) => {
          backupsState.grouping = value
        }}
      />
      <label className="flex items-center gap-1 text-xs text-gray-600 dark:text-gray-300">
        Sort
        <select
          aria-label="Sort by"
          className={CONTROL}
          value={filters.sort.key}
          onChange={(event) => {
            backupsState.sort = {
              key: event.target.value as BackupSortKey,
              direction: backupsState.sort.direction,
            }
          }}
        >
          {BACKUP_SORT_KEYS.map((key) => (
            <option key={key} value={key}>
              {SORT_LABELS[key]}
            </option>
          ))}
        </select>
      </label>
      <button
        type="button"
        className={ICON_BUTTON}
        aria-label={filters.sort.direction === 'asc' ? 'Sort ascending' : 'Sort descending'}
        title="Change sort direction"
        onClick={() => {
          const { key, direction } = backupsState.sort
          backupsState.sort = { key, direction: direction === 'asc' ? 'desc' : 'asc' }
        }}
      >
        {filters.sort.direction === 'asc' ? (
          <ArrowUp className="size-4" aria-hidden />
        ) : (
          <ArrowDown className="size-4" aria-hidden />
        )}
      </button>
      <button type="button" className={BUTTON.secondary} onClick={resetBackupsFilters}>
        <RotateCcw className="size-3.5" aria-hidden />
        Reset
      </button>
      <span className="flex items-center gap-1.5 text-xs text-gray-600 dark:text-gray-300">
        <Switch
          id={relativeId}
          checked={filters.useRelativeTime}
          onChange={(checked) => {
            backupsState.useRelativeTime = checked
          }}
        />
        <label htmlFor={relativeId}>Relative time</label>
      </span>
    </div>
  )
}

interface SearchFieldProps {
  searchRef: RefObject<HTMLInputElement | null>
  search: string
  history: readonly string[]
}

/** Search box with clear and history buttons (as on the dashboard, over the backups history). */
function SearchField({ searchRef, search, history }: SearchFieldProps) {
  const group = useRef<HTMLDivElement>(null)
  const historyBox = useRef<HTMLDivElement>(null)
  const menuId = useId()
  const [menu, setMenu] = useState<{ focus: number } | null>(null)
  const openWithFocus = () => setMenu((open) => ({ focus: (open?.focus ?? 0) + 1 }))
  const closeMenu = useCallback(
    (reason: 'escape' | 'outside') => {
      setMenu(null)
      if (reason === 'escape') searchRef.current?.focus()
    },
    [searchRef],
  )
  useDismiss(menu !== null, historyBox, closeMenu)
  const focusInput = useCallback(() => searchRef.current?.focus(), [searchRef])

  function onBlur(event: FocusEvent<HTMLInputElement>) {
    // Focus moving into the history dropdown does not count as a finished search.
    const next = event.relatedTarget
    if (next instanceof Element && next.closest('[data-search-popup]')) return
    saveSearch(backupsState.search)
  }

  return (
    <div
      ref={group}
      className="relative flex min-w-48 flex-1 basis-full items-center gap-1 sm:basis-auto md:max-w-md"
      onBlur={(event) => {
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
          ref={searchRef}
          type="search"
          aria-label="Search backups"
          aria-controls={menu ? menuId : undefined}
          aria-keyshortcuts="ArrowDown"
          placeholder="Search: vmid, name, node, pbs:instance:datastore:namespace"
          value={search}
          onChange={(event) => {
            backupsState.search = event.target.value
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
              backupsState.search = ''
              searchRef.current?.focus()
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
              backupsState.search = entry
              saveSearch(entry)
              setMenu(null)
              searchRef.current?.focus()
            }}
            onRemove={(entry) => {
              const next = removeSearchHistory(backupsState.searchHistory, entry)
              if (next !== backupsState.searchHistory) backupsState.searchHistory = next
            }}
            onClear={() => {
              backupsState.searchHistory = []
            }}
            onExit={focusInput}
          />
        )}
      </div>
    </div>
  )
}
