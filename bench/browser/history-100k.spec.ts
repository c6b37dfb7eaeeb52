// Browser benchmark of metrics history (issue 25) at 100,000 guests over 1,000 nodes: drawing one
// guest's charts (from the guest table and from /guests/<id> opened directly, then switched to
// 24h) and scrolling the guest table with the trend column on. Main-thread long tasks
// (PerformanceObserver 'longtask'), requestAnimationFrame frame times and the /api/history batch
// requests a scroll makes. The real server and simulator, the built app, Debian's Chromium.
//
// Run by `npm run bench -- browser-history` (bench/run.ts builds the app and runs this file alone
// through bench/browser/playwright.config.ts); not part of `npm test` nor of browser-100k. Each
// measurement runs BENCH_RUNS times (default 3) in a fresh browser context against the same
// server; the medians are printed against the targets (no main-thread task over 50 ms
// while a chart draws; frames under 50 ms while scrolling with trends on) and written, with
// every run, to bench/results/history-browser.json. The checks only make sure a figure measured
// what it says (the charts drew, the sparklines drew, the table scrolled).
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import {
  expect,
  test,
  type Browser,
  type CDPSession,
  type Locator,
  type Page,
} from '@playwright/test'
import type { ServerProcess } from '../../tests/e2e/server-process.ts'
import {
  estateServer,
  firstRowIndex,
  footerText,
  GUEST_ROWS,
  GUESTS,
  installObservers,
  longTasksBetween,
  medianOf,
  NODES,
  parseFooter,
  round,
  RUNS,
  scrollTable,
  settle,
  startFrames,
  stopFrames,
  summariseFrames,
  threadDelta,
  threadTimes,
  type ScrollPlan,
} from './perf-observers.ts'
import { startProfile, stopProfile } from './cpu-profile.ts'

/** The targets, reported as PASS/FAIL text only. */
const MAX_TASK_MS = 50
const MAX_FRAME_MS = 50

/**
 * About ten seconds of scrolling: five flicks of the wheel (browser-100k's 800 px every other
 * frame) with a pause after each long enough for the trend column to ask and draw (its debounce
 * is 300 ms), then browser-100k's ten jumps down the scrollbar, a little slower.
 */
const TREND_SCROLL: ScrollPlan = {
  wheelSteps: 40,
  wheelStepPx: 800,
  bursts: 5,
  pauseFrames: 45,
  jumps: 10,
  framesPerJump: 12,
}

const RESULTS_FILE = fileURLToPath(
  new URL('../../bench/results/history-browser.json', import.meta.url),
)

let server: ServerProcess

test.beforeAll(async () => {
  test.setTimeout(120_000)
  server = await estateServer()
  await server.start()
})

test.afterAll(async () => {
  await server?.stop()
  server?.cleanup()
})

interface Guest {
  id: string
  name: string
}

/**
 * A running guest, once the server holds the whole estate. Names repeat across clusters (each
 * cluster numbers its own), so the row figure searches the name and opens the first match.
 */
async function pickGuest(): Promise<Guest> {
  let seen = 0
  const deadline = Date.now() + 240_000
  while (Date.now() < deadline) {
    const state = (await (await fetch(`${server.url}/api/state`)).json()) as {
      vms?: (Guest & { status: string })[]
      containers?: unknown[]
    }
    seen = (state.vms?.length ?? 0) + (state.containers?.length ?? 0)
    const guest = state.vms?.find((g) => g.status === 'running')
    if (guest && seen >= GUESTS * 0.99) return { id: guest.id, name: guest.name }
    await new Promise((resolve) => setTimeout(resolve, 2000))
  }
  throw new Error(`the server did not hold the estate within 4 minutes (${seen} guests)`)
}

const historyOf = (page: Page, name: string) =>
  page.getByRole('region', { name: `History of ${name}` })

/**
 * Waits (polling every frame) until the CPU and Memory charts of `name` over `range` have drawn
 * (uPlot's canvas is in the box) and the caption says no fetch is under way; returns that moment
 * on the page clock.
 */
