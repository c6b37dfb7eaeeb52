// The live socket's lifecycle (spec 000 §4 live connection, §9 backoff and ping).
// Runs inside the worker. Imports only src/shared and src/worker.
import {
  BACKUPS_QUERY_PARAM,
  DELTA_PROTOCOL_VERSION,
  DELTA_QUERY_PARAM,
  type ClientMessage,
} from '../shared/model/messages.ts'
import type { ConnectOptions, ConnectionStatus } from './api-types.ts'
import { measure, parseServerMessage } from './parse-message.ts'
import type { StateStore, StoreChange } from './store.ts'

/** Client ping interval. */
export const PING_INTERVAL_MS = 25_000
/** Backoff base (doubles per attempt) and cap. */
export const BACKOFF_BASE_MS = 1000
export const BACKOFF_MAX_MS = 30_000

/** The part of a WebSocket the lifecycle uses; the browser's WebSocket satisfies it. */
export interface SocketLike {
  readonly readyState: number
  /** Binary frames (the metrics frame of delta mode 2) arrive as ArrayBuffers. */
  binaryType?: string
  onopen: ((event: unknown) => void) | null
  onclose: ((event: { code: number; reason: string }) => void) | null
  onmessage: ((event: { data: unknown }) => void) | null
  onerror: ((event: unknown) => void) | null
  send(data: string): void
  close(code?: number, reason?: string): void
}

/** Injectable environment: tests drive the lifecycle with a fake socket and fake timers. */
export interface SocketDeps {
  createSocket(url: string): SocketLike
  setTimeout(run: () => void, ms: number): unknown
  clearTimeout(handle: unknown): void
  setInterval(run: () => void, ms: number): unknown
  clearInterval(handle: unknown): void
  now(): number
  warn(...args: unknown[]): void
}

/** The lifecycle state the worker reports in connection snapshots. */
export interface LiveSocketState {
  status: ConnectionStatus
  initialDataReceived: boolean
  attempt: number
  nextRetryAt: number | null
}

/** A live socket feeding a store. */
export interface LiveSocket {
  connect(options: ConnectOptions): void
  reconnectNow(): void
  disconnect(): void
  /** Ask for the backups (delta mode 2 sends them on demand); remembered across reconnects. */
  wantBackups(): void
  getState(): Readonly<LiveSocketState>
}

/** Callbacks of the live socket. */
export interface LiveSocketHandlers {
  /** The lifecycle state changed. */
  onStateChange?(): void
  /** A full state or delta changed the store. */
  onData?(changed: ReadonlySet<StoreChange>): void
  /** Any other well-formed server message (alerts, discovery, settings…). */
  onMessage?(type: string, message: Record<string, unknown>): void
}

const OPEN = 1

/** Backoff before reconnect attempt n (0-based): min(1000·2^n, 30000) ms. */
export function getBackoffDelay(attempt: number): number {
  return Math.min(BACKOFF_BASE_MS * 2 ** attempt, BACKOFF_MAX_MS)
}

/** Extra delay before the socket of attempt n (1-based) is created: min(100·n, 1000) ms. */
export function getExtraDelay(attempt: number): number {
  return Math.min(100 * attempt, 1000)
}

/** The browser environment: real WebSocket, timers and clock. */
export function createBrowserSocketDeps(): SocketDeps {
  return {
    createSocket: (url) => {
      const socket = new WebSocket(url)
      socket.binaryType = 'arraybuffer'
      return socket as unknown as SocketLike
    },
    setTimeout: (run, ms) => globalThis.setTimeout(run, ms),
    clearTimeout: (handle) => globalThis.clearTimeout(handle as number),
    setInterval: (run, ms) => globalThis.setInterval(run, ms),
    clearInterval: (handle) => globalThis.clearInterval(handle as number),
    now: () => Date.now(),
    warn: (...args) => console.warn(...args),
  }
}

