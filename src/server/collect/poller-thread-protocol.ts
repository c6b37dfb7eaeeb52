// The messages between the server's loop and the collector thread (poller-thread.ts, the loop's
// side; poller-thread-worker.ts, the thread's). The thread polls, parses, maps and diffs; the loop
// receives each cycle's changes as delta mode 2 has them (the JSON delta and the binary metrics
// frame), in parts of at most PART_ROWS rows, so no message costs the loop more than a few
// milliseconds to receive, and applies them to its copy (live-state.ts applyCollectedChanges).
import { createGuestSlots, diffStateSteps, runSteps } from '../../shared/model/delta-steps.ts'
import {
  decodeMetricsFrame,
  encodeMetricsFrame,
  type MetricsFrame,
} from '../../shared/model/guest-metrics.ts'
import type { StateDelta } from '../../shared/model/messages.ts'
import { createEmptyState, type EntityCollection, type State } from '../../shared/model/state.ts'
import type { DetailPolicy } from './pve-agent.ts'
import type { EndpointInfo } from './failover.ts'
import type { EndpointPolls } from './poller.ts'
import type { CollectedState, MonitoredEndpoint } from './collected-state.ts'

/** Rows (upserts, removals, slots) in one part of a cycle's delta. */
export const PART_ROWS = 1_000
/**
 * Messages the thread may have sent that the loop has not acknowledged; the loop acknowledges
 * every ACK_EVERY. Without this, a first poll's thousand parts would all be queued at once, and
 * Node delivers every message queued on a port before the loop turns again.
 */
export const SEND_WINDOW = 4
export const ACK_EVERY = 2

/** The State keys a poll sets (live-state.ts), entity collections and scalars. */
export const COLLECTED_ENTITIES: ReadonlyArray<EntityCollection & keyof CollectedState> = [
  'nodes',
  'vms',
  'containers',
  'storage',
  'cephClusters',
  'physicalDisks',
  'storageBackups',
  'guestSnapshots',
  'backupTasks',
  'pbs',
  'pbsBackups',
  'backupJobs',
  'backupCoverage',
  'pbsJobs',
]
export const COLLECTED_SCALARS = [
  'performance',
  'connectionHealth',
  'connectionErrors',
  'lastUpdate',
  'backupsPending',
] as const satisfies ReadonlyArray<keyof State & keyof CollectedState>

/** What a poll adds beyond State's keys. */
export interface CycleExtras {
  pollingCycles: number
  backupsCollected: boolean
}

/** One endpoint's status, mirrored on the loop for the synchronous getters of Poller. */
export interface EndpointMirror {
  status: 'pending' | 'connected' | 'error'
  error?: string
  info?: EndpointInfo
  polls?: EndpointPolls
}

/** workerData of the thread. */
export interface PollerThreadInit {
  intervalMs: number
  guestDetails?: Partial<DetailPolicy>
  slowCollectors: boolean
}

export type ThreadRequest =
  | { op: 'start' }
  | { op: 'stop' }
  | { op: 'pollNow' }
  | { op: 'setEndpoints'; endpoints: MonitoredEndpoint[] }
  | {
      op: 'get'
      instance: string
      path: string
      query?: Record<string, string | number>
      timeoutMs?: number
    }
  | { op: 'abort'; target: number }
  /** The loop received `count` more messages (no reply). */
  | { op: 'ack'; count: number }

/** Loop → thread. */
export type ToThread = ThreadRequest & { id: number }

/** A slice of a cycle's delta. */
export type DeltaPart = Pick<StateDelta, 'upsert' | 'remove' | 'guestSlots'>

/** One cycle's changes as the loop receives them. */
export interface CollectedChanges {
  delta: StateDelta | null
  metrics: MetricsFrame | null
  extras: CycleExtras
}

/**
 * Thread → loop. Deltas travel as JSON: the rows V8 builds from JSON.parse hold their fields in
 * the object itself, where those of a structured clone take a separate property array (about 110
 * bytes more a row, at 1,260,000 backup records the loop keeps), and parsing costs the loop no
 * more than deserialising.
 */
export type FromThread =
  | { kind: 'part'; json: string }
  | {
      kind: 'cycle'
      /** The last part and the scalars as JSON; null when nothing but guest metrics changed. */
      delta: string | null
      /** The guests' metric changes as a frame (guest-metrics.ts encodeMetricsFrame). */
      metrics: ArrayBuffer | null
      extras: CycleExtras
      status: Record<string, EndpointMirror>
    }
  | { kind: 'reply'; id: number; ok: true; value: unknown }
  | { kind: 'reply'; id: number; ok: false; error: { code: string; message: string } }
  | { kind: 'log'; level: 'info' | 'warn'; obj: Record<string, unknown>; msg: string }

/**
 * A message as the thread queues it: a part is turned into JSON only when it is sent (`sendable`),
 * so a first poll's thousand parts waiting for the loop hold the rows, not a copy of them as text.
 */
export type Outgoing = Exclude<FromThread, { kind: 'part' }> | { kind: 'part'; part: DeltaPart }

