import { useVirtualizer } from '@tanstack/react-virtual'
import { useEffect, useRef } from 'react'
import type {
  GuestSortKey,
  GuestViewModel,
  SortDirection,
  ViewWindow,
} from '../../shared/views/guest-view-types.ts'
import { FOCUS_RING } from '../components/button-classes.ts'
import { ROW_HEIGHT } from './columns.ts'
import { GroupRowView, GuestRowView, PendingRow } from './GuestRows.tsx'
import { GuestTableHeader } from './GuestTableHeader.tsx'

/** Windows snap to this many rows so small scrolls do not each cost a worker round trip. */
const WINDOW_STEP = 20
const OVERSCAN = 10

interface Props {
  model: GuestViewModel
  sort: { key: GuestSortKey; direction: SortDirection }
  onSort: (key: GuestSortKey) => void
  viewWindow: ViewWindow
  onWindowChange: (window: ViewWindow) => void
  /** Changes when filters or sort change; scrolls back to the top. */
  resetKey: string
}

/** The virtualised guest table: renders `rowCount` height and only the rows the worker sent. */
export function GuestTable({ model, sort, onSort, viewWindow, onWindowChange, resetKey }: Props) {
  const scrollRef = useRef<HTMLDivElement>(null)
  const virtualizer = useVirtualizer({
    count: model.rowCount,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: OVERSCAN,
    // The sticky header sits inside the scroller, above the rows.
    scrollMargin: ROW_HEIGHT,
    // Index keys (the default) keep measurements cached across models; a row key would not.
  })
  const items = virtualizer.getVirtualItems()
  const first = items[0]?.index
  const last = items[items.length - 1]?.index

  useEffect(() => {
    if (first === undefined || last === undefined) return
    const start = Math.floor(first / WINDOW_STEP) * WINDOW_STEP
    const end = Math.ceil((last + 1) / WINDOW_STEP) * WINDOW_STEP
    if (start !== viewWindow.start || end - start !== viewWindow.count) {
      onWindowChange({ start, count: end - start })
    }
  }, [first, last, viewWindow.start, viewWindow.count, onWindowChange])

  useEffect(() => {
    scrollRef.current?.scrollTo({ top: 0 })
  }, [resetKey])

  return (
    <div
      ref={scrollRef}
      role="table"
      aria-label="Guests"
      aria-rowcount={model.rowCount + 1}
      aria-colcount={11}
      tabIndex={0}
      className={`min-h-0 flex-1 overflow-auto rounded-md border border-gray-200 bg-white dark:border-gray-800 dark:bg-gray-900 ${FOCUS_RING}`}
    >
      <div className="min-w-[900px]">
        <GuestTableHeader sort={sort} onSort={onSort} />
        <div role="rowgroup" className="relative" style={{ height: virtualizer.getTotalSize() }}>
          {items.map((item) => {
            const row = model.rows[item.index - model.start]
            const rowIndex = item.index + 2
            const top = item.start - ROW_HEIGHT
            if (!row) return <PendingRow key={item.key} rowIndex={rowIndex} top={top} />
            return row.kind === 'group' ? (
              <GroupRowView key={item.key} row={row} rowIndex={rowIndex} top={top} />
            ) : (
              <GuestRowView key={item.key} row={row} rowIndex={rowIndex} top={top} />
            )
          })}
        </div>
      </div>
    </div>
  )
}
