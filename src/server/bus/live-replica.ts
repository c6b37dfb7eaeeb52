// Web side of replication: keeps a copy of the collector's state from the bus, gap-free, and
// publishes it for this node's hub (replica-live.ts) as the collector's own changes: a delta is
// applied to the copy (replica-state.ts), never found again by diffing whole states.
//
// (Re)synchronising: read the stream's last position L, start consuming after L (buffering), then
// ask for a snapshot {epoch, seq S, state}. Everything the snapshot lacks was published after it
// was taken, so it is stored after L and is in the buffer: deltas with seq <= S are skipped, the
// rest applied in order. Events with seq == S right after a snapshot may precede it; they are
// delivered anyway (at least once at that boundary; socket events are idempotent notices).
// Resync happens at start, on a gap (delta seq != last + 1, event seq > last), a new epoch
// (collector restart or takeover), or a consumer error; failures retry every `retryMs`.
//
// Staleness: the collector sends a heartbeat at least every few seconds. When nothing arrived
// for `staleAfterMs`, the replica reports stale and emits the state with every endpoint's
// connectionHealth false (errors saying why), so browsers show the data as not live; the first
// message after that emits the real state again. Both are published as a delta of those two
// scalars.
import type { StateChanges } from '../../shared/model/delta-steps.ts'
import type { StateDelta } from '../../shared/model/messages.ts'
import type { State } from '../../shared/model/state.ts'
import type { Bus, LiveMessage } from './bus.ts'
import { decodeLiveChanges } from './live-changes.ts'
import { HEARTBEAT_EVENT, SNAPSHOT_SUBJECT, type LiveSnapshot } from './live-publisher.ts'
import { createReplicaLive, type ReplicaLive } from './replica-live.ts'
import { createReplicaState, type ReplicaState } from './replica-state.ts'

export const STALE_ERROR = 'No collector has published for a while; this data may be out of date.'

export interface LiveReplicaStatus {
  epoch: string
  seq: number
  /** Epoch ms of the last message or snapshot; 0 before the first. */
  lastMessageAt: number
  /** True once synchronised, false while (re)synchronising. */
  connected: boolean
  stale: boolean
  resyncs: number
}

export interface LiveReplicaDeps {
  bus: Bus
  /** Called with every state published (the stale view while stale). */
  onState?(state: State): void
  onEvent(type: string, data: unknown): void
  /** This node's socket clients: its published `stats.webSocketClients` (default: the collector's). */
  clientCount?: () => number
  version?: string
  now?: () => number
  snapshotTimeoutMs?: number
  retryMs?: number
  staleAfterMs?: number
  log: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void }
}

export interface LiveReplica {
  status(): LiveReplicaStatus
  /** The last full state received (the real one, not the stale view); null before a snapshot. */
  state(): State | null
  /** The publications for this node's hub. */
  live: ReplicaLive
  stop(): void
}

const decoder = new TextDecoder()

