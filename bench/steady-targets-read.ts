// Reading issue 27's figures out of bench/results/latest.json (steady-targets.ts): one target line
// per figure and size, and the small accessors every target's reader shares.
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

export type Latest = Record<string, unknown>
export type Row = Record<string, unknown>

export const SIZES = [1_000, 10_000, 100_000]

export const rowsOf = (latest: Latest, key: string): Row[] => {
  const value = latest[key]
  return Array.isArray(value) ? (value as Row[]) : []
}

export const num = (value: unknown): number | null =>
  typeof value === 'number' && Number.isFinite(value) ? value : null

/** The bench case whose name holds `name` at `size` (the first one). */
export function benchCase(
  latest: Latest,
  key: string,
  name: string,
  size: number,
): BenchResult | null {
  const found = rowsOf(latest, key).find(
    (row) => typeof row.name === 'string' && row.name.includes(name) && row.size === size,
  )
  return (found as BenchResult | undefined) ?? null
}

/** A timed case as a target line. */
export function timed(
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
export function field(
  latest: Latest,
  key: string,
  sizeField: string,
  size: number,
  name: string,
): { value: number | null; row: Row | null } {
  const row = rowsOf(latest, key).find((r) => r[sizeField] === size) ?? null
  return { value: row ? num(row[name]) : null, row }
}

export const obj = (value: unknown): Row =>
  value && typeof value === 'object' ? (value as Row) : {}
