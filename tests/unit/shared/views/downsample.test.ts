// The history downsampler (issue 25): at most `width` points, peaks and gaps survive, one pass.
import { describe, expect, test } from 'vitest'
import { downsampleSeries } from '../../../../src/shared/views/downsample.ts'

function ramp(n: number, value: (i: number) => number, step = 60) {
  const time = new Float64Array(n)
  const avg = new Float64Array(n)
  for (let i = 0; i < n; i++) {
    time[i] = 1_700_000_000 + i * step
    avg[i] = value(i)
  }
  return { time, avg }
}

describe('downsampleSeries', () => {
  test('a series already narrower than the chart comes back as it is', () => {
    const { time, avg } = ramp(50, (i) => i)
    const out = downsampleSeries({ time, avg }, 300)
    expect(Array.from(out.time)).toEqual(Array.from(time))
    expect(Array.from(out.avg)).toEqual(Array.from(avg))
  })

  test('gives at most width points, and a single spike and dip survive', () => {
    const { time, avg } = ramp(100_000, (i) => (i === 31_337 ? 99 : i === 70_001 ? 0 : 10))
    const max = avg.map((v, i) => (i === 50_000 ? 100 : v + 1))
    const out = downsampleSeries({ time, avg, max }, 300)
    expect(out.time.length).toBeLessThanOrEqual(300)
    expect(out.avg.length).toBe(out.time.length)
    expect(out.max!.length).toBe(out.time.length)
    expect(Math.max(...out.avg)).toBe(99)
    expect(Math.min(...out.avg)).toBe(0)
    expect(Array.from(out.time)).toContain(time[31_337])
    expect(Math.max(...out.max!)).toBe(100)
    for (let i = 1; i < out.time.length; i++) expect(out.time[i]).toBeGreaterThan(out.time[i - 1]!)
  })

  test('a gap in the source stays a gap: NaN points where no sample was', () => {
    // Offline from 40,000 to 60,000: every sample there is NaN.
    const { time, avg } = ramp(100_000, (i) => (i >= 40_000 && i < 60_000 ? NaN : 50))
    const out = downsampleSeries({ time, avg, max: avg.slice() }, 200)
    const gapStart = time[40_000]!
    const gapEnd = time[59_999]!
    const inside = Array.from(out.time)
      .map((t, i) => [t, out.avg[i]!, out.max![i]!] as const)
      .filter(([t]) => t >= gapStart && t <= gapEnd)
    expect(inside.length).toBeGreaterThan(0)
    for (const [, a, m] of inside) {
      expect(a).toBeNaN()
      expect(m).toBeNaN()
    }
    // And nothing outside the gap is NaN: the line is whole around it.
    const outside = Array.from(out.avg).filter(
      (_, i) => out.time[i]! < gapStart || out.time[i]! > gapEnd,
    )
    expect(outside.every((v) => v === 50)).toBe(true)
  })

  test('a gap shorter than a pixel still breaks the line', () => {
    const { time, avg } = ramp(10_000, (i) => (i === 5_000 ? NaN : 20))
    const out = downsampleSeries({ time, avg }, 100)
    expect(out.time.length).toBeLessThanOrEqual(100)
    expect(Array.from(out.avg).filter((v) => Number.isNaN(v))).toHaveLength(1)
  })

  test('1,000,000 points: one pass over the samples, peaks kept, width respected', () => {
    const n = 1_000_000
    const { time, avg } = ramp(n, (i) => (i === 777_777 ? 1e9 : i % 100), 1)
    let reads = 0
    // Count reads of the time axis: a linear pass reads each sample a bounded number of times.
    const counted = new Proxy(time, {
      get(target, key) {
        if (typeof key === 'string' && /^\d+$/.test(key)) reads++
        const value = Reflect.get(target, key, target) as unknown
        return typeof value === 'function' ? value.bind(target) : value
      },
    })
    const out = downsampleSeries({ time: counted, avg }, 1_000)
    expect(out.time.length).toBeLessThanOrEqual(1_000)
    expect(Math.max(...out.avg)).toBe(1e9)
    expect(reads).toBeLessThanOrEqual(3 * n)
  })
})
