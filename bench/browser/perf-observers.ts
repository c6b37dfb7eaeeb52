// Shared helpers of the browser benchmarks at 100,000 guests (browser-100k.spec.ts,
// history-100k.spec.ts): the estate and its server, main-thread long tasks (PerformanceObserver
// 'longtask'), requestAnimationFrame frame times, main-thread time counters, the scroll run over
// the guest table, and medians over runs.
import type { CDPSession, Locator, Page } from '@playwright/test'
import { createServerProcess, type ServerProcess } from '../../tests/e2e/server-process.ts'

export const CLUSTERS = 10
export const NODES_PER_CLUSTER = 100
export const GUESTS_PER_NODE = 100
export const NODES = CLUSTERS * NODES_PER_CLUSTER
export const GUESTS = NODES * GUESTS_PER_NODE

/** Measurements per bench run; each figure is reported as the median over them. */
export const RUNS = Math.max(1, Number(process.env.BENCH_RUNS ?? 3))
/**
 * One poll at start, the next after every measurement: on a 2-core machine a 100,000-guest poll
 * in the server would compete with the browser for CPU and blur the client figures.
 */
export const POLL_MS = 150_000 * RUNS

export const GUEST_ROWS = '[role="row"][data-kind="guest"]'

/** The real server and simulator with the 100,000-guest estate, polling once per POLL_MS. */
export function estateServer(env: Record<string, string> = {}): Promise<ServerProcess> {
  return createServerProcess({
    DEMO_CLUSTERS: String(CLUSTERS),
    DEMO_NODES_PER_CLUSTER: String(NODES_PER_CLUSTER),
    DEMO_GUESTS_PER_NODE: String(GUESTS_PER_NODE),
    DEMO_TICK_MS: String(POLL_MS),
    PULSE_POLL_INTERVAL_MS: String(POLL_MS),
    ...env,
  })
}

export interface LongTask {
  start: number
  duration: number
}

export interface PerfWindow {
  __perf: { longTasks: LongTask[]; frames: number[] | null; footer: number[] }
}

/** Collects main-thread long tasks from the first moment of the page. */
export function installObservers() {
  const w = window as unknown as PerfWindow
  w.__perf = { longTasks: [], frames: null, footer: [] }
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) {
        w.__perf.longTasks.push({ start: e.startTime, duration: e.duration })
      }
    }).observe({ type: 'longtask', buffered: true })
  } catch {
    // No longtask support: the figures stay empty and the test says so.
  }
}

export function footerText(page: Page) {
  return page
    .locator('p[aria-live="polite"]')
    .filter({ hasText: 'running' })
    .innerText({ timeout: 1000 })
    .catch(() => '')
}

export function parseFooter(text: string) {
  const match = /(\d+) running · (\d+) stopped(?: · (\d+) of (\d+) shown)?/.exec(text)
  if (!match) return null
  return {
    running: Number(match[1]),
    stopped: Number(match[2]),
    shown: match[3] === undefined ? null : Number(match[3]),
    total: match[4] === undefined ? null : Number(match[4]),
  }
}

/**
 * Waits until the footer and the pending rows have not changed and no long task ran for
 * `quietMs`; returns the page clock at that point.
 */
export async function settle(page: Page, quietMs = 1000, timeoutMs = 60_000): Promise<number> {
  const deadline = Date.now() + timeoutMs
  let last = ''
  let since = Date.now()
  while (Date.now() < deadline) {
    const s = await page.evaluate(() => {
      const tasks = (window as unknown as PerfWindow).__perf.longTasks
      const lastTask = tasks[tasks.length - 1]
      const footer = [...document.querySelectorAll('p[aria-live="polite"]')]
        .map((p) => p.textContent ?? '')
        .join('|')
      return {
        key: `${footer}#${document.querySelectorAll('[aria-busy="true"]').length}`,
        busy: document.querySelectorAll('[aria-busy="true"]').length,
        now: performance.now(),
        lastTaskEnd: lastTask ? lastTask.start + lastTask.duration : 0,
      }
    })
    if (s.key !== last) {
      last = s.key
      since = Date.now()
    }
    if (s.busy === 0 && Date.now() - since >= quietMs && s.now - s.lastTaskEnd >= quietMs) {
      return s.now - quietMs
    }
    await page.waitForTimeout(100)
  }
  throw new Error(`page did not settle within ${timeoutMs} ms (last state ${last})`)
}

export async function longTasksBetween(page: Page, from: number, to: number) {
  const tasks = await page.evaluate(() => (window as unknown as PerfWindow).__perf.longTasks)
  return summariseTasks(tasks.filter((t) => t.start + t.duration >= from && t.start <= to))
}

export function summariseTasks(tasks: readonly LongTask[]) {
  const durations = tasks.map((t) => t.duration)
  return {
    count: tasks.length,
    over50ms: durations.filter((d) => d > 50).length,
    maxMs: round(Math.max(0, ...durations)),
    totalMs: round(durations.reduce((a, b) => a + b, 0)),
  }
}

