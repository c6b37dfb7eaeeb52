import { ArrowDown, ArrowUp } from 'lucide-react'
import { FOCUS_RING } from './button-classes.ts'

interface SortableHeaderProps {
  label: string
  /** This column is the sort key. */
  active: boolean
  direction: 'asc' | 'desc'
  onSort: () => void
  /** A `<th>` in a real table, or a `role="columnheader"` cell in a grid of divs. */
  as?: 'th' | 'div'
  align?: 'left' | 'right'
  /** Classes of the cell (width, padding, sticky, visibility). */
  className?: string
  /** The button spreads over the cell's width (its focus ring outlines the whole cell). */
  fill?: boolean
  /** Shown instead of `label` (a short label on a phone); `label` stays the accessible name. */
  display?: string
}

/**
 * The one sortable column header: aria-sort on the cell and a button inside it (Enter or Space).
 * A click anywhere in the cell sorts, its padding included: the label alone is a small target.
 * The button's own click bubbles to the cell, so it sorts once.
 */
export function SortableHeader({
  label,
  active,
  direction,
  onSort,
  as = 'div',
  align = 'left',
  className = '',
  fill = false,
  display,
}: SortableHeaderProps) {
  const Arrow = direction === 'asc' ? ArrowUp : ArrowDown
  const sort = active ? (direction === 'asc' ? 'ascending' : 'descending') : 'none'
  const button = (
    <button
      type="button"
      aria-label={display !== undefined && display !== label ? label : undefined}
      className={`items-center gap-0.5 rounded px-0.5 [letter-spacing:inherit] [text-transform:inherit] hover:text-gray-900 dark:hover:text-gray-100 ${FOCUS_RING} ${
        fill ? `flex w-full ${align === 'right' ? 'justify-end' : ''}` : 'inline-flex'
      } ${active ? 'text-blue-700 dark:text-blue-300' : ''}`}
    >
      {display ?? label}
      {active && <Arrow className="size-3" aria-hidden />}
    </button>
  )
  const cellClass = `cursor-pointer select-none ${align === 'right' ? 'text-right' : 'text-left'} ${className}`
  return as === 'th' ? (
    <th scope="col" aria-sort={sort} className={cellClass} onClick={onSort}>
      {button}
    </th>
  ) : (
    <div role="columnheader" aria-sort={sort} className={cellClass} onClick={onSort}>
      {button}
    </div>
  )
}
