// Benchmark: the Prometheus /metrics text (issue 28 item 5) at 1k, 10k and 100k guests. The
// estate and alerts of alerts.ts (5 % of the running guests crossing cpu and memory), two storages
// per node and a PBS with two datastores. Cases: the whole text built at once (the CPU one scrape
// of a new state costs), with fresh buffers (the first scrape) and with the chunks of the last
// build recycled (every later one, as metrics-service.ts does); gzip at level 1 (what Prometheus
// asks for; it runs on libuv's threads, not the loop). Facts: series, bytes of the text and of the
// gzip, the longest single step of the generator, and the event loop's longest delay while the
// text is built in slices as the server builds it (run-sliced.ts: 8 ms budget per turn).
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { gzipSync, constants as zlib } from 'node:zlib'
import type { Alert } from '../src/shared/model/alerts.ts'
import type { State, Storage } from '../src/shared/model/state.ts'
import { evaluate } from '../src/server/alerts/evaluate.ts'
import { createEngineState } from '../src/server/alerts/engine-types.ts'
import { processMetricParts } from '../src/server/metrics/process-metrics.ts'
import { resourceMetricSteps } from '../src/server/metrics/resource-metrics.ts'
import { runSliced } from '../src/server/live/run-sliced.ts'
import {
  CHUNK_BYTES,
  createChunkPool,
  type ChunkPool,
  type ChunkSource,
} from '../src/server/metrics/chunk-pool.ts'
import { benchAlertsInputs } from './alerts.ts'
import { getIterations, measure, type BenchResult } from './harness.ts'

const GIB = 1024 ** 3

export interface MetricsFacts {
  size: number
  alerts: number
  series: number
  bytes: number
  gzipBytes: number
  longestStepMs: number
  /** The event loop's longest delay while the text is built as the server builds it (sliced). */
  longestTurnMs: number
}

function storageOf(state: State): Storage[] {
  return state.nodes.flatMap((node, i) =>
    ['local', 'local-zfs'].map((name, j) => ({
      id: `${node.instance}-${node.name}-${name}`,
      name,
      node: node.name,
      instance: node.instance,
      type: j ? 'zfspool' : 'dir',
      content: j ? 'images,rootdir' : 'backup,iso,vztmpl',
      status: 'available',
      shared: false,
      enabled: true,
      active: true,
      total: 1000 * GIB,
      used: ((i * 37 + j * 11) % 100) * 10 * GIB,
      free: 0,
      usage: 0,
    })),
  )
}

/** The estate of one size, with its alerts published as live-state's decorate would. */
function estateOf(size: number): State {
  const { crossed, config } = benchAlertsInputs(size)
  const alerts: Alert[] = [
    ...evaluate(crossed, config, crossed.lastUpdate, createEngineState()).next.active.values(),
  ]
  const state: State = JSON.parse(
    JSON.stringify({ ...crossed, activeAlerts: alerts, storage: storageOf(crossed) }),
  )
  state.pbs = [
    {
      id: 'pbs-main',
      name: 'main',
      host: 'https://pbs.example.com:8007',
      status: 'online',
      version: '3.4.1',
      cpu: 7.5,
      memory: 40,
      memoryUsed: 16 * GIB,
      memoryTotal: 40 * GIB,
      uptime: 1_000_000,
      datastores: ['store1', 'store2'].map((name) => ({
        name,
        total: 100_000 * GIB,
        used: 40_000 * GIB,
        free: 60_000 * GIB,
        usage: 40,
        status: 'available',
        namespaces: [],
      })),
      connectionHealth: 'healthy',
      lastSeen: state.lastUpdate,
    },
  ]
  return state
}

/** Chunks as the pool hands them out, but new every time (the first scrape). */
const FRESH: ChunkSource = {
  take: (bytes) => Buffer.allocUnsafe(Math.max(bytes, CHUNK_BYTES)),
}

/** The whole text of `state`, its resource chunks taken from `source`. */
function buildAll(state: State, source: ChunkSource): Buffer[] {
  const steps = resourceMetricSteps(state, source)
  let step = steps.next()
  while (!step.done) step = steps.next()
  const own = processMetricParts({
    state,
    version: 'bench',
    socketClients: 10,
    queued: 3,
    dead: [{ kind: 'webhook', count: 2 }],
    endpoints: [],
  })
  return own.concat(step.value)
}

