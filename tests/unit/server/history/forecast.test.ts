// "Full in N days" (issue 25 item 4): a least-squares line through 30 days of `used`, and nothing
// when the usage is flat, falling, noisy, too short or too far out.
import { describe, expect, it } from 'vitest'
import { FORECAST_RULES, forecastStorage } from '../../../../src/server/history/forecast.ts'

const DAY = 86_400
const NOW_MS = 1_785_000_000_000
const NOW_S = NOW_MS / 1000
const TB = 1e12

/** `days` of samples every 30 minutes (the month RRD's step) ending now, used from `at(day)`. */
function samples(days: number, at: (day: number, i: number) => number | null) {
  const step = 1800
  const count = Math.floor((days * DAY) / step)
  const time = Array.from({ length: count }, (_, i) => NOW_S - (count - 1 - i) * step)
  const used = time.map((t, i) => at((t - NOW_S) / DAY, i))
  return { time, used }
}

describe('forecastStorage', () => {
  it('gives the days until full for a steady rise', () => {
    // 605 GB used now of 1 TB, growing 10 GB a day: full in 39.5 days.
    const { time, used } = samples(30, (d) => 605e9 + d * 10e9)
    const f = forecastStorage(time, used, TB, NOW_MS)!
    expect(f.fullInDays).toBe(39)
    expect(f.bytesPerDay).toBeCloseTo(10e9, -3)
    expect(f.r2).toBeCloseTo(1, 6)
    expect(Math.abs(f.fullAt - (NOW_MS + 39.5 * DAY * 1000))).toBeLessThan(1000)
    expect(f.computedAt).toBe(NOW_MS)
  })

  it('keeps a steady rise with daily noise and gaps', () => {
    const { time, used } = samples(30, (d, i) =>
      i % 17 === 0 ? null : 500e9 + d * 5e9 + Math.sin(i) * 3e9,
    )
    const f = forecastStorage(time, used, TB, NOW_MS)!
    expect(f.fullInDays).toBeGreaterThanOrEqual(98)
    expect(f.fullInDays).toBeLessThanOrEqual(101)
  })

  it('says nothing for flat usage', () => {
    const { time, used } = samples(30, () => 400e9)
    expect(forecastStorage(time, used, TB, NOW_MS)).toBeUndefined()
    // A rise under 1 % of the capacity a year is flat too.
    const slow = samples(30, (d) => 400e9 + d * 20e6)
    expect(forecastStorage(slow.time, slow.used, TB, NOW_MS)).toBeUndefined()
  })

  it('says nothing for falling usage', () => {
    const { time, used } = samples(30, (d) => 400e9 - d * 5e9)
    expect(forecastStorage(time, used, TB, NOW_MS)).toBeUndefined()
  })

  it('says nothing when the fit is noisy', () => {
    // A small rise under large swings: r² far below the threshold.
    const { time, used } = samples(30, (d, i) => 400e9 + d * 1e9 + ((i * 7919) % 13) * 20e9)
    expect(forecastStorage(time, used, TB, NOW_MS)).toBeUndefined()
  })

  it('says nothing with too few points, too short a span, or a date past the horizon', () => {
    const short = samples(FORECAST_RULES.minSpanDays - 1, (d) => 600e9 + d * 10e9)
    expect(forecastStorage(short.time, short.used, TB, NOW_MS)).toBeUndefined()
    const sparse = samples(30, (d, i) => (i % 100 === 0 ? 600e9 + d * 10e9 : null))
    expect(sparse.used.filter((v) => v !== null).length).toBeLessThan(FORECAST_RULES.minPoints)
    expect(forecastStorage(sparse.time, sparse.used, TB, NOW_MS)).toBeUndefined()
    // 100 GB used, 0.5 GB a day: over four years away.
    const far = samples(30, (d) => 100e9 + d * 0.5e9)
    expect(forecastStorage(far.time, far.used, TB, NOW_MS)).toBeUndefined()
  })

  it('says 0 days for a storage already past its capacity on the line', () => {
    const { time, used } = samples(30, (d) => 1.01e12 + d * 10e9)
    expect(forecastStorage(time, used, TB, NOW_MS)?.fullInDays).toBe(0)
  })
})
