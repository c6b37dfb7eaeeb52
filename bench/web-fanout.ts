// Web fan-out (issues 17 and 27): a collector's LiveState publishing over a real nats-server to a
// web node in its own process (web-node.ts: replica -> its publications -> hub), and one client on
// that node's /ws?deltas=1. Per size:
// - latency: one poll (10 % of guests changed) from replaceState on the collector to the client
//   reading the web node's delta frame for it (the collector's diff, its changes encoded,
//   JetStream, consume, the web node applying them to its replica, its frame, the socket);
// - messages/s: N polls published back to back, until the client has read N delta frames;
// - resync: the web node made to resync (an event past its seq), the longest block of the
//   collector's event loop (monitorEventLoopDelay) until its snapshot was answered, and its size.
// The collector and the client share this process; the web node has its own (a second core).
//
// Run by `npm run bench -- web-fanout` (needs /usr/sbin/nats-server). BENCH_WEB_SIZES
// (1000,10000,100000).
import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import type { Bus } from '../src/server/bus/bus.ts'
import {
  createLivePublisher,
  HEARTBEAT_EVENT,
  SNAPSHOT_SUBJECT,
} from '../src/server/bus/live-publisher.ts'
import { connectBus } from '../src/server/bus/nats-bus.ts'
import { createLiveState } from '../src/server/live/live-state.ts'
import { applyDelta } from '../src/shared/model/delta.ts'
import type { State } from '../src/shared/model/state.ts'
import { NATS_SERVER_BIN, startNatsServer } from '../tests/support/nats-server.ts'
import { createEstate, createMetricsDelta, createRandom } from './fixtures.ts'
import { connectCountingClient, type ReceivedMessage } from './ws-counting-client.ts'

export const WEB_FANOUT_SIZES = (process.env.BENCH_WEB_SIZES ?? '1000,10000,100000')
  .split(',')
  .map(Number)
  .filter((n) => n > 0)
export const WEB_LATENCY_ROUNDS = 20
export const WEB_BURST = 30
const WAIT_MS = 120_000

export interface WebFanoutResult {
  size: number
  /** Polls timed one at a time (latency) and back to back (messages/s). */
  latencyRounds: number
  burst: number
  frameKB: number
  firstLoadMs: number
  latencyMedianMs: number
  latencyP95Ms: number
  messagesPerSecond: number
  /** The same polls to a delta mode 2 client (our browser's dialect): until its metrics frame. */
  deltas2LatencyMedianMs: number
  deltas2LatencyP95Ms: number
  /** The collector's longest event-loop block while it answered a resyncing web node's snapshot. */
  resyncLoopBlockMaxMs: number
  /** The same over an idle second before it (what the machine's load alone costs). */
  idleLoopBlockMaxMs: number
  /** That snapshot's size (MB) and the time from the web node's gap to the answer sent. */
  snapshotMB: number
  resyncSnapshotMs: number
}

const quiet = { info: () => undefined, warn: () => undefined }
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.ceil(xs.length * 0.95) - 1]!