async function chartsDrawn(page: Page, name: string, range: string) {
  const handle = await page.waitForFunction(
    ({ name, range }) => {
      const panel = document.querySelector(`section[aria-label="History of ${CSS.escape(name)}"]`)
      if (!panel) return false
      const drawn = (metric: string) =>
        panel
          .querySelector(
            `[role="img"][aria-label^="${metric} of ${CSS.escape(name)} over the last ${range};"]`,
          )
          ?.querySelector('canvas') != null
      const caption = panel.querySelector('[data-testid="history-caption"]')?.textContent ?? ''
      const settled = caption !== '' && !caption.includes('updating')
      return drawn('CPU') && drawn('Memory') && settled ? performance.now() : false
    },
    { name, range },
    { polling: 'raf', timeout: 60_000 },
  )
  return (await handle.jsonValue()) as number
}

const captionOf = (page: Page, name: string) =>
  historyOf(page, name).getByTestId('history-caption').innerText()

/** Switches the panel to 24h; long tasks from the click until the page is quiet again. */
async function switchTo24h(page: Page, name: string) {
  const before = await captionOf(page, name)
  // The caption may read the same at both ranges: wait for the 24h answer itself.
  const answered = page.waitForResponse(
    (r) => r.url().includes('/api/history/') && r.url().includes('range=24h'),
  )
  const clickAt = await page.evaluate(() => performance.now())
  await historyOf(page, name)
    .getByRole('group', { name: 'History range' })
    .getByRole('button', { name: '24h', exact: true })
    .click()
  await answered
  const drawnAt = await chartsDrawn(page, name, '24h')
  const quiet = await settle(page)
  return {
    captionBefore: before,
    captionAfter: await captionOf(page, name),
    msClickToCharts: round(drawnAt - clickAt),
    longTasks: await longTasksBetween(page, clickAt, Math.max(quiet, drawnAt)),
  }
}

/** Waits for the whole estate in the dashboard (as browser-100k does), then for quiet. */
async function estateLoaded(page: Page) {
  const nodeTable = page.getByRole('table', { name: 'Nodes', exact: true })
  await expect(nodeTable).toHaveAttribute('aria-rowcount', String(NODES + 1), { timeout: 150_000 })
  await expect
    .poll(async () => parseFooter(await footerText(page))?.running ?? 0, { timeout: 60_000 })
    .toBeGreaterThan(0)
  await expect(page.locator(GUEST_ROWS).first()).toBeVisible()
  await settle(page)
}

/** One scroll of the guest table from the top by TREND_SCROLL: frames, long tasks, thread time. */
async function measureScroll(page: Page, cdp: CDPSession, table: Locator) {
  await table.evaluate((el) => (el.scrollTop = 0))
  await settle(page)
  const indexBefore = await firstRowIndex(page)
  const times = await threadTimes(cdp)
  const start = await page.evaluate(() => performance.now())
  await startFrames(page)
  const wallStart = Date.now()
  const scroll = await scrollTable(table, TREND_SCROLL)
  const wallEnd = Date.now()
  const end = await page.evaluate(() => performance.now())
  const mainThread = threadDelta(times, await threadTimes(cdp))
  const frames = summariseFrames(await stopFrames(page))
  const longTasks = await longTasksBetween(page, start, end)
  await settle(page)
  const indexAfter = await firstRowIndex(page)
  expect(scroll.afterWheel).toBeGreaterThan(100_000)
  expect(indexAfter).toBeGreaterThan(indexBefore + 1000)
  return {
    wall: { start: wallStart, end: wallEnd },
    scrollHeightPx: scroll.height,
    firstRowBefore: indexBefore,
    firstRowAfter: indexAfter,
    msScrolling: round(end - start),
    frames,
    longTasks,
    mainThread,
  }
}

