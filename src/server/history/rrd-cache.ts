// The bounded cache of RRD frames read from Proxmox: least recently used out first, bounded by
// entries and by bytes, each entry fresh for a time that grows with the timeframe's step (an
// hour chart's newest minute moves every minute; a year's 6 h step barely moves).
import type { RrdFrame } from './rrd-normalise.ts'

export type Timeframe = 'hour' | 'day' | 'week' | 'month' | 'year'

/** How long a frame of each timeframe is served from the cache (README "Metrics history"). */
export const CACHE_TTL_MS: Readonly<Record<Timeframe, number>> = {
  hour: 30_000,
  day: 60_000,
  week: 10 * 60_000,
  month: 30 * 60_000,
  year: 6 * 3_600_000,
}

/** The cache's bounds (README "Metrics history"). */
export const CACHE_LIMITS = { entries: 5_000, bytes: 64 * 1024 * 1024 }

interface Entry {
  frame: RrdFrame
  bytes: number
  expires: number
}

export interface RrdCache {
  get(key: string): RrdFrame | undefined
  set(key: string, timeframe: Timeframe, frame: RrdFrame, bytes: number): void
  stats(): { entries: number; bytes: number; hits: number; misses: number }
  clear(): void
}

/** Creates an empty cache. */
export function createRrdCache(
  now: () => number = Date.now,
  limits: { entries: number; bytes: number } = CACHE_LIMITS,
): RrdCache {
  // A Map iterates in insertion order: re-inserting on a hit makes the first key the coldest.
  const entries = new Map<string, Entry>()
  let bytes = 0
  let hits = 0
  let misses = 0
  const drop = (key: string, entry: Entry) => {
    entries.delete(key)
    bytes -= entry.bytes
  }
  return {
    get(key) {
      const entry = entries.get(key)
      if (!entry || entry.expires <= now()) {
        if (entry) drop(key, entry)
        misses++
        return undefined
      }
      entries.delete(key)
      entries.set(key, entry)
      hits++
      return entry.frame
    },
    set(key, timeframe, frame, size) {
      const old = entries.get(key)
      if (old) drop(key, old)
      if (size > limits.bytes) return
      entries.set(key, { frame, bytes: size, expires: now() + CACHE_TTL_MS[timeframe] })
      bytes += size
      for (const [coldKey, cold] of entries) {
        if (entries.size <= limits.entries && bytes <= limits.bytes) break
        drop(coldKey, cold)
      }
    },
    stats: () => ({ entries: entries.size, bytes, hits, misses }),
    clear() {
      entries.clear()
      bytes = 0
    },
  }
}
