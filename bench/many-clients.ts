// Many browsers (issue 13, target 7): the real server process in demo mode with 1,000 socket
// clients on /ws?deltas=2, polling every few seconds. Reports the time until every client has its
// first full state, per cycle how many clients received it (and how many got a resync instead of
// a delta) with the spread of arrival, the server's RSS before and with the clients, bytes per
// client per cycle, and what happens to 10 clients that stop reading for a few cycles.
//
// Run by `npm run bench -- many-clients`. Environment: BENCH_MANY_CLIENTS (1000),
// BENCH_MANY_CLIENTS_SIZES (1000,10000), BENCH_MANY_CLIENTS_POLL_MS (5000),
// BENCH_MANY_CLIENTS_MAX_RSS_MB (6000: the run stops early above it, on a machine shared by others).
import { createServerProcess } from '../tests/e2e/server-process.ts'
import {
  cycleFigures,
  firstLoadDone,
  firstLoadEnd,
  kindOf,
  median,
  quantile,
  slowClientFigures,
  type CycleFigures,
  type SlowClientFigures,
} from './many-clients-report.ts'
import { findServerPid, healthLatency, serverRss } from './server-stats.ts'
import { connectCountingClient, type CountingClient } from './ws-counting-client.ts'

const envInt = (name: string, fallback: number) => {
  const n = Number(process.env[name])
  return Number.isFinite(n) && n > 0 ? n : fallback
}
const CLIENTS = envInt('BENCH_MANY_CLIENTS', 1000)
const POLL_MS = envInt('BENCH_MANY_CLIENTS_POLL_MS', 5000)
const MAX_RSS = envInt('BENCH_MANY_CLIENTS_MAX_RSS_MB', 6000) * 2 ** 20
/** Defaults to 1k and 10k guests; 100k (1,000 clients x its first frame) only when asked for. */
export const MANY_CLIENTS_SIZES = (process.env.BENCH_MANY_CLIENTS_SIZES ?? '1000,10000')
  .split(',')
  .map(Number)
  .filter((n) => n > 0)
const SLOW_CLIENTS = 10
/** Cycles before the clients (the first polls publish the estate a few nodes at a time). */
const WARM_CYCLES = 3
const STEADY_CYCLES = 3
const PAUSE_CYCLES = 3
const AFTER_CYCLES = 3
/** The issue's topology: 10 clusters of 10 nodes, guests spread evenly. */
const CLUSTERS = 10
const NODES_PER_CLUSTER = 10
const MB = 2 ** 20

