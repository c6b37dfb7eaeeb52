import type { GuestSortKey, SortDirection } from '../../shared/views/guest-view-types.ts'
import { SortableHeader } from '../components/SortableHeader.tsx'
import { usePhone } from '../hooks/usePageScroller.ts'
import { GRID_CLASS, GUEST_COLUMNS, PHONE_ORDER } from './columns.ts'

interface Props {
  sort: { key: GuestSortKey; direction: SortDirection }
  onSort: (key: GuestSortKey) => void
  /** The trend column is on (issue 25): a last header, not sortable. */
  trends?: boolean
}

/** Sticky header row; each header is a button (click, Enter or Space sorts). */
export function GuestTableHeader({ sort, onSort, trends = false }: Props) {
  const phone = usePhone()
  return (
    <div role="rowgroup" className="sticky top-0 z-10">
      <div
        role="row"
        aria-rowindex={1}
        className={`${GRID_CLASS} grid h-9 items-stretch gap-x-2 border-b border-gray-200 bg-gray-50 px-3 text-xs font-semibold text-gray-600 uppercase dark:border-gray-700 dark:bg-gray-900 dark:text-gray-400`}
      >
        {GUEST_COLUMNS.map((column) => (
          <SortableHeader
            key={column.key}
            label={column.label}
            display={phone ? column.short : undefined}
            active={sort.key === column.key}
            direction={sort.direction}
            onSort={() => onSort(column.key)}
            align={column.numeric ? 'right' : 'left'}
            className={`flex items-center tracking-wide ${column.numeric ? 'justify-end' : ''} ${PHONE_ORDER[column.key]}`}
          />
        ))}
        {trends && (
          <div
            role="columnheader"
            title="CPU over the last hour"
            className={`flex items-center tracking-wide ${PHONE_ORDER.disk}`}
          >
            Trend
          </div>
        )}
      </div>
    </div>
  )
}