async function startWebNode(natsUrl: string): Promise<{ port: number; child: ChildProcess }> {
  const child = spawn(process.execPath, ['node_modules/tsx/dist/cli.mjs', 'bench/web-node.ts'], {
    env: { ...process.env, NATS_URL: natsUrl },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  const port = await new Promise<number>((resolve, reject) => {
    child.stderr?.on('data', (d) => (output += d))
    child.stdout?.on('data', (d) => {
      output += d
      const line = output.split('\n').find((l) => l.startsWith('{'))
      if (line) resolve((JSON.parse(line) as { port: number }).port)
    })
    child.once('exit', (code) => reject(new Error(`web node exited (${code}):\n${output}`)))
  })
  return { port, child }
}

/** Measure one estate size; null when nats-server is not installed. */
export async function benchWebFanout(size: number): Promise<WebFanoutResult | null> {
  if (!fs.existsSync(NATS_SERVER_BIN)) {
    console.log(`web-fanout skipped: no nats-server at ${NATS_SERVER_BIN}`)
    return null
  }
  const server = await startNatsServer()
  const plainBus = await connectBus({ url: server.url, name: 'bench-collector', log: quiet })
  // Counts the snapshots answered, and their size.
  const served: number[] = []
  const bus: Bus = {
    ...plainBus,
    serve: (subject, handler) =>
      plainBus.serve(subject, async (request) => {
        const answer = await handler(request)
        if (subject === SNAPSHOT_SUBJECT)
          served.push(
            answer instanceof Uint8Array ? answer.length : answer.reduce((n, p) => n + p.length, 0),
          )
        return answer
      }),
  }
  let web: { port: number; child: ChildProcess } | null = null
  try {
    const live = createLiveState({ now: Date.now, version: 'bench', clientCount: () => 0 })
    const publisher = createLivePublisher({ bus, live, collectorId: 'bench', log: quiet })
    await publisher.ready
    const random = createRandom(17)
    let state: State = createEstate(size)
    await live.replaceState(state)
    web = await startWebNode(server.url)

    // Delta frames as the client reads them; `waiting` resolves at the given count.
    const deltas: ReceivedMessage[] = []
    let waiting: { count: number; resolve: () => void } | null = null
    const onMessage = (m: ReceivedMessage) => {
      if (m.type !== 'delta') return
      deltas.push(m)
      if (waiting && deltas.length >= waiting.count) waiting.resolve()
    }
    const received = (count: number) =>
      deltas.length >= count
        ? Promise.resolve()
        : new Promise<void>((resolve, reject) => {
            const timer = setTimeout(
              () => reject(new Error(`web-fanout: ${deltas.length} of ${count} deltas`)),
              WAIT_MS,
            )
            waiting = { count, resolve: () => (clearTimeout(timer), resolve()) }
          })
    const connectedAt = performance.now()
    const client = connectCountingClient(web.port, '/ws?deltas=1', onMessage)
    await client.opened
    // Our browser's dialect (delta mode 2): a poll is whole with its binary metrics frame.
    const metricsFrames: ReceivedMessage[] = []
    const client2 = connectCountingClient(web.port, '/ws?deltas=2', (m) => {
      if (m.binary) metricsFrames.push(m)
    })
    await client2.opened
    const metricsReceived = async (count: number) => {
      const deadline = performance.now() + WAIT_MS
      while (metricsFrames.length < count) {
        if (performance.now() > deadline) throw new Error('web-fanout: no metrics frame')
        await new Promise((resolve) => setTimeout(resolve, 2))
      }
    }
    const nextPoll = () => {
      state = applyDelta(state, createMetricsDelta(state, 0.1, random))
      return state
    }
    // The first poll after connecting: the web node has its snapshot and the client its first
    // load once this delta arrives.
    await live.replaceState(nextPoll())
    await received(1)
    await metricsReceived(1)
    const firstLoadMs = performance.now() - connectedAt
    // Untimed rounds, then a pause: a delta of the web node's own first sync may still be on the
    // way, and each timed round must wait for its own frame.
    for (let i = 0; i < 3; i++) {
      await live.replaceState(nextPoll())
      await received(deltas.length + 1)
    }
    await new Promise((resolve) => setTimeout(resolve, 500))

    const latencies: number[] = []
    const latencies2: number[] = []
    let frameBytes = 0
    for (let i = 0; i < WEB_LATENCY_ROUNDS; i++) {
      const next = nextPoll()
      const metricsBefore = metricsFrames.length
      const t0 = performance.now()
      await live.replaceState(next)
      await received(deltas.length + 1)
      await metricsReceived(metricsBefore + 1)
      const frame = deltas[deltas.length - 1]!
      latencies.push(frame.at - t0)
      latencies2.push(metricsFrames[metricsFrames.length - 1]!.at - t0)
      frameBytes += frame.bytes
    }

    const target = deltas.length + WEB_BURST
    const burstStart = performance.now()
    for (let i = 0; i < WEB_BURST; i++) await live.replaceState(nextPoll())
    await received(target)
    const messagesPerSecond = WEB_BURST / ((deltas[target - 1]!.at - burstStart) / 1000)

    // A resync: an event past the web node's seq is a gap to it; it asks for a snapshot.
    const snapshots = served.length
    // The same measure over an idle second first: on a loaded machine the loop waits for a core.
    const idle = monitorEventLoopDelay({ resolution: 5 })
    idle.enable()
    await new Promise((resolve) => setTimeout(resolve, 1000))
    idle.disable()
    const histogram = monitorEventLoopDelay({ resolution: 5 })
    const resyncStart = performance.now()
    histogram.enable()
    await bus.publishLive({
      epoch: publisher.epoch,
      seq: live.current().seq + 1,
      kind: 'event',
      body: new TextEncoder().encode(JSON.stringify({ type: HEARTBEAT_EVENT, data: null })),
    })
    while (served.length === snapshots) await new Promise((resolve) => setTimeout(resolve, 5))
    const resyncSnapshotMs = performance.now() - resyncStart
    // The answer's chunks go out right after: one more turn of the loop.
    await new Promise((resolve) => setTimeout(resolve, 20))
    histogram.disable()
    // The web node follows again.
    await live.replaceState(nextPoll())
    await received(deltas.length + 1)

    client.close()
    client2.close()
    publisher.stop()
    return {
      size,
      latencyRounds: WEB_LATENCY_ROUNDS,
      burst: WEB_BURST,
      frameKB: frameBytes / WEB_LATENCY_ROUNDS / 1024,
      firstLoadMs,
      latencyMedianMs: median(latencies),
      latencyP95Ms: p95(latencies),
      deltas2LatencyMedianMs: median(latencies2),
      deltas2LatencyP95Ms: p95(latencies2),
      messagesPerSecond,
      resyncLoopBlockMaxMs: histogram.max / 1e6,
      idleLoopBlockMaxMs: idle.max / 1e6,
      snapshotMB: served.at(-1)! / 1e6,
      resyncSnapshotMs,
    }
  } finally {
    const child = web?.child
    if (child && child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve))
      child.kill('SIGTERM')
      setTimeout(() => child.kill('SIGKILL'), 5000).unref()
      await exited
    }
    await plainBus.close()
    await server.dispose()
  }
}

