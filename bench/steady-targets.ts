// Issue 27's targets (the steady state at 100,000 guests), read from bench/results/latest.json:
// one line per target and size with the figure, its statistic, N and PASS/FAIL against the goal.
// `npm run bench` prints it after every run (a partial run reads the other benches' last figures);
// a figure no bench has written yet shows as "not measured", never as a pass.
import type { BenchResult } from './harness.ts'

/** One target at one size. */
export interface SteadyTarget {
  /** The target number and a short name. */
  target: string
  what: string
  size: number
  /** null: no bench has measured it yet. */
  value: number | null
  unit: 'ms' | 'MiB' | 'MB' | 'B' | 'tasks' | 'calls' | 'events'
  /** median, p95, p99, max, end, ... */
  stat: string
  n: number | null
  /** Below this is a pass; null: a figure to quote, no goal of its own. */
  goal: number | null
}

type Latest = Record<string, unknown>
type Row = Record<string, unknown>

const SIZES = [1_000, 10_000, 100_000]

const rowsOf = (latest: Latest, key: string): Row[] => {
  const value = latest[key]
  return Array.isArray(value) ? (value as Row[]) : []
}

const num = (value: unknown): number | null =>
  typeof value === 'number' && Number.isFinite(value) ? value : null

/** The bench case whose name holds `name` at `size` (the first one). */
function benchCase(latest: Latest, key: string, name: string, size: number): BenchResult | null {
  const found = rowsOf(latest, key).find(
    (row) => typeof row.name === 'string' && row.name.includes(name) && row.size === size,
  )
  return (found as BenchResult | undefined) ?? null
}

/** A timed case as a target line. */
function timed(
  latest: Latest,
  key: string,
  name: string,
  size: number,
  head: Pick<SteadyTarget, 'target' | 'what' | 'goal'>,
): SteadyTarget {
  const found = benchCase(latest, key, name, size)
  return {
    ...head,
    size,
    value: found ? found.medianMs : null,
    unit: 'ms',
    stat: 'median',
    n: found ? found.iterations : null,
  }
}

/** A field of the row of `key` whose `sizeField` is `size`. */
function field(
  latest: Latest,
  key: string,
  sizeField: string,
  size: number,
  name: string,
): { value: number | null; row: Row | null } {
  const row = rowsOf(latest, key).find((r) => r[sizeField] === size) ?? null
  return { value: row ? num(row[name]) : null, row }
}

function serverLoop(latest: Latest): SteadyTarget[] {
  return SIZES.flatMap((size) => {
    const max = field(latest, 'serverLoop', 'guests', size, 'loopMaxMs')
    const cycles = max.row ? num(max.row.cycles) : null
    const health = field(latest, 'serverLoop', 'guests', size, 'healthP99Ms')
    const healthN = health.row ? num(health.row.healthRequests) : null
    const rss = field(latest, 'serverLoop', 'guests', size, 'rssMaxMiB')
    return [
      {
        target: '1 loop',
        what: 'server event loop, longest block',
        size,
        value: max.value,
        unit: 'ms',
        stat: 'max',
        n: cycles,
        goal: 50,
      },
      {
        target: '1 loop',
        what: '/api/health while polling',
        size,
        value: health.value,
        unit: 'ms',
        stat: 'p99',
        n: healthN,
        goal: 50,
      },
      {
        target: '2 memory',
        what: 'server RSS, peak',
        size,
        value: rss.value,
        unit: 'MiB',
        stat: 'max',
        n: cycles,
        goal: 1024,
      },
    ] satisfies SteadyTarget[]
  })
}