/** Start replicating; the first onState follows the first snapshot. */
export function createLiveReplica(deps: LiveReplicaDeps): LiveReplica {
  const now = deps.now ?? Date.now
  const retryMs = deps.retryMs ?? 1_000
  const staleAfterMs = deps.staleAfterMs ?? 15_000
  let replica: ReplicaState | null = null
  let epoch = ''
  let seq = 0
  let lastMessageAt = 0
  let connected = false
  let stale = false
  let resyncs = 0
  let stopped = false
  let failing = false
  let generation = 0
  let buffer: LiveMessage[] | null = null
  let consumer: { stop(): void } | null = null
  let retry: ReturnType<typeof setTimeout> | undefined
  const live = createReplicaLive({
    now,
    version: deps.version ?? '',
    guestSlot: (id) => replica?.slot(id),
  })

  const resync = (why: string) => {
    if (stopped) return
    const mine = ++generation
    resyncs++
    connected = false
    consumer?.stop()
    clearTimeout(retry)
    buffer = []
    if (replica) deps.log.info({ why }, 'live replica resynchronising')
    synchronise(mine).catch((err: unknown) => {
      if (mine !== generation || stopped) return
      // Once per outage: without a collector this retries every retryMs.
      if (!failing) deps.log.warn({ err: String(err) }, 'live replica cannot synchronise; retrying')
      failing = true
      retry = setTimeout(() => resync('retry'), retryMs)
    })
  }

  const synchronise = async (mine: number) => {
    const after = await deps.bus.lastLiveSeq()
    if (mine !== generation) return
    consumer = deps.bus.consumeLive(
      after,
      (message) => {
        if (mine !== generation) return
        if (buffer) buffer.push(message)
        else handle(message)
      },
      (err) => {
        if (mine === generation) resync(`consumer: ${err.message}`)
      },
    )
    const answer = await deps.bus.request(
      SNAPSHOT_SUBJECT,
      new Uint8Array(0),
      deps.snapshotTimeoutMs ?? 30_000,
    )
    if (mine !== generation) return
    const snapshot = JSON.parse(decoder.decode(answer)) as LiveSnapshot
    const wasStale = stale
    touch()
    // Nothing was missed (a consumer that was set up again): the clients keep their deltas.
    if (replica && snapshot.epoch === epoch && snapshot.seq === seq) {
      if (wasStale) publishFresh()
    } else {
      epoch = snapshot.epoch
      seq = snapshot.seq
      patchStats(snapshot.state)
      replica = createReplicaState(snapshot.state, snapshot.slots)
      live.reset(replica.current(), seq)
      deps.onState?.(replica.current())
    }
    connected = true
    if (failing) deps.log.info({ epoch }, 'live replica synchronised again')
    failing = false
    const pending = buffer ?? []
    buffer = null
    for (const message of pending) {
      if (mine !== generation) return
      handle(message)
    }
  }

  const handle = (message: LiveMessage) => {
    if (message.epoch !== epoch) return resync(`new epoch ${message.epoch}`)
    if (message.kind === 'delta') {
      if (message.seq <= seq) return
      if (message.seq !== seq + 1) return resync(`gap: ${seq} then ${message.seq}`)
      let applied: { state: State; changes: StateChanges }
      try {
        const received = decodeLiveChanges(message.body)
        if (received.delta?.scalars?.stats) patchStats(received.delta.scalars)
        applied = replica!.apply(received)
      } catch (err) {
        return resync(`unreadable delta ${message.seq}: ${String(err)}`)
      }
      seq = message.seq
      const wasStale = stale
      touch()
      const { delta } = applied.changes
      // Back from stale: the real connection scalars ride along with the collector's changes.
      const changes = wasStale
        ? { ...applied.changes, delta: { ...delta, scalars: { ...delta?.scalars, ...fresh() } } }
        : applied.changes
      live.advance(applied.state, changes)
      deps.onState?.(applied.state)
      return
    }
    if (message.seq > seq) return resync(`gap: ${seq} then event at ${message.seq}`)
    const wasStale = stale
    touch()
    if (wasStale) publishFresh()
    if (message.seq < seq) return
    const { type, data } = JSON.parse(decoder.decode(message.body)) as {
      type: string
      data: unknown
    }
    if (type !== HEARTBEAT_EVENT) deps.onEvent(type, data)
  }

  /** This node's client count in place of the collector's (a parsed object of our own). */
  const patchStats = (holder: { stats?: State['stats'] }) => {
    if (deps.clientCount && holder.stats)
      holder.stats = { ...holder.stats, webSocketClients: deps.clientCount() }
  }

  const touch = () => {
    lastMessageAt = now()
    stale = false
  }

  const fresh = (): StateDelta['scalars'] => {
    const { connectionHealth, connectionErrors } = replica!.current()
    return { connectionHealth, connectionErrors }
  }
  const publishScalars = (state: State, scalars: StateDelta['scalars']) => {
    live.advance(state, { delta: { scalars }, metrics: null })
    deps.onState?.(state)
  }
  const publishFresh = () => {
    if (replica) publishScalars(replica.current(), fresh())
  }

  // Checked on a timer rather than per message: a silent collector sends no message to react to.
  const staleCheck = setInterval(
    () => {
      if (stale || !replica || now() - lastMessageAt < staleAfterMs) return
      stale = true
      deps.log.warn({ lastMessageAt }, 'no collector is publishing; live data is stale')
      const view = staleView(replica.current())
      publishScalars(view, {
        connectionHealth: view.connectionHealth,
        connectionErrors: view.connectionErrors,
      })
    },
    Math.max(50, Math.min(1_000, staleAfterMs / 4)),
  )

  resync('start')

  return {
    status: () => ({ epoch, seq, lastMessageAt, connected, stale, resyncs }),
    state: () => replica?.current() ?? null,
    live,
    stop() {
      stopped = true
      generation++
      clearTimeout(retry)
      clearInterval(staleCheck)
      consumer?.stop()
    },
  }
}

function staleView(state: State): State {
  const connectionHealth: Record<string, boolean> = {}
  const connectionErrors: Record<string, string> = { ...state.connectionErrors }
  for (const key of Object.keys(state.connectionHealth)) {
    connectionHealth[key] = false
    connectionErrors[key] = STALE_ERROR
  }
  return { ...state, connectionHealth, connectionErrors }
}
