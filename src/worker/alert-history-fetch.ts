// The alert history tab's two GETs: the rows (filtered and limited by the server) and the chart's
// summary. Runs inside the worker. Imports only src/shared and src/worker.
import type { AlertHistorySummary, HistoryAlert } from '../shared/model/alerts.ts'
import {
  HISTORY_ROW_LIMIT,
  planHistoryBuckets,
  type HistoryBucketPlan,
} from '../shared/views/alert-history.ts'
import type { AlertHistoryRequest } from '../shared/views/alert-history-types.ts'

/** What one fetch answers. */
export interface HistoryAnswer {
  rows: HistoryAlert[]
  total: number
  summary: AlertHistorySummary
  plan: HistoryBucketPlan
}

/** The fetch the worker uses: the browser's, or a test's. */
export type FetchLike = (url: string, init: RequestInit) => Promise<Response>

/** The two URLs (relative to `baseUrl`) for `request` at `now`. */
export function historyUrls(
  request: Pick<AlertHistoryRequest, 'range' | 'severity' | 'search' | 'bucket' | 'resourceId'>,
  now: number,
  baseUrl = '',
): { list: string; summary: string; plan: HistoryBucketPlan } {
  const plan = planHistoryBuckets(request.range, now)
  const filters: [string, string][] = []
  if (request.severity !== 'all') filters.push(['severity', request.severity])
  const q = request.search.trim()
  if (q) filters.push(['q', q])
  if (request.resourceId) filters.push(['resourceId', request.resourceId])
  // The chart keeps the whole range; a chosen bar narrows only the list.
  const summary = new URLSearchParams({ since: String(plan.since), until: String(plan.until) })
  for (const [key, value] of filters) summary.set(key, value)
  summary.set('bucketMs', String(plan.bucketMs))
  const since = request.bucket?.start ?? plan.since
  const until = request.bucket?.end ?? plan.until
  const list = new URLSearchParams({
    limit: String(HISTORY_ROW_LIMIT),
    since: String(since),
    until: String(until),
  })
  for (const [key, value] of filters) list.set(key, value)
  return {
    list: `${baseUrl}/api/alerts/history?${list}`,
    summary: `${baseUrl}/api/alerts/history/summary?${summary}`,
    plan,
  }
}

// Same-origin GETs: the session cookie goes along; reads need no CSRF header (spec 001 §7).
const INIT: RequestInit = {
  credentials: 'include',
  headers: { 'X-Requested-With': 'XMLHttpRequest', Accept: 'application/json' },
}

async function readJson(fetch: FetchLike, url: string, signal: AbortSignal): Promise<Response> {
  const res = await fetch(url, { ...INIT, signal })
  if (!res.ok) {
    throw new Error(`Failed to load alert history (HTTP ${res.status})`)
  }
  return res
}

/** Fetch both in parallel; rejects with a message fit to show. */
export async function fetchHistory(
  fetch: FetchLike,
  request: AlertHistoryRequest,
  now: number,
  baseUrl: string,
  signal: AbortSignal,
): Promise<HistoryAnswer> {
  const urls = historyUrls(request, now, baseUrl)
  const [listRes, summaryRes] = await Promise.all([
    readJson(fetch, urls.list, signal),
    readJson(fetch, urls.summary, signal),
  ])
  const rows = (await listRes.json()) as unknown
  const summary = (await summaryRes.json()) as AlertHistorySummary
  if (!Array.isArray(rows) || !summary || !Array.isArray(summary.buckets)) {
    throw new Error('Failed to load alert history (unexpected answer)')
  }
  const header = Number(listRes.headers.get('X-Total-Count'))
  // A server without the header (the reference) still gives a count: the rows it sent.
  const total = Number.isFinite(header) && header >= rows.length ? header : rows.length
  return {
    rows: (rows as HistoryAlert[]).slice(0, HISTORY_ROW_LIMIT),
    total,
    summary,
    plan: urls.plan,
  }
}
