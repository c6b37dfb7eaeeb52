import { useMemo } from 'react'
import { dateGroupLabel, shortDayLabel } from '../../shared/views/backups-dates.ts'
import { getBarColour, type BarColour } from '../../shared/views/backups-format.ts'
import {
  BACKUP_CHART_RANGES,
  type BackupChartData,
  type BackupChartRange,
} from '../../shared/views/backups-types.ts'
import { Chart, ChartLegend, type BarSeries } from '../components/Chart.tsx'
import { BUTTON } from '../components/button-classes.ts'
import { ToggleGroup } from '../components/ToggleGroup.tsx'

/** Spec 000 §9: chart height 128 px (up to 5 grid intervals: Chart, bar mode). */
const CHART_HEIGHT = 128
/** Segment colours (spec 000 §9): snapshots yellow, PVE orange, PBS violet. */
const SEGMENT = { snapshot: '#eab308', pve: '#f97316', pbs: '#8b5cf6' } as const
/** Bar outline by daily count (spec 000 §9): 1-5 blue, 6-10 green, above 10 violet. */
const BAR_STROKE: Record<BarColour, string> = {
  none: 'transparent',
  blue: '#3b82f6',
  green: '#22c55e',
  violet: '#7c3aed',
}
const RANGE_OPTIONS = BACKUP_CHART_RANGES.map((range) => ({
  value: String(range) as `${BackupChartRange}`,
  label: range === 365 ? '1y' : `${range}d`,
}))

interface Props {
  chart: BackupChartData
  today: number
  selectedDay: number | null
  onRange: (range: BackupChartRange) => void
  onSelectDay: (day: number | null) => void
}

/** The available-backups chart (spec 000 §2.4): stacked daily bars drawn by uPlot. */
export function BackupsChart({ chart, today, selectedDay, onRange, onSelectDay }: Props) {
  const total = chart.snapshot.reduce((sum, n, i) => sum + n + chart.pve[i]! + chart.pbs[i]!, 0)
  return (
    <section
      aria-label="Available backups"
      className="rounded-md border border-gray-200 bg-white p-2 dark:border-gray-800 dark:bg-gray-900"
    >
      <div className="mb-1 flex flex-wrap items-center gap-2">
        <h2 className="text-sm font-semibold text-gray-800 dark:text-gray-100">
          Available backups
        </h2>
        <ChartLegend series={SERIES} />
        <div className="ml-auto flex items-center gap-2">
          {selectedDay !== null && (
            <button type="button" className={BUTTON.secondary} onClick={() => onSelectDay(null)}>
              Clear filter
              <span className="text-xs text-gray-500">({dateGroupLabel(selectedDay, today)})</span>
            </button>
          )}
          <ToggleGroup
            label="Chart range"
            value={String(chart.range) as `${BackupChartRange}`}
            options={RANGE_OPTIONS}
            onChange={(value) => onRange(Number(value) as BackupChartRange)}
          />
        </div>
      </div>
      {total === 0 ? (
        <div
          className="flex flex-col items-center justify-center text-center"
          style={{ height: CHART_HEIGHT }}
        >
          <p className="text-sm font-medium text-gray-700 dark:text-gray-200">No backup data</p>
          <p className="text-xs text-gray-500 dark:text-gray-400">
            Adjust filters or expand the time range to see activity.
          </p>
        </div>
      ) : (
        <Plot chart={chart} selectedDay={selectedDay} onSelectDay={onSelectDay} />
      )}
    </section>
  )
}

const SERIES: BarSeries[] = [
  { label: 'Snapshots', fill: SEGMENT.snapshot, outline: (n) => BAR_STROKE[getBarColour(n)] },
  { label: 'PVE', fill: SEGMENT.pve },
  { label: 'PBS', fill: SEGMENT.pbs },
]

interface PlotProps {
  chart: BackupChartData
  selectedDay: number | null
  onSelectDay: (day: number | null) => void
}

/** Cumulative stacks, top segment first: the whole bar, then PVE + PBS, then PBS. */
function Plot({ chart, selectedDay, onSelectDay }: PlotProps) {
  const stacks = useMemo(() => {
    const pvePbs = chart.pve.map((n, i) => n + chart.pbs[i]!)
    return [chart.snapshot.map((n, i) => n + pvePbs[i]!), pvePbs, chart.pbs]
  }, [chart])
  const at = selectedDay === null ? -1 : chart.days.indexOf(selectedDay)
  return (
    <Chart
      mode="bar"
      stacks={stacks}
      series={SERIES}
      height={CHART_HEIGHT}
      labelOf={(i) => {
        const day = chart.days[i]
        return day === undefined ? '' : shortDayLabel(day)
      }}
      labelSpace={60}
      maxBarWidth={24}
      selected={at < 0 ? null : at}
      onPick={(i) => {
        const day = chart.days[i]
        if (day !== undefined) onSelectDay(day)
      }}
      ariaLabel={`Backups per day over the last ${chart.range} days; the busiest day has ${chart.max}. Arrow keys select a day.`}
      testId="backups-chart"
    />
  )
}
