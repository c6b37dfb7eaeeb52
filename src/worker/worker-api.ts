// The worker's Comlink API: socket lifecycle, connection snapshots and the view subscriptions.
// Runs inside the worker. Imports only src/shared and src/worker.
import { createGuestViewPipeline } from '../shared/views/guest-view.ts'
import type { ConnectionSnapshot, WorkerApi } from './api-types.ts'
import { readDataReadiness } from './readiness.ts'
import { createBackupsSubscriptions } from './backups-subscription.ts'
import { createNodeSummarySubscriptions } from './node-summary-subscription.ts'
import { createBrowserSocketDeps, createLiveSocket, type SocketDeps } from './socket.ts'
import { createStorageSubscriptions } from './storage-subscription.ts'
import { createStateStore, type StateStore } from './store.ts'
import { createViewSubscriptions } from './view-subscriptions.ts'

/** Injectable environment of the API (tests); defaults are the browser's. */
export interface WorkerApiDeps {
  socket?: SocketDeps
  /** Schedules the coalesced recompute after data changes; default a 16 ms timeout (one frame). */
  schedule?: (run: () => void) => void
  store?: StateStore
}

/** Frame-sized batching: a burst of deltas costs one recompute per subscription. */
const FLUSH_DELAY_MS = 16

/** Create the API that `worker.ts` exposes through Comlink. */
export function createWorkerApi(deps: WorkerApiDeps = {}): WorkerApi {
  const socketDeps = deps.socket ?? createBrowserSocketDeps()
  const schedule = deps.schedule ?? ((run) => void globalThis.setTimeout(run, FLUSH_DELAY_MS))
  const store = deps.store ?? createStateStore()
  const watchers = new Map<number, (snapshot: ConnectionSnapshot) => void>()
  const deliver = <T>(onModel: (model: T) => void, model: T) => invoke(onModel, model, socketDeps)
  const guestViews = createViewSubscriptions(
    () => ({
      guests: store.getGuests(),
      nodes: store.getNodes(),
      alerts: store.getCollection('activeAlerts'),
      stamp: store.getGuestStamp(),
      live: store.getGuestColumns(),
      lastUpdate: store.getLastUpdate(),
    }),
    createGuestViewPipeline,
    deliver,
  )
  const nodeSummaries = createNodeSummarySubscriptions(store, deliver)
  const storageViews = createStorageSubscriptions(store, deliver)
  const backupViews = createBackupsSubscriptions(store, deliver)
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
    for (const onChange of watchers.values()) invoke(onChange, snapshot, socketDeps)
  }

  const flush = () => {
    flushPending = false
    guestViews.flush()
    nodeSummaries.flush()
    backupViews.flush()
    storageViews.flush()
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
      invoke(onChange, getSnapshot(), socketDeps)
      return id
    },
    subscribeGuests(request, onModel) {
      const id = nextId++
      guestViews.add(id, request, onModel)
      return id
    },
    updateGuests(subscriptionId, request) {
      guestViews.update(subscriptionId, request)
    },
    subscribeNodeSummary(request, onModel) {
      const id = nextId++
      nodeSummaries.add(id, request, onModel)
      return id
    },
    updateNodeSummary(subscriptionId, request) {
      nodeSummaries.update(subscriptionId, request)
    },
    subscribeStorage(request, onModel) {
      const id = nextId++
      storageViews.add(id, request, onModel)
      return id
    },
    updateStorage(subscriptionId, request) {
      storageViews.update(subscriptionId, request)
    },
    subscribeBackups(request, onModel) {
      const id = nextId++
      backupViews.add(id, request, onModel)
      return id
    },
    updateBackups(subscriptionId, request) {
      backupViews.update(subscriptionId, request)
    },
    unsubscribe(subscriptionId) {
      watchers.delete(subscriptionId)
      guestViews.remove(subscriptionId)
      nodeSummaries.remove(subscriptionId)
      backupViews.remove(subscriptionId)
      storageViews.remove(subscriptionId)
    },
  }
}

function sameSnapshot(a: ConnectionSnapshot, b: ConnectionSnapshot): boolean {
  for (const key of Object.keys(a) as Array<keyof ConnectionSnapshot>) {
    if (a[key] !== b[key]) return false
  }
  return true
}

// Comlink proxies return promises; a closed page rejects them, which must not reach the worker.
function invoke<T>(callback: (value: T) => void, value: T, deps: SocketDeps): void {
  try {
    const result: unknown = callback(value)
    if (result instanceof Promise) {
      result.catch((error: unknown) => deps.warn('[worker] callback failed', error))
    }
  } catch (error) {
    deps.warn('[worker] callback failed', error)
  }
}
