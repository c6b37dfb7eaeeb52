// The hour (issue 27, target 9): the demo at the topology (10 clusters x 10 nodes,
// BENCH_HOUR_SIZE guests, default 100,000) with live polling every BENCH_POLL_MS (10,000) for
// BENCH_HOUR_MS (3,600,000), a browser open on the guests' view and a search typed key by key
// every BENCH_HOUR_TYPE_EVERY_MS (60,000). Sampled: `/api/health` every second (bench process),
// the server's RSS every 10 s (/proc), the page's and the worker's JS heap every minute (CDP, no
// GC forced), every long task; counted: WebSocket closes and full-state (resync) frames on the
// page's sockets after its first load, and the keys' latency to the rows painted.
// Run by `npm run bench -- hour` (builds the app). Environment for the server (for instance more
// backup records) passes through. Figures go to bench/results/hour.json (curves) and latest.json
// under `hour` (summary).
import fs from 'node:fs'
import { expect, test } from '@playwright/test'
import { createServerProcess } from '../../tests/e2e/server-process.ts'
import { startByteProxy, wallNow, type ByteProxy } from '../byte-proxy.ts'
import { kindOf } from '../many-clients-report.ts'
import {
  attachWorker,
  envNumber,
  footerTotal,
  installLiveObservers,
  pageHeapMB,
  quantile,
  round,
  summariseTasks,
  workerHeapMB,
  type LiveWindow,
} from './live-metrics.ts'
import { keyLatencies, typeSearchAndClear } from './typing.ts'
import { rssMiB, serverPid, summariseCurve } from './process-sample.ts'

const SIZE = envNumber('BENCH_HOUR_SIZE', 100_000)
const POLL_MS = envNumber('BENCH_POLL_MS', 10_000)
const HOUR_MS = envNumber('BENCH_HOUR_MS', 3_600_000)
const TYPE_EVERY_MS = envNumber('BENCH_HOUR_TYPE_EVERY_MS', 60_000)
const SEARCH_TEXT = 'web-1 AND cpu>5'
const RESULTS_FILE = new URL('../../bench/results/hour.json', import.meta.url)
const GUEST_ROWS = '[role="row"][data-kind="guest"]'

/** `/api/health` once a second until stopped: [wall ms, latency ms or null on an error]. */
function sampleHealth(port: number) {
  const samples: Array<[number, number | null]> = []
  let stopped = false
  const loop = (async () => {
    while (!stopped) {
      const at = wallNow()
      const ok = await fetch(`http://127.0.0.1:${port}/api/health`, {
        signal: AbortSignal.timeout(30_000),
      })
        .then((res) => res.arrayBuffer().then(() => res.ok))
        .catch(() => false)
      samples.push([at, ok ? wallNow() - at : null])
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, 1000 - (wallNow() - at))))
    }
  })()
  return {
    samples,
    async stop() {
      stopped = true
      await loop
    },
  }
}

