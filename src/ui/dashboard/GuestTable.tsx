import { useVirtualizer } from '@tanstack/react-virtual'
import { useCallback, useEffect, useMemo, useRef, useState } from 'react'
import type {
  GuestSortKey,
  GuestViewModel,
  SortDirection,
  ViewWindow,
} from '../../shared/views/guest-view-types.ts'
import { FOCUS_RING } from '../components/button-classes.ts'
import { guestLink, useGuestMetadata } from '../hooks/useGuestMetadata.ts'
import { uiState } from '../state.ts'
import { ROW_HEIGHT } from './columns.ts'
import { GroupRowView, GuestRowView, PendingRow } from './GuestRows.tsx'
import { GuestTableHeader } from './GuestTableHeader.tsx'
import { useListScroller, usePhone } from '../hooks/usePageScroller.ts'
import { useViewWindow } from '../hooks/useViewWindow.ts'
import { useSnapshot } from 'valtio'
import { useTrends } from '../history/useTrends.ts'

/** sessionStorage key of the expanded guests (spec 000 §2.2: remembered for the session). */
export const EXPANDED_GUESTS_KEY = 'pulse.expandedGuests'

/** Windows snap to this many rows so small scrolls do not each cost a worker round trip. */
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
  const links = useGuestMetadata()
  const [expanded, setExpanded] = useState(loadExpanded)
  useEffect(() => saveExpanded(expanded), [expanded])
  const onToggle = useCallback((key: string) => {
    setExpanded((prev) => {
      const next = new Set(prev)
      if (!next.delete(key)) next.add(key)
      return next
    })
  }, [])
  const getItemKey = useOpenRowKeys(model, expanded, resetKey)
  // The sticky header sits inside the scroller, above the rows; on a phone the page scrolls.
  const scroller = useListScroller(scrollRef, usePhone(), ROW_HEIGHT)
  const virtualizer = useVirtualizer({
    count: model.rowCount,
    getScrollElement: scroller.getScrollElement,
    // Collapsed rows are never measured: they are ROW_HEIGHT. Only expanded rows attach the
    // virtualiser's measuring ref, under their own item key (see useOpenRowKeys).
    estimateSize: () => ROW_HEIGHT,
    getItemKey,
    overscan: OVERSCAN,
    scrollMargin: scroller.offset,
  })
  const items = virtualizer.getVirtualItems()
  const first = items[0]?.index
  const last = items[items.length - 1]?.index

  useViewWindow(first, last, viewWindow, onWindowChange)

  // The trend column asks for the guests on screen only (not the worker's overscan).
  const trendsOn = useSnapshot(uiState).trends
  let idsKey = ''
  if (trendsOn) {
    const ids: string[] = []
    for (const item of items) {
      const row = model.rows[item.index - model.start]
      if (row?.kind === 'guest' && row.active) ids.push(row.id)
    }
    idsKey = ids.join('\n')
  }
  const trends = useTrends(idsKey, 'cpu', trendsOn)

  useEffect(() => {
    // On a phone the page keeps its place: the filters the user just touched stay in view.
    if (!scroller.paged) scrollRef.current?.scrollTo({ top: 0 })
  }, [resetKey, scroller.paged])

  return (
    <div
      ref={scrollRef}
      role="table"
      aria-label="Guests"
      aria-rowcount={model.rowCount + 1}
      aria-colcount={trendsOn ? 12 : 11}
      tabIndex={0}
      className={`${
        scroller.paged ? 'shrink-0 overflow-x-auto' : 'min-h-0 flex-1 overflow-auto'
      } rounded-md border border-gray-200 bg-white dark:border-gray-800 dark:bg-gray-900 ${FOCUS_RING}`}
    >
      <div className={trendsOn ? 'with-trends min-w-[990px]' : 'min-w-[900px]'}>
        <GuestTableHeader sort={sort} onSort={onSort} trends={trendsOn} />
        <div role="rowgroup" className="relative" style={{ height: virtualizer.getTotalSize() }}>
          {items.map((item) => {
            const row = model.rows[item.index - model.start]
            const rowIndex = item.index + 2
            const top = item.start - scroller.offset
            // React keys by index: an item key changes on expand and must not remount the row.
            if (!row) return <PendingRow key={item.index} rowIndex={rowIndex} top={top} />
            return row.kind === 'group' ? (
              <GroupRowView key={item.index} row={row} rowIndex={rowIndex} top={top} />
            ) : (
              <GuestRowView
                key={item.index}
                row={row}
                rowIndex={rowIndex}
                index={item.index}
                top={top}
                expanded={expanded.has(row.key)}
                customUrl={guestLink(links, row)}
                onToggle={onToggle}
                onTag={addTagTerm}
                measure={virtualizer.measureElement}
                trends={trendsOn}
                trend={trends[row.id]}
              />
            )
          })}
        </div>
      </div>
    </div>
  )
}

/**
 * Item keys for the virtualiser: a row index, or `index:guestKey` where an expanded guest sits.
 * A collapsed row so never reuses an expanded row's measured height, and a guest expanded at an
 * index gets its own measurement. Positions of expanded rows that leave the worker's window are
 * remembered, so the total height does not jump while scrolling past them. The returned function
 * keeps its identity until the set of expanded positions changes (a new one costs the virtualiser
 * a pass over all rows).
 */
function useOpenRowKeys(
  model: GuestViewModel,
  expanded: ReadonlySet<string>,
  resetKey: string,
): (index: number) => number | string {
  const state = useRef({ resetKey, open: new Map<number, string>() })
  const signature = useMemo(() => {
    const memo = state.current
    if (memo.resetKey !== resetKey) memo.open = new Map()
    memo.resetKey = resetKey
    const open = memo.open
    model.rows.forEach((row, i) => {
      const index = model.start + i
      if (row.kind === 'guest' && row.detail && expanded.has(row.key)) open.set(index, row.key)
      else open.delete(index)
    })
    for (const index of open.keys()) if (index >= model.rowCount) open.delete(index)
    return JSON.stringify([...open])
  }, [model, expanded, resetKey])
  return useMemo(() => {
    const open = new Map(JSON.parse(signature) as [number, string][])
    return (index: number) => {
      const key = open.get(index)
      return key === undefined ? index : `${index}:${key}`
    }
  }, [signature])
}

/** A tag dot click: add `tags:<tag>` to the search unless that term is already there. */
function addTagTerm(tag: string): void {
  const term = /\s/.test(tag) ? `tags:"${tag}"` : `tags:${tag}`
  const search = uiState.dashboard.search
  if (search.split(/\s+/).includes(term)) return
  uiState.dashboard.search = search.trim() ? `${search.trimEnd()} ${term}` : term
}

function loadExpanded(): Set<string> {
  try {
    const saved: unknown = JSON.parse(sessionStorage.getItem(EXPANDED_GUESTS_KEY) ?? '[]')
    if (Array.isArray(saved)) return new Set(saved.filter((key) => typeof key === 'string'))
  } catch {
    // Corrupt or blocked storage: start with nothing expanded.
  }
  return new Set()
}

function saveExpanded(expanded: ReadonlySet<string>): void {
  try {
    sessionStorage.setItem(EXPANDED_GUESTS_KEY, JSON.stringify([...expanded]))
  } catch {
    // Not remembered when storage is blocked; expanding still works on this page.
  }
}
