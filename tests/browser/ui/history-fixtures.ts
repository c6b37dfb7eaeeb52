// Realistic history answers for browser tests (issue 25): what the worker hands the UI, typed
// arrays with NaN gaps, with a daily rhythm, a spike and an offline stretch, for every metric of
// the request. The worker's own fetching and downsampling are tested in tests/unit.
import {
  HISTORY_METRICS,
  RANGE_SECONDS,
  type HistoryMetric,
  type HistoryResourceKind,
} from '../../../src/shared/model/history.ts'
import type {
  ChartSeriesData,
  HistoryChartData,
  HistoryChartRequest,
} from '../../../src/shared/views/history-types.ts'

const GIB = 1024 ** 3
const MIB = 1024 ** 2

/** Typical level and swing per metric, in the units the tables use. */
const SHAPE: Record<HistoryMetric, [base: number, swing: number]> = {
  cpu: [22, 15],
  memory: [58, 6],
  disk: [41, 1],
  diskread: [6 * MIB, 5 * MIB],
  diskwrite: [3 * MIB, 2 * MIB],
  netin: [2 * MIB, 1.5 * MIB],
  netout: [1 * MIB, 0.8 * MIB],
  load: [1.4, 0.8],
  iowait: [2, 1.5],
  temperature: [48, 6],
  usage: [67, 2],
  used: [670 * GIB, 20 * GIB],
  total: [1000 * GIB, 0],
}

const PERCENT = new Set<HistoryMetric>(['cpu', 'memory', 'disk', 'iowait', 'usage'])

/** Options: where the offline stretch is (fractions of the range) and the spike. */
export interface FixtureOptions {
  gap?: [from: number, to: number] | null
  spikeAt?: number
  points?: number
}

/** One series ending at `endSec` over `seconds`, `points` long. */
export function fixtureSeries(
  metric: HistoryMetric,
  endSec: number,
  seconds: number,
  { gap = [0.42, 0.47], spikeAt = 0.8, points = 300 }: FixtureOptions = {},
): ChartSeriesData {
  const [base, swing] = SHAPE[metric]
  const time = new Float64Array(points)
  const avg = new Float64Array(points)
  const max = new Float64Array(points)
  const start = endSec - seconds
  for (let i = 0; i < points; i++) {
    const t = start + (seconds * i) / (points - 1)
    const f = i / (points - 1)
    time[i] = t
    const rhythm = Math.sin((t / 86_400) * 2 * Math.PI) * 0.6 + Math.sin(i * 0.37) * 0.4
    let value = Math.max(0, base + swing * rhythm)
    // A short spike (CPU to about 84 %), not on the flat size lines.
    if (Math.abs(f - spikeAt) < 0.01 && metric !== 'total' && metric !== 'used')
      value = PERCENT.has(metric) ? Math.min(97, base * 3.8) : base * 3.8
    if (gap && f >= gap[0] && f <= gap[1]) value = NaN
    avg[i] = value
    max[i] = Number.isNaN(value) ? NaN : value * 1.18
  }
  return metric === 'total' || metric === 'used' || metric === 'usage'
    ? { time, avg }
    : { time, avg, max }
}

/** The fake worker's `historyAnswer`: every metric asked (or of `kind`), ending now. */
export function fixtureAnswer(kind: HistoryResourceKind, options: FixtureOptions = {}) {
  return (request: HistoryChartRequest): Promise<HistoryChartData> => {
    const endSec = Math.floor(Date.now() / 1000)
    const metrics = request.metrics ?? [...HISTORY_METRICS[kind]]
    const series: HistoryChartData['series'] = {}
    for (const metric of metrics) {
      series[metric] = fixtureSeries(metric, endSec, RANGE_SECONDS[request.range], options)
    }
    return Promise.resolve({
      resourceId: request.resourceId,
      range: request.range,
      stepSeconds: request.range === '1h' ? 60 : 1_800,
      source: request.range === '1h' ? 'mixed' : 'proxmox',
      series,
    })
  }
}