/** Create the socket lifecycle over `store`. Nothing happens until `connect`. */
export function createLiveSocket(
  store: StateStore,
  handlers: LiveSocketHandlers = {},
  deps: SocketDeps = createBrowserSocketDeps(),
): LiveSocket {
  const state: LiveSocketState = {
    status: 'disconnected',
    initialDataReceived: false,
    attempt: 0,
    nextRetryAt: null,
  }
  let options: ConnectOptions | null = null
  let socket: SocketLike | null = null
  let retryTimer: unknown = null
  let pingTimer: unknown = null
  let backupsWanted = false

  const emit = () => handlers.onStateChange?.()
  const send = (message: ClientMessage) => {
    if (socket && socket.readyState === OPEN) socket.send(JSON.stringify(message))
  }
  const clearRetry = () => {
    if (retryTimer !== null) deps.clearTimeout(retryTimer)
    retryTimer = null
  }
  const stopPing = () => {
    if (pingTimer !== null) deps.clearInterval(pingTimer)
    pingTimer = null
  }
  // Detached sockets are closed without their handlers: a superseded socket's close must not
  // schedule a second reconnect.
  const dropSocket = (code: number, reason: string) => {
    stopPing()
    const old = socket
    socket = null
    if (!old) return
    old.onopen = old.onclose = old.onmessage = old.onerror = null
    try {
      old.close(code, reason)
    } catch (error) {
      deps.warn('[socket] close failed', error)
    }
  }
  const buildUrl = (opts: ConnectOptions) => {
    if (!opts.deltas) return opts.url
    const url = new URL(opts.url)
    url.searchParams.set(DELTA_QUERY_PARAM, String(DELTA_PROTOCOL_VERSION))
    if (backupsWanted) url.searchParams.set(BACKUPS_QUERY_PARAM, '1')
    return url.toString()
  }

  const open = () => {
    if (!options) return
    clearRetry()
    state.nextRetryAt = null
    let next: SocketLike
    try {
      next = deps.createSocket(buildUrl(options))
    } catch (error) {
      deps.warn('[socket] cannot create WebSocket', error)
      handleClose(1006, '')
      return
    }
    socket = next
    next.onopen = () => {
      state.status = 'connected'
      state.attempt = 0
      // Asked while this socket was connecting (its URL did not say so yet).
      if (backupsWanted) send({ type: 'want', data: { backups: true } })
      stopPing()
      pingTimer = deps.setInterval(
        () => send({ type: 'ping', data: { timestamp: deps.now() } }),
        PING_INTERVAL_MS,
      )
      emit()
    }
    next.onmessage = (event) => handleFrame(event.data)
    next.onclose = (event) => {
      socket = null
      handleClose(event.code, event.reason)
    }
    // A failed connection also fires close, which drives the retry.
    next.onerror = () => {}
  }

  // Waits the backoff as 'disconnected', then the extra delay as 'reconnecting', then opens.
  const handleClose = (code: number, reason: string) => {
    stopPing()
    store.invalidate()
    state.initialDataReceived = false
    clearRetry()
    if (code === 1000 && reason === 'Reconnecting') {
      startReconnecting()
      return
    }
    const delay = getBackoffDelay(state.attempt)
    state.attempt++
    state.status = 'disconnected'
    state.nextRetryAt = deps.now() + delay + getExtraDelay(state.attempt)
    retryTimer = deps.setTimeout(startReconnecting, delay)
    emit()
  }

  const startReconnecting = () => {
    state.status = 'reconnecting'
    retryTimer = deps.setTimeout(open, getExtraDelay(state.attempt))
    emit()
  }

  const handleFrame = (frame: unknown) => {
    const parsed = parseServerMessage(frame)
    if (!parsed.ok) {
      deps.warn(`[socket] ignored a malformed message: ${parsed.reason}`)
      return
    }
    const message = parsed.message
    const started = performance.now()
    switch (message.type) {
      case 'initialState':
      case 'rawData':
        received(store.applyFull(message.data, message.seq))
        break
      case 'snapshot':
        received(store.beginLoad(message.seq, message.data, message.counts, message.partial))
        // The progress is part of the connection snapshot.
        emit()
        break
      case 'snapshotChunk':
        // No snapshot of its own: the connection's counts go out with the views' next flush, so
        // the footer and the loading hint never describe more guests than the table shows.
        handlers.onData?.(store.applyChunk(message.seq, message.key, message.rows, message.slots))
        break
      case 'snapshotEnd':
        if (store.endLoad(message.seq)) {
          // Views recompute: what they read of the load's completeness changed (holdsBackups).
          handlers.onData?.(new Set())
          emit()
        }
        break
      case 'delta':
        applied(store.applyDelta(message.data, message.seq, message.metrics))
        break
      case 'metrics':
        applied(store.applyMetrics(message.frame))
        break
      case 'ping':
        send({ type: 'pong', data: { timestamp: deps.now() } })
        return
      case 'other':
        handlers.onMessage?.(message.name, message.message)
        return
      default:
        return
    }
    measure('pulse:apply', started, { type: message.type })
  }
  const received = (changed: ReadonlySet<StoreChange>) => {
    const first = !state.initialDataReceived
    state.initialDataReceived = true
    handlers.onData?.(changed)
    if (first) emit()
  }
  const applied = (result: { outcome: string; changed: ReadonlySet<StoreChange> }) => {
    if (result.outcome === 'gap') send({ type: 'resync' })
    else if (result.outcome === 'applied') handlers.onData?.(result.changed)
  }

  return {
    connect(next) {
      clearRetry()
      dropSocket(1000, 'Reconnecting')
      store.invalidate()
      options = { ...next }
      state.status = 'connecting'
      state.attempt = 0
      state.initialDataReceived = false
      open()
      emit()
    },
    reconnectNow() {
      if (!options) return
      clearRetry()
      dropSocket(1000, 'Reconnecting')
      store.invalidate()
      state.status = 'reconnecting'
      state.initialDataReceived = false
      open()
      emit()
    },
    disconnect() {
      clearRetry()
      dropSocket(1000, 'Client disconnect')
      store.invalidate()
      options = null
      state.status = 'disconnected'
      state.initialDataReceived = false
      state.attempt = 0
      state.nextRetryAt = null
      emit()
    },
    getState: () => state,
    wantBackups() {
      if (backupsWanted) return
      backupsWanted = true
      // Open now: ask on this connection; otherwise the next one asks in its URL.
      send({ type: 'want', data: { backups: true } })
    },
  }
}