export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return 0
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!
}

export function summariseFrames(deltas: readonly number[]) {
  const sorted = [...deltas].sort((a, b) => a - b)
  return {
    count: sorted.length,
    medianMs: round(quantile(sorted, 0.5)),
    p95Ms: round(quantile(sorted, 0.95)),
    maxMs: round(sorted[sorted.length - 1] ?? 0),
    over50ms: sorted.filter((d) => d > 50).length,
  }
}

export function round(n: number, digits = 1): number {
  const f = 10 ** digits
  return Math.round(n * f) / f
}

/** Starts recording requestAnimationFrame deltas. */
export async function startFrames(page: Page): Promise<void> {
  await page.evaluate(() => {
    const perf = (window as unknown as PerfWindow).__perf
    const frames: number[] = []
    perf.frames = frames
    let prev = performance.now()
    const tick = (now: number) => {
      if (perf.frames !== frames) return
      frames.push(now - prev)
      prev = now
      requestAnimationFrame(tick)
    }
    requestAnimationFrame(tick)
  })
}

export async function stopFrames(page: Page): Promise<number[]> {
  return page.evaluate(() => {
    const perf = (window as unknown as PerfWindow).__perf
    const frames = perf.frames ?? []
    perf.frames = null
    // The first delta spans the time before recording started.
    return frames.slice(1)
  })
}

/** Main-thread time counters of the page (seconds since the page started). */
export async function threadTimes(cdp: CDPSession): Promise<Record<string, number>> {
  const { metrics } = await cdp.send('Performance.getMetrics')
  return Object.fromEntries(metrics.map((m) => [m.name, m.value]))
}

/** Main-thread time between two samples, split into script, style, layout and the rest. */
export function threadDelta(before: Record<string, number>, after: Record<string, number>) {
  const ms = (name: string) => round(((after[name] ?? 0) - (before[name] ?? 0)) * 1000)
  const taskMs = ms('TaskDuration')
  const scriptMs = ms('ScriptDuration')
  const styleMs = ms('RecalcStyleDuration')
  const layoutMs = ms('LayoutDuration')
  // Mostly paint, pre-paint and compositing inputs (the renderer's lifecycle outside style/layout).
  return {
    taskMs,
    scriptMs,
    styleMs,
    layoutMs,
    otherMs: round(taskMs - scriptMs - styleMs - layoutMs),
  }
}

/** aria-rowindex of the first guest row rendered with data. */
export async function firstRowIndex(page: Page): Promise<number> {
  return Number(await page.locator(GUEST_ROWS).first().getAttribute('aria-rowindex'))
}

/** The median of every numeric figure over the runs; other values are taken from the first run. */
export function medianOf(values: readonly unknown[]): unknown {
  const first = values[0]
  if (typeof first === 'number') {
    const sorted = (values as number[]).slice().sort((a, b) => a - b)
    const mid = sorted.length >> 1
    return sorted.length % 2 ? sorted[mid]! : round((sorted[mid - 1]! + sorted[mid]!) / 2)
  }
  if (first && typeof first === 'object' && !Array.isArray(first)) {
    return Object.fromEntries(
      Object.keys(first).map((key) => [
        key,
        medianOf(values.map((v) => (v as Record<string, unknown>)[key])),
      ]),
    )
  }
  return first
}

export interface ScrollPlan {
  /** Wheel steps per burst, one every other frame (a fast flick of the wheel). */
  wheelSteps: number
  wheelStepPx: number
  /** Bursts of wheel steps, with `pauseFrames` frames of stillness after each. */
  bursts: number
  pauseFrames: number
  /** Then jumps down the scrollbar to the bottom, `framesPerJump` frames apart. */
  jumps: number
  framesPerJump: number
}

/** browser-100k's run: 40 steps of 800 px, then ten jumps ~100 ms apart. */
export const QUICK_SCROLL: ScrollPlan = {
  wheelSteps: 40,
  wheelStepPx: 800,
  bursts: 1,
  pauseFrames: 0,
  jumps: 10,
  framesPerJump: 6,
}

/** Scrolls the table element by the plan, in the page, frame by frame. */
export function scrollTable(table: Locator, plan: ScrollPlan = QUICK_SCROLL) {
  return table.evaluate(async (el, p) => {
    const frame = () => new Promise<number>((resolve) => requestAnimationFrame(resolve))
    for (let b = 0; b < p.bursts; b++) {
      for (let i = 0; i < p.wheelSteps; i++) {
        el.scrollTop += p.wheelStepPx
        await frame()
        await frame()
      }
      for (let f = 0; f < p.pauseFrames; f++) await frame()
    }
    const afterWheel = el.scrollTop
    for (let i = 1; i <= p.jumps; i++) {
      el.scrollTop = ((el.scrollHeight - el.clientHeight) * i) / p.jumps
      for (let f = 0; f < p.framesPerJump; f++) await frame()
    }
    return { afterWheel, end: el.scrollTop, height: el.scrollHeight }
  }, plan)
}
