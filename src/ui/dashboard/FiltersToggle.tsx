import { SlidersHorizontal } from 'lucide-react'
import { useEffect, useRef, type RefObject } from 'react'
import { ICON_BUTTON } from '../components/SearchField.tsx'
import { uiState } from '../state.ts'

interface Props {
  /** The filter bar is shown. */
  expanded: boolean
  /** Id of the filter bar. */
  controls: string
  /** The search box: showing the bar with this button puts the cursor in it. */
  searchRef: RefObject<HTMLInputElement | null>
}

/**
 * Shows or hides the dashboard's filter bar, as Escape does (spec 000 §2.2). Always on screen, so
 * a bar hidden by Escape (and remembered across reloads) can be brought back without knowing the
 * key.
 */
export function FiltersToggle({ expanded, controls, searchRef }: Props) {
  const focusSearch = useRef(false)
  useEffect(() => {
    if (!expanded || !focusSearch.current) return
    focusSearch.current = false
    searchRef.current?.focus()
  }, [expanded, searchRef])
  return (
    <button
      type="button"
      aria-label="Filters"
      aria-expanded={expanded}
      aria-controls={expanded ? controls : undefined}
      aria-keyshortcuts="Escape"
      title={expanded ? 'Hide filters (Esc)' : 'Show filters (Esc)'}
      onClick={() => {
        focusSearch.current = !expanded
        uiState.dashboard.showFilters = !expanded
      }}
      className={`${ICON_BUTTON} inline-flex items-center gap-1 ${
        expanded ? '' : 'text-blue-700 dark:text-blue-300'
      }`}
    >
      <SlidersHorizontal className="size-4" aria-hidden />
      {!expanded && <span className="text-xs font-medium">Show filters</span>}
    </button>
  )
}
