// In-memory sliding-window limiter per key (client IP). Memory stays bounded: idle keys are swept.
export interface RateDecision {
  allowed: boolean
  /** Whole seconds until the next attempt is allowed (0 when allowed). */
  retryAfterSeconds: number
}

export interface RateLimiter {
  /** Count one attempt for `key` and say whether it is within the limit. */
  hit(key: string): RateDecision
}

export interface RateLimiterOptions {
  limit: number
  windowMs: number
  now: () => number
  /** Sweep idle keys when the map grows past this many. */
  maxKeys?: number
}

/** A sliding window: at most `limit` attempts in any `windowMs`; refused attempts do not count. */
export function createRateLimiter(options: RateLimiterOptions): RateLimiter {
  const { limit, windowMs, now } = options
  const maxKeys = options.maxKeys ?? 10_000
  const hits = new Map<string, number[]>()

  const sweep = (at: number) => {
    for (const [key, times] of hits) {
      if ((times[times.length - 1] ?? 0) <= at - windowMs) hits.delete(key)
    }
  }

  return {
    hit(key) {
      const at = now()
      let times = hits.get(key)
      if (!times) {
        if (hits.size >= maxKeys) sweep(at)
        times = []
        hits.set(key, times)
      }
      while (times.length > 0 && times[0]! <= at - windowMs) times.shift()
      if (times.length >= limit) {
        const retryMs = times[0]! + windowMs - at
        return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(retryMs / 1000)) }
      }
      times.push(at)
      return { allowed: true, retryAfterSeconds: 0 }
    },
  }
}
