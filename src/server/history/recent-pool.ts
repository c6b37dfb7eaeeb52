// The rings behind the recent store (recent-store.ts): one pool per kind of resource, a slot per
// resource, per metric a ring of per-minute average and peak indexed by minute % ring length,
// holding the `ring` minutes before the slot's last one.
// Typed arrays are allocated in chunks of slots, so 100,000 guests mean ~100 allocations, never one
// per guest, and growing never copies the rings. Within a chunk the rings are minute-major (one
// minute of every slot side by side), so closing a minute for all slots writes memory in order
// rather than one cache miss per slot and metric. The minute under way is summed in accumulators
// (Float64 sum, Float32 peak, count) and written into its ring position when the slot's next
// minute begins; reads take it from the accumulators as it stands.
//
// Percent metrics are kept as Uint16 hundredths of a percent (0.01 % resolution, 65535 = gap);
// the others as Float32 (NaN = gap). All-Float32 rings would hold 56 bytes per guest-minute
// (336 MB for 100,000 guests over an hour); with percents in 16 bits it is 44 (264 MB).
//
// A retention change does not copy 264 MB at once: each chunk keeps the ring length it was built
// with (reads and writes honour it) and is rebuilt at the new length one chunk per call of
// migrateOne(), which the store calls once per poll.

/** How a metric is kept: hundredths of a percent in 16 bits, or a 32-bit float. */
export type Encoding = 'pct' | 'f32'

const PCT_GAP = 0xffff
const PCT_MAX = 0xfffe

interface Chunk {
  /** The ring length (minutes) this chunk's arrays were built with. */
  ring: number
  avg: (Uint16Array | Float32Array)[]
  max: (Uint16Array | Float32Array)[]
}

/** A pool of slots for the resources of one kind, with `encodings.length` metrics each. */
export class RingPool {
  readonly metricCount: number
  /** Per metric: kept as hundredths of a percent. */
  private readonly pct: readonly boolean[]
  /** Slot of each resource id. */
  readonly slots = new Map<string, number>()
  /** The minute each slot's accumulators belong to (the last minute it was present); -1 free. */
  minute = new Float64Array(0)
  private sum = new Float64Array(0)
  private peak = new Float32Array(0)
  private count = new Uint16Array(0)
  private readonly chunks: Chunk[] = []
  private readonly free: number[] = []
  private capacity = 0
  /** Changes when slots are freed; cursors of an older epoch are dropped. */
  private epoch = 0
  /** Slots handed out so far (in use or free). */
  private allocated = 0
  private readonly shift: number
  private readonly mask: number

  constructor(
    private readonly encodings: readonly Encoding[],
    chunkBits: number,
    private ring: number,
  ) {
    this.metricCount = encodings.length
    this.pct = encodings.map((encoding) => encoding === 'pct')
    this.shift = chunkBits
    this.mask = (1 << chunkBits) - 1
  }

  /** The slot of `id` at minute `m`, allocated if new; closes the slot's previous minute. */
  touch(id: string, m: number): number {
    let s = this.slots.get(id)
    if (s === undefined) {
      s = this.allocate()
      this.slots.set(id, s)
      this.clearSlot(s)
      this.minute[s] = m
      return s
    }
    const last = this.minute[s]!
    if (m > last) this.roll(s, last, m)
    return s
  }

  /**
   * touch() for the item at position `i` of a list walked every poll: when the previous walk saw
   * the same id there, its slot is taken from `cursor` without hashing the (freshly parsed) id.
   */
  touchAt(cursor: Cursor, i: number, id: string, m: number): number {
    if (cursor.epoch !== this.epoch) {
      cursor.ids.length = 0
      cursor.slots.length = 0
      cursor.epoch = this.epoch
    }
    if (cursor.ids[i] === id) {
      const s = cursor.slots[i]!
      const last = this.minute[s]!
      if (m > last) this.roll(s, last, m)
      return s
    }
    const s = this.touch(id, m)
    cursor.ids[i] = id
    cursor.slots[i] = s
    return s
  }

  /** Adds one sample of metric `j` to slot `s`'s minute under way. */
  add(s: number, j: number, value: number): void {
    const a = s * this.metricCount + j
    const n = this.count[a]!
    this.sum[a] = this.sum[a]! + value
    if (n === 0 || value > this.peak[a]!) this.peak[a] = value
    if (n < 0xffff) this.count[a] = n + 1
  }

  /**
   * Average and peak of slot `s`, metric `j`, for each minute `start..end` into `avg`/`max` (null
   * for a gap). Minutes older than `oldest` or after the slot's last are gaps.
   */
  read(s: number, j: number, start: number, end: number, oldest: number): [Nullable, Nullable] {
    const avg: Nullable = []
    const max: Nullable = []
    const chunk = this.chunks[s >> this.shift]!
    const ring = chunk.ring
    const local = s & this.mask
    const size = this.mask + 1
    const last = this.minute[s]!
    const low = Math.max(oldest, last - ring)
    const pct = this.pct[j]!
    const avgRing = chunk.avg[j]!
    const maxRing = chunk.max[j]!
    for (let k = start; k <= end; k++) {
      if (k === last) {
        const a = s * this.metricCount + j
        const n = this.count[a]!
        avg.push(n === 0 ? null : this.sum[a]! / n)
        max.push(n === 0 ? null : this.peak[a]!)
      } else if (k > last || k < low) {
        avg.push(null)
        max.push(null)
      } else {
        const at = (k % ring) * size + local
        avg.push(decode(avgRing[at]!, pct))
        max.push(decode(maxRing[at]!, pct))
      }
    }
    return [avg, max]
  }

