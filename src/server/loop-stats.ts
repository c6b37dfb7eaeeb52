// A debug hook for bench/server-loop.ts: with PULSE_DEBUG_LOOP_STATS=1 and an IPC channel (the
// server forked by the bench), answers `{ type: 'loop-stats' }` with the main thread's event-loop
// delay and the process's RSS. Never a route: the figures are for the parent process only.
import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks'

/** What the hook reports; delays in ms, sizes in bytes. */
export interface LoopStats {
  type: 'loop-stats'
  maxMs: number
  p99Ms: number
  p50Ms: number
  meanMs: number
  count: number
  rssBytes: number
  /** Peak RSS since the process started (getrusage maxrss). */
  rssMaxBytes: number
  heapUsedBytes: number
  /** Guests and backup records (storage and PBS) in the published state, -1 before it is known. */
  guests: number
  backupRecords: number
}

/** What the hook reports of the published state (main.ts sets it once the app is built). */
export interface LoopStatsCounts {
  guests: number
  backupRecords: number
}
let counts: () => LoopStatsCounts = () => ({ guests: -1, backupRecords: -1 })

/** Tell the hook how to count the published state's guests and backup records. */
export function setLoopStatsCounts(read: () => LoopStatsCounts): void {
  counts = read
}

/** Starts the hook when enabled by the environment; returns whether it did. */
export function startLoopStatsHook(env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.PULSE_DEBUG_LOOP_STATS !== '1' || typeof process.send !== 'function') return false
  // 10 ms resolution is the histogram's default; a blocked loop shows as one long sample.
  const histogram: IntervalHistogram = monitorEventLoopDelay({ resolution: 10 })
  histogram.enable()
  process.on('message', (message: unknown) => {
    if (typeof message !== 'object' || message === null) return
    const type = (message as { type?: unknown }).type
    if (type === 'loop-stats-reset') {
      histogram.reset()
      process.send?.({ type: 'loop-stats-reset' })
    } else if (type === 'loop-stats') {
      process.send?.(readLoopStats(histogram))
    }
  })
  return true
}

function readLoopStats(histogram: IntervalHistogram): LoopStats {
  const ms = (ns: number) => (Number.isFinite(ns) ? ns / 1e6 : 0)
  const memory = process.memoryUsage()
  return {
    type: 'loop-stats',
    maxMs: ms(histogram.max),
    p99Ms: ms(histogram.percentile(99)),
    p50Ms: ms(histogram.percentile(50)),
    meanMs: ms(histogram.mean),
    count: histogram.count,
    rssBytes: memory.rss,
    rssMaxBytes: process.resourceUsage().maxRSS * 1024,
    heapUsedBytes: memory.heapUsed,
    ...counts(),
  }
}
