// Summary and table of the dashboard benchmark: the targets of issue 3 checked at 100k guests.
import type { DashboardCaseResult } from './dashboard.ts'
import { REFERENCE_FLOOR_MS, REFERENCE_MS_AT_100K } from './search-set.ts'

/** Targets at 100,000 guests over 1,000 nodes (medians, this 2-core machine). */
export const TARGETS = { viewMs: 16, liveUpdateMs: 40, referenceSpeedup: 5 }

/** The verdicts at the largest size, written to latest.json and printed. */
export interface DashboardSummary {
  size: number
  geomeanViewMs: number
  maxViewMs: number
  maxLiveUpdateMs: number
  geomeanSpeedupVsBaseline: number
  /** Against the reference's quoted times, or its fastest (8 ms) where none is quoted. */
  geomeanSpeedupVsReference: number
  slowestVsReference: { id: string; speedup: number }
  pass: { view: boolean; liveUpdate: boolean; referenceGeomean: boolean; everySearch: boolean }
}

const geomean = (values: number[]) =>
  Math.exp(values.reduce((sum, v) => sum + Math.log(v), 0) / values.length)

/** Summarise the cases of the largest size. */
export function summarise(cases: readonly DashboardCaseResult[]): DashboardSummary {
  const size = Math.max(...cases.map((c) => c.size))
  const at = cases.filter((c) => c.size === size)
  const versus = at.map((c) => ({
    id: c.id,
    speedup: (REFERENCE_MS_AT_100K[c.id] ?? REFERENCE_FLOOR_MS) / c.viewMs,
  }))
  const slowest = versus.reduce((a, b) => (b.speedup < a.speedup ? b : a))
  const maxViewMs = Math.max(...at.map((c) => c.viewMs))
  const maxLiveUpdateMs = Math.max(...at.map((c) => c.liveUpdateMs))
  const geomeanSpeedupVsReference = geomean(versus.map((v) => v.speedup))
  return {
    size,
    geomeanViewMs: geomean(at.map((c) => c.viewMs)),
    maxViewMs,
    maxLiveUpdateMs,
    geomeanSpeedupVsBaseline: geomean(at.map((c) => c.baselineMs / c.viewMs)),
    geomeanSpeedupVsReference,
    slowestVsReference: slowest,
    pass: {
      view: maxViewMs < TARGETS.viewMs,
      liveUpdate: maxLiveUpdateMs < TARGETS.liveUpdateMs,
      referenceGeomean: geomeanSpeedupVsReference >= TARGETS.referenceSpeedup,
      everySearch: slowest.speedup > 1,
    },
  }
}

const HEAD = [
  'guests',
  'search',
  'sort',
  'compile µs',
  'predicate M/s',
  'view M/s',
  'view ms',
  'cold ms',
  'live ms',
  'baseline ms',
]

/** Print the per-search table and the verdicts. */
export function printDashboard(
  cases: readonly DashboardCaseResult[],
  summary: DashboardSummary,
): void {
  const rows = cases.map((c) => [
    c.size.toLocaleString('en-US'),
    c.search ? JSON.stringify(c.search) : '(empty)',
    c.sort,
    c.compileUs.toFixed(1),
    (c.filterGuestsPerSec / 1e6).toFixed(1),
    (c.viewGuestsPerSec / 1e6).toFixed(0),
    c.viewMs.toFixed(2),
    c.coldViewMs.toFixed(1),
    c.liveUpdateMs.toFixed(1),
    c.baselineMs.toFixed(1),
  ])
  const widths = HEAD.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)))
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => (i === 1 || i === 2 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!)))
      .join('  ')
  console.log('\nDashboard: search, filter, sort, group and window (medians)')
  console.log(line(HEAD))
  console.log(widths.map((w) => '-'.repeat(w)).join('  '))
  for (const row of rows) console.log(line(row))
  const mark = (ok: boolean) => (ok ? 'PASS' : 'FAIL')
  const s = summary
  const lines = [
    `${mark(s.pass.view)} full view: slowest ${s.maxViewMs.toFixed(2)} ms (target < ${TARGETS.viewMs}), geomean ${s.geomeanViewMs.toFixed(2)} ms`,
    `${mark(s.pass.liveUpdate)} live update of every guest, merged and re-viewed: slowest ${s.maxLiveUpdateMs.toFixed(1)} ms (target < ${TARGETS.liveUpdateMs})`,
    `${mark(s.pass.referenceGeomean)} vs the reference (quoted times, else its 8 ms fastest): geomean ${s.geomeanSpeedupVsReference.toFixed(1)}x (target >= ${TARGETS.referenceSpeedup}x)`,
    `${mark(s.pass.everySearch)} faster than the reference on every search: least ${s.slowestVsReference.speedup.toFixed(1)}x (${s.slowestVsReference.id})`,
    `     vs the straightforward baseline of bench/baseline.ts: geomean ${s.geomeanSpeedupVsBaseline.toFixed(1)}x`,
  ]
  console.log(`\nAt ${s.size.toLocaleString('en-US')} guests:`)
  for (const text of lines) console.log(`  ${text}`)
}
