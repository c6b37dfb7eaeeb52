// History answers through the server's service (issue 25 "Cost"), against a running simulator
// estate of `size` guests over real HTTPS on loopback: one guest's 24 h chart cold (cache empty,
// including the two rrddata calls to the simulator) and warm (from the cache), and the trend
// column's 40-id 1 h batch (from the recent store when one is given, else from the source within
// the batch's few reads). Also the history calls per minute the endpoint saw. The simulator runs in
// its own process (sim-process.ts), as in the collector bench. The `history` bench (bench/history.ts)
// hooks this in as a section.
import { createPoller, type CollectedState } from '../src/server/collect/poller.ts'
import { createEmptyRecentStore, createHistoryParts } from '../src/server/history/history-parts.ts'
import type { RecentStore } from '../src/server/history/types.ts'
import { startSimProcess } from '../src/server/sim/sim-process.ts'
import { createEmptyState, type State } from '../src/shared/model/state.ts'
import type { BenchResult } from './harness.ts'

export interface HistoryServeResult {
  results: BenchResult[]
  figures: Array<{ name: string; size: number; value: number; unit: string }>
}

export interface HistoryServeOptions {
  /** A recent store to fill with the polled estate (an hour of minutes) for the batch. */
  recent?: RecentStore
}

const CLUSTERS = 2
const NODES_PER_CLUSTER = 5

/** Time an async case: medians of `iterations` runs, `before` untimed. */
export async function timeAsync(
  name: string,
  size: number,
  iterations: number,
  before: (i: number) => void,
  run: (i: number) => Promise<unknown>,
): Promise<BenchResult> {
  const times: number[] = []
  for (let i = 0; i < iterations; i++) {
    before(i)
    const start = performance.now()
    await run(i)
    times.push(performance.now() - start)
  }
  times.sort((a, b) => a - b)
  const at = (q: number) => times[Math.min(times.length - 1, Math.ceil(q * times.length) - 1)]!
  return {
    name,
    size,
    iterations,
    medianMs: at(0.5),
    p95Ms: at(0.95),
    meanMs: times.reduce((sum, t) => sum + t, 0) / times.length,
    minMs: times[0]!,
  }
}

/** Measure the history answers at an estate of `size` guests. */
export async function benchHistoryServe(
  size: number,
  options: HistoryServeOptions = {},
): Promise<HistoryServeResult> {
  const sim = await startSimProcess({
    seed: 5,
    clusters: CLUSTERS,
    nodesPerCluster: NODES_PER_CLUSTER,
    guestsPerNode: Math.round(size / (CLUSTERS * NODES_PER_CLUSTER)),
    tickMs: 0,
    basePort: 0,
    pbsInstances: 0,
    cephOsdDownAtStart: false,
    alertScenarios: false,
  })
  let collected: CollectedState | undefined
  const poller = createPoller({
    intervalMs: 10_000,
    onState: (s) => (collected = s),
    slowCollectors: false,
  })
  try {
    poller.setEndpoints(
      sim.pve.map((cluster, index) => ({
        id: `bench-${index}`,
        name: cluster.name,
        type: 'pve' as const,
        host: cluster.url,
        auth: { kind: 'token' as const, tokenId: cluster.tokenId, secret: cluster.tokenSecret },
        verifySSL: false,
        fingerprint: cluster.fingerprint,
      })),
    )
    await poller.pollNow()
    if (!collected) throw new Error('the poll produced no state')
    const state: State = { ...createEmptyState(Date.now(), 'bench'), ...collected }
    const recent = options.recent ?? createEmptyRecentStore()
    if (options.recent) {
      // An hour of minutes of the same poll, ending now.
      const now = Date.now()
      for (let m = 60; m >= 0; m--) options.recent.record(collected, now - m * 60_000)
    }
    const parts = createHistoryParts({
      state: () => state,
      historyClient: (instance) => poller.historyClient(instance),
      recent,
      now: Date.now,
    })
    const guests = [...state.vms, ...state.containers].filter((g) => g.status === 'running')
    if (guests.length < 41) throw new Error('too few running guests in the estate')
    const pick = (i: number) => guests[(i * 7919) % guests.length]!.id
    const results: BenchResult[] = []
    // Cold: a different guest each time and the cache emptied; at most 2 calls each, within the
    // allowance of 60 a minute per endpoint.
    results.push(
      await timeAsync(
        'history: one guest 24 h, cold (incl. 2 rrddata calls)',
        size,
        12,
        () => parts.cache.clear(),
        (i) => parts.service.answer(pick(i), '24h'),
      ),
    )
    const warmId = pick(0)
    await parts.service.answer(warmId, '24h')
    results.push(
      await timeAsync(
        'history: one guest 24 h, warm (cache)',
        size,
        50,
        () => undefined,
        () => parts.service.answer(warmId, '24h'),
      ),
    )
    const trendIds = guests.slice(0, 40).map((g) => g.id)
    let answered = 0
    results.push(
      await timeAsync(
        `history: batch 40 ids × cpu 1 h (${options.recent ? 'recent store' : 'source, ≤3 reads'})`,
        size,
        30,
        () => undefined,
        async () => {
          answered = (await parts.service.batch(trendIds, '1h', ['cpu'])).items.length
        },
      ),
    )
    const calls = Object.values(parts.budget.stats())
    return {
      results,
      figures: [
        {
          name: 'history calls to Proxmox in the last minute, busiest endpoint',
          size,
          value: Math.max(0, ...calls.map((c) => c.callsLastMinute)),
          unit: 'count',
        },
        { name: 'batch items answered of 40', size, value: answered, unit: 'count' },
        {
          name: 'history cache held',
          size,
          value: parts.cache.stats().bytes / 2 ** 20,
          unit: 'MB',
        },
      ],
    }
  } finally {
    await poller.stop()
    await sim.stop()
  }
}