export interface ManyClientsResult {
  size: number
  clients: number
  pollIntervalMs: number
  aborted: string | null
  /** Connect start to the last client's first full state; median and p95 per client. */
  allFirstStateMs: number | null
  firstStateMedianMs: number
  firstStateP95Ms: number
  clientsWithoutFirstState: number
  firstStateBytesPerClient: number
  cycles: CycleFigures[]
  /** Cycles in which a client that kept reading missed the cycle or got a resync. */
  steadyCyclesMissed: number
  steadyResyncs: number
  medianBytesPerClientPerCycle: number
  rssMB: {
    before: number
    /** The median once every client had loaded; the maximum when the run was cut short. */
    withClients: number
    maxWithClients: number
    maxWhilePaused: number
    perClientKB: number
    /** The server process alone (the largest of the tree), before and with the clients. */
    serverBefore: number
    serverWithClients: number
  }
  healthMs: { samples: number; median: number; p95: number; max: number }
  slow: { pausedMs: number; clients: SlowClientFigures[] }
  closedUnexpectedly: number
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Waits until `probe` has received `count` more cycles than now (or the timeout passes). */
async function waitCycles(probe: CountingClient, count: number, timeoutMs: number) {
  const seen = () =>
    new Set(
      probe.messages.filter((m) => kindOf(m) !== 'control' && m.seq !== null).map((m) => m.seq),
    ).size
  const target = seen() + count
  const deadline = performance.now() + timeoutMs
  while (seen() < target && performance.now() < deadline) await sleep(100)
}

const lastSeq = (client: CountingClient): number => {
  for (let i = client.messages.length - 1; i >= 0; i--) {
    const seq = client.messages[i]!.seq
    if (seq !== null) return seq
  }
  return -1
}

/** One size: start the server, warm it up, connect the clients, run the cycles, measure. */
export async function benchManyClients(size: number): Promise<ManyClientsResult> {
  const server = await createServerProcess({
    DEMO_CLUSTERS: String(CLUSTERS),
    DEMO_NODES_PER_CLUSTER: String(NODES_PER_CLUSTER),
    DEMO_GUESTS_PER_NODE: String(Math.max(1, Math.round(size / (CLUSTERS * NODES_PER_CLUSTER)))),
    DEMO_TICK_MS: String(POLL_MS),
    PULSE_POLL_INTERVAL_MS: String(POLL_MS),
  })
  await server.start()
  const clients: CountingClient[] = []
  let sampling = true
  const rssSamples: Array<{ at: number; total: number; largest: number }> = []
  const health: Array<{ at: number; ms: number }> = []
  let aborted: string | null = null
  let samplers: Array<Promise<void>> = []
  try {
    const pid = findServerPid()
    if (pid === null) throw new Error('server process not found under this process')
    const sampleRss = async () => {
      while (sampling) {
        const { total, largest } = serverRss(pid)
        rssSamples.push({ at: performance.now(), total, largest })
        if (total > MAX_RSS && !aborted) {
          aborted = `server RSS ${Math.round(total / MB)} MB over the cap of ${MAX_RSS / MB} MB`
          for (const c of clients) c.close()
        }
        await sleep(250)
      }
    }
    const sampleHealth = async () => {
      while (sampling) {
        health.push({ at: performance.now(), ms: await healthLatency(server.url) })
        await sleep(250)
      }
    }
    samplers = [sampleRss(), sampleHealth()]

    // Warm up: one client until the estate is complete and a few cycles have gone by.
    const probe = connectCountingClient(server.port, '/ws?deltas=2')
    await probe.opened
    await waitCycles(probe, WARM_CYCLES, 60 * POLL_MS)
    probe.close()
    const beforeFrom = performance.now()
    await sleep(POLL_MS)
    const beforeTo = performance.now()

    // Connect every client, 50 handshakes at a time.
    const connectAt = performance.now()
    for (let i = 0; i < CLIENTS && !aborted; i += 50) {
      const batch = Array.from({ length: Math.min(50, CLIENTS - i) }, () =>
        connectCountingClient(server.port, '/ws?deltas=2'),
      )
      clients.push(...batch)
      await Promise.allSettled(batch.map((c) => c.opened))
    }
    const loadDeadline = performance.now() + Math.max(300_000, 60 * POLL_MS)
    const loaded = () => clients.filter((c) => c.closed || firstLoadDone(c.messages))
    while (!aborted && loaded().length < clients.length && performance.now() < loadDeadline)
      await sleep(200)
    const loadEnds = clients.map((c) => firstLoadEnd(c.messages))
    const loadTimes = loadEnds.flatMap((t) => (t === null ? [] : [t - connectAt]))
    const allLoadedAt = performance.now()

    // Steady cycles, then SLOW_CLIENTS stop reading for a few cycles, then the rest.
    const slowIndex = new Set(
      Array.from({ length: SLOW_CLIENTS }, (_, k) =>
        Math.floor(((k + 0.5) * CLIENTS) / SLOW_CLIENTS),
      ),
    )
    const steady = new Set(clients.map((_, i) => i).filter((i) => !slowIndex.has(i)))
    const reference = clients[0]!
    if (!aborted) await waitCycles(reference, STEADY_CYCLES, 10 * POLL_MS)
    const pausedAt = performance.now()
    for (const i of slowIndex) clients[i]?.pause()
    if (!aborted) await waitCycles(reference, PAUSE_CYCLES, 10 * POLL_MS)
    const resumedAt = performance.now()
    const seqAtResume = lastSeq(reference)
    for (const i of slowIndex) clients[i]?.resume()
    if (!aborted) await waitCycles(reference, AFTER_CYCLES, 10 * POLL_MS)
    // The last cycle counted is the reference's newest: give the others time to read it too.
    const seqEnd = lastSeq(reference)
    const straggling = () =>
      [...steady].some((i) => !clients[i]!.closed && lastSeq(clients[i]!) < seqEnd)
    const graceEnd = performance.now() + 2 * POLL_MS
    while (straggling() && performance.now() < graceEnd) await sleep(100)
    const endAt = performance.now()

    const cycles = cycleFigures(clients, steady, allLoadedAt, seqEnd)
    const rssIn = (from: number, to: number, key: 'total' | 'largest' = 'total') =>
      rssSamples.filter((s) => s.at >= from && s.at <= to).map((s) => s[key])
    const before = median(rssIn(beforeFrom, beforeTo))
    // Cut short: the RSS at the cap is the best figure of what the connected clients cost.
    const withClients = aborted
      ? Math.max(...rssIn(connectAt, performance.now()))
      : median(rssIn(allLoadedAt, pausedAt))
    const healthMs = health.filter((h) => h.at >= connectAt).map((h) => h.ms)
    const firstLoadBytes = clients.flatMap((c, i) => {
      const end = loadEnds[i]
      if (end === null || end === undefined) return []
      return [
        c.messages
          .filter((m) => m.at <= end && kindOf(m) === 'load')
          .reduce((s, m) => s + m.bytes, 0),
      ]
    })
    const cycleBytes = cycles.map((c) => c.medianBytesPerClient)
    return {
      size,
      clients: clients.length,
      pollIntervalMs: POLL_MS,
      aborted,
      allFirstStateMs:
        loadTimes.length === clients.length ? Math.round(Math.max(...loadTimes)) : null,
      firstStateMedianMs: Math.round(median(loadTimes)),
      firstStateP95Ms: Math.round(quantile(loadTimes, 0.95)),
      clientsWithoutFirstState: clients.length - loadTimes.length,
      firstStateBytesPerClient: median(firstLoadBytes),
      cycles,
      steadyCyclesMissed: cycles.filter((c) => c.steadyMissing > 0).length,
      steadyResyncs: cycles.reduce((sum, c) => sum + c.resyncs, 0),
      medianBytesPerClientPerCycle: median(cycleBytes),
      rssMB: {
        before: Math.round(before / MB),
        withClients: Math.round(withClients / MB),
        maxWithClients: Math.round(Math.max(...rssIn(connectAt, endAt)) / MB),
        maxWhilePaused: Math.round(Math.max(0, ...rssIn(pausedAt, resumedAt)) / MB),
        perClientKB: Math.round((withClients - before) / clients.length / 1024),
        serverBefore: Math.round(median(rssIn(beforeFrom, beforeTo, 'largest')) / MB),
        serverWithClients: Math.round(
          (aborted
            ? Math.max(...rssIn(connectAt, performance.now(), 'largest'))
            : median(rssIn(allLoadedAt, pausedAt, 'largest'))) / MB,
        ),
      },
      healthMs: {
        samples: healthMs.length,
        median: Math.round(median(healthMs)),
        p95: Math.round(quantile(healthMs, 0.95)),
        max: Math.round(Math.max(...healthMs)),
      },
      slow: {
        pausedMs: Math.round(resumedAt - pausedAt),
        clients: [...slowIndex].flatMap((i) =>
          clients[i] ? [slowClientFigures(clients[i], resumedAt, seqAtResume)] : [],
        ),
      },
      closedUnexpectedly: clients.filter((c) => c.closed !== null).length,
    }
  } finally {
    sampling = false
    for (const c of clients) c.close()
    await Promise.all(samplers)
    await server.stop()
    server.cleanup()
  }
}

/** Prints one block per size. */
export function printManyClients(results: readonly ManyClientsResult[]): void {
  console.log('\nMany clients: 1,000 sockets on /ws?deltas=2 against the demo server')
  for (const r of results) {
    const kb = (n: number) => `${Math.round(n / 1024).toLocaleString('en-US')} kB`
    console.log(
      `\n${r.size.toLocaleString('en-US')} guests, ${r.clients} clients, poll ${r.pollIntervalMs} ms${r.aborted ? ` (ABORTED: ${r.aborted})` : ''}`,
    )
    console.log(
      `  first full state: all ${r.allFirstStateMs ?? `n/a (${r.clientsWithoutFirstState} never got one)`} ms, median ${r.firstStateMedianMs} ms, p95 ${r.firstStateP95Ms} ms; ${kb(r.firstStateBytesPerClient)} per client`,
    )
    console.log('  seq  received  resyncs  steady missing  spread ms  median lag ms  bytes/client')
    for (const c of r.cycles)
      console.log(
        `  ${String(c.seq).padStart(3)}  ${String(c.received).padStart(8)}  ${String(c.resyncs).padStart(7)}  ${String(c.steadyMissing).padStart(14)}  ${String(c.spreadMs).padStart(9)}  ${String(c.medianLagMs).padStart(13)}  ${kb(c.medianBytesPerClient).padStart(12)}`,
      )
    console.log(
      `  steady clients: ${r.steadyCyclesMissed} cycles with a miss, ${r.steadyResyncs} resyncs in all; median ${kb(r.medianBytesPerClientPerCycle)} per client per cycle`,
    )
    const m = r.rssMB
    console.log(
      `  server RSS: ${m.before} MB before, ${m.withClients} MB with the clients (max ${m.maxWithClients}, ${m.maxWhilePaused} while 10 were paused): ${m.perClientKB} kB per client` +
        ` (the server process alone: ${m.serverBefore} -> ${m.serverWithClients} MB; the rest is the tsx launcher)`,
    )
    console.log(
      `  /api/health during the run: median ${r.healthMs.median} ms, p95 ${r.healthMs.p95} ms, max ${r.healthMs.max} ms (${r.healthMs.samples} requests)`,
    )
    const s = r.slow.clients
    if (r.aborted) {
      console.log('  (the cycles and the paused clients were not reached)')
      continue
    }
    console.log(
      `  10 clients paused ${r.slow.pausedMs} ms: ${s.filter((c) => c.closed).length} closed, ${s.filter((c) => c.gotFullState).length} got a full state, ${s.filter((c) => c.caughtUp).length} caught up (median ${median(s.flatMap((c) => (c.msToCaughtUp === null ? [] : [c.msToCaughtUp])))} ms after resuming); backlog read after resuming: median ${median(s.map((c) => c.backlogMessages))} old frames, ${kb(median(s.map((c) => c.backlogBytes)))}`,
    )
    console.log(`  connections closed by the end: ${r.closedUnexpectedly}`)
  }
}
