// Issue 27's server targets (1 loop, 2 memory, 3 collector) read from latest.json: server-loop,
// health-watch (the acceptance run), the collector and the server's backup summaries.
import {
  benchCase,
  field,
  num,
  rowsOf,
  SIZES,
  type Latest,
  type Row,
  type SteadyTarget,
} from './steady-targets-read.ts'

export function serverLoop(latest: Latest): SteadyTarget[] {
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

export function collector(latest: Latest): SteadyTarget[] {
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

/** The acceptance run (`health-watch`): the demo for minutes, `/api/health` and RSS each second. */
export function healthWatch(latest: Latest): SteadyTarget[] {
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
export function summaries(latest: Latest): SteadyTarget[] {
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
