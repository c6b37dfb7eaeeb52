// "Full in N days" (issue 25 item 4; README "Storage forecast"): a least-squares line through the
// last 30 days of a storage's `used`, extended to its `total`. Pure. Says nothing rather than
// something doubtful: flat or falling usage, a noisy fit, too few points, too short a span, or
// a date beyond the horizon give no forecast.
import type { StorageForecast } from '../../shared/model/history.ts'

/** The thresholds (README "Storage forecast"). */
export const FORECAST_RULES = {
  /** Days of history the line is fitted through. */
  windowDays: 30,
  /** Fewer samples than this: no forecast. */
  minPoints: 24,
  /** Samples spanning less than this: no forecast. */
  minSpanDays: 3,
  /** Coefficient of determination below this: too noisy to say. */
  minR2: 0.6,
  /** Growth under this share of `total` per year counts as flat. */
  flatShareOfTotalPerYear: 0.01,
  /** A date further than this: no forecast. */
  horizonDays: 365,
} as const

const DAY_S = 86_400

/**
 * The forecast from samples (`time` unix seconds, `used` bytes, null = gap) and the capacity
 * `total` in bytes, at `nowMs`; undefined when the rules above say nothing can be said.
 */
export function forecastStorage(
  time: readonly number[],
  used: readonly (number | null)[],
  total: number,
  nowMs: number,
  rules: typeof FORECAST_RULES = FORECAST_RULES,
): StorageForecast | undefined {
  if (!(total > 0)) return undefined
  const nowS = nowMs / 1000
  const from = nowS - rules.windowDays * DAY_S
  const xs: number[] = []
  const ys: number[] = []
  for (let i = 0; i < time.length; i++) {
    const t = time[i]!
    const y = used[i]
    if (t < from || t > nowS || y === null || y === undefined || !Number.isFinite(y)) continue
    xs.push(t)
    ys.push(y)
  }
  const n = xs.length
  if (n < rules.minPoints) return undefined
  const span = Math.max(...xs) - Math.min(...xs)
  if (span < rules.minSpanDays * DAY_S) return undefined
  // Centred sums: epoch seconds squared would lose precision in doubles.
  let mx = 0
  let my = 0
  for (let i = 0; i < n; i++) {
    mx += xs[i]!
    my += ys[i]!
  }
  mx /= n
  my /= n
  let sxx = 0
  let sxy = 0
  let syy = 0
  for (let i = 0; i < n; i++) {
    const dx = xs[i]! - mx
    const dy = ys[i]! - my
    sxx += dx * dx
    sxy += dx * dy
    syy += dy * dy
  }
  if (sxx === 0 || syy === 0) return undefined
  const slope = sxy / sxx // bytes per second
  const bytesPerDay = slope * DAY_S
  if (bytesPerDay * 365 <= rules.flatShareOfTotalPerYear * total) return undefined
  const r2 = (sxy * sxy) / (sxx * syy)
  if (r2 < rules.minR2) return undefined
  // The fitted line reaches `total` at fullS.
  const fullS = mx + (total - my) / slope
  const days = (fullS - nowS) / DAY_S
  if (days > rules.horizonDays) return undefined
  const fullInDays = Math.max(0, Math.floor(days))
  return {
    fullInDays,
    fullAt: Math.round(Math.max(fullS, nowS) * 1000),
    bytesPerDay,
    r2,
    computedAt: nowMs,
  }
}
