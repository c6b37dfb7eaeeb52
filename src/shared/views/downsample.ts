// Downsampling a history series to a chart's pixel width (issue 25) so that what the eye looks
// for survives: per pixel bucket the lowest and the highest average (min/max, as M4 does), the
// highest peak, and a gap wherever the source had no sample. One pass, O(n); pure.
import type { ChartSeriesData } from './history-types.ts'

/**
 * Points per bucket at most: min, max and one gap marker, so `width / 3` buckets keep the
 * answer at or under `width` points.
 */
const POINTS_PER_BUCKET = 3

/** `series` with at most `width` points; NaN (a gap) stays NaN, never a line drawn through it. */
export function downsampleSeries(series: ChartSeriesData, width: number): ChartSeriesData {
  const { time, avg, max } = series
  const n = time.length
  const limit = Math.max(POINTS_PER_BUCKET, Math.floor(width))
  if (n <= limit) return series
  const buckets = Math.floor(limit / POINTS_PER_BUCKET)
  const t0 = time[0]!
  const span = time[n - 1]! - t0 || 1
  const outTime = new Float64Array(buckets * POINTS_PER_BUCKET)
  const outAvg = new Float64Array(buckets * POINTS_PER_BUCKET)
  const outMax = max ? new Float64Array(buckets * POINTS_PER_BUCKET) : undefined
  let out = 0

  // The bucket being filled: indexes of its lowest and highest average and of its first gap.
  let bucket = -1
  let lo = -1
  let hi = -1
  let gap = -1
  let peak = NaN
  const flush = () => {
    if (bucket < 0) return
    // Emit in time order so the line runs left to right.
    const picks = [lo, hi, gap].filter((i, k, all) => i >= 0 && all.indexOf(i) === k)
    picks.sort((a, b) => a - b)
    for (const i of picks) {
      outTime[out] = time[i]!
      const isGap = i === gap
      outAvg[out] = isGap ? NaN : avg[i]!
      if (outMax) outMax[out] = isGap ? NaN : peak
      out++
    }
  }
  for (let i = 0; i < n; i++) {
    const t = time[i]!
    const b = Math.min(buckets - 1, Math.floor(((t - t0) / span) * buckets))
    if (b !== bucket) {
      flush()
      bucket = b
      lo = hi = gap = -1
      peak = NaN
    }
    const v = avg[i]!
    if (Number.isNaN(v)) {
      if (gap < 0) gap = i
    } else {
      if (lo < 0 || v < avg[lo]!) lo = i
      if (hi < 0 || v > avg[hi]!) hi = i
    }
    if (max) {
      const m = max[i]!
      if (!Number.isNaN(m) && !(m <= peak)) peak = m
    }
  }
  flush()
  return {
    time: outTime.slice(0, out),
    avg: outAvg.slice(0, out),
    ...(outMax ? { max: outMax.slice(0, out) } : {}),
  }
}