/** One measurement in a fresh page: the guest page from its URL, trends and scroll, the row. */
async function measureOnce(page: Page, guest: Guest) {
  const started = Date.now()
  await page.setViewportSize({ width: 1600, height: 1000 })
  await page.addInitScript(installObservers)
  const cdp = await page.context().newCDPSession(page)
  await cdp.send('Performance.enable')
  const historyRequests: { at: number; batch: boolean }[] = []
  page.on('request', (r) => {
    const url = new URL(r.url())
    if (url.pathname.startsWith('/api/history')) {
      historyRequests.push({ at: Date.now(), batch: url.pathname === '/api/history' })
    }
  })

  // (1) /guests/<id> opened directly: navigation start to both charts drawn, then 24h.
  await page.goto(`${server.url}/guests/${encodeURIComponent(guest.id)}`)
  await expect(page.getByRole('heading', { name: guest.name })).toBeVisible({ timeout: 150_000 })
  const pageDrawnAt = await chartsDrawn(page, guest.name, '1h')
  const pageQuiet = await settle(page)
  const directPage = {
    msNavigationToCharts: round(pageDrawnAt),
    longTasksNavigationToCharts: await longTasksBetween(page, 0, pageDrawnAt),
    longTasksUntilQuiet: await longTasksBetween(page, 0, pageQuiet),
    switchTo24h: await switchTo24h(page, guest.name),
  }

  // (2) The dashboard with trends on, scrolled for about ten seconds.
  await page.goto(server.url)
  await estateLoaded(page)
  const trends = page.getByRole('switch', { name: 'Trends' }).first()
  await expect(trends).toHaveAttribute('aria-checked', 'false')
  const trendsOnAt = await page.evaluate(() => performance.now())
  await trends.click()
  const table = page.getByRole('table', { name: 'Guests' })
  const sparklines = table.getByRole('img', { name: /over the last hour$/ })
  await expect(sparklines.first()).toBeVisible({ timeout: 30_000 })
  const sparklinesAt = await page.evaluate(() => performance.now())
  const trendsQuiet = await settle(page)
  const sparklinesShown = await sparklines.count()
  expect(sparklinesShown).toBeGreaterThan(3)
  const trendsOnTasks = await longTasksBetween(page, trendsOnAt, trendsQuiet)

  const batchesBefore = historyRequests.filter((r) => r.batch).length
  const { wall, ...withTrends } = await measureScroll(page, cdp, table)
  // The rows at the bottom get their sparklines after the last jump.
  await expect(sparklines.first()).toBeVisible({ timeout: 30_000 })
  const batches = historyRequests.filter((r) => r.batch)
  const batchesUntilQuiet = batches.length - batchesBefore
  const batchesDuring = batches.filter((r) => r.at >= wall.start && r.at <= wall.end).length

  // Trends off again so the chart figure below is the chart's alone.
  await trends.click()
  await expect(trends).toHaveAttribute('aria-checked', 'false')
  // The same scroll without trends: what the table costs on its own, on this machine now.
  const { wall: _wall, ...withoutTrends } = await measureScroll(page, cdp, table)
  await table.evaluate((el) => (el.scrollTop = 0))
  await settle(page)

  // (3) The guest's row: search its name, click it, wait for both charts, then 24h.
  await page.getByRole('searchbox', { name: 'Search guests' }).fill(guest.name)
  await expect.poll(async () => parseFooter(await footerText(page))?.shown ?? 0).toBeGreaterThan(0)
  await settle(page, 500)
  const row = table.getByText(guest.name, { exact: true }).first()
  const clickAt = await page.evaluate(() => performance.now())
  await row.click()
  const rowDrawnAt = await chartsDrawn(page, guest.name, '1h')
  const rowQuiet = await settle(page)
  const fromRow = {
    msClickToCharts: round(rowDrawnAt - clickAt),
    longTasks: await longTasksBetween(page, clickAt, Math.max(rowQuiet, rowDrawnAt)),
    switchTo24h: await switchTo24h(page, guest.name),
  }

  return {
    date: new Date().toISOString(),
    guest,
    viewport: page.viewportSize(),
    fromRow,
    directPage,
    trendsScroll: {
      plan: TREND_SCROLL,
      msTrendsOnToSparklines: round(sparklinesAt - trendsOnAt),
      sparklinesShown,
      longTasksTurningOn: trendsOnTasks,
      ...withTrends,
      historyBatchRequests: {
        duringScroll: batchesDuring,
        untilQuiet: batchesUntilQuiet,
      },
    },
    scrollWithoutTrends: withoutTrends,
    testRuntimeMs: Date.now() - started,
  }
}

