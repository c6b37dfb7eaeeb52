// The per-endpoint allowance of metrics-history calls to Proxmox (issue 25 "Cost"): charts and the
// forecast job share it, and it sits inside the collector's own connection limit (the calls go
// through the endpoint's guest-detail client, poller.ts historyClient), so history never slows
// the live poll. A call beyond the allowance waits briefly, then is refused with a 503.
import { AppError } from '../../shared/model/errors.ts'

/** The allowance (README "Metrics history"). */
export interface BudgetLimits {
  /** History calls in flight per endpoint. */
  inFlight: number
  /** History calls started per endpoint in any 60 s. */
  perMinute: number
  /** How long a call may wait for its turn before the 503. */
  maxWaitMs: number
  /** Calls waiting per endpoint; one more is refused at once. */
  maxQueued: number
}

export const HISTORY_BUDGET: BudgetLimits = {
  inFlight: 2,
  perMinute: 60,
  maxWaitMs: 2_000,
  maxQueued: 20,
}

const MINUTE_MS = 60_000

/** Figures of one endpoint, for diagnostics and the bench. */
export interface BudgetStats {
  callsLastMinute: number
  inFlight: number
  queued: number
  total: number
  refused: number
}

export interface HistoryBudget {
  /** Runs `call` within `endpoint`'s allowance; HISTORY_BUSY when it cannot get a turn in time. */
  run<T>(endpoint: string, call: () => Promise<T>): Promise<T>
  /** Calls `endpoint` may still start in this minute (0 when at the limit). */
  remaining(endpoint: string): number
  stats(): Record<string, BudgetStats>
}

interface Waiter {
  start: () => void
  timer: ReturnType<typeof setTimeout>
}

interface Lane {
  /** Start times (epoch ms) of the calls of the last minute, oldest first. */
  starts: number[]
  inFlight: number
  queue: Waiter[]
  total: number
  refused: number
  wake?: ReturnType<typeof setTimeout>
}

/** Creates the allowance; `now` is the clock of the per-minute window. */
export function createHistoryBudget(
  limits: BudgetLimits = HISTORY_BUDGET,
  now: () => number = Date.now,
): HistoryBudget {
  const lanes = new Map<string, Lane>()
  const lane = (endpoint: string): Lane => {
    let found = lanes.get(endpoint)
    if (!found)
      lanes.set(endpoint, (found = { starts: [], inFlight: 0, queue: [], total: 0, refused: 0 }))
    return found
  }
  const prune = (l: Lane, at: number): void => {
    let drop = 0
    while (drop < l.starts.length && l.starts[drop]! <= at - MINUTE_MS) drop++
    if (drop) l.starts.splice(0, drop)
  }
  const busy = (endpoint: string, l: Lane): AppError => {
    l.refused++
    return new AppError('HISTORY_BUSY', {
      endpoint,
      inFlight: limits.inFlight,
      perMinute: limits.perMinute,
    })
  }

  // Start what the limits allow; if the minute is full, look again when its oldest call ages out.
  function pump(l: Lane): void {
    const at = now()
    prune(l, at)
    while (l.queue.length && l.inFlight < limits.inFlight && l.starts.length < limits.perMinute) {
      const waiter = l.queue.shift()!
      clearTimeout(waiter.timer)
      waiter.start()
    }
    if (l.queue.length && l.starts.length >= limits.perMinute && !l.wake) {
      const delay = Math.max(1, l.starts[0]! + MINUTE_MS - at)
      l.wake = setTimeout(() => {
        l.wake = undefined
        pump(l)
      }, delay)
      l.wake.unref?.()
    }
  }

  return {
    run<T>(endpoint: string, call: () => Promise<T>): Promise<T> {
      const l = lane(endpoint)
      if (l.queue.length >= limits.maxQueued) return Promise.reject(busy(endpoint, l))
      return new Promise<T>((resolve, reject) => {
        const waiter: Waiter = {
          start: () => {
            l.inFlight++
            l.total++
            l.starts.push(now())
            call()
              .then(resolve, reject)
              .finally(() => {
                l.inFlight--
                pump(l)
              })
          },
          timer: setTimeout(() => {
            const index = l.queue.indexOf(waiter)
            if (index >= 0) l.queue.splice(index, 1)
            reject(busy(endpoint, l))
          }, limits.maxWaitMs),
        }
        waiter.timer.unref?.()
        l.queue.push(waiter)
        pump(l)
      })
    },
    remaining(endpoint) {
      const l = lane(endpoint)
      prune(l, now())
      return Math.max(0, limits.perMinute - l.starts.length)
    },
    stats() {
      const out: Record<string, BudgetStats> = {}
      const at = now()
      for (const [endpoint, l] of lanes) {
        prune(l, at)
        out[endpoint] = {
          callsLastMinute: l.starts.length,
          inFlight: l.inFlight,
          queued: l.queue.length,
          total: l.total,
          refused: l.refused,
        }
      }
      return out
    },
  }
}
