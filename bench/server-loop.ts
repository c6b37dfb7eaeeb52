// The real server (`npm run demo`'s main.ts, simulator included) at 1k, 10k and 100k guests, with
// one delta client and one plain client on /ws, for a few live cycles: the event-loop delay of the
// server's main thread (monitorEventLoopDelay through the env-gated IPC hook, loop-stats.ts), the
// latency of GET /api/health sent every 25 ms, and the server's RSS. Nothing here asserts a time.
import WebSocket from 'ws'
import { askLoopStats as request, getHealth, quantile, startDemoServer } from './demo-server.ts'

export interface ServerLoopResult {
  guests: number
  /** Publications seen by the delta client after its first frame. */
  cycles: number
  /** Server start (fork) to /api/health answering. */
  startMs: number
  /**
   * A delta client that connects once the estate has been published (after the first cycle):
   * socket open to its first state frame (initialState), and that frame's size.
   */
  lateFirstFrameMs: number
  lateFirstFrameBytes: number
  /** Median bytes of the delta client's frames after its first, and of the plain client's. */
  deltaFrameBytes: number
  plainFrameBytes: number
  loopMaxMs: number
  loopP99Ms: number
  healthRequests: number
  healthMedianMs: number
  healthP95Ms: number
  healthP99Ms: number
  healthMaxMs: number
  rssMiB: number
  rssMaxMiB: number
  heapUsedMiB: number
}

const CYCLES = Number(process.env.BENCH_LOOP_CYCLES ?? 3)
const POLL_INTERVAL_MS = Number(process.env.BENCH_LOOP_INTERVAL_MS ?? 10_000)
const HEALTH_EVERY_MS = 25

const median = (values: number[]) => quantile(values, 0.5)

interface ClientLog {
  opened: number
  frames: { at: number; bytes: number; type: string }[]
  close(): void
}

// Reads every frame and keeps only its size and type (from the first bytes: no parse).
function connect(port: number, deltas: boolean): ClientLog {
  const socket = new WebSocket(`ws://127.0.0.1:${port}/ws${deltas ? '?deltas=1' : ''}`, {
    perMessageDeflate: false,
  })
  const log: ClientLog = { opened: performance.now(), frames: [], close: () => socket.terminate() }
  socket.on('open', () => (log.opened = performance.now()))
  socket.on('message', (data: Buffer) => {
    const head = data.subarray(0, 40).toString('latin1')
    const type = /"type":"([A-Za-z]+)"/.exec(head)?.[1] ?? 'binary'
    log.frames.push({ at: performance.now(), bytes: data.length, type })
  })
  socket.on('error', () => {})
  return log
}

const STATE_TYPES = new Set(['initialState', 'rawData', 'delta', 'binary'])
const stateFrames = (log: ClientLog) => log.frames.filter((f) => STATE_TYPES.has(f.type))

/** Run the demo server with `guests` guests and measure a few live cycles. */
export async function benchServerLoop(guests: number): Promise<ServerLoopResult> {
  const started = performance.now()
  const server = await startDemoServer(guests, {
    PULSE_POLL_INTERVAL_MS: String(POLL_INTERVAL_MS),
    PULSE_DEBUG_LOOP_STATS: '1',
  })
  const { child, port } = server
  const output = server.output
  const clients: ClientLog[] = []
  let pinger: ReturnType<typeof setInterval> | undefined
  try {
    const startMs = performance.now() - started
    await request(child, 'loop-stats-reset')
    const health: number[] = []
    const pending = new Set<Promise<void>>()
    pinger = setInterval(() => {
      const p = getHealth(port)
        .then((ms) => void health.push(ms))
        .catch(() => undefined)
        .finally(() => pending.delete(p))
      pending.add(p)
    }, HEALTH_EVERY_MS)
    const delta = connect(port, true)
    const plain = connect(port, false)
    clients.push(delta, plain)
    // The first frame (initialState) and CYCLES publications after it, on both clients.
    const deadline = Date.now() + Math.max(120_000, (CYCLES + 2) * POLL_INTERVAL_MS * 6)
    let late: ClientLog | undefined
    const done = () =>
      stateFrames(delta).length > CYCLES &&
      stateFrames(plain).length > CYCLES + 1 &&
      late !== undefined &&
      stateFrames(late).length > 0
    while (!done() && Date.now() < deadline) {
      if (child.exitCode !== null) throw new Error(`server exited:\n${output()}`)
      if (!late && stateFrames(delta).length >= 3) clients.push((late = connect(port, true)))
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    clearInterval(pinger)
    pinger = undefined
    await Promise.all(pending)
    const stats = await request(child, 'loop-stats')
    const deltaFrames = stateFrames(delta)
    const plainFrames = stateFrames(plain)
    const mib = (bytes: number) => bytes / 2 ** 20
    return {
      guests,
      cycles: Math.max(0, deltaFrames.length - 1),
      startMs,
      lateFirstFrameMs: late ? (stateFrames(late)[0]?.at ?? NaN) - late.opened : NaN,
      lateFirstFrameBytes: late ? (stateFrames(late)[0]?.bytes ?? 0) : 0,
      deltaFrameBytes: median(deltaFrames.slice(1).map((f) => f.bytes)),
      plainFrameBytes: median(plainFrames.slice(1).map((f) => f.bytes)),
      loopMaxMs: stats.maxMs,
      loopP99Ms: stats.p99Ms,
      healthRequests: health.length,
      healthMedianMs: median(health),
      healthP95Ms: quantile(health, 0.95),
      healthP99Ms: quantile(health, 0.99),
      healthMaxMs: Math.max(0, ...health),
      rssMiB: mib(stats.rssBytes),
      rssMaxMiB: mib(stats.rssMaxBytes),
      heapUsedMiB: mib(stats.heapUsedBytes),
    }
  } finally {
    if (pinger) clearInterval(pinger)
    for (const client of clients) client.close()
    await server.stop()
  }
}

/** Print the server-loop results as a table. */
export function printServerLoop(results: readonly ServerLoopResult[]): void {
  console.log(
    `\nServer loop: the demo server with a delta and a plain /ws client, ${CYCLES} live cycles ` +
      `(${POLL_INTERVAL_MS / 1000} s interval), GET /api/health every ${HEALTH_EVERY_MS} ms`,
  )
  const header = [
    'guests',
    'cycles',
    'loop max ms',
    'loop p99 ms',
    'health med',
    'health p95',
    'health max',
    'rss MiB',
    'rss max MiB',
    'late 1st MB',
    'late 1st s',
    'delta MB',
    'plain MB',
  ]
  const mb = (bytes: number) => (bytes / 1e6).toFixed(1)
  const rows = results.map((r) => [
    String(r.guests),
    String(r.cycles),
    r.loopMaxMs.toFixed(0),
    r.loopP99Ms.toFixed(0),
    r.healthMedianMs.toFixed(1),
    r.healthP95Ms.toFixed(1),
    r.healthMaxMs.toFixed(0),
    r.rssMiB.toFixed(0),
    r.rssMaxMiB.toFixed(0),
    mb(r.lateFirstFrameBytes),
    (r.lateFirstFrameMs / 1000).toFixed(1),
    mb(r.deltaFrameBytes),
    mb(r.plainFrameBytes),
  ])
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)))
  const line = (cells: string[]) => cells.map((c, i) => c.padStart(widths[i]!)).join('  ')
  console.log(line(header))
  for (const row of rows) console.log(line(row))
}