type Figures = Awaited<ReturnType<typeof measureOnce>>

/**
 * After the measured runs, once more with the CPU profiler on (it slows the page, so no figure
 * above comes from here): the switch to 24h on /guests/<id>, the scroll with trends on, and
 * opening the guest's row.
 */
async function profilePass(page: Page, guest: Guest) {
  await page.setViewportSize({ width: 1600, height: 1000 })
  await page.addInitScript(installObservers)
  const cdp = await page.context().newCDPSession(page)
  await page.goto(`${server.url}/guests/${encodeURIComponent(guest.id)}`)
  await chartsDrawn(page, guest.name, '1h')
  await settle(page)
  await startProfile(cdp)
  await switchTo24h(page, guest.name)
  const pageTo24h = await stopProfile(cdp)

  await page.goto(server.url)
  await estateLoaded(page)
  await page.getByRole('switch', { name: 'Trends' }).first().click()
  const table = page.getByRole('table', { name: 'Guests' })
  await expect(table.getByRole('img', { name: /over the last hour$/ }).first()).toBeVisible()
  await settle(page)
  await startProfile(cdp)
  await scrollTable(table, TREND_SCROLL)
  const trendsScroll = await stopProfile(cdp)

  await page.getByRole('switch', { name: 'Trends' }).first().click()
  await page.getByRole('searchbox', { name: 'Search guests' }).fill(guest.name)
  await expect.poll(async () => parseFooter(await footerText(page))?.shown ?? 0).toBeGreaterThan(0)
  await settle(page)
  await startProfile(cdp)
  await table.getByText(guest.name, { exact: true }).first().click()
  await chartsDrawn(page, guest.name, '1h')
  await settle(page)
  const rowClick = await stopProfile(cdp)
  return { pageTo24h, trendsScroll, rowClick }
}

function verdicts(m: Figures) {
  const noTask = (t: { maxMs: number; over50ms: number }) =>
    t.maxMs <= MAX_TASK_MS && t.over50ms === 0 ? 'PASS' : 'FAIL'
  return {
    rowChartsNoTaskOver50ms: noTask(m.fromRow.longTasks),
    rowChartsTo24hNoTaskOver50ms: noTask(m.fromRow.switchTo24h.longTasks),
    pageChartsTo24hNoTaskOver50ms: noTask(m.directPage.switchTo24h.longTasks),
    scrollFramesP95Under50ms: m.trendsScroll.frames.p95Ms < MAX_FRAME_MS ? 'PASS' : 'FAIL',
    scrollFramesMaxUnder50ms: m.trendsScroll.frames.maxMs < MAX_FRAME_MS ? 'PASS' : 'FAIL',
    scrollNoTaskOver50ms: noTask(m.trendsScroll.longTasks),
  }
}

