// API call accounting for State.performance: per-cycle medians per endpoint class, and
// running totals since the poller was created.

/** Groups a path into an endpoint class: /nodes/pve1/status -> nodes/status. */
export function classifyPath(path: string): string {
  const parts = path.split('/').filter(Boolean)
  // The node name and numeric ids vary per call; the class must not.
  const kept = parts.filter((part, i) => !(i === 1 && parts[0] === 'nodes') && !/^\d+$/.test(part))
  return kept.join('/') || '/'
}

/** Median of a non-empty list. */
export function medianOf(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = sorted.length >> 1
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
}

/** Collects call durations and outcomes. */
export interface CallStats {
  record(path: string, ms: number, ok: boolean): void
  recordCache(hit: boolean): void
  /** Starts a new cycle: medians cover only the calls made since. */
  beginCycle(): void
  /** Median ms per endpoint class over the current cycle, rounded to 0.1 ms. */
  medians(): Record<string, number>
  readonly totalApiCalls: number
  readonly failedApiCalls: number
  readonly cacheHits: number
  readonly cacheMisses: number
}

/** Creates an empty accumulator. */
export function createCallStats(): CallStats {
  let durations = new Map<string, number[]>()
  let total = 0
  let failed = 0
  let hits = 0
  let misses = 0
  return {
    record(path, ms, ok) {
      total++
      if (!ok) failed++
      const key = classifyPath(path)
      const list = durations.get(key)
      if (list) list.push(ms)
      else durations.set(key, [ms])
    },
    recordCache(hit) {
      if (hit) hits++
      else misses++
    },
    beginCycle() {
      durations = new Map()
    },
    medians() {
      const out: Record<string, number> = {}
      for (const [key, list] of durations) out[key] = Math.round(medianOf(list) * 10) / 10
      return out
    },
    get totalApiCalls() {
      return total
    },
    get failedApiCalls() {
      return failed
    },
    get cacheHits() {
      return hits
    },
    get cacheMisses() {
      return misses
    },
  }
}
