// Joins the Proxmox RRD (the truth for what it keeps) with our own recent store's minutes (what
// only we have: the minutes after the source's last row, and metrics Proxmox does not keep).
import type { HistoryMetric, HistorySeries } from '../../shared/model/history.ts'
import { smallestStep } from './rrd-normalise.ts'

type SeriesMap = Partial<Record<HistoryMetric, HistorySeries>>

/**
 * The source's series, each followed by the recent minutes newer than the source's last row;
 * metrics the source lacks come from the recent store alone. When the recent minutes start more
 * than two steps after the source's last row, a null row marks the void, so a chart never draws
 * a line across it. `appended` is true when any recent point was used.
 */
export function mergeRecent(
  source: SeriesMap,
  sourceStep: number,
  sourceLast: number,
  recent: SeriesMap | undefined,
  metrics: readonly HistoryMetric[],
): { series: SeriesMap; appended: boolean } {
  const series: SeriesMap = {}
  let appended = false
  for (const metric of metrics) {
    const own = source[metric]
    const extra = recent?.[metric]
    if (!own) {
      if (extra && extra.time.length) {
        series[metric] = extra
        appended = true
      }
      continue
    }
    if (!extra) {
      series[metric] = own
      continue
    }
    let from = 0
    while (from < extra.time.length && extra.time[from]! <= sourceLast) from++
    if (from >= extra.time.length) {
      series[metric] = own
      continue
    }
    appended = true
    const time = own.time.slice()
    const avg = own.avg.slice()
    const max = (own.max ?? own.avg.map(() => null)).slice()
    const firstNew = extra.time[from]!
    if (time.length && firstNew - sourceLast > 2 * Math.max(sourceStep, 60)) {
      time.push(sourceLast + sourceStep)
      avg.push(null)
      max.push(null)
    }
    for (let i = from; i < extra.time.length; i++) {
      time.push(extra.time[i]!)
      avg.push(extra.avg[i] ?? null)
      max.push(extra.max?.[i] ?? null)
    }
    series[metric] = { time, avg, max }
  }
  return { series, appended }
}

/** The smallest step of any series of an answer; 60 when none has two points. */
export function answerStep(series: SeriesMap): number {
  let step = Infinity
  for (const s of Object.values(series)) {
    if (s.time.length > 1) step = Math.min(step, smallestStep(s.time))
  }
  return Number.isFinite(step) ? step : 60
}
