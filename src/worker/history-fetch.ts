// One resource's metrics history for a chart (issue 25): GET /api/history/{id}, checked, turned
// into typed arrays (NaN for a gap) and downsampled to the chart's width so React only draws.
// Runs inside the worker. Imports only src/shared and src/worker.
import { isHistoryRange, type HistoryAnswer, type HistorySeries } from '../shared/model/history.ts'
import { downsampleSeries } from '../shared/views/downsample.ts'
import type {
  ChartSeriesData,
  HistoryChartData,
  HistoryChartRequest,
} from '../shared/views/history-types.ts'
import type { FetchLike } from './alert-history-fetch.ts'

/** Environment of the fetch; defaults are the browser's. */
export interface HistoryFetchDeps {
  fetch?: FetchLike
  /** Prefix of /api/... ('' = the worker's own origin). */
  baseUrl?: string
  /** Epoch ms, for the cache. */
  now?: () => number
  warn?: (message: string) => void
}

/** The same id, range and metrics within this long are answered from memory. */
const CACHE_MS = 15_000
/** Answers kept at most (the oldest goes first). */
const CACHE_MAX = 64

// Same-origin GET: the session cookie goes along; reads need no CSRF header (spec 001 §7).
const INIT: RequestInit = {
  credentials: 'include',
  headers: { 'X-Requested-With': 'XMLHttpRequest', Accept: 'application/json' },
}

const SOURCES = new Set(['proxmox', 'pulse', 'mixed'])

/** What is wrong with `value` as a HistoryAnswer, or null when it is one. */
export function historyAnswerProblem(value: unknown): string | null {
  if (!value || typeof value !== 'object') return 'not an object'
  const a = value as Partial<HistoryAnswer>
  if (typeof a.resourceId !== 'string') return 'resourceId'
  if (!isHistoryRange(a.range)) return 'range'
  if (typeof a.stepSeconds !== 'number' || !(a.stepSeconds > 0)) return 'stepSeconds'
  if (!SOURCES.has(a.source as string)) return 'source'
  if (!a.series || typeof a.series !== 'object') return 'series'
  for (const [metric, s] of Object.entries(a.series as Record<string, unknown>)) {
    const problem = seriesProblem(s)
    if (problem) return `series.${metric}.${problem}`
  }
  return null
}

function seriesProblem(value: unknown): string | null {
  if (!value || typeof value !== 'object') return 'not an object'
  const s = value as Partial<HistorySeries>
  if (!Array.isArray(s.time) || !s.time.every((t) => typeof t === 'number' && Number.isFinite(t)))
    return 'time'
  const n = s.time.length
  const valuesOk = (v: unknown): boolean =>
    Array.isArray(v) && v.length === n && v.every((x) => x === null || typeof x === 'number')
  if (!valuesOk(s.avg)) return 'avg'
  if (s.max !== undefined && !valuesOk(s.max)) return 'max'
  return null
}

function toFloat(values: readonly (number | null)[]): Float64Array {
  const out = new Float64Array(values.length)
  for (let i = 0; i < values.length; i++) out[i] = values[i] ?? NaN
  return out
}

/** One answered series as typed arrays (NaN for null), at most about `width` points. */
export function toChartSeries(series: HistorySeries, width: number): ChartSeriesData {
  const whole: ChartSeriesData = {
    time: Float64Array.from(series.time),
    avg: toFloat(series.avg),
    ...(series.max ? { max: toFloat(series.max) } : {}),
  }
  return downsampleSeries(whole, width)
}

/** The URL of one resource's history (relative to `baseUrl`). */
export function historyUrl(request: Omit<HistoryChartRequest, 'width'>, baseUrl = ''): string {
  const query = new URLSearchParams({ range: request.range })
  if (request.metrics?.length) query.set('metrics', request.metrics.join(','))
  return `${baseUrl}/api/history/${encodeURIComponent(request.resourceId)}?${query}`
}

async function readAnswer(
  fetch: FetchLike,
  url: string,
  warn: (message: string) => void,
): Promise<HistoryAnswer> {
  const res = await fetch(url, INIT)
  const body = (await res.json().catch(() => null)) as unknown
  if (!res.ok) {
    const message = (body as { message?: unknown } | null)?.message
    throw new Error(
      typeof message === 'string' && message
        ? message
        : `Failed to load history (HTTP ${res.status})`,
    )
  }
  const problem = historyAnswerProblem(body)
  if (problem) {
    warn(`[history] ignored a malformed answer from ${url}: ${problem}`)
    throw new Error('Failed to load history (unexpected answer)')
  }
  return body as HistoryAnswer
}

/** Create the worker's `history()`: fetch, check, convert, downsample; a 15 s cache. */
export function createHistoryFetch(
  deps: HistoryFetchDeps = {},
): (request: HistoryChartRequest) => Promise<HistoryChartData> {
  const fetch: FetchLike = deps.fetch ?? ((url, init) => globalThis.fetch(url, init))
  const baseUrl = deps.baseUrl ?? ''
  const now = deps.now ?? Date.now
  const warn = deps.warn ?? ((message) => console.warn(message))
  const cache = new Map<string, { at: number; answer: Promise<HistoryAnswer> }>()

  return async (request) => {
    const url = historyUrl(request, baseUrl)
    const at = now()
    let hit = cache.get(url)
    if (!hit || at - hit.at > CACHE_MS) {
      hit = { at, answer: readAnswer(fetch, url, warn) }
      cache.delete(url)
      cache.set(url, hit)
      if (cache.size > CACHE_MAX) cache.delete(cache.keys().next().value!)
      const mine = hit
      // A failure is not kept: the next ask tries again.
      mine.answer.catch(() => {
        if (cache.get(url) === mine) cache.delete(url)
      })
    }
    const answer = await hit.answer
    const series: HistoryChartData['series'] = {}
    for (const [metric, s] of Object.entries(answer.series)) {
      series[metric as keyof typeof series] = toChartSeries(s, request.width)
    }
    return {
      resourceId: answer.resourceId,
      range: answer.range,
      stepSeconds: answer.stepSeconds,
      source: answer.source,
      series,
    }
  }
}

/** The browser's history fetch (same origin), shared by every chart of the worker. */
export const fetchHistoryChart = createHistoryFetch()
