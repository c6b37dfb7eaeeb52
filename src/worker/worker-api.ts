// The worker's Comlink API: socket lifecycle, connection snapshots and the view subscriptions.
// Runs inside the worker. Imports only src/shared and src/worker.
import type { ConnectionSnapshot, WorkerApi } from './api-types.ts'
import { createAlertAcks } from './alert-acks.ts'
import { fetchHistoryChart } from './history-fetch.ts'
import { fetchTrends } from './history-trends.ts'
import { setAlertConfigSource } from './alert-config-source.ts'
import { readDataReadiness } from './readiness.ts'
import { invokeCallback, releaseCallback } from './callbacks.ts'
import type { LiveEvent } from '../shared/model/live-events.ts'
import { toLiveEvent } from './live-events.ts'
import { createBrowserSocketDeps, createLiveSocket, type SocketDeps } from './socket.ts'
import { createPaletteSearch } from './palette.ts'
import { createStateStore, type StateStore } from './store.ts'
import { VIEW_KINDS } from './view-kinds.ts'
import { createViewSubscriptions, type ViewRegistry } from './view-subscriptions.ts'

/** Injectable environment of the API (tests); defaults are the browser's. */
export interface WorkerApiDeps {
  socket?: SocketDeps
  /** Schedules the coalesced recompute after data changes, in `delayMs`; default a timeout. */
  schedule?: (run: () => void, delayMs: number) => void
  store?: StateStore
  /** Epoch ms for the views that need today (backups); default Date.now. */
  now?: () => number
  /** The view kinds served; default VIEW_KINDS. */
  views?: ViewRegistry
}

/** Frame-sized batching: a burst of deltas costs one recompute per subscription. */
const FLUSH_DELAY_MS = 16
/**
 * While a first load streams in, views are recomputed at most this often after the first rows:
 * a cold view of a growing estate per chunk would cost more than the load itself.
 */
const LOAD_FLUSH_DELAY_MS = 300

