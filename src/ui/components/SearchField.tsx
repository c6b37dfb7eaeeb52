import { History, Search, X } from 'lucide-react'
import {
  useCallback,
  useId,
  useRef,
  useState,
  type FocusEvent,
  type ReactNode,
  type RefObject,
} from 'react'
import { addSearchHistory, removeSearchHistory } from '../../shared/prefs/search-history.ts'
import { SearchHistoryMenu } from '../dashboard/SearchHistoryMenu.tsx'
import { useDismiss } from '../hooks/useDismiss.ts'
import { FOCUS_RING } from './button-classes.ts'

export const ICON_BUTTON = `rounded-md border border-gray-300 bg-white p-1.5 text-gray-500 hover:text-gray-800 dark:border-gray-600 dark:bg-gray-800 dark:text-gray-400 dark:hover:text-gray-100 ${FOCUS_RING}`

/** Reads and replaces one saved search-history list (spec 000 §5), e.g. a valtio field. */
export interface SearchHistoryStore {
  get(): readonly string[]
  set(next: readonly string[]): void
}

/** Adds `text` to `history`; no write when nothing changes. */
export function saveToHistory(history: SearchHistoryStore, text: string): void {
  const current = history.get()
  const next = addSearchHistory(current, text)
  if (next !== current) history.set(next)
}

interface Props {
  /** The input, for the page's global keys (typing focuses the search). */
  inputRef?: RefObject<HTMLInputElement | null>
  label: string
  placeholder: string
  value: string
  onChange: (value: string) => void
  /** The history entries to list (a snapshot, so the menu re-renders when they change). */
  entries?: readonly string[]
  /** Saved searches (spec 000 §5); without it the field has no history button. */
  history?: SearchHistoryStore
  /** Extra controls after the history button (the dashboard's search tips). */
  children?: ReactNode
  /** Width classes of the whole field (default: grows in a filter bar, at most 28rem). */
  className?: string
}

const FIELD_WIDTH = 'min-w-48 flex-1 basis-full sm:basis-auto md:max-w-md'

/**
 * The one search box of the app: a magnifier, one clear button (ours; styles.css hides the
 * browser's) and, with `history`, the history menu: ArrowDown opens it, Enter or leaving the box
 * saves the search, Escape in the history returns to the box.
 */
export function SearchField({
  inputRef,
  label,
  placeholder,
  value,
  onChange,
  entries,
  history,
  children,
  className = FIELD_WIDTH,
}: Props) {
  const ownRef = useRef<HTMLInputElement>(null)
  const input = inputRef ?? ownRef
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
    if (history) saveToHistory(history, event.currentTarget.value)
  }

  return (
    <div
      ref={group}
      data-search-field=""
      className={`relative flex items-center gap-1 ${className}`}
      onBlur={(event) => {
        // Tabbing out of the whole search area closes the dropdown.
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
          ref={input}
          type="search"
          aria-label={label}
          aria-controls={menu ? menuId : undefined}
          aria-keyshortcuts={history ? 'ArrowDown' : undefined}
          placeholder={placeholder}
          value={value}
          onChange={(event) => onChange(event.target.value)}
          onKeyDown={(event) => {
            if (!history) return
            if (event.key === 'Enter') saveToHistory(history, event.currentTarget.value)
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
              input.current?.focus()
            }}
            className={`absolute top-1/2 right-1.5 -translate-y-1/2 rounded p-0.5 text-gray-400 hover:text-gray-700 dark:hover:text-gray-200 ${FOCUS_RING}`}
          >
            <X className="size-3.5" aria-hidden />
          </button>
        )}
      </div>
      {history && (
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
              entries={entries ?? []}
              focusRequest={menu.focus}
              onPick={(entry) => {
                onChange(entry)
                saveToHistory(history, entry)
                setMenu(null)
                input.current?.focus()
              }}
              onRemove={(entry) => {
                const current = history.get()
                const next = removeSearchHistory(current, entry)
                if (next !== current) history.set(next)
              }}
              onClear={() => history.set([])}
              onExit={focusInput}
            />
          )}
        </div>
      )}
      {children}
    </div>
  )
}
