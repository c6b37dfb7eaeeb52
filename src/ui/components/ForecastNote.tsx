// "Full in N days" beside a usage bar (issue 25 item 4); nothing when there is no forecast.
import type { Colour } from '../../shared/format/thresholds.ts'
import type { ForecastText } from '../../shared/views/storage-forecast.ts'
import { UsageBar } from './UsageBar.tsx'

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

/** What a storage or datastore row carries for its usage bar (StoragePoolRow, DatastoreRow). */
export interface UsageWithForecastRow {
  usage: number
  usageColour: Colour
  usageText: string
  /** 'used / total', the bar's title. */
  usageDetail: string
  forecast: ForecastText | null
}

/** A storage's usage bar with its forecast beside it. */
export function UsageWithForecast({ row }: { row: UsageWithForecastRow }) {
  return (
    <div className="flex items-center gap-2">
      <UsageBar
        label="Usage"
        percent={row.usage}
        colour={row.usageColour}
        text={row.usageText}
        title={row.usageDetail}
      />
      <ForecastNote forecast={row.forecast} />
    </div>
  )
}
