// The sticky header row of a windowed list of div cells (backups, coverage): a sortable header
// per column with a sort key, a plain one for the others.
import { SortableHeader } from './SortableHeader.tsx'

/** One column of a windowed list. */
export interface ListColumn<K extends string> {
  label: string
  /** The header's text when it differs from the label the cells are looked up by. */
  title?: string
  /** null: not sortable. */
  key: K | null
  /** Width classes of the header and its cells. */
  width: string
  right?: boolean
}

interface Props<K extends string> {
  columns: readonly ListColumn<K>[]
  sort: { key: K; direction: 'asc' | 'desc' }
  onSort: (key: K) => void
}

/** The header row; a click on a sortable cell sorts by its key. */
export function HeaderRow<K extends string>({ columns, sort, onSort }: Props<K>) {
  return (
    <div
      role="row"
      className="sticky top-0 z-10 flex h-8 items-center border-b border-gray-200 bg-gray-50 text-xs font-medium text-gray-600 dark:border-gray-800 dark:bg-gray-800 dark:text-gray-300"
    >
      {columns.map((column) => {
        const cell = `${column.width} shrink-0 px-2`
        const key = column.key
        if (key === null) {
          return (
            <div key={column.label} role="columnheader" className={cell}>
              {column.title ?? column.label}
            </div>
          )
        }
        return (
          <SortableHeader
            key={column.label}
            label={column.title ?? column.label}
            active={sort.key === key}
            direction={sort.direction}
            onSort={() => onSort(key)}
            align={column.right ? 'right' : 'left'}
            className={cell}
            fill
          />
        )
      })}
    </div>
  )
}
