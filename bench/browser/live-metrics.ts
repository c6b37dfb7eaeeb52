// Helpers of the live browser benchmark (browser-live.spec.ts): what runs in the page (first guest
// row painted, paints after DOM changes of the guest table, keydowns, long tasks), the worker
// target through CDP (heap, the worker's own performance.measure entries) and small statistics.
import type { Browser, CDPSession } from '@playwright/test'

export interface LiveWindow {
  __live: {
    /** Page ms at which the first guest row had been painted. */
    firstRowAt: number | null
    keys: number[]
    /** Page ms of each paint that followed a change of the guest table or its footer. */
    paints: number[]
    longTasks: Array<{ start: number; duration: number }>
  }
}

/** Runs in the page before its scripts (page.addInitScript). */
export function installLiveObservers(): void {
  const w = window as unknown as LiveWindow
  const live: LiveWindow['__live'] = { firstRowAt: null, keys: [], paints: [], longTasks: [] }
  w.__live = live
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries())
        live.longTasks.push({ start: e.startTime, duration: e.duration })
    }).observe({ type: 'longtask', buffered: true })
  } catch {
    // No longtask support: the figures stay empty and the report says so.
  }
  let pending = false
  // After the next frame's rendering: a rAF callback runs before paint, a message posted from it
  // is handled after that frame was produced.
  const afterPaint = () => {
    if (pending) return
    pending = true
    requestAnimationFrame(() => {
      const channel = new MessageChannel()
      channel.port1.onmessage = () => {
        pending = false
        const now = performance.now()
        live.paints.push(now)
        if (live.firstRowAt === null && document.querySelector('[role="row"][data-kind="guest"]'))
          live.firstRowAt = now
      }
      channel.port2.postMessage(null)
    })
  }
  // What answers a search: a change inside the guest table or its footer, or the table and the
  // 'No guests found' state replacing each other (not that state's text, which echoes the input).
  const watched = '[role="table"][aria-label="Guests"], p[aria-live="polite"]'
  const answers = (n: Node) =>
    n instanceof Element &&
    (n.matches(watched) ||
      n.querySelector(watched) !== null ||
      n.querySelector('h2')?.textContent === 'No guests found')
  new MutationObserver((records) => {
    for (const r of records) {
      const el = r.target instanceof Element ? r.target : r.target.parentElement
      if (
        el?.closest(watched) ||
        [...r.addedNodes].some(answers) ||
        [...r.removedNodes].some(answers)
      ) {
        afterPaint()
        return
      }
    }
  }).observe(document, { subtree: true, childList: true, characterData: true })
  document.addEventListener('keydown', () => live.keys.push(performance.now()), true)
}

export const MB = 1024 * 1024

/** A positive number from the environment, or `fallback`. */
export const envNumber = (name: string, fallback: number): number => {
  const n = Number(process.env[name])
  return Number.isFinite(n) && n > 0 ? n : fallback
}

/** Guests the guest table's footer counts ("N running · M stopped"), or null. */
export function footerTotal(text: string): number | null {
  const match = /(\d+) running · (\d+) stopped/.exec(text)
  return match ? Number(match[1]) + Number(match[2]) : null
}

/** The demo server's environment for `size` guests over 10 clusters x 10 nodes, polled every `pollMs`. */
export function liveDemoEnv(size: number, pollMs: number): Record<string, string> {
  return {
    DEMO_CLUSTERS: '10',
    DEMO_NODES_PER_CLUSTER: '10',
    DEMO_GUESTS_PER_NODE: String(Math.max(1, Math.round(size / 100))),
    DEMO_TICK_MS: String(pollMs),
    PULSE_POLL_INTERVAL_MS: String(pollMs),
  }
}

export function round(n: number, digits = 1): number {
  const f = 10 ** digits
  return Math.round(n * f) / f
}

export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return NaN
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!
}

/** Long tasks overlapping [from, to] (page ms). */
export function summariseTasks(
  tasks: ReadonlyArray<{ start: number; duration: number }>,
  from: number,
  to: number,
) {
  const d = tasks
    .filter((t) => t.start + t.duration >= from && t.start <= to)
    .map((t) => t.duration)
  return {
    count: d.length,
    over50ms: d.filter((x) => x > 50).length,
    maxMs: round(Math.max(0, ...d)),
    totalMs: round(d.reduce((a, b) => a + b, 0)),
  }
}

/** The page's used JS heap in MB (CDP Performance.getMetrics; Performance.enable first). */
export async function pageHeapMB(cdp: CDPSession): Promise<number> {
  const { metrics } = await cdp.send('Performance.getMetrics')
  return round((metrics.find((m) => m.name === 'JSHeapUsedSize')?.value ?? NaN) / MB)
}