/** Print the web fan-out table. */
export function printWebFanout(results: readonly WebFanoutResult[]): void {
  console.log(
    '\nWeb fan-out: collector LiveState -> NATS JetStream -> web node (own process) -> /ws client',
  )
  console.log(
    'guests   frame KB  first load ms  latency ms (median / p95)  mode 2 latency ms  msgs/s' +
      '   N (latency / burst)  snapshot MB  resync ms  collector loop block max ms (idle)',
  )
  for (const r of results) {
    console.log(
      [
        String(r.size).padEnd(8),
        r.frameKB.toFixed(0).padStart(8),
        r.firstLoadMs.toFixed(0).padStart(14),
        `${r.latencyMedianMs.toFixed(1)} / ${r.latencyP95Ms.toFixed(1)}`.padStart(27),
        `${r.deltas2LatencyMedianMs.toFixed(1)} / ${r.deltas2LatencyP95Ms.toFixed(1)}`.padStart(18),
        r.messagesPerSecond.toFixed(1).padStart(7),
        `${r.latencyRounds} / ${r.burst}`.padStart(21),
        r.snapshotMB.toFixed(1).padStart(12),
        r.resyncSnapshotMs.toFixed(0).padStart(10),
        `${r.resyncLoopBlockMaxMs.toFixed(1)} (${r.idleLoopBlockMaxMs.toFixed(1)})`.padStart(35),
      ].join(' '),
    )
  }
}
