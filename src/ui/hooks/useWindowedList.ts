// The windowed list of the worker's views (backups, alert history, backup coverage): a table on
// wide screens scrolling in its own box, cards on phones scrolling with the page; the virtualiser
// renders the rows in view and the worker is asked for that window only.
import { useVirtualizer } from '@tanstack/react-virtual'
import { useEffect, useRef } from 'react'
import type { ViewWindow } from '../../shared/views/guest-view-types.ts'
import { useMediaQuery } from './useMediaQuery.ts'
import { useListScroller } from './usePageScroller.ts'
import { useViewWindow } from './useViewWindow.ts'

export interface WindowedListOptions {
  rowCount: number
  /** A row's height in the current layout (`wide`: the table). */
  estimateSize: (index: number, wide: boolean) => number
  viewWindow: ViewWindow
  onWindowChange: (window: ViewWindow) => void
  /** Changes when filters or sort change: the list scrolls back to the top. */
  resetKey: string
}

/** The layout, the scroll box, the virtualiser and its items for one windowed list. */
export function useWindowedList(options: WindowedListOptions) {
  const { rowCount, estimateSize, viewWindow, onWindowChange, resetKey } = options
  const wide = useMediaQuery('(min-width: 1024px)')
  const scrollRef = useRef<HTMLDivElement>(null)
  // Cards scroll with the page: a box of their own left a sliver of list under the filters.
  const scroller = useListScroller(scrollRef, !wide)
  const virtualizer = useVirtualizer({
    count: rowCount,
    getScrollElement: scroller.getScrollElement,
    estimateSize: (index) => estimateSize(index, wide),
    overscan: 8,
    initialRect: { width: 1200, height: 600 },
    scrollMargin: scroller.offset,
  })
  const items = virtualizer.getVirtualItems()
  useViewWindow(items[0]?.index, items.at(-1)?.index, viewWindow, onWindowChange)
  useEffect(() => {
    if (!scroller.paged) scrollRef.current?.scrollTo({ top: 0 })
  }, [resetKey, scroller.paged])
  // Card and row heights differ: re-measure when the layout switches.
  useEffect(() => virtualizer.measure(), [virtualizer, wide])
  return { wide, scrollRef, scroller, virtualizer, items }
}
