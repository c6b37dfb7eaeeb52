import { RotateCcw } from 'lucide-react'
import type { ComponentProps, ReactNode } from 'react'
import { BUTTON } from './button-classes.ts'
import { SearchField } from './SearchField.tsx'

interface FilterBarProps {
  /** Names the bar for assistive technology ("Guest filters"). */
  label: string
  /** The bar's search field; every tab's search looks and behaves the same. */
  search: ComponentProps<typeof SearchField>
  /** Toggle groups, selects and sort controls, after the search. */
  children?: ReactNode
  /** Shows a Reset button that restores the tab's default filters. */
  onReset?: () => void
  /** Controls after Reset (the backups tab's relative-time switch). */
  trailing?: ReactNode
  id?: string
}

/**
 * The one filter bar of the app (dashboard, storage, backups, alert history): the search field
 * first, then the tab's own controls, then Reset; it wraps onto more lines on a narrow screen.
 */
export function FilterBar({ label, search, children, onReset, trailing, id }: FilterBarProps) {
  return (
    <div id={id} role="search" aria-label={label} className="flex flex-wrap items-center gap-2">
      <SearchField {...search} />
      {children}
      {onReset && (
        <button type="button" className={BUTTON.secondary} onClick={onReset}>
          <RotateCcw className="size-3.5" aria-hidden />
          Reset
        </button>
      )}
      {trailing}
    </div>
  )
}
