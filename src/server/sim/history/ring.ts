// Fixed-size rings of 1-minute AVERAGE and MAX buckets for many resources at once, in typed arrays
// allocated in bulk. A resource owns a slot; each tick adds its per-tick values to the open minute's
// accumulators; when the minute rolls over, every slot's accumulators fold into ring position
// `minute % RING_MINUTES` (NaN when the slot had no sample: a gap).
//
// Bytes per slot: RING_MINUTES x fields x 2 x 4 (ring) + fields x 2 x 4 (accumulators) + 1 (count).
// Guests use 4 fields: 72 x 4 x 2 x 4 + 32 + 1 = 2,337 bytes.

/** Minutes each ring keeps (PVE 8's hour chart needs 70, plus the open one and one spare). */
export const RING_MINUTES = 72

/** A set of rings, one per slot, with `fields` values per minute (AVERAGE and MAX each). */
export class RingSet {
  readonly fields: number
  capacity: number
  /** [slot][minute position][field][avg, max] */
  data: Float32Array
  /** Open minute: [slot][field][sum, max] */
  acc: Float32Array
  count: Uint8Array

  constructor(fields: number, capacity: number) {
    this.fields = fields
    this.capacity = Math.max(1, capacity)
    this.data = new Float32Array(this.capacity * RING_MINUTES * fields * 2).fill(Number.NaN)
    this.acc = new Float32Array(this.capacity * fields * 2)
    this.count = new Uint8Array(this.capacity)
  }

  /** Grows the capacity by a quarter until `slot` fits; new slots read as gaps. */
  ensure(slot: number): void {
    if (slot < this.capacity) return
    let capacity = this.capacity
    while (capacity <= slot) capacity = Math.ceil(capacity * 1.25) + 64
    const data = new Float32Array(capacity * RING_MINUTES * this.fields * 2).fill(Number.NaN)
    data.set(this.data)
    const acc = new Float32Array(capacity * this.fields * 2)
    acc.set(this.acc)
    const count = new Uint8Array(capacity)
    count.set(this.count)
    this.data = data
    this.acc = acc
    this.count = count
    this.capacity = capacity
  }

  /** Adds one tick's value of field `f`; call `sampled(slot)` once after all fields. */
  add(slot: number, f: number, value: number): void {
    const i = (slot * this.fields + f) * 2
    const acc = this.acc
    if (this.count[slot] === 0) {
      acc[i] = value
      acc[i + 1] = value
      return
    }
    acc[i] = acc[i]! + value
    if (value > acc[i + 1]!) acc[i + 1] = value
  }

  /** Counts one tick for the slot (at most 255 per minute, far above 6 ticks of 10 s). */
  sampled(slot: number): void {
    if (this.count[slot]! < 255) this.count[slot] = this.count[slot]! + 1
  }

  /** Folds every slot's open minute into ring position `pos` and resets the accumulators. */
  close(pos: number, slots: number): void {
    const { fields, data, acc, count } = this
    const width = fields * 2
    for (let s = 0; s < slots; s++) {
      const n = count[s]!
      const base = (s * RING_MINUTES + pos) * width
      const a = s * width
      for (let j = 0; j < width; j += 2) {
        data[base + j] = n === 0 ? Number.NaN : acc[a + j]! / n
        data[base + j + 1] = n === 0 ? Number.NaN : acc[a + j + 1]!
      }
      count[s] = 0
    }
  }

  /** Forgets a slot (a new resource takes it over): its whole ring reads as gaps. */
  clear(slot: number): void {
    const width = this.fields * 2
    this.data.fill(Number.NaN, slot * RING_MINUTES * width, (slot + 1) * RING_MINUTES * width)
    this.count[slot] = 0
  }

  /** AVERAGE (max=false) or MAX of field `f` at ring position `pos`; NaN for a gap. */
  closed(slot: number, pos: number, f: number, max: boolean): number {
    return this.data[((slot * RING_MINUTES + pos) * this.fields + f) * 2 + (max ? 1 : 0)]!
  }

  /** The open minute's AVERAGE or MAX so far; NaN before its first sample. */
  open(slot: number, f: number, max: boolean): number {
    const n = this.count[slot]!
    if (n === 0) return Number.NaN
    const i = (slot * this.fields + f) * 2
    return max ? this.acc[i + 1]! : this.acc[i]! / n
  }
}
