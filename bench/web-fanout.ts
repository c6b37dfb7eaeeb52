// Web fan-out (issue 17, acceptance 2): a collector's LiveState publishing over a real nats-server
// to a web node in its own process (web-node.ts: replica -> LiveState -> hub), and one client on
// that node's /ws?deltas=1. Per size:
// - latency: one poll (10 % of guests changed) from replaceState on the collector to the client
//   reading the web node's delta frame for it (diff, JSON, JetStream, consume, applyDelta, the web
//   node's own diff and frame, the socket);
// - messages/s: N polls published back to back, until the client has read N delta frames.
// The collector and the client share this process; the web node has its own (a second core).
//
// Run by `npm run bench -- web-fanout` (needs /usr/sbin/nats-server). BENCH_WEB_SIZES (10000,100000).
import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import { createLivePublisher } from '../src/server/bus/live-publisher.ts'
import { connectBus } from '../src/server/bus/nats-bus.ts'
import { createLiveState } from '../src/server/live/live-state.ts'
import { applyDelta } from '../src/shared/model/delta.ts'
import type { State } from '../src/shared/model/state.ts'
import { NATS_SERVER_BIN, startNatsServer } from '../tests/support/nats-server.ts'
import { createEstate, createMetricsDelta, createRandom } from './fixtures.ts'
import { connectCountingClient, type ReceivedMessage } from './ws-counting-client.ts'

export const WEB_FANOUT_SIZES = (process.env.BENCH_WEB_SIZES ?? '10000,100000')
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
  const bus = await connectBus({ url: server.url, name: 'bench-collector', log: quiet })
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
    const nextPoll = () => {
      state = applyDelta(state, createMetricsDelta(state, 0.1, random))
      return state
    }
    // The first poll after connecting: the web node has its snapshot and the client its first
    // load once this delta arrives.
    await live.replaceState(nextPoll())
    await received(1)
    const firstLoadMs = performance.now() - connectedAt
    // Untimed rounds, then a pause: a delta of the web node's own first sync may still be on the
    // way, and each timed round must wait for its own frame.
    for (let i = 0; i < 3; i++) {
      await live.replaceState(nextPoll())
      await received(deltas.length + 1)
    }
    await new Promise((resolve) => setTimeout(resolve, 500))

    const latencies: number[] = []
    let frameBytes = 0
    for (let i = 0; i < WEB_LATENCY_ROUNDS; i++) {
      const next = nextPoll()
      const t0 = performance.now()
      await live.replaceState(next)
      await received(deltas.length + 1)
      const frame = deltas[deltas.length - 1]!
      latencies.push(frame.at - t0)
      frameBytes += frame.bytes
    }

    const target = deltas.length + WEB_BURST
    const burstStart = performance.now()
    for (let i = 0; i < WEB_BURST; i++) await live.replaceState(nextPoll())
    await received(target)
    const messagesPerSecond = WEB_BURST / ((deltas[target - 1]!.at - burstStart) / 1000)

    client.close()
    publisher.stop()
    return {
      size,
      latencyRounds: WEB_LATENCY_ROUNDS,
      burst: WEB_BURST,
      frameKB: frameBytes / WEB_LATENCY_ROUNDS / 1024,
      firstLoadMs,
      latencyMedianMs: median(latencies),
      latencyP95Ms: p95(latencies),
      messagesPerSecond,
    }
  } finally {
    const child = web?.child
    if (child && child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve))
      child.kill('SIGTERM')
      setTimeout(() => child.kill('SIGKILL'), 5000).unref()
      await exited
    }
    await bus.close()
    await server.dispose()
  }
}

/** Print the web fan-out table. */
export function printWebFanout(results: readonly WebFanoutResult[]): void {
  console.log(
    '\nWeb fan-out: collector LiveState -> NATS JetStream -> web node (own process) -> /ws client',
  )
  console.log(
    'guests   frame KB  first load ms  latency ms (median / p95)  msgs/s   N (latency / burst)',
  )
  for (const r of results) {
    console.log(
      [
        String(r.size).padEnd(8),
        r.frameKB.toFixed(0).padStart(8),
        r.firstLoadMs.toFixed(0).padStart(14),
        `${r.latencyMedianMs.toFixed(1)} / ${r.latencyP95Ms.toFixed(1)}`.padStart(27),
        r.messagesPerSecond.toFixed(1).padStart(7),
        `${r.latencyRounds} / ${r.burst}`.padStart(21),
      ].join(' '),
    )
  }
}
