// The worker's Comlink API: socket lifecycle, connection snapshots and the view subscriptions.
// Runs inside the worker. Imports only src/shared and src/worker.
import type { ConnectionSnapshot, WorkerApi } from './api-types.ts'
import { readDataReadiness } from './readiness.ts'
import { invokeCallback, releaseCallback } from './callbacks.ts'
import { createBrowserSocketDeps, createLiveSocket, type SocketDeps } from './socket.ts'
import { createStateStore, type StateStore } from './store.ts'
import { VIEW_KINDS } from './view-kinds.ts'
import { createViewSubscriptions, type ViewRegistry } from './view-subscriptions.ts'

/** Injectable environment of the API (tests); defaults are the browser's. */
export interface WorkerApiDeps {
  socket?: SocketDeps
  /** Schedules the coalesced recompute after data changes; default a 16 ms timeout (one frame). */
  schedule?: (run: () => void) => void
  store?: StateStore
  /** Epoch ms for the views that need today (backups); default Date.now. */
  now?: () => number
  /** The view kinds served; default VIEW_KINDS. */
  views?: ViewRegistry
}

/** Frame-sized batching: a burst of deltas costs one recompute per subscription. */
const FLUSH_DELAY_MS = 16

/** Create the API that `worker.ts` exposes through Comlink. */
export function createWorkerApi(deps: WorkerApiDeps = {}): WorkerApi {
  const socketDeps = deps.socket ?? createBrowserSocketDeps()
  const schedule = deps.schedule ?? ((run) => void globalThis.setTimeout(run, FLUSH_DELAY_MS))
  const store = deps.store ?? createStateStore()
  const watchers = new Map<number, (snapshot: ConnectionSnapshot) => void>()
  const warn = socketDeps.warn
  const deliver = <T>(onModel: (model: T) => void, model: T) => invokeCallback(onModel, model, warn)
  const views = createViewSubscriptions(
    deps.views ?? VIEW_KINDS,
    { store, now: deps.now ?? Date.now },
    deliver,
  )
  let nextId = 1
  let lastSnapshot: ConnectionSnapshot | null = null
  let flushPending = false

  const getSnapshot = (): ConnectionSnapshot => {
    const { status, initialDataReceived, attempt, nextRetryAt } = socket.getState()
    return {
      status,
      initialDataReceived,
      attempt,
      lastUpdate: store.getLastUpdate(),
      ...readDataReadiness(store, initialDataReceived),
      nextRetryAt,
      nodeCount: store.getNodes().length,
      guestCount: store.getGuests().length,
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
    if (flushPending) return
    flushPending = true
    schedule(flush)
  }

  const socket = createLiveSocket(
    store,
    { onStateChange: pushConnection, onData: scheduleFlush },
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
      views.update(subscriptionId, request)
    },
    unsubscribe(subscriptionId) {
      const watcher = watchers.get(subscriptionId)
      watchers.delete(subscriptionId)
      // Released after removal: the callback can no longer be called once its proxy is gone.
      releaseCallback(watcher ?? views.remove(subscriptionId), warn)
    },
  }
}

function sameSnapshot(a: ConnectionSnapshot, b: ConnectionSnapshot): boolean {
  for (const key of Object.keys(a) as Array<keyof ConnectionSnapshot>) {
    if (a[key] !== b[key]) return false
  }
  return true
}
