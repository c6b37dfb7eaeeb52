// Which charts a resource's history shows (issue 25): metrics grouped into one chart each, with
// their unit and line labels; the range that holds a moment; the caption of source and step.
import {
  HISTORY_METRICS,
  HISTORY_RANGES,
  RANGE_SECONDS,
  type HistoryMetric,
  type HistoryRange,
  type HistoryResourceKind,
} from '../../shared/model/history.ts'
import type { HistoryChartData } from '../../shared/views/history-types.ts'
import type { ChartLine, ChartUnit } from '../components/Chart.tsx'

/** One chart: a title, a unit and the metrics drawn as its lines. */
export interface MetricGroup {
  id: string
  title: string
  unit: ChartUnit
  lines: readonly { metric: HistoryMetric; label: string }[]
}

/** Every chart, in the order they are shown. */
export const METRIC_GROUPS: readonly MetricGroup[] = [
  { id: 'cpu', title: 'CPU', unit: 'percent', lines: [{ metric: 'cpu', label: 'CPU' }] },
  {
    id: 'memory',
    title: 'Memory',
    unit: 'percent',
    lines: [{ metric: 'memory', label: 'Memory' }],
  },
  { id: 'disk', title: 'Disk', unit: 'percent', lines: [{ metric: 'disk', label: 'Disk' }] },
  {
    id: 'usage',
    title: 'Usage',
    unit: 'percent',
    lines: [{ metric: 'usage', label: 'Usage' }],
  },
  {
    id: 'used',
    title: 'Used / total',
    unit: 'bytes',
    lines: [
      { metric: 'used', label: 'Used' },
      { metric: 'total', label: 'Total' },
    ],
  },
  {
    id: 'diskio',
    title: 'Disk I/O',
    unit: 'rate',
    lines: [
      { metric: 'diskread', label: 'Read' },
      { metric: 'diskwrite', label: 'Write' },
    ],
  },
  {
    id: 'net',
    title: 'Network',
    unit: 'rate',
    lines: [
      { metric: 'netin', label: 'In' },
      { metric: 'netout', label: 'Out' },
    ],
  },
  { id: 'load', title: 'Load', unit: 'number', lines: [{ metric: 'load', label: 'Load' }] },
  {
    id: 'iowait',
    title: 'I/O wait',
    unit: 'percent',
    lines: [{ metric: 'iowait', label: 'I/O wait' }],
  },
  {
    id: 'temperature',
    title: 'Temperature',
    unit: 'celsius',
    lines: [{ metric: 'temperature', label: 'Temperature' }],
  },
]

/** The groups a kind has, limited to `metrics` when given (a group stays if any line is asked). */
export function groupsFor(
  kind: HistoryResourceKind,
  metrics?: readonly HistoryMetric[],
): MetricGroup[] {
  const has = new Set<HistoryMetric>(HISTORY_METRICS[kind])
  const wanted = metrics ? new Set(metrics) : null
  return METRIC_GROUPS.map((group) => ({
    ...group,
    lines: group.lines.filter((l) => has.has(l.metric) && (!wanted || wanted.has(l.metric))),
  })).filter((group) => group.lines.length > 0)
}

/** The metrics the groups draw (what to ask the worker for). */
export function metricsOf(groups: readonly MetricGroup[]): HistoryMetric[] {
  return groups.flatMap((group) => group.lines.map((l) => l.metric))
}

/** The chart lines of `group` in `data`: only series with at least one sample. */
export function linesOf(group: MetricGroup, data: HistoryChartData): ChartLine[] {
  const lines: ChartLine[] = []
  for (const { metric, label } of group.lines) {
    const s = data.series[metric]
    if (!s || !s.avg.some((v) => !Number.isNaN(v))) continue
    lines.push({ label, time: s.time, avg: s.avg, ...(s.max ? { max: s.max } : {}) })
  }
  return lines
}

/** The smallest range whose window (ending `nowSec`) shows `atSec` with a little before it. */
export function rangeHolding(atSec: number, nowSec: number): HistoryRange {
  const ago = Math.max(0, nowSec - atSec)
  // A tenth of the window before the moment, so the chart shows what led up to it.
  return HISTORY_RANGES.find((range) => ago <= RANGE_SECONDS[range] * 0.9) ?? '1y'
}

const SOURCE_TEXT: Record<HistoryChartData['source'], string> = {
  proxmox: 'Proxmox RRD',
  pulse: 'recent polls',
  mixed: 'Proxmox RRD and recent polls',
}

/** '1 min', '30 min', '3 h', '1 d', '1 w'. */
export function stepText(seconds: number): string {
  if (seconds % 604_800 === 0) return `${seconds / 604_800} w`
  if (seconds % 86_400 === 0) return `${seconds / 86_400} d`
  if (seconds % 3_600 === 0) return `${seconds / 3_600} h`
  if (seconds % 60 === 0) return `${seconds / 60} min`
  return `${seconds} s`
}

/** 'Proxmox RRD · step 1 min'. */
export function captionOf(data: HistoryChartData): string {
  return `${SOURCE_TEXT[data.source]} · step ${stepText(data.stepSeconds)}`
}