export interface WorkerSession {
  call<T>(method: string, params?: Record<string, unknown>): Promise<T>
  detach(): Promise<void>
}

/** Attaches to the page's dedicated worker through a browser-level CDP session. */
export async function attachWorker(browser: Browser): Promise<WorkerSession | null> {
  const cdp = await browser.newBrowserCDPSession()
  const { targetInfos } = await cdp.send('Target.getTargets')
  const worker = targetInfos.find((t) => t.type === 'worker')
  if (!worker) {
    await cdp.detach()
    return null
  }
  const { sessionId } = await cdp.send('Target.attachToTarget', {
    targetId: worker.targetId,
    flatten: false,
  })
  let nextId = 1
  const pending = new Map<number, (result: unknown) => void>()
  cdp.on('Target.receivedMessageFromTarget', (event) => {
    const msg = JSON.parse(event.message) as { id?: number; result?: unknown }
    if (msg.id !== undefined) pending.get(msg.id)?.(msg.result)
  })
  return {
    async call<T>(method: string, params: Record<string, unknown> = {}) {
      const id = nextId++
      const reply = new Promise<unknown>((resolve, reject) => {
        pending.set(id, resolve)
        setTimeout(() => reject(new Error(`${method} timed out`)), 60_000).unref()
      })
      await cdp.send('Target.sendMessageToTarget', {
        sessionId,
        message: JSON.stringify({ id, method, params }),
      })
      return (await reply) as T
    },
    async detach() {
      await cdp.send('Target.detachFromTarget', { sessionId }).catch(() => {})
      await cdp.detach().catch(() => {})
    },
  }
}

/** The worker's used heap in MB (no GC forced). */
export async function workerHeapMB(worker: WorkerSession | null): Promise<number | null> {
  if (!worker) return null
  const heap = await worker.call<{ usedSize: number }>('Runtime.getHeapUsage').catch(() => null)
  return heap ? round(heap.usedSize / MB) : null
}

/** One `pulse:parse` / `pulse:apply` measure of the worker: duration and its detail. */
export interface WorkerMeasure {
  name: string
  /** The worker's performance.now() at the start of the measure. */
  start: number
  ms: number
  type: string
  bytes: number | null
}

/** Reads the worker's `pulse:parse` and `pulse:apply` measures (empty when it has none yet). */
export async function workerMeasures(worker: WorkerSession | null): Promise<WorkerMeasure[]> {
  if (!worker) return []
  const expression = `JSON.stringify(['pulse:parse', 'pulse:apply'].flatMap((name) =>
    performance.getEntriesByName(name).map((e) => ({ name, start: e.startTime, ms: e.duration,
      type: String((e.detail && e.detail.type) || 'unknown'),
      bytes: typeof (e.detail && e.detail.bytes) === 'number' ? e.detail.bytes : null }))))`
  const reply = await worker
    .call<{ result?: { value?: unknown } }>('Runtime.evaluate', { expression, returnByValue: true })
    .catch(() => null)
  const value = reply?.result?.value
  return typeof value === 'string' ? (JSON.parse(value) as WorkerMeasure[]) : []
}

/** The worker's performance.now(), to take its measures from a moment on; null without a worker. */
export async function workerNow(worker: WorkerSession | null): Promise<number | null> {
  if (!worker) return null
  const reply = await worker
    .call<{ result?: { value?: unknown } }>('Runtime.evaluate', {
      expression: 'performance.now()',
      returnByValue: true,
    })
    .catch(() => null)
  const value = reply?.result?.value
  return typeof value === 'number' ? value : null
}

/** The median of one measure name and frame type, null when there is none. */
export function measureMedian(
  measures: readonly WorkerMeasure[],
  name: string,
  type: string,
): { medianMs: number | null; n: number } {
  const list = measures.filter((m) => m.name === name && m.type === type).map((m) => m.ms)
  return { medianMs: list.length ? round(quantile(list, 0.5), 2) : null, n: list.length }
}

/** Median and max per measure name and frame type, or 'n/a' when the worker records none. */
export function summariseMeasures(measures: readonly WorkerMeasure[]) {
  if (measures.length === 0) return 'n/a' as const
  const groups = new Map<string, WorkerMeasure[]>()
  for (const m of measures) {
    const key = `${m.name} ${m.type}`
    groups.set(key, [...(groups.get(key) ?? []), m])
  }
  return Object.fromEntries(
    [...groups].map(([key, list]) => [
      key,
      {
        count: list.length,
        medianMs: round(
          quantile(
            list.map((m) => m.ms),
            0.5,
          ),
        ),
        maxMs: round(Math.max(...list.map((m) => m.ms))),
        medianBytes: quantile(
          list.flatMap((m) => (m.bytes === null ? [] : [m.bytes])),
          0.5,
        ),
      },
    ]),
  )
}
