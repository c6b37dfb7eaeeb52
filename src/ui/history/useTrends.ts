// The trend column's data (issue 25): one batch of last-hour sparklines for the rows on screen.
// Asked when the rows on screen settle (debounced: a scroll at 100,000 guests never asks per
// frame) and every minute; at most one batch in flight, a change meanwhile asks once after it.
import { useEffect, useRef, useState } from 'react'
import type { HistoryMetric } from '../../shared/model/history.ts'
import type { TrendData } from '../../shared/views/history-types.ts'
import { useWorker } from '../worker-context.ts'

/** Width of a sparkline in CSS pixels (the worker downsamples to it). */
export const TREND_WIDTH = 80
/** Quiet time after the rows on screen change before asking. */
export const TREND_DEBOUNCE_MS = 300
/** The last hour moves: asked again this often. */
export const TREND_REFRESH_MS = 60_000

const NONE: TrendData = Object.freeze({}) as TrendData

/**
 * Sparklines of `metric` for `ids` (the rows on screen), or nothing while `enabled` is false.
 * Pass the ids as one string (`ids.join('\n')`) so an equal window asks nothing new.
 */
export function useTrends(idsKey: string, metric: HistoryMetric, enabled: boolean): TrendData {
  const api = useWorker()
  const [data, setData] = useState<TrendData>(NONE)
  const wanted = useRef(idsKey)
  const loader = useRef<{ ask: () => void } | null>(null)

  useEffect(() => {
    if (!enabled) {
      setData(NONE)
      return
    }
    let live = true
    let inFlight = false
    let again = false
    const ask = () => {
      if (!live) return
      if (inFlight) {
        again = true
        return
      }
      const key = wanted.current
      const ids = key ? key.split('\n') : []
      if (ids.length === 0) return
      inFlight = true
      Promise.resolve(api.trends({ ids, metric, width: TREND_WIDTH }))
        .then((answer) => {
          if (!live) return
          // Rows still on screen keep their line until the new answer has one (no flicker).
          setData((prev) => {
            const next: TrendData = { ...answer }
            for (const id of wanted.current.split('\n')) {
              if (!next[id] && prev[id]) next[id] = prev[id]
            }
            return next
          })
        })
        .catch((error: unknown) => {
          // A failed refresh keeps the lines shown; the next minute tries again.
          console.warn('[trends] could not load', error)
        })
        .finally(() => {
          inFlight = false
          if (again && live) {
            again = false
            ask()
          }
        })
    }
    loader.current = { ask }
    ask()
    const timer = setInterval(ask, TREND_REFRESH_MS)
    return () => {
      live = false
      loader.current = null
      clearInterval(timer)
    }
  }, [api, metric, enabled])

  // A new window: ask once it has been still for TREND_DEBOUNCE_MS.
  const first = useRef(true)
  useEffect(() => {
    wanted.current = idsKey
    if (first.current) {
      first.current = false
      return
    }
    if (!enabled) return
    const timer = setTimeout(() => loader.current?.ask(), TREND_DEBOUNCE_MS)
    return () => clearTimeout(timer)
  }, [idsKey, enabled])

  return data
}
