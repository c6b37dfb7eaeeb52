import { useEffect, useState } from 'react'
import type { HistoryMetric, HistoryRange } from '../../shared/model/history.ts'
import type { HistoryChartData } from '../../shared/views/history-types.ts'
import { useWorker } from '../worker-context.ts'

/** Short ranges move while one looks: they are fetched again this often. */
const REFRESH_MS = 60_000
const REFRESHED: ReadonlySet<HistoryRange> = new Set(['1h', '6h'])

/** What a history fetch has given so far; `data` stays the last answer while the next loads. */
export interface HistoryState {
  data: HistoryChartData | null
  /** Unix seconds the shown data ends at (the x window's right edge). */
  endSec: number
  loading: boolean
  error: string | null
}

/**
 * One resource's history from the worker, downsampled to `width`; fetched again when the range
 * or metrics change and every minute for 1h and 6h. An answer older than the last asked is
 * dropped. `width` 0 waits (the box is not measured yet).
 */
export function useHistory(
  resourceId: string,
  range: HistoryRange,
  metrics: readonly HistoryMetric[],
  width: number,
): HistoryState {
  const api = useWorker()
  const [state, setState] = useState<HistoryState>({
    data: null,
    endSec: 0,
    loading: true,
    error: null,
  })
  const metricsKey = metrics.join(',')

  useEffect(() => {
    if (width <= 0) return
    let live = true
    let asked = 0
    const load = () => {
      const mine = ++asked
      const endSec = Math.floor(Date.now() / 1000)
      setState((s) => ({ ...s, loading: true }))
      Promise.resolve(
        api.history({
          resourceId,
          range,
          metrics: metricsKey ? (metricsKey.split(',') as HistoryMetric[]) : undefined,
          width,
        }),
      ).then(
        (data) => {
          if (live && mine === asked) setState({ data, endSec, loading: false, error: null })
        },
        (err: unknown) => {
          if (!live || mine !== asked) return
          const error = err instanceof Error ? err.message : String(err)
          setState({ data: null, endSec, loading: false, error })
        },
      )
    }
    load()
    const timer = REFRESHED.has(range) ? setInterval(load, REFRESH_MS) : undefined
    return () => {
      live = false
      if (timer) clearInterval(timer)
    }
  }, [api, resourceId, range, metricsKey, width])

  return state
}