/** Create the API that `worker.ts` exposes through Comlink. */
export function createWorkerApi(deps: WorkerApiDeps = {}): WorkerApi {
  const socketDeps = deps.socket ?? createBrowserSocketDeps()
  const schedule = deps.schedule ?? ((run, delayMs) => void globalThis.setTimeout(run, delayMs))
  const store = deps.store ?? createStateStore()
  const watchers = new Map<number, (snapshot: ConnectionSnapshot) => void>()
  const warn = socketDeps.warn
  const deliver = <T>(onModel: (model: T) => void, model: T) => invokeCallback(onModel, model, warn)
  const views = createViewSubscriptions(
    deps.views ?? VIEW_KINDS,
    { store, now: deps.now ?? Date.now },
    deliver,
  )
  const ackWatchers = new Map<number, (alertIds: string[]) => void>()
  const eventWatchers = new Map<number, (event: LiveEvent) => void>()
  const onMessage = (type: string, message: Record<string, unknown>) => {
    const result = toLiveEvent(type, message)
    if (result.kind === 'malformed') warn(`[socket] ignored a malformed message: ${result.reason}`)
    if (result.kind !== 'event') return
    for (const onEvent of eventWatchers.values()) invokeCallback(onEvent, result.event, warn)
  }
  // Straight to the views, not through the batched flush: the user's click shows at once.
  const acks = createAlertAcks(store, socketDeps, {
    onChange: () => views.flush(),
    onTimeout: (alertIds) => {
      for (const onTimeout of ackWatchers.values()) invokeCallback(onTimeout, alertIds, warn)
    },
  })
  let nextId = 1
  let lastSnapshot: ConnectionSnapshot | null = null
  let flushPending = false
  // 1 once the first load under way has painted its first guests (0 before, or with none).
  let loadFlushes = 0

  const getSnapshot = (): ConnectionSnapshot => {
    const { status, initialDataReceived, attempt, nextRetryAt } = socket.getState()
    const load = store.getLoad()
    return {
      status,
      initialDataReceived,
      attempt,
      lastUpdate: store.getLastUpdate(),
      ...readDataReadiness(store, initialDataReceived),
      nextRetryAt,
      nodeCount: store.getNodes().length,
      guestCount: store.getGuests().length,
      loading: load !== null,
      guestsExpected: load?.guests.total ?? 0,
      serverVersion: store.getServerVersion(),
    }
  }

  const pushConnection = () => {
    const snapshot = getSnapshot()
    if (lastSnapshot && sameSnapshot(lastSnapshot, snapshot)) return
    lastSnapshot = snapshot
    for (const onChange of watchers.values()) invokeCallback(onChange, snapshot, warn)
  }

  const flush = () => {
    flushPending = false
    views.flush()
    pushConnection()
  }

  const scheduleFlush = () => {
    const loading = store.getLoad() !== null
    if (!loading) loadFlushes = 0
    else if (loadFlushes === 0 && store.getGuests().length > 0) {
      // The first guests of a load: paint them now. A timer can wait behind the chunks still
      // streaming in, and the first rows are what the user is waiting for.
      loadFlushes = 1
      flush()
      return
    }
    if (flushPending) return
    flushPending = true
    schedule(flush, loading && loadFlushes > 0 ? LOAD_FLUSH_DELAY_MS : FLUSH_DELAY_MS)
  }

  const socket = createLiveSocket(
    store,
    { onStateChange: pushConnection, onData: scheduleFlush, onMessage },
    socketDeps,
  )

  return {
    connect: (options) => socket.connect(options),
    reconnectNow: () => socket.reconnectNow(),
    disconnect: () => socket.disconnect(),
    watchConnection(onChange) {
      const id = nextId++
      watchers.set(id, onChange)
      invokeCallback(onChange, getSnapshot(), warn)
      return id
    },
    subscribe(request, onModel) {
      const id = nextId++
      if (needsBackups(request)) socket.wantBackups()
      try {
        views.add(id, request, onModel)
      } catch (error) {
        // Refused (unknown kind): nothing will ever call or release this callback but here.
        releaseCallback(onModel, warn)
        throw error
      }
      return id
    },
    update(subscriptionId, request) {
      if (needsBackups(request)) socket.wantBackups()
      views.update(subscriptionId, request)
    },
    setAlertAck: (alertId, acknowledged) => acks.set(alertId, acknowledged),
    dropAlertAck: (alertId) => acks.drop(alertId),
    watchAlertAckTimeouts(onTimeout) {
      const id = nextId++
      ackWatchers.set(id, onTimeout)
      return id
    },
    watchEvents(onEvent) {
      const id = nextId++
      eventWatchers.set(id, onEvent)
      return id
    },
    setAlertConfig(config, version) {
      if (setAlertConfigSource(store, config, version)) views.flush()
    },
    unsubscribe(subscriptionId) {
      const watcher =
        watchers.get(subscriptionId) ??
        ackWatchers.get(subscriptionId) ??
        eventWatchers.get(subscriptionId)
      watchers.delete(subscriptionId)
      ackWatchers.delete(subscriptionId)
      eventWatchers.delete(subscriptionId)
      // Released after removal: the callback can no longer be called once its proxy is gone.
      releaseCallback(watcher ?? views.remove(subscriptionId), warn)
    },
    history: (request) => fetchHistoryChart(request),
    trends: (request) => fetchTrends(request),
    palette: createPaletteSearch(store),
  }
}

// Kinds that read the on-demand collections (the backups, the tasks, the guest summaries).
const BACKUP_KINDS: ReadonlySet<string> = new Set([
  'backups',
  'backupCoverage',
  'backupJobs',
  'guestBackup',
])

/** Views that show backups: the server sends those only once asked (delta mode 2). */
function needsBackups(request: { kind: string; tab?: unknown }): boolean {
  return (
    BACKUP_KINDS.has(request.kind) || (request.kind === 'nodeSummary' && request.tab === 'backups')
  )
}

function sameSnapshot(a: ConnectionSnapshot, b: ConnectionSnapshot): boolean {
  for (const key of Object.keys(a) as Array<keyof ConnectionSnapshot>) {
    if (a[key] !== b[key]) return false
  }
  return true
}
