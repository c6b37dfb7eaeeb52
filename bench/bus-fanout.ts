// Bus fan-out (issue 17): a collector's LiveState publishing over a real nats-server (JetStream,
// default 1 MiB max_payload, so big deltas are chunked) to a web node's replica. Per size:
// - sync: a replica's first snapshot (request, 16 ms JSON chunks, parse) until its first onState;
// - latency: one poll (10 % of guests changed) from replaceState on the collector to the
//   replica's onState with that seq (diff, JSON, JetStream ack, consume, parse, applyDelta);
// - messages/s: polls published back to back, until the replica applied the last one.
// Collector and replica share this process's event loop (as two cores would not), so the figures
// are a floor of what two machines do. Browsers behind a web node are phase 3's part of the figure.
//
// Run by `npm run bench -- bus-fanout` (needs /usr/sbin/nats-server). BENCH_BUS_SIZES (10000,100000).
import fs from 'node:fs'
import { createLivePublisher } from '../src/server/bus/live-publisher.ts'
import { createLiveReplica } from '../src/server/bus/live-replica.ts'
import { connectBus } from '../src/server/bus/nats-bus.ts'
import { createLiveState } from '../src/server/live/live-state.ts'
import { applyDelta } from '../src/shared/model/delta.ts'
import type { State } from '../src/shared/model/state.ts'
import { NATS_SERVER_BIN, startNatsServer } from '../tests/support/nats-server.ts'
import { createEstate, createMetricsDelta, createRandom } from './fixtures.ts'

export const BUS_FANOUT_SIZES = (process.env.BENCH_BUS_SIZES ?? '10000,100000')
  .split(',')
  .map(Number)
  .filter((n) => n > 0)
const LATENCY_ROUNDS = 10
const BURST = 20

export interface BusFanoutResult {
  size: number
  snapshotMB: number
  deltaKB: number
  syncMs: number
  latencyMedianMs: number
  latencyP95Ms: number
  messagesPerSecond: number
}

const quiet = { info: () => undefined, warn: () => undefined }
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.ceil(xs.length * 0.95) - 1]!

/** Measure one estate size; null when nats-server is not installed. */
export async function benchBusFanout(size: number): Promise<BusFanoutResult | null> {
  if (!fs.existsSync(NATS_SERVER_BIN)) {
    console.log(`bus-fanout skipped: no nats-server at ${NATS_SERVER_BIN}`)
    return null
  }
  const server = await startNatsServer()
  const collectorBus = await connectBus({ url: server.url, name: 'bench-collector', log: quiet })
  const webBus = await connectBus({ url: server.url, name: 'bench-web', log: quiet })
  try {
    const live = createLiveState({ now: Date.now, version: 'bench', clientCount: () => 0 })
    const publisher = createLivePublisher({
      bus: collectorBus,
      live,
      collectorId: 'bench',
      log: quiet,
    })
    await publisher.ready
    const random = createRandom(17)
    let state: State = createEstate(size)
    await live.replaceState(state)
    const snapshotMB = JSON.stringify(live.current().state).length / 2 ** 20

    // Resolves when the replica has applied `seq`.
    let waiting: { seq: number; resolve: () => void } | null = null
    let appliedSeq = 0
    const started = performance.now()
    let synced = 0
    const replica = createLiveReplica({
      bus: webBus,
      log: quiet,
      onEvent: () => undefined,
      onState: () => {
        appliedSeq = replica.status().seq
        if (!synced) synced = performance.now()
        if (waiting && appliedSeq >= waiting.seq) waiting.resolve()
      },
    })
    const applied = (seq: number) =>
      appliedSeq >= seq
        ? Promise.resolve()
        : new Promise<void>((resolve) => (waiting = { seq, resolve }))
    await applied(live.current().seq)
    const syncMs = synced - started

    const nextPoll = () => {
      state = applyDelta(state, createMetricsDelta(state, 0.1, random))
      return state
    }
    let deltaBytes = 0
    const latencies: number[] = []
    for (let i = 0; i < LATENCY_ROUNDS; i++) {
      const next = nextPoll()
      const t0 = performance.now()
      const publication = await live.replaceState(next)
      await applied(publication.seq)
      latencies.push(performance.now() - t0)
      deltaBytes += JSON.stringify(publication.delta).length
    }

    const burstStart = performance.now()
    let last = 0
    for (let i = 0; i < BURST; i++) last = (await live.replaceState(nextPoll())).seq
    await applied(last)
    const messagesPerSecond = BURST / ((performance.now() - burstStart) / 1000)

    replica.stop()
    publisher.stop()
    return {
      size,
      snapshotMB,
      deltaKB: deltaBytes / LATENCY_ROUNDS / 1024,
      syncMs,
      latencyMedianMs: median(latencies),
      latencyP95Ms: p95(latencies),
      messagesPerSecond,
    }
  } finally {
    await collectorBus.close()
    await webBus.close()
    await server.dispose()
  }
}

/** Print the fan-out table. */
export function printBusFanout(results: readonly BusFanoutResult[]): void {
  console.log(
    '\nBus fan-out: collector LiveState -> NATS JetStream -> web node replica (one process)',
  )
  console.log('guests   snapshot MB  delta KB  sync ms  latency ms (median / p95)  polls/s')
  for (const r of results) {
    console.log(
      [
        String(r.size).padEnd(8),
        r.snapshotMB.toFixed(1).padStart(11),
        r.deltaKB.toFixed(0).padStart(9),
        r.syncMs.toFixed(0).padStart(8),
        `${r.latencyMedianMs.toFixed(1)} / ${r.latencyP95Ms.toFixed(1)}`.padStart(27),
        r.messagesPerSecond.toFixed(1).padStart(8),
      ].join(' '),
    )
  }
}