function collector(latest: Latest): SteadyTarget[] {
  const rows = (key: string, topology: string, size: number): SteadyTarget[] => {
    const row = rowsOf(latest, key).find((r) => r.size === size) ?? null
    const cycles = row ? num(row.cycles) : null
    const n = cycles === null ? null : cycles - 1
    const head = { target: '3 collector', size, n, stat: 'median' }
    return [
      {
        ...head,
        what: `one poll cycle against the simulator, ${topology}`,
        value: row ? num(row.medianCycleMs) : null,
        unit: 'ms',
        goal: 1000,
      },
      {
        ...head,
        what: `API calls per cycle, ${topology}`,
        value: row ? num(row.medianCycleCalls) : null,
        unit: 'calls',
        goal: null,
      },
      {
        ...head,
        what: `longest loop hold in a cycle, ${topology}`,
        value: row ? num(row.maxLoopBlockMs) : null,
        unit: 'ms',
        stat: 'max',
        goal: 50,
      },
    ]
  }
  return [
    ...SIZES.flatMap((size) => rows('collector', '2 clusters x 5 nodes', size)),
    ...rows('collectorDemoTopology', '10 clusters x 10 nodes', 100_000),
  ]
}

function alerts(latest: Latest): SteadyTarget[] {
  const head = (what: string) => ({ target: '6 alerts', what, goal: 20 })
  return SIZES.flatMap((size) => [
    timed(latest, 'alerts', '5% cross', size, head('5 % of guests fire')),
    timed(latest, 'alerts', '5% recover', size, head('5 % of guests resolve')),
    timed(latest, 'alertRules', 'no change, 100 rules', size, head('100 custom rules, steady')),
    timed(latest, 'alertBackups', '(fire)', size, head('backup kinds, 5 % over age fire')),
  ])
}

function notify(latest: Latest): SteadyTarget[] {
  return [1_000, 10_000].map((size) => {
    const plan = benchCase(latest, 'notify', 'enqueue', size)
    const claim = benchCase(latest, 'notify', 'claim', size)
    return {
      target: '7 notify',
      what: 'storm to 3 destinations: plan + store + claim (size = alerts)',
      size,
      value: plan && claim ? plan.medianMs + claim.medianMs : null,
      unit: 'ms',
      stat: 'median',
      n: plan && claim ? Math.min(plan.iterations, claim.iterations) : null,
      goal: 200,
    }
  })
}

function webNode(latest: Latest): SteadyTarget[] {
  return SIZES.flatMap((size) => {
    const latency = field(latest, 'webFanout', 'size', size, 'latencyMedianMs')
    const resync = field(latest, 'webFanout', 'size', size, 'resyncLoopBlockMaxMs')
    const block: SteadyTarget = {
      target: '8 web node',
      what: "collector's loop while a web node resyncs, longest block",
      size,
      value: resync.value,
      unit: 'ms',
      stat: 'max',
      n: resync.value === null ? null : 1,
      goal: 50,
    }
    const publish: SteadyTarget = {
      target: '8 web node',
      what: 'publish to a browser behind a web node',
      size,
      value: latency.value,
      unit: 'ms',
      stat: 'median',
      n: latency.row ? num(latency.row.latencyRounds) : null,
      goal: 100,
    }
    return [publish, block]
  })
}

/** The live browser figures of one size (browser100k.live[size]), or null. */
function browserLive(latest: Latest, size: number): Row | null {
  const browser = latest.browser100k as { live?: Record<string, Row> } | undefined
  return browser?.live?.[String(size)] ?? null
}