  /** Frees the slots whose last minute is before `before`. */
  sweep(before: number): void {
    for (const [id, s] of this.slots) {
      if (this.minute[s]! >= before) continue
      this.slots.delete(id)
      this.minute[s] = -1
      this.free.push(s)
      // A freed slot may be handed to another id: every cursor starts over.
      this.epoch++
    }
  }

  /** Sets the ring length new and rebuilt chunks get; existing chunks keep theirs until migrated. */
  setRing(minutes: number): void {
    this.ring = minutes
  }

  /** Rebuilds one chunk whose ring length differs from the current one; false when none does. */
  migrateOne(): boolean {
    const c = this.chunks.findIndex((chunk) => chunk.ring !== this.ring)
    if (c < 0) return false
    const old = this.chunks[c]!
    const next = this.makeChunk()
    const size = this.mask + 1
    for (let local = 0; local < size; local++) {
      const s = (c << this.shift) + local
      const last = this.minute[s]!
      if (last < 0) continue
      const keep = Math.min(old.ring, next.ring)
      for (let j = 0; j < this.metricCount; j++) {
        for (let k = last - keep; k < last; k++) {
          if (k < 0) continue
          const to = (k % next.ring) * size + local
          const from = (k % old.ring) * size + local
          next.avg[j]![to] = old.avg[j]![from]!
          next.max[j]![to] = old.max[j]![from]!
        }
      }
    }
    this.chunks[c] = next
    return true
  }

  /** Bytes of typed arrays held. */
  bytes(): number {
    let total =
      this.minute.byteLength + this.sum.byteLength + this.peak.byteLength + this.count.byteLength
    for (const chunk of this.chunks) {
      for (const array of chunk.avg) total += array.byteLength
      for (const array of chunk.max) total += array.byteLength
    }
    return total
  }

  private allocate(): number {
    const reused = this.free.pop()
    if (reused !== undefined) return reused
    const s = this.allocated++
    if (s >= this.capacity) this.grow()
    return s
  }

  private grow(): void {
    this.chunks.push(this.makeChunk())
    const capacity = this.chunks.length << this.shift
    const m = this.metricCount
    this.minute = extend(this.minute, capacity, -1)
    this.sum = extend(this.sum, capacity * m, 0)
    this.peak = extend(this.peak, capacity * m, 0)
    this.count = extend(this.count, capacity * m, 0)
    this.capacity = capacity
  }

  private makeChunk(): Chunk {
    const length = (this.mask + 1) * this.ring
    const make = (encoding: Encoding) => {
      const array = encoding === 'pct' ? new Uint16Array(length) : new Float32Array(length)
      array.fill(encoding === 'pct' ? PCT_GAP : NaN)
      return array
    }
    return { ring: this.ring, avg: this.encodings.map(make), max: this.encodings.map(make) }
  }

  /** A reused or new slot: every minute a gap, the accumulators empty. */
  private clearSlot(s: number): void {
    const chunk = this.chunks[s >> this.shift]!
    const local = s & this.mask
    const size = this.mask + 1
    for (let j = 0; j < this.metricCount; j++) {
      const gap = gapOf(this.pct[j]!)
      for (let pos = 0; pos < chunk.ring; pos++) {
        chunk.avg[j]![pos * size + local] = gap
        chunk.max[j]![pos * size + local] = gap
      }
      this.sum[s * this.metricCount + j] = 0
      this.count[s * this.metricCount + j] = 0
    }
  }

  /** Writes minute `last` of slot `s` into its ring, gaps for the minutes up to `m`, resets. */
  private roll(s: number, last: number, m: number): void {
    const chunk = this.chunks[s >> this.shift]!
    const ring = chunk.ring
    const local = s & this.mask
    const size = this.mask + 1
    const skipped = Math.min(m - last - 1, ring - 1)
    for (let j = 0; j < this.metricCount; j++) {
      const a = s * this.metricCount + j
      const n = this.count[a]!
      const pct = this.pct[j]!
      const avgRing = chunk.avg[j]!
      const maxRing = chunk.max[j]!
      // Gone for more than a whole ring: the closed minute is too old to keep, all is gap.
      const stale = m - last > ring
      const at = (last % ring) * size + local
      avgRing[at] = n === 0 || stale ? gapOf(pct) : encode(this.sum[a]! / n, pct)
      maxRing[at] = n === 0 || stale ? gapOf(pct) : encode(this.peak[a]!, pct)
      for (let d = 1; d <= skipped; d++) {
        const gapAt = ((last + d) % ring) * size + local
        avgRing[gapAt] = gapOf(pct)
        maxRing[gapAt] = gapOf(pct)
      }
      this.sum[a] = 0
      this.count[a] = 0
    }
    this.minute[s] = m
  }
}

type Nullable = (number | null)[]

/** The ids and slots of a list at the previous walk, by position (see touchAt). */
export interface Cursor {
  ids: string[]
  slots: number[]
  epoch: number
}

/** A cursor for one list walked every poll. */
export const createCursor = (): Cursor => ({ ids: [], slots: [], epoch: -1 })

const gapOf = (pct: boolean) => (pct ? PCT_GAP : NaN)

function encode(value: number, pct: boolean): number {
  if (!pct) return value
  const hundredths = Math.round(value * 100)
  return hundredths < 0 ? 0 : hundredths > PCT_MAX ? PCT_MAX : hundredths
}

function decode(stored: number, pct: boolean): number | null {
  if (pct) return stored === PCT_GAP ? null : stored / 100
  return Number.isNaN(stored) ? null : stored
}

function extend<T extends Float64Array | Float32Array | Uint16Array>(
  array: T,
  length: number,
  fill: number,
): T {
  const next = new (array.constructor as new (n: number) => T)(length)
  next.set(array)
  next.fill(fill, array.length)
  return next
}
