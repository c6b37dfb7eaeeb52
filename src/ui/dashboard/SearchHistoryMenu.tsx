import { X } from 'lucide-react'
import { useEffect, useLayoutEffect, useRef, type KeyboardEvent } from 'react'
import { FOCUS_RING } from '../components/button-classes.ts'

interface SearchHistoryMenuProps {
  id: string
  entries: readonly string[]
  /** Each new positive value moves focus to the first entry (ArrowDown); 0 leaves focus alone. */
  focusRequest: number
  onPick: (entry: string) => void
  onRemove: (entry: string) => void
  onClear: () => void
  /** ArrowUp on the first entry: focus goes back to the search box. */
  onExit: () => void
}

/**
 * The search-history dropdown (spec 000 §2.2): one button per past search plus its remove
 * button, and 'Clear history'. It is a list of buttons rather than an ARIA listbox because an
 * option may not contain a button. ArrowUp/ArrowDown/Home/End move between entries, Enter picks,
 * Delete removes; Escape and outside clicks are handled by the owner (useDismiss).
 */
export function SearchHistoryMenu(props: SearchHistoryMenuProps) {
  const { id, entries, focusRequest, onPick, onRemove, onClear, onExit } = props
  const list = useRef<HTMLUListElement>(null)
  // After Delete removes an entry, focus lands on the entry that took its place.
  const refocus = useRef<number | null>(null)

  useEffect(() => {
    if (focusRequest > 0) entryButtons(list.current)[0]?.focus()
  }, [focusRequest])
  useLayoutEffect(() => {
    if (refocus.current === null) return
    const buttons = entryButtons(list.current)
    const target = buttons[Math.min(refocus.current, buttons.length - 1)]
    refocus.current = null
    if (target) target.focus()
    else onExit()
  }, [entries, onExit])

  function onKeyDown(event: KeyboardEvent<HTMLUListElement>) {
    const buttons = entryButtons(list.current)
    const row = (event.target as HTMLElement).closest('li')
    const index = row ? [...(list.current?.children ?? [])].indexOf(row) : -1
    if (index < 0) return
    let next: number | null = null
    if (event.key === 'ArrowDown') next = Math.min(index + 1, buttons.length - 1)
    else if (event.key === 'ArrowUp') next = index - 1
    else if (event.key === 'Home') next = 0
    else if (event.key === 'End') next = buttons.length - 1
    else if (event.key === 'Delete' || event.key === 'Backspace') {
      const entry = entries[index]
      if (entry === undefined) return
      event.preventDefault()
      refocus.current = index
      onRemove(entry)
      return
    } else return
    event.preventDefault()
    if (next < 0) onExit()
    else buttons[next]?.focus()
  }

  return (
    <div
      id={id}
      data-search-popup=""
      // Clicks must not take focus from the search box: its blur would save a half-typed search.
      onMouseDown={(event) => event.preventDefault()}
      className="absolute top-full left-0 z-30 mt-1 flex max-h-52 w-full min-w-56 flex-col overflow-hidden rounded-md border border-gray-200 bg-white text-sm shadow-lg dark:border-gray-700 dark:bg-gray-800"
    >
      {entries.length === 0 ? (
        <p className="px-3 py-2 text-xs text-gray-500 dark:text-gray-400">
          Searches you run will appear here.
        </p>
      ) : (
        <>
          <ul
            ref={list}
            aria-label="Recent searches"
            onKeyDown={onKeyDown}
            className="min-h-0 flex-1 overflow-y-auto py-1"
          >
            {entries.map((entry) => (
              <li key={entry} className="flex items-center gap-1 pr-1">
                <button
                  type="button"
                  data-history-entry=""
                  aria-keyshortcuts="Delete"
                  title={entry}
                  onClick={() => onPick(entry)}
                  className="min-w-0 flex-1 truncate px-3 py-1 text-left text-gray-800 hover:bg-gray-100 focus-visible:bg-blue-50 focus-visible:outline-none dark:text-gray-100 dark:hover:bg-gray-700 dark:focus-visible:bg-gray-700"
                >
                  {entry}
                </button>
                <button
                  type="button"
                  aria-label={`Remove "${entry}" from history`}
                  onClick={() => onRemove(entry)}
                  className={`shrink-0 rounded p-0.5 text-gray-400 hover:text-gray-700 dark:hover:text-gray-200 ${FOCUS_RING}`}
                >
                  <X className="size-3.5" aria-hidden />
                </button>
              </li>
            ))}
          </ul>
          <div className="shrink-0 border-t border-gray-200 px-2 py-1 dark:border-gray-700">
            <button
              type="button"
              onClick={onClear}
              className={`rounded px-1 py-0.5 text-xs font-medium text-blue-700 hover:underline dark:text-blue-400 ${FOCUS_RING}`}
            >
              Clear history
            </button>
          </div>
        </>
      )}
    </div>
  )
}

/** The entry buttons in order (not the remove buttons). */
function entryButtons(list: HTMLUListElement | null): HTMLButtonElement[] {
  return list ? [...list.querySelectorAll<HTMLButtonElement>('[data-history-entry]')] : []
}