/** The longest step of the generator over a few runs with recycled chunks, in ms. */
function longestStep(state: State, pool: ChunkPool, runs: number): number {
  let longest = 0
  for (let run = 0; run < runs; run++) {
    const lease = pool.lease()
    const steps = resourceMetricSteps(state, lease)
    for (;;) {
      const started = performance.now()
      const step = steps.next()
      longest = Math.max(longest, performance.now() - started)
      if (step.done) break
    }
    lease.release()
  }
  return longest
}

/**
 * The event loop's longest delay (ms) over `runs` builds driven by runSliced with recycled
 * chunks, as /metrics builds them; a 1 ms timer keeps the loop turning, so every turn is seen.
 */
async function longestTurn(state: State, pool: ChunkPool, runs: number): Promise<number> {
  const delay = monitorEventLoopDelay({ resolution: 1 })
  const tick = setInterval(() => undefined, 1)
  delay.enable()
  for (let run = 0; run < runs; run++) {
    const lease = pool.lease()
    await runSliced(resourceMetricSteps(state, lease))
    lease.release()
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
  delay.disable()
  clearInterval(tick)
  return delay.max / 1e6
}

/** The metrics cases at one estate size. */
export async function benchMetrics(
  size: number,
): Promise<{ results: BenchResult[]; facts: MetricsFacts }> {
  const state = estateOf(size)
  const counts = getIterations(size)
  const runs = size >= 100_000 ? 5 : 20
  // The server's steady state first (recycled chunks), before the fresh buffers and the gzip
  // leave external memory behind whose collection would land in these figures.
  const pool = createChunkPool()
  let lease = pool.lease()
  let parts: Buffer[] = []
  const recycled = measure({
    name: 'build the whole text, recycled chunks (steady)',
    size,
    ...counts,
    before: () => {
      lease.release()
      lease = pool.lease()
    },
    run: () => void (parts = buildAll(state, lease)),
  })
  lease.release()
  const longestStepMs = longestStep(state, pool, runs)
  const longestTurnMs = await longestTurn(state, pool, runs)
  const fresh = measure({
    name: 'build the whole text, fresh buffers (first scrape)',
    size,
    ...counts,
    run: () => void (parts = buildAll(state, FRESH)),
  })
  const text = Buffer.concat(parts)
  const bytes = text.length
  let lines = 0
  for (let i = text.indexOf(10); i >= 0; i = text.indexOf(10, i + 1)) lines++
  const families = parts.filter((part) => part[0] === 0x23).length
  const series = lines - 2 * families
  let gzipBytes = 0
  const gzip = measure({
    name: 'gzip level 1 (off the loop)',
    size,
    warmup: 1,
    iterations: size >= 100_000 ? 5 : counts.iterations,
    run: () => void (gzipBytes = gzipSync(text, { level: zlib.Z_BEST_SPEED }).length),
  })
  return {
    results: [recycled, fresh, gzip],
    facts: {
      size,
      alerts: state.activeAlerts.length,
      series,
      bytes,
      gzipBytes,
      longestStepMs,
      longestTurnMs,
    },
  }
}

/** One line per size: series, bytes, gzip bytes, longest generator step and loop turn. */
export function printMetricsFacts(facts: readonly MetricsFacts[]): void {
  console.log(
    '\nguests    alerts    series        bytes   gzip bytes  longest step ms  longest turn ms',
  )
  for (const f of facts) {
    console.log(
      [
        f.size.toLocaleString('en-US').padStart(7),
        f.alerts.toLocaleString('en-US').padStart(9),
        f.series.toLocaleString('en-US').padStart(9),
        f.bytes.toLocaleString('en-US').padStart(12),
        f.gzipBytes.toLocaleString('en-US').padStart(12),
        f.longestStepMs.toFixed(2).padStart(16),
        f.longestTurnMs.toFixed(2).padStart(16),
      ].join(' '),
    )
  }
}