function typing(latest: Latest): SteadyTarget[] {
  const target = '4 typing'
  const structural = SIZES.map((size) =>
    timed(latest, 'storeMerge', 'structural tick: merge + view', size, {
      target,
      what: 'structural tick (guest added/removed): merge + view',
      goal: 20,
    }),
  )
  const browser = SIZES.flatMap((size): SteadyTarget[] => {
    const live = browserLive(latest, size)
    const steady = (live?.steady ?? null) as Row | null
    const typed = (live?.typing ?? null) as Row | null
    const tasks = (steady?.longTasks ?? null) as Row | null
    if (!live) return []
    const row = (
      what: string,
      value: unknown,
      unit: SteadyTarget['unit'],
      stat: string,
      n: unknown,
      goal: number,
    ): SteadyTarget => ({ target, what, size, value: num(value), unit, stat, n: num(n), goal })
    return [
      row(
        'metrics frame applied in Chromium (worker)',
        steady?.applyMetricsMedianMs,
        'ms',
        'median',
        steady?.applyMetricsN,
        16,
      ),
      row(
        'keystroke to rows painted, cycles arriving',
        typed?.keyToPaintP95Ms,
        'ms',
        'p95',
        typed?.keysWithPaint,
        100,
      ),
      row(
        'main-thread tasks over 50 ms, steady state',
        tasks?.over50ms,
        'tasks',
        `in ${Math.round((num(steady?.ms) ?? 0) / 1000)} s`,
        tasks?.count,
        1,
      ),
    ]
  })
  return [...structural, ...browser]
}

function backups(latest: Latest): SteadyTarget[] {
  const change = [...SIZES, 1_000_000].map((size) =>
    timed(latest, 'backups', '1 % of records changed', size, {
      target: '5 backups',
      what: '1 % of backup records changed, Backups view (size = records)',
      goal: 100,
    }),
  )
  const coverage = SIZES.map((size) =>
    timed(latest, 'backupCoverage', '1 % of rows replaced', size, {
      target: '5 backups',
      what: '1 % of guest summaries changed, coverage view',
      goal: 100,
    }),
  )
  const heap = field(latest, 'backupsHeap', 'records', 1_000_000, 'heapUsedMB')
  const heapLine: SteadyTarget = {
    target: '5 backups',
    what: 'worker heap, backups loaded and the Backups tab computed (size = records)',
    size: 1_000_000,
    value: heap.value,
    unit: 'MB',
    stat: 'after GC',
    n: heap.value === null ? null : 1,
    goal: 500,
  }
  return [...change, ...coverage, heapLine]
}

/** The acceptance run (`health-watch`): the demo for minutes, `/api/health` and RSS each second. */
function healthWatch(latest: Latest): SteadyTarget[] {
  return SIZES.flatMap((size) => {
    const row = rowsOf(latest, 'healthWatch').find((r) => r.guests === size) ?? {}
    const n = num(row.samples)
    const minutes = num(row.minutes)
    const stat = (s: string) => (minutes === null ? s : `${s}, ${minutes} min`)
    return [
      {
        target: '1 loop',
        what: '/api/health every second, demo (acceptance: < 250 ms every time)',
        size,
        value: num(row.healthMaxMs),
        unit: 'ms',
        stat: stat('max'),
        n,
        goal: 250,
      },
      {
        target: '1 loop',
        what: '/api/health every second, demo',
        size,
        value: num(row.healthP99Ms),
        unit: 'ms',
        stat: stat('p99'),
        n,
        goal: 50,
      },
      {
        target: '2 memory',
        what: 'server RSS, demo (acceptance: < 1.5 GiB)',
        size,
        value: num(row.rssMaxMiB),
        unit: 'MiB',
        stat: stat('max'),
        n,
        goal: 1536,
      },
    ] satisfies SteadyTarget[]
  })
}

/** The server's per-guest backup summaries over 1,000,000 records (`coverage`). */
function summaries(latest: Latest): SteadyTarget[] {
  return SIZES.flatMap((size) => {
    const change = benchCase(latest, 'coverage', '1 % new backups', size) as Row | null
    const memory = rowsOf(latest, 'coverage').find((r) => r.name === 'memory' && r.size === size)
    const n = change ? num(change.iterations) : null
    return [
      {
        target: '5 backups',
        what: 'server summaries, 1 % new backups of 1,000,000 (CPU)',
        size,
        value: change ? num(change.cpuMedianMs) : null,
        unit: 'ms',
        stat: 'median',
        n,
        goal: 100,
      },
      {
        target: '1 loop',
        what: 'server summaries, 1 % new backups: longest slice',
        size,
        value: change ? num(change.longestSliceMs) : null,
        unit: 'ms',
        stat: 'max',
        n,
        goal: 50,
      },
      {
        target: '2 memory',
        what: 'server summaries: builder bytes per backup record',
        size,
        value: memory ? num(memory.bytesPerRecord) : null,
        unit: 'B',
        stat: 'after GC',
        n: memory ? 1 : null,
        goal: null,
      },
    ] satisfies SteadyTarget[]
  })
}

