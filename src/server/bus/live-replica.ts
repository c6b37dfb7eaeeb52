// Web side of replication: keeps a copy of the collector's state from the bus, gap-free.
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
// message after that emits the real state again.
import { applyDelta } from '../../shared/model/delta.ts'
import type { StateDelta } from '../../shared/model/messages.ts'
import type { State } from '../../shared/model/state.ts'
import type { Bus, LiveMessage } from './bus.ts'
import { HEARTBEAT_EVENT, SNAPSHOT_SUBJECT, type LiveSnapshot } from './live-publisher.ts'

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
  onState(state: State): void
  onEvent(type: string, data: unknown): void
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
  stop(): void
}

const decoder = new TextDecoder()

/** Start replicating; the first onState follows the first snapshot. */
export function createLiveReplica(deps: LiveReplicaDeps): LiveReplica {
  const now = deps.now ?? Date.now
  const retryMs = deps.retryMs ?? 1_000
  const staleAfterMs = deps.staleAfterMs ?? 15_000
  let state: State | null = null
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

  const resync = (why: string) => {
    if (stopped) return
    const mine = ++generation
    resyncs++
    connected = false
    consumer?.stop()
    clearTimeout(retry)
    buffer = []
    if (state) deps.log.info({ why }, 'live replica resynchronising')
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
    epoch = snapshot.epoch
    seq = snapshot.seq
    state = snapshot.state
    connected = true
    if (failing) deps.log.info({ epoch }, 'live replica synchronised again')
    failing = false
    touch()
    emit()
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
      const delta = JSON.parse(decoder.decode(message.body)) as StateDelta
      state = applyDelta(state!, delta)
      seq = message.seq
      touch()
      emit()
      return
    }
    if (message.seq > seq) return resync(`gap: ${seq} then event at ${message.seq}`)
    const wasStale = stale
    touch()
    if (wasStale) emit()
    if (message.seq < seq) return
    const { type, data } = JSON.parse(decoder.decode(message.body)) as {
      type: string
      data: unknown
    }
    if (type !== HEARTBEAT_EVENT) deps.onEvent(type, data)
  }

  const touch = () => {
    lastMessageAt = now()
    stale = false
  }

  const emit = () => {
    if (state) deps.onState(stale ? staleView(state) : state)
  }

  // Checked on a timer rather than per message: a silent collector sends no message to react to.
  const staleCheck = setInterval(
    () => {
      if (stale || !state || now() - lastMessageAt < staleAfterMs) return
      stale = true
      deps.log.warn({ lastMessageAt }, 'no collector is publishing; live data is stale')
      emit()
    },
    Math.max(50, Math.min(1_000, staleAfterMs / 4)),
  )

  resync('start')

  return {
    status: () => ({ epoch, seq, lastMessageAt, connected, stale, resyncs }),
    state: () => state,
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
