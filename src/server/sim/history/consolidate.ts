// Turns a resource's recorded minutes and its synthetic past into the buckets of one RRD answer.
// A bucket [T, T+step) averages what is known inside it: recorded minutes from the rings where they
// cover it, the synthetic curve sampled evenly elsewhere. Like RRD's xff of 0.5, a bucket less than
// half known is a gap (NaN). The bucket still open (it contains now) counts only the time so far.

import { RING_MINUTES } from './ring.ts'
import type { RingSet } from './ring.ts'
import type { ClusterHistory } from './recorder.ts'
import type { Layout } from './layout.ts'
import { bucketTimes } from './layout.ts'
import { hash01 } from '../prng.ts'

/** One resource's history: its ring slot, its synthetic past and how its values behave. */
export interface SeriesSource {
  ring: RingSet | undefined
  slot: number
  /** Expected values at `tSec` into `out`; false when the resource had no data then. */
  synth(tSec: number, out: Float64Array): boolean
  /** Per field: relative noise of a 1-minute synthetic average (shrinks with longer buckets). */
  noise: readonly number[]
  /** Per field: how far above the average the MAX of a 1-minute synthetic bucket reaches. */
  spread: readonly number[]
  /** Per field: the upper bound (cpu 1, mem maxmem, used total). */
  bound: readonly number[]
  seed: number
}

/** AVERAGE and MAX per field and bucket (NaN = gap), with the bucket times. */
export interface Consolidated {
  times: Float64Array
  avg: Float64Array[]
  max: Float64Array[]
}

const NO_HISTORY = { minute: -1, startMinute: 0, stamp: new Float64Array(0) }

// Synthetic samples per bucket: one per 30 minutes, at most 28 (6 h apart: 4 per day, so a week
// bucket averages the daily wave away exactly).
const MAX_SAMPLES = 28

/** Consolidates `src` into the buckets of `layout` ending at the cluster's current time. */
export function consolidate(
  src: SeriesSource,
  history: ClusterHistory | undefined,
  layout: Layout,
  nowSec: number,
): Consolidated {
  const fields = src.noise.length
  const times = bucketTimes(layout, nowSec)
  const avg = Array.from({ length: fields }, () => new Float64Array(layout.points).fill(NaN))
  const max = Array.from({ length: fields }, () => new Float64Array(layout.points).fill(NaN))
  // Without recorded minutes (PBS: its gauges are a pure function of time) all is synthetic.
  const h = history ?? NO_HISTORY
  const coverMinute = Math.max(h.startMinute, h.minute - RING_MINUTES + 2)
  const coverSec = coverMinute * 60
  const sample = new Float64Array(fields)
  const sSum = new Float64Array(fields)
  const sMax = new Float64Array(fields)
  const rSum = new Float64Array(fields)
  const rMax = new Float64Array(fields)
  const step = layout.step
  const calm = Math.sqrt(step / 60)
  for (let b = 0; b < layout.points; b++) {
    const t0 = times[b]!
    const end = Math.min(t0 + step, nowSec + 1)
    if (end <= t0) continue
    sSum.fill(0)
    sMax.fill(-Infinity)
    rSum.fill(0)
    rMax.fill(-Infinity)
    // Synthetic part: [t0, min(end, coverSec)).
    const synthEnd = h.minute < 0 ? end : Math.min(end, coverSec)
    const synthLen = Math.max(0, synthEnd - t0)
    let synthKnown = 0
    if (synthLen > 0) {
      const k = Math.min(MAX_SAMPLES, Math.max(1, Math.round(synthLen / 1800)))
      let alive = 0
      for (let i = 0; i < k; i++) {
        if (!src.synth(t0 + ((i + 0.5) * synthLen) / k, sample)) continue
        alive++
        for (let f = 0; f < fields; f++) sSum[f] = sSum[f]! + sample[f]!
      }
      synthKnown = (synthLen * alive) / k
      if (alive > 0) {
        for (let f = 0; f < fields; f++) {
          const u = hash01(src.seed, t0 / step, f, step) * 2 - 1
          const mean = (sSum[f]! / alive) * (1 + (src.noise[f]! * u) / calm)
          const v = Math.min(src.bound[f]!, Math.max(0, mean))
          sSum[f] = v
          const lift = src.spread[f]! * (0.5 + hash01(src.seed, t0 / step, f + 50, step))
          sMax[f] = Math.min(src.bound[f]!, v * (1 + lift * (1 + Math.log(calm) / 2)))
        }
      }
    }
    // Recorded part: the minutes from max(t0, coverSec) up to now.
    let recKnown = 0
    let recSpan = 0
    if (src.ring !== undefined && h.minute >= 0) {
      const first = Math.floor(Math.max(t0, coverSec) / 60)
      const last = Math.min(Math.floor((end - 1) / 60), h.minute)
      for (let m = first; m <= last; m++) {
        recSpan += 60
        const open = m === h.minute
        const pos = m % RING_MINUTES
        if (!open && h.stamp[pos] !== m) continue
        const a0 = open
          ? src.ring.open(src.slot, 0, false)
          : src.ring.closed(src.slot, pos, 0, false)
        if (Number.isNaN(a0)) continue
        recKnown += 60
        for (let f = 0; f < fields; f++) {
          const a = open
            ? src.ring.open(src.slot, f, false)
            : src.ring.closed(src.slot, pos, f, false)
          const x = open
            ? src.ring.open(src.slot, f, true)
            : src.ring.closed(src.slot, pos, f, true)
          rSum[f] = rSum[f]! + a * 60
          if (x > rMax[f]!) rMax[f] = x
        }
      }
    }
    const known = synthKnown + recKnown
    if (known === 0 || known < 0.5 * (synthLen + recSpan)) continue
    for (let f = 0; f < fields; f++) {
      const mean = (sSum[f]! * synthKnown + rSum[f]!) / known
      avg[f]![b] = mean
      max[f]![b] = Math.max(mean, sMax[f]!, rMax[f]!)
    }
  }
  return { times, avg, max }
}
