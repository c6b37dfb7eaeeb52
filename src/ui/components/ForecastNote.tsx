// "Full in N days" beside a usage bar (issue 25 item 4); nothing when there is no forecast.
import type { ForecastText } from '../../shared/views/storage-forecast.ts'

/** The forecast's text with its method in the title; renders nothing for null. */
export function ForecastNote({ forecast }: { forecast: ForecastText | null }) {
  if (!forecast) return null
  return (
    <span
      data-testid="forecast"
      title={forecast.title}
      className="text-[11px] whitespace-nowrap text-amber-700 dark:text-amber-300"
    >
      {forecast.text}
    </span>
  )
}
