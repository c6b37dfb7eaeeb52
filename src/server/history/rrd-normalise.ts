// Proxmox RRD rows (reference/proxmox-api-backups-history.md §5) into our metrics, in the units
// the tables use. Rows are `{time, <ds>…}`; a missing sample is an omitted key and an empty
// bucket is `{time}` alone: both become gaps (NaN here, null on the wire), never zero. Each row
// keeps its own time: after an upgrade one answer can mix two steps.
import {
  HISTORY_METRICS,
  type HistoryMetric,
  type HistoryResourceKind,
  type HistorySeries,
} from '../../shared/model/history.ts'
import type { ResolvedResource } from './resolve.ts'

/** One resource's RRD over a whole timeframe: typed arrays, NaN for a gap. */
export interface RrdFrame {
  time: Float64Array
  metrics: Partial<Record<HistoryMetric, { avg: Float64Array; max: Float64Array }>>
}

type Row = Record<string, unknown>

const num = (row: Row | undefined, key: string): number => {
  const value = row?.[key]
  return typeof value === 'number' && Number.isFinite(value) ? value : NaN
}
const percentOf = (used: number, total: number): number =>
  total > 0 && Number.isFinite(used) ? (used / total) * 100 : NaN

type Reader = (row: Row | undefined, resource: ResolvedResource) => number

const rate =
  (key: string): Reader =>
  (row) =>
    num(row, key)
const fraction =
  (key: string): Reader =>
  (row) =>
    num(row, key) * 100
const ratio =
  (used: string, total: string): Reader =>
  (row) =>
    percentOf(num(row, used), num(row, total))

/** How each metric is read from a row, per kind (HISTORY_METRICS units). */
const READERS: Record<HistoryResourceKind, Partial<Record<HistoryMetric, Reader>>> = {
  guest: {
    cpu: fraction('cpu'),
    memory: ratio('mem', 'maxmem'),
    // A VM's `disk` is always 0 in PVE (it cannot see inside the guest): unknown, not empty.
    disk: (row, r) =>
      r.kind === 'guest' && r.type === 'qemu' && num(row, 'disk') === 0
        ? NaN
        : percentOf(num(row, 'disk'), num(row, 'maxdisk')),
    diskread: rate('diskread'),
    diskwrite: rate('diskwrite'),
    netin: rate('netin'),
    netout: rate('netout'),
  },
  node: {
    cpu: fraction('cpu'),
    memory: ratio('memused', 'memtotal'),
    disk: ratio('rootused', 'roottotal'),
    load: rate('loadavg'),
    iowait: fraction('iowait'),
    netin: rate('netin'),
    netout: rate('netout'),
    // temperature: not in Proxmox RRD; only our own recent store has it.
  },
  storage: { usage: ratio('used', 'total'), used: rate('used'), total: rate('total') },
  pbs: { cpu: fraction('cpu'), memory: ratio('memused', 'memtotal') },
  datastore: { usage: ratio('used', 'total'), used: rate('used'), total: rate('total') },
}

/** The metrics of `kind` the Proxmox RRD has. */
export function sourceMetrics(kind: HistoryResourceKind): HistoryMetric[] {
  return HISTORY_METRICS[kind].filter((m) => READERS[kind][m] !== undefined)
}

function rowsOf(data: unknown): Row[] {
  if (!Array.isArray(data)) return []
  return data.filter(
    (row): row is Row =>
      typeof row === 'object' && row !== null && typeof (row as Row).time === 'number',
  )
}

/**
 * Normalises the AVERAGE and MAX answers of one resource (MAX may be absent). Rows are sorted by
 * time; a MAX row is matched by its time.
 */
export function normaliseRrd(
  resource: ResolvedResource,
  average: unknown,
  maximum?: unknown,
): RrdFrame {
  const rows = rowsOf(average).sort((a, b) => (a.time as number) - (b.time as number))
  const maxByTime = new Map<number, Row>()
  for (const row of rowsOf(maximum)) maxByTime.set(row.time as number, row)
  const time = new Float64Array(rows.length)
  rows.forEach((row, i) => (time[i] = row.time as number))
  const metrics: RrdFrame['metrics'] = {}
  for (const metric of sourceMetrics(resource.kind)) {
    const read = READERS[resource.kind][metric]!
    const avg = new Float64Array(rows.length)
    const max = new Float64Array(rows.length)
    rows.forEach((row, i) => {
      avg[i] = read(row, resource)
      max[i] = read(maxByTime.get(row.time as number), resource)
    })
    metrics[metric] = { avg, max }
  }
  return { time, metrics }
}

/** Bytes a frame holds (the cache's size bound). */
export function frameBytes(frame: RrdFrame): number {
  let bytes = frame.time.byteLength
  for (const m of Object.values(frame.metrics)) bytes += m.avg.byteLength + m.max.byteLength
  return bytes
}

const toNullable = (values: Float64Array, from: number, to: number): (number | null)[] => {
  const out = new Array<number | null>(to - from)
  for (let i = from; i < to; i++) {
    const v = values[i]!
    out[i - from] = Number.isNaN(v) ? null : v
  }
  return out
}

/** The frame's rows at or after `sinceSec`, for `metrics`, as wire series; and their step. */
export function cutFrame(
  frame: RrdFrame,
  metrics: readonly HistoryMetric[],
  sinceSec: number,
): { series: Partial<Record<HistoryMetric, HistorySeries>>; stepSeconds: number; last: number } {
  let from = 0
  while (from < frame.time.length && frame.time[from]! < sinceSec) from++
  const to = frame.time.length
  const time = Array.from(frame.time.subarray(from, to))
  const series: Partial<Record<HistoryMetric, HistorySeries>> = {}
  for (const metric of metrics) {
    const m = frame.metrics[metric]
    if (!m) continue
    series[metric] = { time, avg: toNullable(m.avg, from, to), max: toNullable(m.max, from, to) }
  }
  return { series, stepSeconds: smallestStep(time), last: time[time.length - 1] ?? -Infinity }
}

/** The smallest positive step between consecutive times; 60 when fewer than two. */
export function smallestStep(time: readonly number[]): number {
  let step = Infinity
  for (let i = 1; i < time.length; i++) {
    const d = time[i]! - time[i - 1]!
    if (d > 0 && d < step) step = d
  }
  return Number.isFinite(step) ? step : 60
}
