// Validates server frames before they reach the store. Runs inside the worker.
// Malformed frames are reported, never thrown: one bad message must not break the connection.
import type { StateDelta } from '../shared/model/messages.ts'
import { ENTITY_COLLECTIONS } from '../shared/model/state.ts'
import { isRecord } from './normalize.ts'

/** The server messages the socket acts on, validated. */
export type ParsedMessage =
  | { type: 'initialState' | 'rawData'; data: Record<string, unknown>; seq?: number }
  | { type: 'delta'; data: StateDelta; seq: number }
  | { type: 'ping' | 'pong'; timestamp: number | null }
  | { type: 'welcome'; deltas: boolean }
  /** Any other well-formed message (alerts, discovery, …): passed on untouched. */
  | { type: 'other'; name: string; message: Record<string, unknown> }

/** Parse one frame: a message, or the reason it is malformed. */
export function parseServerMessage(
  frame: unknown,
): { ok: true; message: ParsedMessage } | { ok: false; reason: string } {
  if (typeof frame !== 'string') return { ok: false, reason: 'frame is not text' }
  let value: unknown
  try {
    value = JSON.parse(frame)
  } catch {
    return { ok: false, reason: 'invalid JSON' }
  }
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
      return { ok: true, message: { type, data: data as StateDelta, seq } }
    }
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
  return null
}
