// One collector cycle against the built-in simulator over real HTTPS on loopback: wall time of a
// cycle and the API calls it made, at 1k, 10k and 100k guests. The simulator runs in its own
// process (sim-process.ts), as in the demo: a real cluster renders its answers on its own CPUs.
// It still shares this machine's two cores, so its serving time weighs on the wall time.
// BENCH_SIM_IN_PROCESS=1 runs it on the poller's own thread instead (the figures before issue 13).
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { createPoller, type MonitoredEndpoint } from '../src/server/collect/poller.ts'
import { startSimulator } from '../src/server/sim/index.ts'
import { startSimProcess } from '../src/server/sim/sim-process.ts'

export interface CollectorResult {
  size: number
  clusters: number
  nodesPerCluster: number
  guests: number
  endpoints: number
  cycles: number
  /** The first cycle: every cache cold. */
  firstCycleMs: number
  /** Median of the following cycles (details refreshed a slice at a time). */
  medianCycleMs: number
  maxCycleMs: number
  firstCycleCalls: number
  medianCycleCalls: number
  maxCycleCalls: number
  /**
   * Median CPU time of this process per cycle (user + system, GC threads included): the poller's
   * own cost, which waiting for a busy machine's cores does not inflate as it does the wall time.
   */
  medianCycleCpuMs: number
  /**
   * The longest the poller's event loop was held during a cycle (monitorEventLoopDelay's max,
   * 10 ms resolution): median over the cycles after the first, and the worst of all cycles.
   */
  medianLoopBlockMs: number
  maxLoopBlockMs: number
}

/** Clusters and nodes per cluster of the simulated estate. */
export interface CollectorTopology {
  clusters: number
  nodesPerCluster: number
}

const CYCLES = 9
/** The default estate: 2 clusters of 5 nodes. The 100k demo is 10 x 10 (DEMO_TOPOLOGY). */
const DEFAULT_TOPOLOGY: CollectorTopology = {
  clusters: Number(process.env.BENCH_COLLECTOR_CLUSTERS ?? 2),
  nodesPerCluster: Number(process.env.BENCH_COLLECTOR_NODES ?? 5),
}
/** The topology of the 100k demo (DEMO_CLUSTERS=10 DEMO_NODES_PER_CLUSTER=10). */
export const DEMO_TOPOLOGY: CollectorTopology = { clusters: 10, nodesPerCluster: 10 }

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor((sorted.length - 1) / 2)] ?? 0
}

/** Poll a simulated estate of `size` guests for CYCLES cycles. */
export async function benchCollector(
  size: number,
  topology: CollectorTopology = DEFAULT_TOPOLOGY,
): Promise<CollectorResult> {
  const sim = await startBenchSimulator(size, topology)
  // Cadences are in time (cadence.ts): a clock that moves 10 s per cycle makes back-to-back
  // cycles do what 10 s apart would, without waiting.
  let clock = Date.now()
  const poller = createPoller({ intervalMs: 10_000, now: () => clock, onState: () => {} })
  const endpoints: MonitoredEndpoint[] = sim.pve.map((cluster, index) => ({
    id: `bench-${index}`,
    name: cluster.name,
    type: 'pve',
    host: cluster.url,
    auth: { kind: 'token', tokenId: cluster.tokenId, secret: cluster.tokenSecret },
    verifySSL: false,
    fingerprint: cluster.fingerprint,
  }))
  poller.setEndpoints(endpoints)
  const times: number[] = []
  const calls: number[] = []
  const cpu: number[] = []
  const blocks: number[] = []
  const delay = monitorEventLoopDelay({ resolution: 10 })
  try {
    for (let cycle = 0; cycle < CYCLES; cycle++) {
      const before = await sim.tick()
      if (cycle > 0) clock += 10_000
      const started = performance.now()
      const cpuBefore = process.cpuUsage()
      delay.reset()
      delay.enable()
      await poller.pollNow()
      times.push(performance.now() - started)
      delay.disable()
      // max includes the 10 ms sampling interval itself.
      blocks.push(Math.max(0, delay.max / 1e6 - 10))
      const used = process.cpuUsage(cpuBefore)
      cpu.push((used.user + used.system) / 1000)
      // The count after the cycle (tick answers with it); the next tick's count includes the
      // background detail and slow calls that landed meanwhile, as the cycles would see them.
      calls.push((await sim.requests()) - before)
    }
  } finally {
    await poller.stop()
    await sim.stop()
  }
  const rest = times.slice(1)
  const restCalls = calls.slice(1)
  return {
    size,
    clusters: topology.clusters,
    nodesPerCluster: topology.nodesPerCluster,
    guests: sim.guests,
    endpoints: endpoints.length,
    cycles: CYCLES,
    firstCycleMs: times[0] ?? 0,
    medianCycleMs: median(rest),
    maxCycleMs: Math.max(...rest),
    firstCycleCalls: calls[0] ?? 0,
    medianCycleCalls: median(restCalls),
    maxCycleCalls: Math.max(...restCalls),
    medianCycleCpuMs: median(cpu.slice(1)),
    medianLoopBlockMs: median(blocks.slice(1)),
    maxLoopBlockMs: Math.max(...blocks),
  }
}

interface BenchSimulator {
  pve: { name: string; url: string; tokenId: string; tokenSecret: string; fingerprint: string }[]
  guests: number
  /** Ticks the model; resolves with the requests served so far. */
  tick(): Promise<number>
  requests(): Promise<number>
  stop(): Promise<void>
}

async function startBenchSimulator(
  size: number,
  { clusters, nodesPerCluster }: CollectorTopology,
): Promise<BenchSimulator> {
  const options = {
    seed: 5,
    clusters,
    nodesPerCluster,
    guestsPerNode: Math.round(size / (clusters * nodesPerCluster)),
    tickMs: 0,
  }
  if (process.env.BENCH_SIM_IN_PROCESS === '1') {
    const sim = await startSimulator(options)
    return {
      pve: sim.clusters,
      guests: sim.guestCount(),
      tick: async () => {
        sim.tick()
        return sim.requestCount()
      },
      requests: async () => sim.requestCount(),
      stop: () => sim.stop(),
    }
  }
  const sim = await startSimProcess({
    ...options,
    basePort: 0,
    pbsInstances: 0,
    cephOsdDownAtStart: false,
    // The scheduled node outage would turn some cycles into failover cycles.
    alertScenarios: false,
  })
  return sim
}

/** Print the collector results as a table. */
export function printCollector(results: readonly CollectorResult[]): void {
  console.log('\nCollector: one poll cycle against the simulator (real HTTPS on loopback)')
  const header = [
    'guests',
    'topology',
    'first ms',
    'median ms',
    'max ms',
    'first calls',
    'median calls',
    'max calls',
    'median cpu ms',
    'median block ms',
    'max block ms',
  ]
  const rows = results.map((r) => [
    String(r.guests),
    `${r.clusters}x${r.nodesPerCluster}`,
    r.firstCycleMs.toFixed(0),
    r.medianCycleMs.toFixed(0),
    r.maxCycleMs.toFixed(0),
    String(r.firstCycleCalls),
    String(r.medianCycleCalls),
    String(r.maxCycleCalls),
    r.medianCycleCpuMs.toFixed(0),
    r.medianLoopBlockMs.toFixed(0),
    r.maxLoopBlockMs.toFixed(0),
  ])
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)))
  const line = (cells: string[]) => cells.map((c, i) => c.padStart(widths[i]!)).join('  ')
  console.log(line(header))
  for (const row of rows) console.log(line(row))
}
