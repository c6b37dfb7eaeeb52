import { useCallback, useLayoutEffect, useState, type RefObject } from 'react'
import { useMediaQuery } from './useMediaQuery.ts'

/** Below this width a tab is one scrolling page: no list scrolls inside a box of its own. */
export const PHONE_QUERY = '(max-width: 639px)'

/** Where a virtualised list scrolls: its own box, or the page's `<main>` with an offset. */
export interface ListScroller {
  /** The list scrolls with the page (phones). */
  paged: boolean
  /** The scrolling element the virtualiser observes. */
  getScrollElement: () => HTMLElement | null
  /** Pixels from the top of the scrolled content to the list's first row. */
  offset: number
}

/**
 * A virtualised list that scrolls inside its own box on wide screens and with the whole page
 * when `paged` (phones): a nested scroll box there leaves a sliver of list under the filters.
 * `headerHeight` is the list's sticky header above its first row, inside `listRef`.
 */
export function useListScroller(
  listRef: RefObject<HTMLElement | null>,
  paged: boolean,
  headerHeight = 0,
): ListScroller {
  const [pageOffset, setPageOffset] = useState(0)
  const getScrollElement = useCallback(
    () => (paged ? (listRef.current?.closest('main') ?? null) : listRef.current),
    [listRef, paged],
  )
  useLayoutEffect(() => {
    if (!paged) return
    const list = listRef.current
    const main = list?.closest('main')
    if (!list || !main) return
    // The offset moves when anything above the list changes height (summary, filters wrapping).
    const measure = () => {
      const top = list.getBoundingClientRect().top - main.getBoundingClientRect().top
      setPageOffset(Math.round(top + main.scrollTop))
    }
    measure()
    const observer = new ResizeObserver(measure)
    for (const child of main.children) observer.observe(child)
    observer.observe(list)
    return () => observer.disconnect()
  }, [listRef, paged])
  return { paged, getScrollElement, offset: (paged ? pageOffset : 0) + headerHeight }
}

/** True on a phone-sized screen (see PHONE_QUERY). */
export function usePhone(): boolean {
  return useMediaQuery(PHONE_QUERY)
}
