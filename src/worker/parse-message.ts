// Validates server frames before they reach the store. Runs inside the worker.
// Malformed frames are reported, never thrown: one bad message must not break the connection.
import type { StateDelta } from '../shared/model/messages.ts'
import { decodeMetricsFrame, type MetricsFrame } from '../shared/model/guest-metrics.ts'
import { ENTITY_COLLECTIONS, type EntityCollection } from '../shared/model/state.ts'
import { isRecord } from './normalize.ts'

/** The server messages the socket acts on, validated. */
export type ParsedMessage =
  | { type: 'initialState' | 'rawData'; data: Record<string, unknown>; seq?: number }
  /** `metrics`: a binary metrics frame of the same seq follows (delta mode 2). */
  | { type: 'delta'; data: StateDelta; seq: number; metrics: boolean }
  /** Delta mode 2's first load: head, chunks, end. */
  | {
      type: 'snapshot'
      seq: number
      data: Record<string, unknown>
      counts: Record<string, number>
      /** Only the on-demand collections, of the publication the client already has. */
      partial: boolean
    }
  | {
      type: 'snapshotChunk'
      seq: number
      key: EntityCollection
      rows: unknown[]
      slots: number[] | null
    }
  | { type: 'snapshotEnd'; seq: number }
  | { type: 'metrics'; frame: MetricsFrame }
  | { type: 'ping' | 'pong'; timestamp: number | null }
  | { type: 'welcome'; deltas: boolean }
  /** Any other well-formed message (alerts, discovery, …): passed on untouched. */
  | { type: 'other'; name: string; message: Record<string, unknown> }

/** Parse one frame: a message, or the reason it is malformed. */
export function parseServerMessage(
  frame: unknown,
): { ok: true; message: ParsedMessage } | { ok: false; reason: string } {
  if (frame instanceof ArrayBuffer) {
    const decoded = decodeMetricsFrame(frame)
    return decoded.ok ? { ok: true, message: { type: 'metrics', frame: decoded.frame } } : decoded
  }
  if (typeof frame !== 'string') return { ok: false, reason: 'frame is neither text nor binary' }
  let value: unknown
  // Marked for the browser benchmark: JSON.parse is the worker's largest cost per frame.
  const started = performance.now()
  try {
    value = JSON.parse(frame)
  } catch {
    return { ok: false, reason: 'invalid JSON' }
  }
  measure('pulse:parse', started, {
    type: isRecord(value) ? value.type : undefined,
    bytes: frame.length,
  })
  if (!isRecord(value)) return { ok: false, reason: 'not an object' }
  const { type, data, seq } = value
  if (typeof type !== 'string' || !type) return { ok: false, reason: 'no type' }
  switch (type) {
    case 'initialState':
    case 'rawData': {
      if (!isRecord(data)) return { ok: false, reason: `${type} without an object data` }
      if (seq === undefined || type === 'rawData') return { ok: true, message: { type, data } }
      if (!isSeq(seq)) return { ok: false, reason: `${type} with a bad seq` }
      return { ok: true, message: { type, data, seq } }
    }
    case 'delta': {
      if (!isSeq(seq)) return { ok: false, reason: 'delta with a bad seq' }
      const problem = findDeltaProblem(data)
      if (problem) return { ok: false, reason: `delta ${problem}` }
      const metrics = value.metrics !== undefined
      return { ok: true, message: { type, data: data as StateDelta, seq, metrics } }
    }
    case 'snapshot': {
      const { counts } = value
      if (!isSeq(seq)) return { ok: false, reason: 'snapshot with a bad seq' }
      if (!isRecord(data)) return { ok: false, reason: 'snapshot without an object data' }
      if (
        !isRecord(counts) ||
        !Object.entries(counts).every(([k, n]) => isCollection(k) && isSeq(n))
      )
        return { ok: false, reason: 'snapshot with bad counts' }
      return {
        ok: true,
        message: {
          type,
          seq,
          data,
          counts: counts as Record<string, number>,
          partial: value.partial === true,
        },
      }
    }
    case 'snapshotChunk': {
      const { key, rows, slots } = value
      if (!isSeq(seq)) return { ok: false, reason: 'snapshotChunk with a bad seq' }
      if (!isCollection(key)) return { ok: false, reason: 'snapshotChunk of an unknown collection' }
      if (!Array.isArray(rows)) return { ok: false, reason: 'snapshotChunk without rows' }
      if (
        slots !== undefined &&
        (!Array.isArray(slots) ||
          slots.length !== rows.length ||
          slots.some((slot) => typeof slot !== 'number'))
      )
        return { ok: false, reason: 'snapshotChunk with bad slots' }
      return {
        ok: true,
        message: { type, seq, key, rows, slots: (slots as number[] | undefined) ?? null },
      }
    }
    case 'snapshotEnd':
      if (!isSeq(seq)) return { ok: false, reason: 'snapshotEnd with a bad seq' }
      return { ok: true, message: { type, seq } }
    case 'ping':
    case 'pong': {
      const timestamp = isRecord(data) && typeof data.timestamp === 'number' ? data.timestamp : null
      return { ok: true, message: { type, timestamp } }
    }
    case 'welcome':
      return { ok: true, message: { type, deltas: isRecord(data) && data.deltas !== undefined } }
    default:
      return { ok: true, message: { type: 'other', name: type, message: value } }
  }
}

const MEASURES_KEPT = 500
let measured = 0

/** A `performance.measure` entry named `name` from `started` to now (no-op where unsupported). */
export function measure(name: string, started: number, detail: Record<string, unknown>): void {
  // The timeline keeps entries until cleared: keep the last few hundred only.
  if (++measured % MEASURES_KEPT === 0) performance.clearMeasures()
  try {
    performance.measure(name, { start: started, end: performance.now(), detail })
  } catch {
    // Older engines without the options form: the figure is only for benchmarks.
  }
}

function isCollection(value: unknown): value is EntityCollection {
  return typeof value === 'string' && (ENTITY_COLLECTIONS as readonly string[]).includes(value)
}

function isSeq(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0
}

// Checks exactly what applyDeltaToIndex relies on, so a bad delta is rejected whole.
function findDeltaProblem(data: unknown): string | null {
  if (!isRecord(data)) return 'without an object data'
  const { upsert, remove, scalars } = data
  if (upsert !== undefined) {
    if (!isRecord(upsert)) return 'upsert is not an object'
    for (const key of ENTITY_COLLECTIONS) {
      const rows = upsert[key]
      if (rows === undefined) continue
      if (!Array.isArray(rows)) return `upsert.${key} is not an array`
      for (const row of rows) {
        if (!isRecord(row) || typeof row.id !== 'string')
          return `upsert.${key} has a row without id`
      }
    }
  }
  if (remove !== undefined) {
    if (!isRecord(remove)) return 'remove is not an object'
    for (const key of ENTITY_COLLECTIONS) {
      const ids = remove[key]
      if (ids === undefined) continue
      if (!Array.isArray(ids) || ids.some((id) => typeof id !== 'string')) {
        return `remove.${key} is not a list of ids`
      }
    }
  }
  if (scalars !== undefined && !isRecord(scalars)) return 'scalars is not an object'
  const { guestSlots } = data
  if (
    guestSlots !== undefined &&
    (!isRecord(guestSlots) || Object.values(guestSlots).some((slot) => !isSeq(slot)))
  )
    return 'guestSlots is not a map of slots'
  return null
}
