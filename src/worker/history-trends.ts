// The trend column's sparklines (issue 25): the last hour of one metric for the rows on screen,
// fetched with the batch form of /api/history (at most HISTORY_BATCH_MAX ids a call), turned into
// typed arrays (NaN for a gap) and downsampled to the sparkline's width, peaks kept.
// Runs inside the worker. Imports only src/shared and src/worker.
import {
  HISTORY_BATCH_MAX,
  type HistoryAnswer,
  type HistoryBatchAnswer,
} from '../shared/model/history.ts'
import type { TrendData, TrendRequest } from '../shared/views/history-types.ts'
import type { FetchLike } from './alert-history-fetch.ts'
import { historyAnswerProblem, toChartSeries } from './history-fetch.ts'

/** Environment of the fetch; defaults are the browser's. */
export interface TrendsFetchDeps {
  fetch?: FetchLike
  /** Prefix of /api/... ('' = the worker's own origin). */
  baseUrl?: string
  warn?: (message: string) => void
}

// Same-origin GET: the session cookie goes along; reads need no CSRF header (spec 001 §7).
const INIT: RequestInit = {
  credentials: 'include',
  headers: { 'X-Requested-With': 'XMLHttpRequest', Accept: 'application/json' },
}

/** The batch URLs for `request`, one per HISTORY_BATCH_MAX ids (relative to `baseUrl`). */
export function trendUrls(request: Omit<TrendRequest, 'width'>, baseUrl = ''): string[] {
  const ids = [...new Set(request.ids)]
  const urls: string[] = []
  for (let i = 0; i < ids.length; i += HISTORY_BATCH_MAX) {
    const query = new URLSearchParams()
    for (const id of ids.slice(i, i + HISTORY_BATCH_MAX)) query.append('id', id)
    query.set('range', '1h')
    query.set('metrics', request.metric)
    urls.push(`${baseUrl}/api/history?${query}`)
  }
  return urls
}

async function readBatch(
  fetch: FetchLike,
  url: string,
  warn: (message: string) => void,
): Promise<HistoryAnswer[]> {
  const res = await fetch(url, INIT)
  if (!res.ok) throw new Error(`Failed to load trends (HTTP ${res.status})`)
  const body = (await res.json().catch(() => null)) as Partial<HistoryBatchAnswer> | null
  if (!body || !Array.isArray(body.items)) {
    warn(`[trends] ignored a malformed answer from ${url}: items`)
    return []
  }
  // One bad item costs its own sparkline, not the others'.
  return body.items.filter((item) => {
    const problem = historyAnswerProblem(item)
    if (problem) warn(`[trends] ignored a malformed item from ${url}: ${problem}`)
    return !problem
  })
}

/** Create the worker's `trends()`: the batches in parallel, one sparkline per id with data. */
export function createTrendsFetch(
  deps: TrendsFetchDeps = {},
): (request: TrendRequest) => Promise<TrendData> {
  const fetch: FetchLike = deps.fetch ?? ((url, init) => globalThis.fetch(url, init))
  const baseUrl = deps.baseUrl ?? ''
  const warn = deps.warn ?? ((message) => console.warn(message))
  return async (request) => {
    const batches = await Promise.all(
      trendUrls(request, baseUrl).map((url) => readBatch(fetch, url, warn)),
    )
    const out: TrendData = {}
    for (const items of batches) {
      for (const item of items) {
        const series = item.series[request.metric]
        if (series && series.time.length > 0) {
          out[item.resourceId] = toChartSeries(series, request.width)
        }
      }
    }
    return out
  }
}

/** The browser's trends fetch (same origin). */
export const fetchTrends = createTrendsFetch()
