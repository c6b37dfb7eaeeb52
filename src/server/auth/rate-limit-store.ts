// A counter store for @fastify/rate-limit that reads the app's clock: the plugin's own LocalStore
// reads Date.now, and tests move the app's clock past a window instead of waiting a minute.
// Fixed windows per key, like LocalStore; idle keys are swept so memory stays bounded.
import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit'

type Callback = Parameters<FastifyRateLimitStore['incr']>[1]

/** Sweep expired windows when a store holds more keys than this. */
const MAX_KEYS = 10_000

/** A store class (the plugin instantiates it) whose windows follow `now`. */
export function createClockStore(now: () => number): FastifyRateLimitStoreCtor {
  class ClockStore implements FastifyRateLimitStore {
    private readonly windows = new Map<string, { count: number; endsAt: number }>()

    incr(key: string, callback: Callback, timeWindow: number): void {
      const at = now()
      let window = this.windows.get(key)
      if (!window || window.endsAt <= at) {
        if (!window && this.windows.size >= MAX_KEYS) this.sweep(at)
        window = { count: 0, endsAt: at + timeWindow }
        this.windows.set(key, window)
      }
      window.count += 1
      callback(null, { current: window.count, ttl: window.endsAt - at })
    }

    /** Each limiter (route or class) counts on its own. */
    child(): FastifyRateLimitStore {
      return new ClockStore()
    }

    private sweep(at: number): void {
      for (const [key, window] of this.windows) if (window.endsAt <= at) this.windows.delete(key)
    }
  }
  return ClockStore
}
