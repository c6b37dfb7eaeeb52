// What the UI asks the worker for metrics history (issue 25) and what it answers: the worker
// fetches `/api/history`, downsamples to the chart's pixel width keeping peaks, and hands typed
// arrays over; React only draws. NaN marks a gap (uPlot gets null there).
import type { HistoryMetric, HistoryRange } from '../model/history.ts'

export interface HistoryChartRequest {
  resourceId: string
  range: HistoryRange
  /** Default: every metric of the resource's kind. */
  metrics?: HistoryMetric[]
  /** Chart width in CSS pixels; the worker returns at most about this many points per series. */
  width: number
}

export interface ChartSeriesData {
  /** Unix seconds, ascending. */
  time: Float64Array
  /** NaN where the source has no sample. */
  avg: Float64Array
  /** The peak per point, where the source keeps one. */
  max?: Float64Array
}

export interface HistoryChartData {
  resourceId: string
  range: HistoryRange
  stepSeconds: number
  source: 'proxmox' | 'pulse' | 'mixed'
  series: Partial<Record<HistoryMetric, ChartSeriesData>>
}

export interface TrendRequest {
  ids: string[]
  /** cpu for guests and nodes, usage for storage. */
  metric: HistoryMetric
  /** Sparkline width in CSS pixels. */
  width: number
}

/** One sparkline per id that has data; ids without are left out. */
export type TrendData = Record<string, ChartSeriesData>