export function sendable(message: Outgoing): FromThread {
  return message.kind === 'part' ? { kind: 'part', json: JSON.stringify(message.part) } : message
}

/**
 * Split `delta` into parts of at most `rows` items each, and what is left for the cycle message
 * (the scalars and the last part). Rows keep their order within a collection.
 */
export function splitDelta(
  delta: StateDelta,
  rows = PART_ROWS,
): { parts: DeltaPart[]; rest: StateDelta } {
  const parts: DeltaPart[] = []
  let part: DeltaPart = {}
  let size = 0
  const take = (count: number) => {
    size += count
    if (size < rows) return
    parts.push(part)
    part = {}
    size = 0
  }
  for (const side of ['upsert', 'remove'] as const) {
    for (const [key, list] of Object.entries(delta[side] ?? {}) as Array<[string, unknown[]]>) {
      for (let i = 0; i < list.length;) {
        const n = Math.min(rows - size, list.length - i)
        ;((part[side] ??= {}) as Record<string, unknown[]>)[key] = list.slice(i, i + n)
        i += n
        take(n)
      }
    }
  }
  let slots: Record<string, number> = {}
  for (const id in delta.guestSlots) {
    slots[id] = delta.guestSlots[id]!
    part.guestSlots = slots
    take(1)
    if (part.guestSlots !== slots) slots = {}
  }
  const rest: StateDelta = { ...part }
  if (delta.scalars) rest.scalars = delta.scalars
  return { parts, rest }
}

/** Joins the parts of a cycle back into one delta, in order. */
export function createDeltaJoiner(): {
  add(part: DeltaPart): void
  finish(rest: StateDelta | null): StateDelta | null
} {
  let joined: StateDelta | null = null
  const add = (part: DeltaPart) => {
    joined ??= {}
    for (const [key, list] of Object.entries(part.upsert ?? {})) {
      const into = ((joined.upsert ??= {}) as Record<string, unknown[]>)[key]
      if (into) for (const row of list) into.push(row)
      else (joined.upsert as Record<string, unknown[]>)[key] = list
    }
    for (const [key, list] of Object.entries(part.remove ?? {})) {
      const into = ((joined.remove ??= {}) as Record<string, string[]>)[key]
      if (into) for (const id of list) into.push(id)
      else (joined.remove as Record<string, string[]>)[key] = list
    }
    if (part.guestSlots) Object.assign((joined.guestSlots ??= {}), part.guestSlots)
  }
  return {
    add,
    finish(rest) {
      if (rest) {
        add(rest)
        if (rest.scalars) (joined ??= {}).scalars = rest.scalars
      }
      const out = joined
      joined = null
      return out
    },
  }
}

/**
 * The thread's side: each poll diffed against the previous one (with the thread's guest slots),
 * as the messages that carry it and the buffers they transfer.
 */
export function createCycleEncoder(): {
  encode(
    collected: CollectedState,
    status: Record<string, EndpointMirror>,
  ): { messages: Outgoing[]; transfer: ArrayBuffer[] }
} {
  let prev: State = createEmptyState(0, '')
  const slots = createGuestSlots()
  let frames = 0
  return {
    encode(collected, status) {
      const next: State = { ...prev }
      const table = next as unknown as Record<string, unknown>
      for (const key of COLLECTED_ENTITIES) table[key] = collected[key]
      for (const key of COLLECTED_SCALARS) table[key] = collected[key]
      const changes = runSteps(diffStateSteps(prev, next, slots))
      prev = next
      const split = changes.delta ? splitDelta(changes.delta) : { parts: [], rest: null }
      const messages: Outgoing[] = split.parts.map((part) => ({ kind: 'part', part }))
      const metrics = changes.metrics ? encodeMetricsFrame(++frames, changes.metrics) : null
      const { pollingCycles, backupsCollected } = collected
      const extras = { pollingCycles, backupsCollected }
      const delta = split.rest && JSON.stringify(split.rest)
      messages.push({ kind: 'cycle', delta, metrics, extras, status })
      return { messages, transfer: metrics ? [metrics] : [] }
    },
  }
}

/** The loop's side: the parts of a cycle joined, and the whole cycle once its last message is in. */
export function createCycleReceiver(): {
  part(json: string): void
  cycle(message: Extract<FromThread, { kind: 'cycle' }>): CollectedChanges
  /** Forget a cycle half received (a thread that died). */
  reset(): void
} {
  let joiner = createDeltaJoiner()
  return {
    part: (json) => joiner.add(JSON.parse(json) as DeltaPart),
    cycle(message) {
      const decoded = message.metrics ? decodeMetricsFrame(message.metrics) : null
      if (decoded && !decoded.ok) throw new Error(`unreadable metrics frame: ${decoded.reason}`)
      const rest = message.delta === null ? null : (JSON.parse(message.delta) as StateDelta)
      const delta = joiner.finish(rest)
      return { delta, metrics: decoded?.ok ? decoded.frame : null, extras: message.extras }
    },
    reset: () => void (joiner = createDeltaJoiner()),
  }
}
