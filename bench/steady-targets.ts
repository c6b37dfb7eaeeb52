// Issue 27's targets (the steady state at 100,000 guests), read from bench/results/latest.json:
// one line per target and size with the figure, its statistic, N and PASS/FAIL against the goal.
// `npm run bench` prints it after every run (a partial run reads the other benches' last figures);
// a figure no bench has written yet shows as "not measured", never as a pass.
import { collector, healthWatch, serverLoop, summaries } from './steady-targets-server.ts'
import {
  benchCase,
  field,
  num,
  obj,
  SIZES,
  timed,
  type Latest,
  type Row,
  type SteadyTarget,
} from './steady-targets-read.ts'

export type { SteadyTarget } from './steady-targets-read.ts'

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
