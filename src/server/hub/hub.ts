// WebSocket hub: a first load, then deltas (negotiated) or full rawData, ping/pong, and per-client
// backpressure so a slow client can neither stall the others nor grow memory.
//
// Dialects: plain (`/ws`: initialState, then rawData every cycle), delta mode 1 (`?deltas=1`:
// initialState, then all-JSON deltas) and delta mode 2 (`?deltas=2`, our worker: a first load in
// chunks paced by the client's reading, then JSON deltas plus a binary metrics frame). A delta
// client that fell behind catches up from the last few publications when it can, and gets a
// fresh first load when it cannot: never an unbounded backlog.
import type { WebSocket } from 'ws'
import type { ClientMessage, StateFormat } from '../../shared/model/messages.ts'
import type { LiveState, Publication } from '../live/live-state.ts'
import {
  createPublicationFrames,
  createSnapshotSource,
  type Frame,
  type SnapshotScope,
  type SnapshotSource,
} from './hub-frames.ts'
import { stringifySliced } from './sliced-json.ts'
import { createLogLimiter, type LogLimiter } from './log-limit.ts'

/** Above this many queued bytes a client is skipped until it drains. */
export const HIGH_WATER_BYTES = 8 * 1024 * 1024
/** A client that stays above the high-water mark (or stops reading its first load) this long is dropped. */
export const STALL_LIMIT_MS = 60_000
export const SERVER_PING_MS = 30_000
/** A first load sends its next chunk only while less than this is queued to the client. */
export const PACE_BYTES = 1024 * 1024
const PACE_RETRY_MS = 20
/** Publications kept for catching up a client that missed some. */
export const CATCH_UP_PUBLICATIONS = 3

/** The socket dialect a client negotiated. */
export type Dialect = 'plain' | 'deltas' | 'deltas2'

/** The dialect of a `/ws` upgrade from its `deltas` query value. */
export function toDialect(deltas: unknown): Dialect {
  return deltas === '2' ? 'deltas2' : deltas === '1' ? 'deltas' : 'plain'
}

/**
 * A past publication as the hub keeps it for clients catching up: only its delta frames, built
 * while it was current for the dialects then connected (a client that connects later starts from
 * a whole state, never from a past delta). Not the publication: its state (every guest and
 * backup of that cycle) would stay in memory CATCH_UP_PUBLICATIONS cycles longer.
 */
interface PastDeltas {
  seq: number
  full: Frame[] | null
  lean: Frame[] | null
  json: Promise<Frame> | null
}

interface Load {
  source: SnapshotSource
  next: number
}

interface Client {
  socket: WebSocket
  dialect: Dialect
  /** Seq of the last publication this client has whole; null while it has none (or is loading). */
  seq: number | null
  load: Load | null
  /** Delta mode 2: receives the on-demand collections (backups). */
  backups: boolean
  /** Asked for them during a load: they follow once it is caught up. */
  backupsPending: boolean
  stalledSince: number | null
  alive: boolean
  /** Bytes flushed to the client since the last ping: a client reading a big frame is alive. */
  flushed: number
  /** Frames still being built for this client, sent in order once they are (see deliver). */
  building: Promise<void> | null
  warnings: LogLimiter
}

export interface Hub {
  /** Register a freshly upgraded socket. */
  attach(socket: WebSocket, options: { dialect: Dialect; backups?: boolean }): void
  clientCount(): number
  /** Queue sizes per client, for diagnostics and tests. */
  clientStats(): Array<{
    dialect: Dialect
    bufferedAmount: number
    loading: boolean
    /** Seq of the last publication the client has whole (null: none yet, or loading). */
    seq: number | null
  }>
  /** Send an event to every client (node_deleted, nodes_changed, ...). */
  broadcast(type: string, data: unknown): void
  /**
   * The current state as GET /api/state sends it, with its seq: `plain` is exactly the data of a
   * plain client's initialState (the same conversion), `internal` our own state.
   */
  stateJson(format: StateFormat): Promise<{ seq: number; body: Buffer }>
  close(): void
}

/** What the hub reads of a live state (a web node's replica provides the same, live-replica.ts). */
export type HubLive = Pick<LiveState, 'current' | 'subscribe' | 'guestSlot'>

export interface HubDeps {
  live: HubLive
  now: () => number
  version: string
  log: { warn(obj: object, msg: string): void; debug?(obj: object, msg: string): void }
  pingIntervalMs?: number
  highWaterBytes?: number
  stallLimitMs?: number
  /** Rows per chunk of a first load (tests use small ones). */
  chunkRows?: number
}