function report(m: Figures, browser: Browser) {
  const t = (x: { count: number; maxMs: number; over50ms: number }) =>
    `${x.count} long tasks, ${x.over50ms} over 50 ms, longest ${x.maxMs} ms`
  const { fromRow, directPage, trendsScroll: s } = m
  return [
    `browser-history: medians of ${RUNS} runs (${browser.version()}, ${GUESTS} guests, ${NODES} nodes)`,
    `  row click to CPU+Memory charts: ${fromRow.msClickToCharts} ms; ${t(fromRow.longTasks)}`,
    `  row charts to 24h: ${fromRow.switchTo24h.msClickToCharts} ms; ${t(fromRow.switchTo24h.longTasks)}`,
    `  /guests/<id> navigation to charts: ${directPage.msNavigationToCharts} ms; ${t(directPage.longTasksNavigationToCharts)} (app boot included)`,
    `  /guests/<id> to 24h: ${directPage.switchTo24h.msClickToCharts} ms; ${t(directPage.switchTo24h.longTasks)}`,
    `  trends on to sparklines: ${s.msTrendsOnToSparklines} ms (${s.sparklinesShown} rows); ${t(s.longTasksTurningOn)}`,
    `  scrolling ${s.msScrolling} ms with trends: frames median ${s.frames.medianMs} / p95 ${s.frames.p95Ms} / max ${s.frames.maxMs} ms (${s.frames.over50ms} over 50 ms of ${s.frames.count}); ${t(s.longTasks)}`,
    `  same scroll without trends: frames median ${m.scrollWithoutTrends.frames.medianMs} / p95 ${m.scrollWithoutTrends.frames.p95Ms} / max ${m.scrollWithoutTrends.frames.maxMs} ms; ${t(m.scrollWithoutTrends.longTasks)}`,
    `  main thread while scrolling, with / without trends: ${s.mainThread.taskMs} / ${m.scrollWithoutTrends.mainThread.taskMs} ms (script ${s.mainThread.scriptMs} / ${m.scrollWithoutTrends.mainThread.scriptMs}, style ${s.mainThread.styleMs} / ${m.scrollWithoutTrends.mainThread.styleMs}, layout ${s.mainThread.layoutMs} / ${m.scrollWithoutTrends.mainThread.layoutMs}, other ${s.mainThread.otherMs} / ${m.scrollWithoutTrends.mainThread.otherMs})`,
    `  /api/history batch requests: ${s.historyBatchRequests.duringScroll} during the scroll, ${s.historyBatchRequests.untilQuiet} until quiet`,
    ...Object.entries(verdicts(m)).map(([k, v]) => `  ${v}: ${k}`),
    `  wrote ${path.relative(process.cwd(), RESULTS_FILE)}`,
  ].join('\n')
}

test('100,000 guests: history charts and the trend column in the browser', async ({ browser }) => {
  test.setTimeout(300_000 * RUNS + 200_000)
  const guest = await pickGuest()
  const runs: Figures[] = []
  for (let i = 0; i < RUNS; i++) {
    const context = await browser.newContext()
    try {
      runs.push(await measureOnce(await context.newPage(), guest))
    } finally {
      await context.close()
    }
  }
  const profileContext = await browser.newContext()
  const profile = await profilePass(await profileContext.newPage(), guest).finally(() =>
    profileContext.close(),
  )
  const median = medianOf(runs) as Figures
  fs.mkdirSync(path.dirname(RESULTS_FILE), { recursive: true })
  const body = {
    date: new Date().toISOString(),
    chromium: browser.version(),
    guests: GUESTS,
    nodes: NODES,
    runs: RUNS,
    thresholds: { maxTaskMs: MAX_TASK_MS, maxFrameMs: MAX_FRAME_MS, ...verdicts(median) },
    median,
    each: runs,
    profile,
  }
  fs.writeFileSync(RESULTS_FILE, `${JSON.stringify(body, null, 2)}\n`)
  const files = (p: { byFile: { name: string; ms: number }[] }) =>
    p.byFile
      .slice(0, 6)
      .map((f) => `${f.name} ${f.ms} ms`)
      .join(', ')
  console.log(
    [
      report(median, browser),
      `  profile, /guests/<id> to 24h (self time): ${files(profile.pageTo24h)}`,
      `  profile, scroll with trends (self time): ${files(profile.trendsScroll)}`,
      `  profile, row click to charts (self time): ${files(profile.rowClick)}`,
    ].join('\n'),
  )
})