test(`the hour: ${SIZE} guests, a browser open and typing every minute`, async ({ browser }) => {
  test.setTimeout(HOUR_MS + 45 * 60_000)
  const server = await createServerProcess({
    // Whatever the bench was started with (a larger backup estate, for instance) reaches the server.
    DEMO_CLUSTERS: '10',
    DEMO_NODES_PER_CLUSTER: '10',
    DEMO_GUESTS_PER_NODE: String(Math.max(1, Math.round(SIZE / 100))),
    DEMO_TICK_MS: String(POLL_MS),
    PULSE_POLL_INTERVAL_MS: String(POLL_MS),
  })
  let proxy: ByteProxy | null = null
  const context = await browser.newContext()
  try {
    await server.start()
    const pid = serverPid(server.port)
    proxy = await startByteProxy(server.port)
    const page = await context.newPage()
    await page.setViewportSize({ width: 1600, height: 1000 })
    await page.addInitScript(installLiveObservers)
    const cdp = await context.newCDPSession(page)
    await cdp.send('Performance.enable')
    await page.goto(proxy.url)
    await expect(page.locator(GUEST_ROWS).first()).toBeVisible({ timeout: 900_000 })
    const footer = page.locator('p[aria-live="polite"]').filter({ hasText: 'running' })
    await expect
      .poll(async () => footerTotal(await footer.innerText().catch(() => '')) ?? 0, {
        timeout: 900_000,
      })
      .toBeGreaterThan(SIZE * 0.9)
    const worker = await attachWorker(browser)
    const timeOrigin = await page.evaluate(() => performance.timeOrigin)
    const from = await page.evaluate(() => performance.now())
    const fromWall = timeOrigin + from
    const socketsAtStart = proxy.connections.filter((c) => c.webSocket).length

    const health = sampleHealth(server.port)
    const rss: Array<[number, number | null]> = []
    const heaps: Array<{ atS: number; pageMB: number; workerMB: number | null }> = []
    const clears: number[] = []
    const typedAt: number[] = []
    const end = Date.now() + HOUR_MS
    let nextType = Date.now()
    let nextHeap = Date.now()
    while (Date.now() < end) {
      const atS = round((wallNow() - fromWall) / 1000, 0)
      rss.push([atS, pid === null ? null : rssMiB(pid)])
      if (Date.now() >= nextHeap) {
        heaps.push({ atS, pageMB: await pageHeapMB(cdp), workerMB: await workerHeapMB(worker) })
        nextHeap += 60_000
      }
      if (Date.now() >= nextType) {
        typedAt.push(await page.evaluate(() => performance.now()))
        clears.push((await typeSearchAndClear(page, SEARCH_TEXT)).clearedAt)
        nextType += TYPE_EVERY_MS
      }
      await page.waitForTimeout(Math.max(0, Math.min(10_000, end - Date.now())))
    }
    await health.stop()
    const to = await page.evaluate(() => performance.now())
    const toWall = timeOrigin + to
    const { keys, latencies } = await keyLatencies(page, from, clears)
    const sockets = proxy.connections.filter((c) => c.webSocket)
    const resyncs = sockets
      .flatMap((c) => c.messages)
      .filter((m) => m.at >= fromWall && m.at <= toWall && kindOf(m) === 'load').length
    const healthMs = health.samples.flatMap(([, ms]) => (ms === null ? [] : [ms]))
    const tasks = await page.evaluate(() => (window as unknown as LiveWindow).__live.longTasks)
    const summary = {
      date: new Date().toISOString(),
      chromium: browser.version(),
      guests: SIZE,
      minutes: round(HOUR_MS / 60_000, 0),
      pollIntervalMs: POLL_MS,
      health: {
        samples: health.samples.length,
        failed: health.samples.length - healthMs.length,
        medianMs: round(quantile(healthMs, 0.5)),
        p99Ms: round(quantile(healthMs, 0.99)),
        maxMs: round(Math.max(0, ...healthMs)),
        over250ms: healthMs.filter((ms) => ms > 250).length,
      },
      serverRssMiB: summariseCurve(rss),
      workerHeapMB: summariseCurve(heaps.map((h) => [h.atS, h.workerMB])),
      pageHeapMB: summariseCurve(heaps.map((h) => [h.atS, h.pageMB])),
      disconnects: sockets.filter(
        (c) => c.closedAt !== null && c.closedAt >= fromWall && c.closedAt <= toWall,
      ).length,
      socketsOpened: sockets.length - socketsAtStart,
      resyncFrames: resyncs,
      typing: {
        searches: typedAt.length,
        keys,
        keysWithPaint: latencies.length,
        keyToPaintMedianMs: round(quantile(latencies, 0.5)),
        keyToPaintP95Ms: round(quantile(latencies, 0.95)),
        keyToPaintMaxMs: round(Math.max(0, ...latencies)),
      },
      longTasks: summariseTasks(tasks, from, to),
    }
    fs.mkdirSync(new URL('.', RESULTS_FILE), { recursive: true })
    fs.writeFileSync(
      RESULTS_FILE,
      `${JSON.stringify({ summary, curves: { rss, heaps, health: health.samples } }, null, 2)}\n`,
    )
    const c = (x: ReturnType<typeof summariseCurve>) =>
      `first ${x.first} / last ${x.last} / max ${x.max}, ${x.slopePerHour} per hour`
    console.log(
      [
        `hour: ${SIZE.toLocaleString('en-US')} guests for ${summary.minutes} min (${summary.chromium})`,
        `  /api/health every second: ${summary.health.samples} samples, median ${summary.health.medianMs} / p99 ${summary.health.p99Ms} / max ${summary.health.maxMs} ms, ${summary.health.over250ms} over 250 ms, ${summary.health.failed} failed`,
        `  server RSS MiB ${c(summary.serverRssMiB)}`,
        `  worker heap MB ${c(summary.workerHeapMB)}; page heap MB ${c(summary.pageHeapMB)}`,
        `  ${summary.disconnects} disconnects, ${summary.socketsOpened} sockets opened, ${summary.resyncFrames} full-state frames after the first load`,
        `  typing: ${summary.typing.searches} searches, key to paint median ${summary.typing.keyToPaintMedianMs} / p95 ${summary.typing.keyToPaintP95Ms} / max ${summary.typing.keyToPaintMaxMs} ms (${summary.typing.keysWithPaint} of ${keys} keys)`,
        `  long tasks: ${summary.longTasks.over50ms} over 50 ms, longest ${summary.longTasks.maxMs} ms`,
      ].join('\n'),
    )
    await worker?.detach()
    expect(summary.health.samples).toBeGreaterThan(0)
  } finally {
    await context.close()
    await proxy?.close()
    await server.stop()
    server.cleanup()
  }
})
