import { useEffect, useRef, type KeyboardEvent } from 'react'
import uPlot from 'uplot'
import 'uplot/dist/uPlot.min.css'
import { dateGroupLabel, shortDayLabel } from '../../shared/views/backups-dates.ts'
import { getBarColour, type BarColour } from '../../shared/views/backups-format.ts'
import {
  BACKUP_CHART_RANGES,
  type BackupChartData,
  type BackupChartRange,
} from '../../shared/views/backups-types.ts'
import { BUTTON, FOCUS_RING } from '../components/button-classes.ts'
import { ToggleGroup } from '../components/ToggleGroup.tsx'

/** Spec 000 §9: chart height 128 px, up to 5 grid intervals. */
const CHART_HEIGHT = 128
const MAX_INTERVALS = 5
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

/** Grid lines at a round step so that at most MAX_INTERVALS intervals cover 0..max. */
export function chartSplits(max: number): number[] {
  if (max <= 0) return [0, 1]
  const raw = max / MAX_INTERVALS
  const magnitude = 10 ** Math.floor(Math.log10(raw))
  const step = [1, 2, 5, 10].map((f) => f * magnitude).find((s) => s >= raw && s >= 1) ?? 1
  const top = Math.ceil(max / step) * step
  const splits: number[] = []
  for (let value = 0; value <= top; value += step) splits.push(value)
  return splits
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
        <Legend />
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

function Legend() {
  const item = (colour: string, label: string) => (
    <span className="inline-flex items-center gap-1 text-xs text-gray-600 dark:text-gray-400">
      <span
        aria-hidden
        className="inline-block size-2.5 rounded-sm"
        style={{ background: colour }}
      />
      {label}
    </span>
  )
  return (
    <span className="flex gap-3">
      {item(SEGMENT.snapshot, 'Snapshots')}
      {item(SEGMENT.pve, 'PVE')}
      {item(SEGMENT.pbs, 'PBS')}
    </span>
  )
}

/** Cumulative stacks, top segment first: uPlot draws later series over earlier ones. */
function toPlotData(chart: BackupChartData): uPlot.AlignedData {
  const x = chart.days.map((_, i) => i)
  const pbs = chart.pbs.map((n) => n)
  const pvePbs = chart.pve.map((n, i) => n + pbs[i]!)
  const all = chart.snapshot.map((n, i) => n + pvePbs[i]!)
  return [x, all, pvePbs, pbs]
}

/** Pixels per character of the 10 px axis font, and room for the ticks and the gap. */
const CHAR_WIDTH = 6.5
const AXIS_PADDING = 14

/** A count on the y axis: 2500 as is, 12000 as '12k' so the axis stays narrow. */
function countLabel(n: number): string {
  return n >= 10_000 ? `${Math.round(n / 100) / 10}k` : String(n)
}

interface PlotProps {
  chart: BackupChartData
  selectedDay: number | null
  onSelectDay: (day: number | null) => void
}

/** The uPlot instance: created once per range, fed new data in place. */
function Plot({ chart, selectedDay, onSelectDay }: PlotProps) {
  const box = useRef<HTMLDivElement>(null)
  const plot = useRef<uPlot | null>(null)
  const latest = useRef({ chart, onSelectDay })
  useEffect(() => {
    latest.current = { chart, onSelectDay }
  })

  useEffect(() => {
    const el = box.current
    if (!el) return
    const bars = uPlot.paths.bars!({ size: [0.8, 24], gap: 1 })
    const totals = (u: uPlot) => (u.data[1] ?? []) as (number | null)[]
    const outline = uPlot.paths.bars!({
      size: [0.8, 24],
      gap: 1,
      disp: {
        stroke: {
          unit: 3 as uPlot.Series.BarsPathBuilderFacetUnit,
          values: (u) => totals(u).map((n) => BAR_STROKE[getBarColour(n ?? 0)]),
        },
      },
    })
    const series = (label: string, fill: string, paths = bars): uPlot.Series => ({
      label,
      fill,
      stroke: fill,
      width: 0,
      paths,
      points: { show: false },
    })
    const u = new uPlot(
      {
        width: Math.max(200, el.clientWidth),
        height: CHART_HEIGHT,
        legend: { show: false },
        cursor: { y: false, points: { show: false } },
        scales: {
          // Half a bar of room on each side so the first and last bars are whole.
          x: { time: false, auto: false, range: [-0.5, chart.range - 0.5] },
          y: { range: (_u, _min, max) => [0, chartSplits(max).at(-1)!] },
        },
        axes: [
          {
            values: (_u, splits) =>
              splits.map((i) => {
                const day = latest.current.chart.days[i]
                return day === undefined ? '' : shortDayLabel(day)
              }),
            space: 60,
            size: 24,
            font: '10px sans-serif',
            stroke: '#6b7280',
            grid: { show: false },
          },
          {
            splits: (u) => chartSplits(Math.max(0, ...totals(u).map((n) => n ?? 0))),
            values: (_u, splits) => splits.map(countLabel),
            // Wide enough for the longest label: a fixed width cut '2500' to '500'.
            size: (_u, values) =>
              AXIS_PADDING + CHAR_WIDTH * Math.max(1, ...(values ?? []).map((v) => v.length)),
            font: '10px sans-serif',
            stroke: '#6b7280',
            grid: { stroke: 'rgba(127,127,127,0.15)', width: 1 },
          },
        ],
        series: [
          {},
          { ...series('Snapshots', SEGMENT.snapshot, outline), width: 1 },
          series('PVE', SEGMENT.pve),
          series('PBS', SEGMENT.pbs),
        ],
      },
      toPlotData(chart),
      el,
    )
    // A click on the plot selects the day under the cursor (spec 000 §2.4).
    const onClick = (event: MouseEvent) => {
      // The bar under the pointer, from the click itself rather than the (throttled) cursor.
      const left = event.clientX - u.over.getBoundingClientRect().left
      const index = Math.round(u.posToVal(left, 'x'))
      const { chart: current, onSelectDay: select } = latest.current
      const day = current.days[index]
      if (day !== undefined) select(day)
    }
    u.over.addEventListener('click', onClick)
    u.over.style.cursor = 'pointer'
    plot.current = u
    const resize = new ResizeObserver(() => {
      u.setSize({ width: Math.max(200, el.clientWidth), height: CHART_HEIGHT })
    })
    resize.observe(el)
    return () => {
      resize.disconnect()
      u.over.removeEventListener('click', onClick)
      u.destroy()
      plot.current = null
    }
    // One plot per range: a new range changes the number of bars and the axis.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [chart.range])

  useEffect(() => {
    plot.current?.setData(toPlotData(chart))
  }, [chart])

  // Keyboard: the arrows move the selected day, Home and End jump to the first and last day.
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const days = chart.days
    const at = selectedDay === null ? days.length : days.indexOf(selectedDay)
    let next: number | null = null
    if (event.key === 'ArrowLeft') next = Math.max(0, (at < 0 ? days.length : at) - 1)
    else if (event.key === 'ArrowRight') next = Math.min(days.length - 1, at < 0 ? 0 : at + 1)
    else if (event.key === 'Home') next = 0
    else if (event.key === 'End') next = days.length - 1
    if (next === null) return
    event.preventDefault()
    const day = days[next]
    if (day !== undefined) onSelectDay(day)
  }
  return (
    <div
      ref={box}
      role="img"
      tabIndex={0}
      onKeyDown={onKeyDown}
      aria-keyshortcuts="ArrowLeft ArrowRight Home End"
      aria-label={`Backups per day over the last ${chart.range} days; the busiest day has ${chart.max}. Arrow keys select a day.`}
      data-testid="backups-chart"
      className={`w-full rounded ${FOCUS_RING}`}
    />
  )
}
