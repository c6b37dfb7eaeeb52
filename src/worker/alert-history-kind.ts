// The `alertHistory` view kind. Unlike the other kinds its data is not in the store: it is
// fetched from the server (which filters and pages 100,000 rows), so this entry implements
// ViewKindEntry itself and pushes when an answer lands. Runs inside the worker. Imports only
// src/shared and src/worker.
import {
  bucketLabel,
  formatHistoryRow,
  groupHistoryByDay,
  type HistoryListItem,
} from '../shared/views/alert-history.ts'
import type {
  AlertHistoryModel,
  AlertHistoryRequest,
  HistoryChartBucket,
  HistoryViewRow,
} from '../shared/views/alert-history-types.ts'
import { fetchHistory, type FetchLike, type HistoryAnswer } from './alert-history-fetch.ts'
import type { ViewKindEntry } from './view-subscriptions.ts'

/** Environment of the kind; defaults are the browser's. */
export interface AlertHistoryDeps {
  fetch?: FetchLike
  /** Prefix of /api/... ('' = the worker's own origin). */
  baseUrl?: string
  /** IANA zone for days and times; default the browser's. */
  timeZone?: string
  setTimer?: (run: () => void, ms: number) => unknown
  clearTimer?: (timer: unknown) => void
  /** Search typing is debounced by this much. */
  searchDelayMs?: number
  /** Live alert changes refetch at most this often. */
  liveRefetchMs?: number
}

const SEARCH_DELAY_MS = 200
const LIVE_REFETCH_MS = 5_000

/** What the loaded answer holds, grouped once per answer (the window only slices it). */
interface Loaded {
  answer: HistoryAnswer
  items: HistoryListItem[]
  buckets: HistoryChartBucket[]
}

/** The filters that need a fetch (the window does not). */
function queryKey(request: AlertHistoryRequest): string {
  const { range, severity, search, bucket, reload, resourceId } = request
  return JSON.stringify([
    range,
    severity,
    search.trim(),
    bucket?.start,
    bucket?.end,
    reload,
    resourceId ?? '',
  ])
}

/** Create the kind; VIEW_KINDS holds the browser's, tests build their own. */
export function createAlertHistoryKind(
  deps: AlertHistoryDeps = {},
): ViewKindEntry<AlertHistoryRequest, AlertHistoryModel> {
  const fetch: FetchLike = deps.fetch ?? ((url, init) => globalThis.fetch(url, init))
  const baseUrl = deps.baseUrl ?? ''
  const zone = deps.timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone
  const setTimer = deps.setTimer ?? ((run, ms) => globalThis.setTimeout(run, ms))
  const clearTimer =
    deps.clearTimer ??
    ((timer) => globalThis.clearTimeout(timer as ReturnType<typeof globalThis.setTimeout>))
  const searchDelay = deps.searchDelayMs ?? SEARCH_DELAY_MS
  const liveDelay = deps.liveRefetchMs ?? LIVE_REFETCH_MS

  return {
    open(sources, first, push, nextVersion) {
      const { store, now } = sources
      let request = first
      let key = queryKey(first)
      let loaded: Loaded | null = null
      let loading = false
      let error: string | null = null
      // Only the answer of the latest fetch is shown: a newer request wins.
      let fetchSeq = 0
      let controller: AbortController | null = null
      let searchTimer: unknown = null
      let liveTimer: unknown = null
      let lastFetchAt = -Infinity
      let closed = false
      let activeAlerts = store.getCollection('activeAlerts')
      let resolved = store.getCollection('recentlyResolved')

      const send = () => push({ ...buildModel(), version: nextVersion() })

      const buildModel = (): Omit<AlertHistoryModel, 'version'> => {
        const items = loaded?.items ?? []
        const { start, count } = request.window
        const from = Math.max(0, Math.min(start, items.length))
        const to = Math.min(items.length, from + Math.max(0, count))
        const rows: HistoryViewRow[] = []
        for (let i = from; i < to; i++) {
          const item = items[i]!
          rows.push(
            item.kind === 'day' ? item : formatHistoryRow(loaded!.answer.rows[item.index]!, zone),
          )
        }
        return {
          kind: 'alertHistory',
          loading,
          error,
          loaded: loaded !== null,
          total: loaded?.answer.total ?? 0,
          shown: loaded?.answer.rows.length ?? 0,
          bucketMs: loaded?.answer.plan.bucketMs ?? 0,
          buckets: loaded?.buckets ?? [],
          rowCount: items.length,
          start: from,
          rows,
        }
      }

      const load = () => {
        if (searchTimer !== null) clearTimer(searchTimer)
        searchTimer = null
        controller?.abort()
        const mine = (controller = new AbortController())
        const seq = ++fetchSeq
        const asked = request
        lastFetchAt = now()
        loading = true
        fetchHistory(fetch, asked, lastFetchAt, baseUrl, mine.signal).then(
          (answer) => {
            if (seq !== fetchSeq) return
            const at = now()
            loaded = {
              answer,
              items: groupHistoryByDay(answer.rows, at, zone),
              buckets: answer.summary.buckets.map((bucket) => ({
                start: bucket.start,
                end: bucket.end,
                count: bucket.count,
                critical: bucket.critical,
                warning: bucket.warning,
                label: bucketLabel(bucket.start, answer.plan.bucketMs, zone),
              })),
            }
            loading = false
            error = null
            send()
          },
          (reason: unknown) => {
            if (seq !== fetchSeq) return
            loading = false
            error =
              reason instanceof Error && reason.message.startsWith('Failed to load')
                ? reason.message
                : 'Failed to load alert history'
            send()
          },
        )
      }

      // Live alerts fired or resolved: refetch, at most once per liveDelay.
      const liveChanged = () => {
        if (liveTimer !== null || closed) return
        const wait = lastFetchAt + liveDelay - now()
        if (wait <= 0) {
          load()
          send()
          return
        }
        liveTimer = setTimer(
          () => {
            liveTimer = null
            load()
            send()
          },
          Math.max(wait, 0),
        )
      }

      load()
      send()

      return {
        update(next) {
          if (next.kind !== 'alertHistory') return false
          const nextKey = queryKey(next)
          const onlySearch =
            next.range === request.range &&
            next.severity === request.severity &&
            next.bucket?.start === request.bucket?.start &&
            next.bucket?.end === request.bucket?.end &&
            next.reload === request.reload &&
            next.resourceId === request.resourceId
          const reload = next.reload !== request.reload
          request = next
          if (nextKey !== key) {
            key = nextKey
            // What was cleared must not stay on screen while the refetch runs.
            if (reload) loaded = null
            if (onlySearch) {
              if (searchTimer !== null) clearTimer(searchTimer)
              // Typing: the list dims now and is asked for once the typing pauses.
              loading = true
              fetchSeq++
              searchTimer = setTimer(load, searchDelay)
            } else {
              load()
            }
          }
          send()
          return true
        },
        close() {
          closed = true
          fetchSeq++
          controller?.abort()
          if (searchTimer !== null) clearTimer(searchTimer)
          if (liveTimer !== null) clearTimer(liveTimer)
          searchTimer = liveTimer = null
        },
        refresh() {
          const nextActive = store.getCollection('activeAlerts')
          const nextResolved = store.getCollection('recentlyResolved')
          if (nextActive === activeAlerts && nextResolved === resolved) return
          activeAlerts = nextActive
          resolved = nextResolved
          liveChanged()
        },
      }
    },
  }
}
