// Metrics history (issue 25): the ranges, metrics and answers of `/api/history`, shared by the
// server (which reads Proxmox RRD and its own recent store), the worker (which downsamples) and
// the UI (which draws). Values are in the units the tables use: percentages 0-100, bytes,
// bytes per second, load as a number, temperature in °C.

/** The chart ranges, shortest first. */
export const HISTORY_RANGES = ['1h', '6h', '24h', '7d', '30d', '1y'] as const
export type HistoryRange = (typeof HISTORY_RANGES)[number]

/** Seconds each range spans, ending now. */
export const RANGE_SECONDS: Readonly<Record<HistoryRange, number>> = {
  '1h': 3_600,
  '6h': 6 * 3_600,
  '24h': 86_400,
  '7d': 7 * 86_400,
  '30d': 30 * 86_400,
  '1y': 365 * 86_400,
}

/** The Proxmox RRD `timeframe` each range is read from (the smallest that covers it). */
export const RANGE_TIMEFRAME: Readonly<
  Record<HistoryRange, 'hour' | 'day' | 'week' | 'month' | 'year'>
> = {
  '1h': 'hour',
  '6h': 'day',
  '24h': 'day',
  '7d': 'week',
  '30d': 'month',
  '1y': 'year',
}

/** What a history resource id names (see resourceKindOf). */
export type HistoryResourceKind = 'guest' | 'node' | 'storage' | 'pbs' | 'datastore'

/**
 * The metrics each kind of resource has, in chart order. Units: cpu, memory, disk, iowait,
 * usage in percent; used/total in bytes; netin/netout/diskread/diskwrite in bytes per second;
 * load is the 1-minute load average; temperature in °C (only our own store has it).
 */
export const HISTORY_METRICS = {
  guest: ['cpu', 'memory', 'disk', 'diskread', 'diskwrite', 'netin', 'netout'],
  node: ['cpu', 'memory', 'disk', 'load', 'iowait', 'netin', 'netout', 'temperature'],
  storage: ['usage', 'used', 'total'],
  pbs: ['cpu', 'memory'],
  datastore: ['usage', 'used', 'total'],
} as const satisfies Record<HistoryResourceKind, readonly string[]>

export type HistoryMetric = (typeof HISTORY_METRICS)[HistoryResourceKind][number]

/** Every metric name any kind has. */
export const ALL_HISTORY_METRICS: readonly HistoryMetric[] = [
  ...new Set(Object.values(HISTORY_METRICS).flat()),
]

/** One metric over time: `time` in unix seconds, ascending; a missing sample is null (a gap). */
export interface HistorySeries {
  time: number[]
  avg: (number | null)[]
  /** The peak of each step, where the source keeps one (Proxmox RRD MAX). */
  max?: (number | null)[]
}

/**
 * The answer of `GET /api/history/{resourceId}?range=…[&metrics=…]`. `stepSeconds` is the
 * smallest step of the answer (Proxmox may mix steps after an upgrade; use each time).
 * `source` says where the points came from: the Proxmox RRD, our own recent store, or both
 * (RRD first, then our points newer than the RRD's last one).
 */
export interface HistoryAnswer {
  resourceId: string
  range: HistoryRange
  stepSeconds: number
  source: 'proxmox' | 'pulse' | 'mixed'
  series: Partial<Record<HistoryMetric, HistorySeries>>
}

/**
 * The answer of `GET /api/history?id=…&id=…&range=1h&metrics=cpu` (the trend column): one entry
 * per known id, in the order asked; unknown ids are left out.
 */
export interface HistoryBatchAnswer {
  range: HistoryRange
  items: HistoryAnswer[]
}

/** Ids one batch may ask for. */
export const HISTORY_BATCH_MAX = 200

/**
 * "Full in N days" for a storage or PBS datastore (issue 25 item 4), from a least-squares line
 * through the last 30 days of `used`. Present only when the usage is rising steadily enough to
 * say; absent when flat, falling, too noisy or too short.
 */
export interface StorageForecast {
  /** Days until `used` reaches `total` at the fitted rate, rounded down, at least 0. */
  fullInDays: number
  /** Epoch ms of that moment. */
  fullAt: number
  /** Fitted growth in bytes per day. */
  bytesPerDay: number
  /** Coefficient of determination of the fit, 0-1. */
  r2: number
  /** Epoch ms the forecast was computed. */
  computedAt: number
}

/** The resource id of a PBS datastore: `${pbsInstanceId}:${datastoreName}`. */
export function datastoreResourceId(pbsId: string, datastore: string): string {
  return `${pbsId}:${datastore}`
}

/** The page of a resource in the UI, optionally centred on an epoch-ms moment (an alert). */
export function resourcePagePath(kind: HistoryResourceKind, id: string, atMs?: number): string {
  const base =
    kind === 'guest' ? '/guests' : kind === 'node' ? '/nodes' : kind === 'pbs' ? '/pbs' : '/storage'
  const at = atMs === undefined ? '' : `?at=${Math.floor(atMs / 1000)}`
  return `${base}/${encodeURIComponent(id)}${at}`
}

/** True when `value` is one of HISTORY_RANGES. */
export function isHistoryRange(value: unknown): value is HistoryRange {
  return typeof value === 'string' && (HISTORY_RANGES as readonly string[]).includes(value)
}
