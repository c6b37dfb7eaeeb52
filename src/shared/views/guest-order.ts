// Ordering primitives of the guest view: a stable radix sort of numbers and a text sort, both over
// index permutations. They carry the 100,000-guest sorts (bench/guest-view.ts measures them).

const F32 = new Float32Array(1)
const F32_BITS = new Uint32Array(F32.buffer)
const DIGIT_BITS = 16
const BUCKETS = 1 << DIGIT_BITS
const counts = new Uint32Array(BUCKETS)

/**
 * Stable sort of `order` by `values[index]`, NaN (empty) last in both directions; equal values
 * keep their order in `order`. Returns a new array.
 *
 * LSD radix on a 32-bit key (the value rounded to float32, bits flipped so unsigned order is
 * numeric order), then an insertion pass that orders the rare runs of equal float32 keys by their
 * exact float64 values. About 10x faster than a comparator sort at 100k rows.
 */
export function sortIndicesByNumber(
  order: Uint32Array,
  values: Float64Array,
  direction: 'asc' | 'desc',
): Uint32Array {
  const desc = direction === 'desc'
  const n = order.length
  let src = new Uint32Array(n)
  let keys = new Uint32Array(n)
  const empty: number[] = []
  let count = 0
  for (let i = 0; i < n; i++) {
    const index = order[i]!
    const value = values[index]!
    if (value !== value) {
      empty.push(index)
      continue
    }
    F32[0] = value + 0 // -0 becomes +0: equal numbers must share a key
    const bits = F32_BITS[0]!
    const key = bits & 0x80000000 ? ~bits >>> 0 : (bits | 0x80000000) >>> 0
    keys[count] = desc ? ~key >>> 0 : key
    src[count++] = index
  }
  let dst = new Uint32Array(n)
  let nextKeys = new Uint32Array(n)
  for (let shift = 0; shift < 32; shift += DIGIT_BITS) {
    counts.fill(0)
    for (let i = 0; i < count; i++) counts[(keys[i]! >>> shift) & (BUCKETS - 1)]!++
    // A digit equal for every row (common in the high half) needs no pass.
    if (counts[(keys[0]! >>> shift) & (BUCKETS - 1)] === count) continue
    let sum = 0
    for (let b = 0; b < BUCKETS; b++) {
      const c = counts[b]!
      counts[b] = sum
      sum += c
    }
    for (let i = 0; i < count; i++) {
      const key = keys[i]!
      const at = counts[(key >>> shift) & (BUCKETS - 1)]!++
      dst[at] = src[i]!
      nextKeys[at] = key
    }
    ;[src, dst] = [dst, src]
    ;[keys, nextKeys] = [nextKeys, keys]
  }
  // Equal float32 keys may hide different float64 values: order those runs exactly (stable).
  for (let i = 1; i < count; i++) {
    const key = keys[i]!
    if (key !== keys[i - 1]) continue
    const index = src[i]!
    const value = values[index]!
    let j = i
    while (
      j > 0 &&
      keys[j - 1] === key &&
      (desc ? values[src[j - 1]!]! < value : values[src[j - 1]!]! > value)
    ) {
      src[j] = src[j - 1]!
      j--
    }
    src[j] = index
  }
  for (let i = 0; i < empty.length; i++) src[count + i] = empty[i]!
  return src
}

/**
 * Dense ranks of `texts` in ascending code-unit order; '' gets NaN (empty, sorted last in both
 * directions) and equal texts share a rank. The one comparator sort per text change; later sorts in either
 * direction go through `sortIndicesByNumber` on the ranks.
 */
export function rankTexts(texts: readonly string[]): Float64Array {
  const n = texts.length
  const order = new Array<number>(n)
  for (let i = 0; i < n; i++) order[i] = i
  order.sort((a, b) => {
    const ta = texts[a]!
    const tb = texts[b]!
    if (ta === tb) return 0
    if (!ta || !tb) return ta ? -1 : 1
    return ta < tb ? -1 : 1
  })
  const ranks = new Float64Array(n)
  let rank = 0
  for (let i = 0; i < n; i++) {
    const index = order[i]!
    const text = texts[index]!
    if (i > 0 && text !== texts[order[i - 1]!]) rank++
    ranks[index] = text ? rank : NaN
  }
  return ranks
}

/** The identity permutation 0..n-1. */
export function identityOrder(n: number): Uint32Array {
  const order = new Uint32Array(n)
  for (let i = 0; i < n; i++) order[i] = i
  return order
}
