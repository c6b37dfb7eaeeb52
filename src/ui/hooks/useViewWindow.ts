import { useEffect } from 'react'
import type { ViewWindow } from '../../shared/views/guest-view-types.ts'

/** Rows the worker formats at a time: the window moves in steps, not on every scrolled row. */
const WINDOW_STEP = 20

/**
 * Asks the worker for the rows from `first` to `last` (the virtualiser's rendered range), rounded
 * out to whole steps, whenever that differs from the window it already sends.
 */
export function useViewWindow(
  first: number | undefined,
  last: number | undefined,
  current: ViewWindow,
  onWindowChange: (window: ViewWindow) => void,
): void {
  useEffect(() => {
    if (first === undefined || last === undefined) return
    const start = Math.floor(first / WINDOW_STEP) * WINDOW_STEP
    const end = Math.ceil((last + 1) / WINDOW_STEP) * WINDOW_STEP
    if (start !== current.start || end - start !== current.count) {
      onWindowChange({ start, count: end - start })
    }
  }, [first, last, current.start, current.count, onWindowChange])
}
