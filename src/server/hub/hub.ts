// WebSocket hub: initial state, then deltas (negotiated) or full rawData, ping/pong, and
// per-client backpressure so a slow client can neither stall the others nor grow memory.
import type { WebSocket } from 'ws'
import type { ClientMessage } from '../../shared/model/messages.ts'
import type { LiveState, Publication } from '../live/live-state.ts'
import { createLogLimiter, type LogLimiter } from './log-limit.ts'
import { createPlainStateConverter } from './plain-state.ts'

/** Above this many queued bytes a client is skipped until it drains. */
export const HIGH_WATER_BYTES = 8 * 1024 * 1024
/** A client that stays above the high-water mark this long is dropped. */
export const STALL_LIMIT_MS = 60_000
export const SERVER_PING_MS = 30_000

interface Client {
  socket: WebSocket
  deltas: boolean
  /** Delta client that missed a frame: gets a full state once it has drained. */
  needsFull: boolean
  stalledSince: number | null
  alive: boolean
  warnings: LogLimiter
}

export interface Hub {
  /** Register a freshly upgraded socket. */
  attach(socket: WebSocket, options: { deltas: boolean }): void
  clientCount(): number
  /** Queue sizes per client, for diagnostics and tests. */
  clientStats(): Array<{ deltas: boolean; bufferedAmount: number; needsFull: boolean }>
  /** Send an event to every client (node_deleted, nodes_changed, ...). */
  broadcast(type: string, data: unknown): void
  close(): void
}

export interface HubDeps {
  live: LiveState
  now: () => number
  version: string
  log: { warn(obj: object, msg: string): void; debug?(obj: object, msg: string): void }
  pingIntervalMs?: number
  highWaterBytes?: number
  stallLimitMs?: number
}

/** Create the hub and subscribe it to the live state. */
export function createHub(deps: HubDeps): Hub {
  const clients = new Set<Client>()
  const highWater = deps.highWaterBytes ?? HIGH_WATER_BYTES
  const stallLimit = deps.stallLimitMs ?? STALL_LIMIT_MS
  const toPlainState = createPlainStateConverter()
  // Serialised once per publication, shared by every client of that mode.
  const noFrames = { delta: null, full: null, raw: null, plainFull: null }
  let frames: {
    seq: number
    delta: string | null
    full: string | null
    raw: string | null
    plainFull: string | null
  } = { seq: -1, ...noFrames }

  const framesFor = (p: Publication) => {
    if (frames.seq !== p.seq) frames = { seq: p.seq, ...noFrames }
    return frames
  }
  const fullFrame = (p: Publication) =>
    (framesFor(p).full ??= JSON.stringify({ type: 'initialState', data: p.state, seq: p.seq }))
  // The plain dialect carries the reference's shapes (backup times as strings); the delta
  // dialect, read only by our worker, keeps the numbers.
  const plainFullFrame = (p: Publication) =>
    (framesFor(p).plainFull ??= JSON.stringify({
      type: 'initialState',
      data: toPlainState(p.state),
    }))
  const rawFrame = (p: Publication) =>
    (framesFor(p).raw ??= JSON.stringify({ type: 'rawData', data: toPlainState(p.state) }))
  const deltaFrame = (p: Publication) =>
    (framesFor(p).delta ??= JSON.stringify({ type: 'delta', data: p.delta, seq: p.seq }))

  /** False when the client is too far behind to take another frame now. */
  const hasRoom = (client: Client): boolean => {
    if (client.socket.bufferedAmount <= highWater) {
      client.stalledSince = null
      return true
    }
    const now = deps.now()
    client.stalledSince ??= now
    if (now - client.stalledSince > stallLimit) {
      deps.log.warn(
        { bufferedAmount: client.socket.bufferedAmount },
        'dropping stalled socket client',
      )
      client.socket.terminate()
      clients.delete(client)
    }
    return false
  }

  const send = (client: Client, frame: string) => {
    if (client.socket.readyState === client.socket.OPEN) client.socket.send(frame)
  }

  const publish = (p: Publication) => {
    for (const client of clients) {
      if (!hasRoom(client)) {
        if (client.deltas) client.needsFull = true
        continue
      }
      if (!client.deltas) send(client, rawFrame(p))
      else if (client.needsFull || !p.delta) {
        client.needsFull = false
        send(client, fullFrame(p))
      } else send(client, deltaFrame(p))
    }
  }
  const unsubscribe = deps.live.subscribe(publish)

  const onMessage = (client: Client, raw: unknown) => {
    let msg: ClientMessage
    try {
      msg = JSON.parse(String(raw)) as ClientMessage
      if (typeof msg !== 'object' || msg === null || typeof msg.type !== 'string')
        throw new Error('no type')
    } catch (err) {
      client.warnings.malformed((err as Error).message)
      return
    }
    const p = deps.live.current()
    if (msg.type === 'ping') {
      send(client, JSON.stringify({ type: 'pong', data: { timestamp: deps.now() } }))
    } else if (msg.type === 'resync' && client.deltas) {
      send(client, fullFrame(p))
    } else if (msg.type === 'requestData') {
      send(client, client.deltas ? fullFrame(p) : rawFrame(p))
    }
    // Anything else (including the client's pong) needs no answer.
  }

  const pingTimer = setInterval(() => {
    const frame = JSON.stringify({ type: 'ping', data: { timestamp: deps.now() } })
    for (const client of clients) {
      // Protocol-level liveness: a client that missed a whole ping interval is gone.
      if (!client.alive) {
        client.socket.terminate()
        clients.delete(client)
        continue
      }
      client.alive = false
      client.warnings.flush()
      client.socket.ping()
      send(client, frame)
    }
  }, deps.pingIntervalMs ?? SERVER_PING_MS)
  pingTimer.unref()

  return {
    attach(socket, options) {
      const client: Client = {
        socket,
        deltas: options.deltas,
        needsFull: false,
        stalledSince: null,
        alive: true,
        warnings: createLogLimiter(deps.log, deps.now),
      }
      clients.add(client)
      socket.on('message', (data) => onMessage(client, data))
      socket.on('pong', () => (client.alive = true))
      socket.on('close', () => {
        clients.delete(client)
        client.warnings.flush()
      })
      socket.on('error', (err) => deps.log.warn({ err: err.message }, 'socket error'))
      const welcome: Record<string, unknown> = {
        message: 'Connected to Pulse WebSocket',
        version: deps.version,
      }
      if (options.deltas) welcome.deltas = 1
      send(client, JSON.stringify({ type: 'welcome', data: welcome }))
      const p = deps.live.current()
      send(client, options.deltas ? fullFrame(p) : plainFullFrame(p))
    },
    clientCount: () => clients.size,
    clientStats: () =>
      [...clients].map((c) => ({
        deltas: c.deltas,
        bufferedAmount: c.socket.bufferedAmount,
        needsFull: c.needsFull,
      })),
    broadcast(type, data) {
      const frame = JSON.stringify({ type, data, timestamp: new Date(deps.now()).toISOString() })
      for (const client of clients) if (hasRoom(client)) send(client, frame)
    },
    close() {
      clearInterval(pingTimer)
      unsubscribe()
      for (const client of clients) client.socket.close(1001, 'Server shutting down')
      clients.clear()
    },
  }
}
