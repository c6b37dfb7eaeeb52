import { ArrowDown, ArrowUp } from 'lucide-react'
import type { GuestSortKey, SortDirection } from '../../shared/views/guest-view-types.ts'
import { FOCUS_RING } from '../components/button-classes.ts'
import { GRID_COLUMNS, GUEST_COLUMNS } from './columns.ts'

interface Props {
  sort: { key: GuestSortKey; direction: SortDirection }
  onSort: (key: GuestSortKey) => void
}

/** Sticky header row; each header is a button (click, Enter or Space sorts). */
export function GuestTableHeader({ sort, onSort }: Props) {
  return (
    <div role="rowgroup" className="sticky top-0 z-10">
      <div
        role="row"
        aria-rowindex={1}
        className="grid h-9 items-center gap-x-2 border-b border-gray-200 bg-gray-50 px-3 text-xs font-semibold text-gray-600 uppercase dark:border-gray-700 dark:bg-gray-900 dark:text-gray-400"
        style={{ gridTemplateColumns: GRID_COLUMNS }}
      >
        {GUEST_COLUMNS.map((column) => {
          const active = sort.key === column.key
          const Arrow = sort.direction === 'asc' ? ArrowUp : ArrowDown
          return (
            <div
              key={column.key}
              role="columnheader"
              aria-sort={active ? (sort.direction === 'asc' ? 'ascending' : 'descending') : 'none'}
              className={column.numeric ? 'text-right' : 'text-left'}
            >
              <button
                type="button"
                onClick={() => onSort(column.key)}
                className={`inline-flex items-center gap-0.5 rounded px-0.5 tracking-wide uppercase hover:text-gray-900 dark:hover:text-gray-100 ${FOCUS_RING} ${
                  active ? 'text-blue-700 dark:text-blue-300' : ''
                }`}
              >
                {column.label}
                {active && <Arrow className="size-3" aria-hidden />}
              </button>
            </div>
          )
        })}
      </div>
    </div>
  )
}
