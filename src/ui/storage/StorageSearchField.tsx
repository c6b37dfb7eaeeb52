import { History, Search, X } from 'lucide-react'
import { useCallback, useId, useRef, useState, type FocusEvent, type RefObject } from 'react'
import { addSearchHistory, removeSearchHistory } from '../../shared/prefs/search-history.ts'
import { FOCUS_RING } from '../components/button-classes.ts'
import { SearchHistoryMenu } from '../dashboard/SearchHistoryMenu.tsx'
import { useDismiss } from '../hooks/useDismiss.ts'
import { storageState } from './storage-state.ts'

const ICON_BUTTON = `rounded-md border border-gray-300 bg-white p-1.5 text-gray-500 hover:text-gray-800 dark:border-gray-600 dark:bg-gray-800 dark:text-gray-400 dark:hover:text-gray-100 ${FOCUS_RING}`

/** Saves `text` to the storage search history (spec 000 §5); no write when nothing changes. */
export function saveStorageSearch(text: string): void {
  const next = addSearchHistory(storageState.searchHistory, text)
  if (next !== storageState.searchHistory) storageState.searchHistory = next
}

interface Props {
  inputRef: RefObject<HTMLInputElement | null>
  label: string
  placeholder: string
  value: string
  history: readonly string[]
  onChange: (value: string) => void
}

/**
 * Search box with clear and history buttons (the dashboard's behaviour: ArrowDown opens the
 * history, Enter or leaving the box saves the search). Shared by the pool and disk searches.
 */
export function StorageSearchField({
  inputRef,
  label,
  placeholder,
  value,
  history,
  onChange,
}: Props) {
  const group = useRef<HTMLDivElement>(null)
  const historyBox = useRef<HTMLDivElement>(null)
  const menuId = useId()
  // null: closed; `focus` counts ArrowDown presses, each one moves focus to the first entry.
  const [menu, setMenu] = useState<{ focus: number } | null>(null)
  const openWithFocus = () => setMenu((open) => ({ focus: (open?.focus ?? 0) + 1 }))
  const closeMenu = useCallback(
    (reason: 'escape' | 'outside') => {
      setMenu(null)
      if (reason === 'escape') inputRef.current?.focus()
    },
    [inputRef],
  )
  useDismiss(menu !== null, historyBox, closeMenu)
  const focusInput = useCallback(() => inputRef.current?.focus(), [inputRef])

  function onBlur(event: FocusEvent<HTMLInputElement>) {
    // Focus moving into the history dropdown does not count as a finished search.
    const next = event.relatedTarget
    if (next instanceof Element && next.closest('[data-search-popup]')) return
    saveStorageSearch(event.currentTarget.value)
  }

  return (
    <div
      ref={group}
      className="relative flex min-w-48 flex-1 basis-full items-center gap-1 sm:basis-auto md:max-w-md"
      onBlur={(event) => {
        if (!(event.relatedTarget instanceof Node && group.current?.contains(event.relatedTarget)))
          setMenu(null)
      }}
    >
      <div className="relative min-w-0 flex-1">
        <Search
          className="pointer-events-none absolute top-1/2 left-2 size-4 -translate-y-1/2 text-gray-400"
          aria-hidden
        />
        <input
          ref={inputRef}
          type="search"
          aria-label={label}
          aria-controls={menu ? menuId : undefined}
          aria-keyshortcuts="ArrowDown"
          placeholder={placeholder}
          value={value}
          onChange={(event) => onChange(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'Enter') saveStorageSearch(event.currentTarget.value)
            else if (event.key === 'ArrowDown') {
              event.preventDefault()
              openWithFocus()
            }
          }}
          onBlur={onBlur}
          className={`w-full rounded-md border border-gray-300 bg-white py-1.5 pr-7 pl-8 text-sm placeholder:text-gray-400 dark:border-gray-600 dark:bg-gray-800 ${FOCUS_RING}`}
        />
        {value && (
          <button
            type="button"
            aria-label="Clear search"
            onClick={() => {
              onChange('')
              inputRef.current?.focus()
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
              onChange(entry)
              saveStorageSearch(entry)
              setMenu(null)
              inputRef.current?.focus()
            }}
            onRemove={(entry) => {
              const next = removeSearchHistory(storageState.searchHistory, entry)
              if (next !== storageState.searchHistory) storageState.searchHistory = next
            }}
            onClear={() => {
              storageState.searchHistory = []
            }}
            onExit={focusInput}
          />
        )}
      </div>
    </div>
  )
}
