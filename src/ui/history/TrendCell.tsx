// The content of one trend cell (issue 25): the last hour as a sparkline, drawn by the one chart
// component, or a quiet dash while there is no line for the row.
import { memo } from 'react'
import type { ChartSeriesData } from '../../shared/views/history-types.ts'
import { Chart } from '../components/Chart.tsx'

interface Props {
  /** The row's resource id (names the chart for tests and assistive technology). */
  id: string
  /** Row name, for the accessible name. */
  name: string
  series: ChartSeriesData | undefined
  /** What the line is ('CPU', 'Usage'). */
  metricLabel: string
}

/** The sparkline of one row; the same series object keeps the same drawing. */
export const TrendCell = memo(function TrendCell({ id, name, series, metricLabel }: Props) {
  return series ? (
    <Chart
      mode="sparkline"
      line={{ label: metricLabel, time: series.time, avg: series.avg }}
      unit="percent"
      height={20}
      ariaLabel={`${metricLabel} of ${name} over the last hour`}
      testId={`trend-${id}`}
    />
  ) : (
    <span className="block h-5 text-center text-gray-300 dark:text-gray-600" aria-hidden>
      ·
    </span>
  )
})