/** Create the hub and subscribe it to the live state. */
export function createHub(deps: HubDeps): Hub {
  const clients = new Set<Client>()
  const highWater = deps.highWaterBytes ?? HIGH_WATER_BYTES
  const stallLimit = deps.stallLimitMs ?? STALL_LIMIT_MS
  const frames = createPublicationFrames()
  const recent: Array<Publication | PastDeltas> = []
  // The first loads of the current publication, shared by the clients that start them.
  let sources: { publication: Publication | null } & Partial<
    Record<SnapshotScope, SnapshotSource>
  > = { publication: null }

  const drop = (client: Client, why: string) => {
    deps.log.warn({ bufferedAmount: client.socket.bufferedAmount }, why)
    client.socket.terminate()
    clients.delete(client)
  }

  /** False when the client is too far behind to take another frame now. */
  const hasRoom = (client: Client): boolean => {
    if (client.socket.bufferedAmount <= highWater) {
      client.stalledSince = null
      return true
    }
    const now = deps.now()
    client.stalledSince ??= now
    if (now - client.stalledSince > stallLimit) drop(client, 'dropping stalled socket client')
    return false
  }

  const send = (client: Client, frame: Frame, onFlushed?: () => void) => {
    if (client.socket.readyState !== client.socket.OPEN) return
    const bytes = typeof frame === 'string' ? frame.length : frame.byteLength
    // A Buffer carries large JSON text; an ArrayBuffer is the binary metrics frame.
    const binary = frame instanceof ArrayBuffer
    client.socket.send(frame, { binary }, (err) => {
      if (err) return
      client.flushed += bytes
      onFlushed?.()
    })
  }

  /**
   * Send frames of which some are still being built (promises), in order, after whatever this
   * client still waits for: frames built in slices must not overtake or be overtaken.
   */
  const deliver = (client: Client, list: ReadonlyArray<Frame | Promise<Frame>>) => {
    if (!client.building && list.every((frame) => !(frame instanceof Promise))) {
      for (const frame of list) send(client, frame as Frame)
      return
    }
    const building: Promise<void> = (client.building ?? Promise.resolve())
      .then(async () => {
        for (const frame of list) send(client, await frame)
      })
      .catch((err: unknown) => deps.log.warn({ err: String(err) }, 'building a frame failed'))
      .finally(() => {
        if (client.building === building) client.building = null
      })
    client.building = building
  }

  const sourceFor = (p: Publication, scope: SnapshotScope): SnapshotSource => {
    if (sources.publication !== p) sources = { publication: p }
    return (sources[scope] ??= createSnapshotSource(p, deps.live.guestSlot, deps.chunkRows, scope))
  }

  // A first load in delta mode 2: the next chunk goes when the previous one has been written out
  // and little is queued, so pings and other frames are never stuck behind megabytes.
  const startLoad = (
    client: Client,
    scope: SnapshotScope = client.backups ? 'all' : 'dashboard',
  ) => {
    // A partial load (the backups) keeps the client's baseline: it is of the same publication.
    if (scope !== 'backups') client.seq = null
    client.load = { source: sourceFor(deps.live.current(), scope), next: 0 }
    pump(client)
  }
  const pump = (client: Client) => {
    const load = client.load
    if (!load || !clients.has(client)) return
    if (load.next < load.source.length - 1) {
      // Something else fills the queue (a broadcast): look again shortly.
      if (client.socket.bufferedAmount >= PACE_BYTES) setTimeout(pump, PACE_RETRY_MS, client)
      else send(client, load.source.frame(load.next++), () => setImmediate(pump, client))
      return
    }
    send(client, load.source.frame(load.next++))
    client.load = null
    client.seq = load.source.publication.seq
    catchUp(client)
  }

  /** Send the backups to a client that asked for them, once it is idle and up to date. */
  const sendPendingBackups = (client: Client) => {
    if (!client.backupsPending || client.load) return
    if (client.seq !== deps.live.current().seq) return
    client.backupsPending = false
    client.backups = true
    startLoad(client, 'backups')
  }

  /** The delta frames of `p` for `client`; null when a past publication kept none for it. */
  const deltaFrames = (
    client: Client,
    p: Publication | PastDeltas,
  ): Array<Frame | Promise<Frame>> | null => {
    if ('state' in p)
      return client.dialect === 'deltas2' ? frames.delta2(p, client.backups) : [frames.delta(p)]
    if (client.dialect !== 'deltas2') return p.json && [p.json]
    return client.backups ? p.full : p.lean
  }

  /** Keep only the delta frames of `p`, for the dialects connected now (see PastDeltas). */
  const toPast = (p: Publication): PastDeltas => {
    const past: PastDeltas = { seq: p.seq, full: null, lean: null, json: null }
    for (const client of clients) {
      if (client.dialect === 'deltas') past.json ??= frames.delta(p)
      else if (client.dialect === 'deltas2' && client.backups) past.full ??= frames.delta2(p, true)
      else if (client.dialect === 'deltas2') past.lean ??= frames.delta2(p, false)
    }
    frames.retire(p)
    return past
  }

  /** A whole state to a delta client: a paced first load (mode 2) or initialState (mode 1). */
  const fullLoad = (client: Client, current: Publication) => {
    if (client.dialect === 'deltas2') startLoad(client)
    else {
      deliver(client, [frames.full(current)])
      client.seq = current.seq
    }
  }

  /** Bring a delta client with a baseline up to the current publication. */
  const catchUp = (client: Client) => {
    const current = deps.live.current()
    if (client.seq === current.seq) {
      sendPendingBackups(client)
      return
    }
    const from = client.seq === null ? -1 : recent.findIndex((p) => p.seq === client.seq! + 1)
    if (from < 0 || recent.at(-1) !== current) return fullLoad(client, current)
    const list: Array<Frame | Promise<Frame>> = []
    for (const p of recent.slice(from)) {
      const deltas = deltaFrames(client, p)
      // Not kept for this client (it asked for the backups since): a whole state instead.
      if (!deltas) return fullLoad(client, current)
      list.push(...deltas)
    }
    deliver(client, list)
    client.seq = current.seq
    sendPendingBackups(client)
  }

  const publish = (p: Publication) => {
    const previous = recent.at(-1)
    if (previous && 'state' in previous) recent[recent.length - 1] = toPast(previous)
    recent.push(p)
    if (recent.length > CATCH_UP_PUBLICATIONS) recent.shift()
    // The first loads of the last publication: a client still loading holds its own source; new
    // ones start from this publication. Kept, the built chunks (every guest and backup as JSON)
    // would stay in memory until the next first load.
    sources = { publication: null }
    for (const client of clients) {
      if (client.load) continue
      if (!hasRoom(client)) continue
      if (client.dialect === 'plain') deliver(client, [frames.raw(p)])
      else catchUp(client)
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
    client.alive = true
    if (msg.type === 'ping') {
      send(client, JSON.stringify({ type: 'pong', data: { timestamp: deps.now() } }))
    } else if (
      (msg.type === 'resync' || msg.type === 'requestData') &&
      client.dialect !== 'plain'
    ) {
      if (client.load) return
      client.seq = null
      catchUp(client)
    } else if (msg.type === 'want' && client.dialect === 'deltas2') {
      if (client.backups || client.backupsPending) return
      client.backupsPending = true
      if (!client.load) catchUp(client)
    } else if (msg.type === 'requestData') {
      deliver(client, [frames.raw(deps.live.current())])
    }
    // Anything else (including the client's pong) needs no answer.
  }

  const pingTimer = setInterval(() => {
    const frame = JSON.stringify({ type: 'ping', data: { timestamp: deps.now() } })
    for (const client of clients) {
      // Protocol-level liveness: a client that missed a whole ping interval is gone, unless it
      // is still reading what was sent to it (its pong waits behind those bytes).
      if (!client.alive && client.flushed === 0) {
        client.socket.terminate()
        clients.delete(client)
        continue
      }
      client.alive = false
      client.flushed = 0
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
        dialect: options.dialect,
        seq: null,
        load: null,
        backups: options.dialect === 'deltas2' ? options.backups === true : true,
        backupsPending: false,
        stalledSince: null,
        alive: true,
        flushed: 0,
        building: null,
        warnings: createLogLimiter(deps.log, deps.now),
      }
      clients.add(client)
      socket.on('message', (data) => onMessage(client, data))
      socket.on('pong', () => (client.alive = true))
      socket.on('close', () => {
        clients.delete(client)
        client.load = null
        client.warnings.flush()
      })
      socket.on('error', (err) => deps.log.warn({ err: err.message }, 'socket error'))
      const welcome: Record<string, unknown> = {
        message: 'Connected to Pulse WebSocket',
        version: deps.version,
      }
      if (options.dialect !== 'plain') welcome.deltas = options.dialect === 'deltas2' ? 2 : 1
      send(client, JSON.stringify({ type: 'welcome', data: welcome }))
      if (options.dialect === 'plain') deliver(client, [frames.plainFull(deps.live.current())])
      else catchUp(client)
    },
    clientCount: () => clients.size,
    clientStats: () =>
      [...clients].map((c) => ({
        dialect: c.dialect,
        bufferedAmount: c.socket.bufferedAmount,
        loading: c.load !== null,
        seq: c.seq,
      })),
    broadcast(type, data) {
      const frame = JSON.stringify({ type, data, timestamp: new Date(deps.now()).toISOString() })
      for (const client of clients) if (hasRoom(client)) send(client, frame)
    },
    async stateJson(format) {
      const p = deps.live.current()
      // Built in slices: at 100,000 guests one JSON.stringify holds the loop for seconds.
      const body = await stringifySliced(format === 'plain' ? frames.plainState(p) : p.state)
      return { seq: p.seq, body }
    },
    close() {
      clearInterval(pingTimer)
      unsubscribe()
      for (const client of clients) client.socket.close(1001, 'Server shutting down')
      clients.clear()
    },
  }
}
