// "Full in N days" (issue 25 item 4): the storage forecast as the usage bar shows it. Pure.
import type { StorageForecast } from '../model/history.ts'
import { formatBytes } from '../format/bytes.ts'

/** The forecast as shown beside a usage bar: the text and its tooltip. */
export interface ForecastText {
  /** 'full in 12 days', 'full in 1 day', 'full in < 1 day'. */
  text: string
  /** The growth per day and the method, for a title. */
  title: string
}

/** The text of `forecast`, or null when there is none (flat, falling or too noisy). */
export function formatForecast(forecast: StorageForecast | undefined | null): ForecastText | null {
  if (!forecast || !Number.isFinite(forecast.fullInDays) || forecast.fullInDays < 0) return null
  const days = Math.floor(forecast.fullInDays)
  const text = days < 1 ? 'full in < 1 day' : days === 1 ? 'full in 1 day' : `full in ${days} days`
  const growth = formatBytes(Math.max(0, forecast.bytesPerDay))
  const title = `Growing ${growth} per day: a straight-line fit of the last 30 days of usage.`
  return { text, title }
}
