// The guests of the Guest URLs tab, grouped by node and virtualised over the worker's window:
// 100,000 guests render only the rows in view. Row heights are measured (a validation text adds
// a line), estimated per layout until then.
import { useVirtualizer } from '@tanstack/react-virtual'
import { useEffect, useRef } from 'react'
import { FOCUS_RING } from '../../components/button-classes.ts'
import { useListScroller, usePhone } from '../../hooks/usePageScroller.ts'
import { useViewWindow } from '../../hooks/useViewWindow.ts'
import type { GuestUrlRow, GuestUrlsViewModel } from '../../../shared/views/guest-urls-types.ts'
import type { ViewWindow } from '../../../shared/views/guest-view-types.ts'
import { GuestUrlGroupRowView, GuestUrlRowView, ROW_GRID } from './GuestUrlRows.tsx'

const ROW_HEIGHT = 49
const PHONE_ROW_HEIGHT = 110
const HEADER_HEIGHT = 33
const COLUMNS = ['Name', 'Type', 'VMID', 'Custom URL', 'Actions'] as const

interface Props {
  model: GuestUrlsViewModel
  viewWindow: ViewWindow
  onWindowChange: (window: ViewWindow) => void
  valueOf: (row: GuestUrlRow) => string
  onChange: (row: GuestUrlRow, value: string) => void
}

export function GuestUrlTable({ model, viewWindow, onWindowChange, valueOf, onChange }: Props) {
  const phone = usePhone()
  const scrollRef = useRef<HTMLDivElement>(null)
  const scroller = useListScroller(scrollRef, phone, phone ? 0 : HEADER_HEIGHT)
  const virtualizer = useVirtualizer({
    count: model.rowCount,
    getScrollElement: scroller.getScrollElement,
    estimateSize: () => (phone ? PHONE_ROW_HEIGHT : ROW_HEIGHT),
    overscan: 8,
    initialRect: { width: 1000, height: 500 },
    scrollMargin: scroller.offset,
  })
  const items = virtualizer.getVirtualItems()
  useViewWindow(items[0]?.index, items.at(-1)?.index, viewWindow, onWindowChange)
  useEffect(() => {
    if (!scroller.paged) scrollRef.current?.scrollTo({ top: 0 })
  }, [model.search, scroller.paged])

  return (
    <div
      ref={scrollRef}
      role="table"
      aria-label="Guest URLs"
      aria-rowcount={model.rowCount + 1}
      tabIndex={0}
      className={`${
        scroller.paged ? '' : 'max-h-[65vh] overflow-auto'
      } rounded-md border border-gray-200 bg-white dark:border-gray-800 dark:bg-gray-900 ${FOCUS_RING}`}
    >
      <div
        role="row"
        aria-rowindex={1}
        style={phone ? undefined : { height: HEADER_HEIGHT }}
        className={`${phone ? 'sr-only' : `sticky top-0 z-10 ${ROW_GRID} items-center`} border-b border-gray-200 bg-gray-50 px-3 text-xs font-medium text-gray-600 dark:border-gray-800 dark:bg-gray-800 dark:text-gray-300`}
      >
        {COLUMNS.map((label) => (
          <div key={label} role="columnheader">
            {label}
          </div>
        ))}
      </div>
      <div role="rowgroup" className="relative" style={{ height: virtualizer.getTotalSize() }}>
        {items.map((item) => {
          const row = model.rows[item.index - model.window.start]
          const style = {
            position: 'absolute' as const,
            top: 0,
            left: 0,
            right: 0,
            transform: `translateY(${item.start - scroller.offset}px)`,
          }
          if (!row) {
            return (
              <div
                key={item.index}
                role="row"
                aria-rowindex={item.index + 2}
                aria-busy
                style={{ ...style, height: item.size }}
              />
            )
          }
          return row.kind === 'group' ? (
            <GuestUrlGroupRowView
              key={row.key}
              row={row}
              index={item.index}
              rowIndex={item.index + 2}
              style={style}
              measure={virtualizer.measureElement}
            />
          ) : (
            <GuestUrlRowView
              key={row.id}
              row={row}
              value={valueOf(row)}
              onChange={onChange}
              index={item.index}
              rowIndex={item.index + 2}
              style={style}
              measure={virtualizer.measureElement}
            />
          )
        })}
      </div>
    </div>
  )
}