const obj = (value: unknown): Row => (value && typeof value === 'object' ? (value as Row) : {})

/** Target 9 from `hour` (one run at its size). */
function hour(latest: Latest): SteadyTarget[] {
  const h = obj(latest.hour)
  const size = num(h.guests) ?? 100_000
  const health = obj(h.health)
  const head = { target: '9 hour', size }
  const curve = (name: string, what: string, unit: SteadyTarget['unit']): SteadyTarget => ({
    ...head,
    what: `${what}, growth per hour after the first tenth`,
    value: num(obj(h[name]).slopePerHour),
    unit,
    stat: `max ${num(obj(h[name]).max) ?? '-'}`,
    n: null,
    goal: null,
  })
  return [
    {
      ...head,
      what: '/api/health every second for the hour',
      value: num(health.maxMs),
      unit: 'ms',
      stat: 'max',
      n: num(health.samples),
      goal: 250,
    },
    curve('serverRssMiB', 'server RSS', 'MiB'),
    curve('workerHeapMB', 'worker heap', 'MB'),
    curve('pageHeapMB', 'page heap', 'MB'),
    {
      ...head,
      what: 'disconnects and full-state frames after the first load',
      value: h.guests === undefined ? null : (num(h.disconnects) ?? 0) + (num(h.resyncFrames) ?? 0),
      unit: 'events',
      stat: 'count',
      n: null,
      goal: 1,
    },
  ]
}

/** Every target of issue 27 that `latest` has a place for. */
export function steadyTargets(latest: Latest): SteadyTarget[] {
  const rows = [
    ...serverLoop(latest),
    ...healthWatch(latest),
    ...summaries(latest),
    ...collector(latest),
    ...typing(latest),
    ...backups(latest),
    ...alerts(latest),
    ...notify(latest),
    ...webNode(latest),
    ...hour(latest),
  ]
  // By target, then each figure (in the order first listed) across the sizes.
  const order = new Map<string, number>()
  for (const row of rows) if (!order.has(row.what)) order.set(row.what, order.size)
  return rows.sort(
    (a, b) =>
      a.target.localeCompare(b.target, 'en', { numeric: true }) ||
      order.get(a.what)! - order.get(b.what)! ||
      a.size - b.size,
  )
}

const verdict = (row: SteadyTarget): string => {
  if (row.value === null) return 'not measured'
  if (row.goal === null) return ''
  return row.value < row.goal ? 'PASS' : `FAIL (${(row.value / row.goal).toFixed(1)}x)`
}

/** Print the targets as one aligned table. */
export function printSteadyTargets(rows: readonly SteadyTarget[]): void {
  const head = ['target', 'what', 'size', 'figure', 'stat', 'N', 'goal', '']
  const cells = rows.map((r) => [
    r.target,
    r.what,
    r.size.toLocaleString('en-US'),
    r.value === null ? '-' : `${r.value.toFixed(r.value < 10 ? 2 : 0)} ${r.unit}`,
    r.stat,
    r.n === null ? '-' : String(r.n),
    r.goal === null ? '' : `< ${r.goal} ${r.unit}`,
    verdict(r),
  ])
  const widths = head.map((h, i) => Math.max(h.length, ...cells.map((row) => row[i]!.length)))
  const line = (row: string[]) =>
    row.map((cell, i) => (i < 2 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ')
  console.log('\nIssue 27: the steady state at 100,000 guests, target by target')
  console.log(line(head))
  console.log(widths.map((w) => '-'.repeat(w)).join('  '))
  for (const row of cells) console.log(line(row))
}
