// The body of a live 'delta' message on the bus: the changes the collector's LiveState computed
// for one publication, exactly as delta mode 2 carries them (the JSON delta with the slots of new
// guests, and the binary metrics frame), so a web node applies and forwards them without diffing
// its state again (replica-state.ts). Layout: u32 little-endian byte length of the JSON, the JSON
// (`StateDelta` or null), then the metrics frame (guest-metrics.ts) when guests' numbers changed.
import {
  decodeMetricsFrame,
  encodeMetricsFrame,
  type MetricsFrame,
} from '../../shared/model/guest-metrics.ts'
import type { StateDelta } from '../../shared/model/messages.ts'
import type { StateChanges } from '../../shared/model/delta-steps.ts'

/** What a web node reads from a 'delta' message. */
export interface ReceivedChanges {
  delta: StateDelta | null
  metrics: MetricsFrame | null
}

const encoder = new TextEncoder()
const decoder = new TextDecoder()

/** The bus body of the changes of publication `seq`. */
export function encodeLiveChanges(seq: number, changes: StateChanges): Uint8Array {
  const json = encoder.encode(JSON.stringify(changes.delta))
  const frame = changes.metrics ? new Uint8Array(encodeMetricsFrame(seq, changes.metrics)) : null
  const out = new Uint8Array(4 + json.length + (frame?.length ?? 0))
  new DataView(out.buffer).setUint32(0, json.length, true)
  out.set(json, 4)
  if (frame) out.set(frame, 4 + json.length)
  return out
}

/** Read a body written by encodeLiveChanges; throws on a malformed one. */
export function decodeLiveChanges(body: Uint8Array): ReceivedChanges {
  if (body.length < 4) throw new Error('live changes too short')
  const length = new DataView(body.buffer, body.byteOffset, 4).getUint32(0, true)
  if (4 + length > body.length) throw new Error('live changes of the wrong size')
  const delta = JSON.parse(decoder.decode(body.subarray(4, 4 + length))) as StateDelta | null
  if (4 + length === body.length) return { delta, metrics: null }
  // A copy of its own: the frame's typed arrays need an aligned buffer of exactly its size (and a
  // Buffer's slice() would share its pool).
  const decoded = decodeMetricsFrame(new Uint8Array(body.subarray(4 + length)).buffer)
  if (!decoded.ok) throw new Error(decoded.reason)
  return { delta, metrics: decoded.frame }
}
