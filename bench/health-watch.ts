// Issue 27's acceptance check: the demo server (as `npm run demo` starts it, 10 clusters of 10
// nodes) polling for minutes while GET /api/health is sent once a second and the server process's
// RSS is read once a second. Run only when named (`npm run bench -- health-watch`): it lasts
// BENCH_WATCH_MINUTES (default 10 at 100k, 2 below) per size of BENCH_WATCH_SIZES (default
// 100000; 1000,10000,100000 for all three). Nothing here asserts a time.
import { askLoopStats, getHealth, quantile, readRss, startDemoServer } from './demo-server.ts'

/** Answers slower than this count as a miss (the acceptance check's bound). */
export const SLOW_MS = 250
const SAMPLE_EVERY_MS = 1000
// A health request that never answers counts as this long (and as a miss).
const HEALTH_TIMEOUT_MS = 30_000

export interface HealthWatchResult {
  guests: number
  minutes: number
  /** Backup records in the state at the end (storage and PBS backups). */
  backupRecords: number
  /** Event-loop delay of the server's main thread over the run (10 ms resolution), ms. */
  loopMaxMs: number
  loopP99Ms: number
  /** Health samples (one a second) and their latency, ms. */
  samples: number
  healthMedianMs: number
  healthP99Ms: number
  healthMaxMs: number
  /** Samples over SLOW_MS (a request that failed or timed out counts here too). */
  over250: number
  failed: number
  rssStartMiB: number
  rssMaxMiB: number
  rssEndMiB: number
  /** RSS once a minute, MiB: the curve. */
  rssCurveMiB: number[]
}

/** Sizes and minutes from the environment. */
export function healthWatchPlan(): Array<{ guests: number; minutes: number }> {
  const sizes = process.env.BENCH_WATCH_SIZES?.split(',').map(Number) ?? [100_000]
  return sizes.map((guests) => ({
    guests,
    minutes: Number(process.env.BENCH_WATCH_MINUTES ?? (guests >= 100_000 ? 10 : 2)),
  }))
}

/** Start the demo at `guests` and sample /api/health and RSS every second for `minutes`. */
export async function benchHealthWatch(
  guests: number,
  minutes: number,
): Promise<HealthWatchResult> {
  // DEMO_BACKUP_KEEP (the simulator's retention) is passed through: 1,000,000 records at 100k.
  const server = await startDemoServer(guests, { PULSE_DEBUG_LOOP_STATS: '1' })
  const pid = server.child.pid!
  const latencies: number[] = []
  const rss: number[] = []
  let failed = 0
  try {
    await askLoopStats(server.child, 'loop-stats-reset')
    const end = Date.now() + minutes * 60_000
    const pending = new Set<Promise<void>>()
    while (Date.now() < end) {
      if (server.child.exitCode !== null) throw new Error(`server exited:\n${server.output()}`)
      const p = getHealth(server.port, HEALTH_TIMEOUT_MS)
        .then((ms) => void latencies.push(ms))
        .catch(() => {
          failed++
          latencies.push(HEALTH_TIMEOUT_MS)
        })
        .finally(() => pending.delete(p))
      pending.add(p)
      const read = readRss(pid).then((bytes) => {
        if (bytes !== null) rss.push(bytes / 2 ** 20)
      })
      await Promise.all([read, new Promise((resolve) => setTimeout(resolve, SAMPLE_EVERY_MS))])
    }
    await Promise.all(pending)
    const stats = await askLoopStats(server.child, 'loop-stats')
    return {
      guests,
      minutes,
      backupRecords: stats.backupRecords,
      loopMaxMs: stats.maxMs,
      loopP99Ms: stats.p99Ms,
      samples: latencies.length,
      healthMedianMs: quantile(latencies, 0.5),
      healthP99Ms: quantile(latencies, 0.99),
      healthMaxMs: Math.max(0, ...latencies),
      over250: latencies.filter((ms) => ms > SLOW_MS).length,
      failed,
      rssStartMiB: rss[0] ?? 0,
      rssMaxMiB: Math.max(0, ...rss),
      rssEndMiB: rss.at(-1) ?? 0,
      rssCurveMiB: rss.filter((_, i) => i % 60 === 0).map((v) => Math.round(v)),
    }
  } finally {
    await server.stop()
  }
}

/** Print the health-watch results as a table. */
export function printHealthWatch(results: readonly HealthWatchResult[]): void {
  console.log(
    `\nHealth watch: the demo server polling; GET /api/health and the server's RSS every second`,
  )
  const header = [
    'guests',
    'minutes',
    'backups',
    'loop max',
    'loop p99',
    'N',
    'health med',
    'health p99',
    'health max',
    `> ${SLOW_MS} ms`,
    'rss start',
    'rss max',
    'rss end MiB',
  ]
  const rows = results.map((r) => [
    String(r.guests),
    String(r.minutes),
    String(r.backupRecords),
    r.loopMaxMs.toFixed(0),
    r.loopP99Ms.toFixed(0),
    String(r.samples),
    r.healthMedianMs.toFixed(1),
    r.healthP99Ms.toFixed(1),
    r.healthMaxMs.toFixed(0),
    String(r.over250),
    r.rssStartMiB.toFixed(0),
    r.rssMaxMiB.toFixed(0),
    r.rssEndMiB.toFixed(0),
  ])
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)))
  const line = (cells: string[]) => cells.map((c, i) => c.padStart(widths[i]!)).join('  ')
  console.log(line(header))
  for (const row of rows) console.log(line(row))
  for (const r of results) console.log(`rss per minute at ${r.guests}: ${r.rssCurveMiB.join(' ')}`)
}
