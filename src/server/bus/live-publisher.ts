// Collector side of replication: every publication of the LiveState goes to the bus as a delta,
// socket events go in the same order, and the current publication is served as a snapshot.
//
// Sequence numbers: a delta carries its publication seq (+1 each). An event carries the seq of
// the last delta before it and does not advance the sequence, so a web node checks deltas for
// seq === last + 1 and events for seq === last; neither makes it see a gap.
// When nothing was sent for `heartbeatMs`, a 'heartbeat' event goes out, so a web node can tell
// a quiet estate from a collector that stopped (live-replica.ts `stale`).
//
// The poll loop never waits for NATS: messages queue here and go out one at a time. While NATS
// is down they are dropped (logged once per outage); web nodes see the gap and take a snapshot.
import { stringifySlicedParts } from '../hub/sliced-json.ts'
import type { LiveState, Publication } from '../live/live-state.ts'
import type { Bus, LiveMessage } from './bus.ts'
import { encodeLiveChanges } from './live-changes.ts'
import { snapshotSlots, type SnapshotSlots } from './replica-state.ts'

/**
 * The snapshot request subject. Not under `pulse.live.>`: the stream captures that, and it would
 * store the request and answer it with its own acknowledgment.
 */
export const SNAPSHOT_SUBJECT = 'pulse.snapshot'
/** The event that only proves the collector is alive; web nodes do not pass it on. */
export const HEARTBEAT_EVENT = 'heartbeat'
/** How often a publisher that dropped messages tries to tell replicas where it is. */
const OUTAGE_PROBE_MS = 500

/** Messages waiting beyond this are dropped oldest first: web nodes re-snapshot anyway. */
const MAX_QUEUE = 256

/** The snapshot answer (JSON). */
export interface LiveSnapshot {
  epoch: string
  seq: number
  /** The guests' metrics-frame slots, so a web node's frames address them as the collector's. */
  slots: SnapshotSlots
  state: Publication['state']
}

export interface LivePublisherDeps {
  bus: Bus
  live: LiveState
  /** This collector's id; with the start time it makes the epoch. */
  collectorId: string
  now?: () => number
  heartbeatMs?: number
  log: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void }
}

export interface LivePublisher {
  readonly epoch: string
  /** Resolves once the snapshot service is known to the NATS server. */
  readonly ready: Promise<void>
  /** Send a socket event (node_deleted, settingsUpdate, ...) after the deltas queued so far. */
  publishEvent(type: string, data: unknown): void
  /** Resolves when everything queued so far has been sent or dropped (tests, shutdown). */
  flushed(): Promise<void>
  stop(): void
}

const encoder = new TextEncoder()

/** Start publishing `live` on `bus`; returns the publisher (stop it before closing the bus). */
export function createLivePublisher(deps: LivePublisherDeps): LivePublisher {
  const now = deps.now ?? Date.now
  const epoch = `${deps.collectorId}@${now()}`
  const queue: LiveMessage[] = []
  let lastSeq = deps.live.current().seq
  let sending = false
  let outage = false
  let stopped = false
  let idle: Array<() => void> = []

  const pump = async () => {
    if (sending) return
    sending = true
    while (queue.length > 0 && !stopped) {
      const message = queue.shift()!
      try {
        await deps.bus.publishLive(message)
        if (outage) deps.log.info({}, 'live publishing resumed')
        outage = false
      } catch (err) {
        if (!outage)
          deps.log.warn({ err: String(err) }, 'live publishing failed; dropping until NATS returns')
        outage = true
        probeSoon()
      }
    }
    sending = false
    for (const resolve of idle) resolve()
    idle = []
  }

  const enqueue = (message: LiveMessage) => {
    if (stopped) return
    queue.push(message)
    if (queue.length > MAX_QUEUE) queue.shift()
    resetHeartbeat()
    void pump()
  }

  const publishEvent = (type: string, data: unknown) =>
    enqueue({
      epoch,
      seq: lastSeq,
      kind: 'event',
      body: encoder.encode(JSON.stringify({ type, data })),
    })

  // Messages were dropped: keep offering a heartbeat (it carries the latest seq) until one is
  // stored, so replicas notice the gap and resync as soon as NATS is back, not at the next
  // poll or the next idle heartbeat.
  let probe: ReturnType<typeof setTimeout> | undefined
  const probeSoon = () => {
    if (probe || stopped) return
    probe = setTimeout(() => {
      probe = undefined
      if (outage) publishEvent(HEARTBEAT_EVENT, null)
    }, OUTAGE_PROBE_MS)
  }

  let heartbeat: ReturnType<typeof setTimeout> | undefined
  const resetHeartbeat = () => {
    clearTimeout(heartbeat)
    if (!stopped)
      heartbeat = setTimeout(() => publishEvent(HEARTBEAT_EVENT, null), deps.heartbeatMs ?? 5_000)
  }

  const unsubscribe = deps.live.subscribe((publication) => {
    lastSeq = publication.seq
    // The first publication has no changes; it never reaches subscribers, but be safe.
    const changes = publication.changes
    if (!changes) return
    // The changes as delta mode 2 has them: a web node applies them without a diff of its own.
    enqueue({
      epoch,
      seq: publication.seq,
      kind: 'delta',
      body: encodeLiveChanges(publication.seq, changes),
    })
  })

  // At 100,000 guests the JSON is tens of MB: built in slices (sliced-json.ts), so polls and
  // requests go on meanwhile, and shared by web nodes resyncing together (a collector restart).
  let cached: { seq: number; bytes: Promise<Buffer[]> } | null = null
  const snapshot = deps.bus.serve(SNAPSHOT_SUBJECT, async () => {
    const { seq, state } = deps.live.current()
    if (cached?.seq !== seq) {
      // The slots now: the table moves on with the next publication.
      const answer: LiveSnapshot = {
        epoch,
        seq,
        slots: snapshotSlots(state, deps.live.guestSlot),
        state,
      }
      cached = { seq, bytes: stringifySlicedParts(answer) }
    }
    return cached.bytes
  })
  resetHeartbeat()

  return {
    epoch,
    ready: snapshot.ready,
    publishEvent,
    flushed: () =>
      !sending && queue.length === 0
        ? Promise.resolve()
        : new Promise<void>((resolve) => idle.push(resolve)),
    stop() {
      stopped = true
      clearTimeout(heartbeat)
      clearTimeout(probe)
      unsubscribe()
      snapshot.stop()
    },
  }
}
