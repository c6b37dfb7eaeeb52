// The binary metrics frame of delta mode 2: every guest whose live numbers changed in a cycle, as
// (slot, changed-field mask, values) in one ArrayBuffer. The worker reads it without JSON.parse and
// without a string per guest; the server fills it in the same pass that diffs the guests.
// Pure: ArrayBuffer and typed arrays only.

/**
 * The guest fields the frame carries, by bit. Only number-to-number changes travel here; a field
 * that appears, disappears or changes type goes in the JSON delta instead.
 */
export const GUEST_METRIC_FIELDS = [
  ['cpu'],
  ['uptime'],
  ['diskRead'],
  ['diskWrite'],
  ['networkIn'],
  ['networkOut'],
  ['memory', 'used'],
  ['memory', 'usage'],
  ['memory', 'free'],
  ['disk', 'used'],
  ['disk', 'usage'],
  ['disk', 'free'],
] as const
export type GuestMetricField = (typeof GUEST_METRIC_FIELDS)[number]

/** Bits of the fields inside `memory` and inside `disk`. */
export const MEMORY_BITS = 0b000111000000
export const DISK_BITS = 0b111000000000

/** First four bytes of a metrics frame ('PMF1' little-endian): tells it from other binary data. */
export const METRICS_MAGIC = 0x31464d50
const HEADER_BYTES = 24

/** The changes of one cycle, as the server's diff collects them. */
export interface GuestMetricChanges {
  slots: number[]
  masks: number[]
  /** The values of every set bit, guest after guest, in bit order. */
  values: number[]
  /** The changed guests themselves (server side only, never encoded): for the all-JSON dialect. */
  rows: Array<{ id: string } & Record<string, unknown>>
}

/** An empty change list. */
export function createMetricChanges(): GuestMetricChanges {
  return { slots: [], masks: [], values: [], rows: [] }
}

/** A decoded frame: typed views over the received buffer (no copy). */
export interface MetricsFrame {
  seq: number
  slots: Uint32Array
  masks: Uint16Array
  values: Float64Array
}

/**
 * Encode the changes of sequence number `seq`. Layout (little-endian): magic u32, guest count
 * u32, value count u32, reserved u32, seq f64, slots u32[count], masks u16[count], padding to
 * 8 bytes, values f64[valueCount].
 */
export function encodeMetricsFrame(seq: number, changes: GuestMetricChanges): ArrayBuffer {
  const count = changes.slots.length
  const valuesAt = align8(HEADER_BYTES + count * 6)
  const buffer = new ArrayBuffer(valuesAt + changes.values.length * 8)
  const head = new DataView(buffer)
  head.setUint32(0, METRICS_MAGIC, true)
  head.setUint32(4, count, true)
  head.setUint32(8, changes.values.length, true)
  head.setFloat64(16, seq, true)
  new Uint32Array(buffer, HEADER_BYTES, count).set(changes.slots)
  new Uint16Array(buffer, HEADER_BYTES + count * 4, count).set(changes.masks)
  new Float64Array(buffer, valuesAt, changes.values.length).set(changes.values)
  return buffer
}

/** Decode a frame, or say why it is not one. Never throws. */
export function decodeMetricsFrame(
  buffer: ArrayBuffer,
): { ok: true; frame: MetricsFrame } | { ok: false; reason: string } {
  if (buffer.byteLength < HEADER_BYTES) return { ok: false, reason: 'metrics frame too short' }
  const head = new DataView(buffer)
  if (head.getUint32(0, true) !== METRICS_MAGIC) return { ok: false, reason: 'not a metrics frame' }
  const count = head.getUint32(4, true)
  const valueCount = head.getUint32(8, true)
  const seq = head.getFloat64(16, true)
  const valuesAt = align8(HEADER_BYTES + count * 6)
  if (buffer.byteLength !== valuesAt + valueCount * 8 || !Number.isSafeInteger(seq) || seq < 0) {
    return { ok: false, reason: 'metrics frame of the wrong size or seq' }
  }
  const masks = new Uint16Array(buffer, HEADER_BYTES + count * 4, count)
  let bits = 0
  for (let i = 0; i < count; i++) bits += popcount(masks[i]!)
  if (bits !== valueCount) return { ok: false, reason: 'metrics frame masks and values disagree' }
  return {
    ok: true,
    frame: {
      seq,
      slots: new Uint32Array(buffer, HEADER_BYTES, count),
      masks,
      values: new Float64Array(buffer, valuesAt, valueCount),
    },
  }
}

/** Number of set bits of a 16-bit mask. */
export function popcount(mask: number): number {
  let n = 0
  for (let m = mask; m; m &= m - 1) n++
  return n
}

function align8(n: number): number {
  return (n + 7) & ~7
}
