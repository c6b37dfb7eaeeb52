// One resource's metrics history (issue 25): range buttons, then one chart per metric group
// (CPU, memory, disk, I/O, network, load, ...), full width and stacked on a phone, two columns
// on a wide screen. The worker fetches and downsamples; this only lays out and draws.
import { useLayoutEffect, useMemo, useRef, useState } from 'react'
import {
  HISTORY_RANGES,
  RANGE_SECONDS,
  type HistoryMetric,
  type HistoryRange,
  type HistoryResourceKind,
} from '../../shared/model/history.ts'
import type { HistoryChartData } from '../../shared/views/history-types.ts'
import { Chart, type ChartBand } from '../components/Chart.tsx'
import { ToggleGroup } from '../components/ToggleGroup.tsx'
import {
  captionOf,
  groupsFor,
  linesOf,
  metricsOf,
  rangeHolding,
  type MetricGroup,
} from './metric-groups.ts'
import { useHistory } from './useHistory.ts'

export interface HistoryPanelProps {
  resourceId: string
  /** What to call the resource (the panel's accessible name); default the id. */
  title?: string
  kind: HistoryResourceKind
  /** Only these metrics' charts; default every metric of the kind. */
  metrics?: HistoryMetric[]
  /** Default 1h, or the smallest range that shows `atSec`. */
  initialRange?: HistoryRange
  /** A moment to mark (unix s), e.g. an alert's start. */
  atSec?: number
  /** Shaded windows (alert occurrences), drawn on every chart of the panel. */
  bands?: readonly ChartBand[]
  /** Smaller charts (inside a table row). */
  compact?: boolean
}

const RANGE_OPTIONS = HISTORY_RANGES.map((range) => ({ value: range, label: range }))

/** Widths asked of the worker move in steps: a resize by a few pixels needs no new fetch. */
const WIDTH_STEP = 400

/** Chart heights (the plot; uPlot's legend adds a line below). */
const HEIGHT = { normal: 140, compact: 100 } as const
/** A chart card: title, plot and legend; the loading box keeps this height so nothing jumps. */
const CARD_HEIGHT = { normal: 206, compact: 166 } as const

/** Charts of one resource over a chosen range. */
export function HistoryPanel(props: HistoryPanelProps) {
  const { resourceId, title = resourceId, kind, metrics, atSec, bands, compact = false } = props
  const [range, setRange] = useState<HistoryRange>(
    () =>
      props.initialRange ??
      (atSec !== undefined ? rangeHolding(atSec, Math.floor(Date.now() / 1000)) : '1h'),
  )
  const box = useRef<HTMLDivElement>(null)
  const [width, setWidth] = useState(0)
  useLayoutEffect(() => {
    const el = box.current
    if (!el) return
    const measure = () =>
      setWidth(Math.max(WIDTH_STEP, Math.ceil(el.clientWidth / WIDTH_STEP) * WIDTH_STEP))
    measure()
    const observer = new ResizeObserver(measure)
    observer.observe(el)
    return () => observer.disconnect()
  }, [])
  const metricsKey = metrics?.join(',') ?? ''
  const groups = useMemo(
    () => groupsFor(kind, metricsKey ? (metricsKey.split(',') as HistoryMetric[]) : undefined),
    [kind, metricsKey],
  )
  const wanted = useMemo(() => metricsOf(groups), [groups])
  const state = useHistory(resourceId, range, wanted, width)
  const size = compact ? 'compact' : 'normal'

  return (
    <section
      ref={box}
      aria-label={`History of ${title}`}
      data-testid="history-panel"
      className="@container min-w-0 space-y-2"
    >
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <ToggleGroup
          label="History range"
          value={range}
          options={RANGE_OPTIONS}
          onChange={setRange}
        />
        <span className="text-xs text-gray-500 dark:text-gray-400" data-testid="history-caption">
          {state.data && !state.error ? captionOf(state.data) : ''}
          {state.loading && state.data ? ' · updating…' : ''}
        </span>
      </div>
      <Body
        state={state}
        groups={groups}
        range={range}
        size={size}
        atSec={atSec}
        bands={bands}
        resourceId={title}
      />
    </section>
  )
}

interface BodyProps {
  state: ReturnType<typeof useHistory>
  groups: readonly MetricGroup[]
  range: HistoryRange
  size: 'normal' | 'compact'
  atSec?: number
  bands?: readonly ChartBand[]
  resourceId: string
}

function Body({ state, groups, range, size, atSec, bands, resourceId }: BodyProps) {
  const { data, error } = state
  const shown = useMemo(
    () =>
      data
        ? groups
            .map((group) => ({ group, lines: linesOf(group, data) }))
            .filter((g) => g.lines.length)
        : [],
    [data, groups],
  )
  const message = (text: string, role?: 'status' | 'alert') => (
    <p
      role={role}
      className="flex items-center justify-center rounded-md border border-dashed border-gray-300 text-sm text-gray-500 dark:border-gray-700 dark:text-gray-400"
      style={{ height: CARD_HEIGHT[size] }}
    >
      {text}
    </p>
  )
  if (error) return message(error, 'alert')
  if (!data) {
    // The first load: one box per expected chart, each as tall as the chart will be.
    return (
      <div className={GRID} role="status" aria-label="Loading history">
        {groups.map((group) => (
          <div
            key={group.id}
            className="animate-pulse rounded-md bg-gray-100 dark:bg-gray-800/60"
            style={{ height: CARD_HEIGHT[size] }}
          />
        ))}
      </div>
    )
  }
  if (shown.length === 0) return message('No history for this range', 'status')
  return (
    // A lone chart takes the whole width.
    <div className={shown.length === 1 ? 'grid grid-cols-1' : GRID}>
      {shown.map(({ group, lines }) => (
        <MetricChart
          key={group.id}
          group={group}
          lines={lines}
          data={data}
          endSec={state.endSec}
          range={range}
          size={size}
          atSec={atSec}
          bands={bands}
          resourceId={resourceId}
        />
      ))}
    </div>
  )
}

// By the panel's own width (a container query): two columns once it has room for them,
// whatever holds it (a table row, a page).
const GRID = 'grid grid-cols-1 gap-3 @3xl:grid-cols-2'

interface MetricChartProps {
  group: MetricGroup
  lines: ReturnType<typeof linesOf>
  data: HistoryChartData
  endSec: number
  range: HistoryRange
  size: 'normal' | 'compact'
  atSec?: number
  bands?: readonly ChartBand[]
  resourceId: string
}

/** One titled chart of a group. */
function MetricChart({
  group,
  lines,
  endSec,
  range,
  size,
  atSec,
  bands,
  resourceId,
}: MetricChartProps) {
  const xRange = useMemo<[number, number]>(
    () => [endSec - RANGE_SECONDS[range], endSec],
    [endSec, range],
  )
  return (
    <figure
      className="min-w-0 rounded-md border border-gray-200 p-2 dark:border-gray-800"
      style={{ minHeight: CARD_HEIGHT[size] }}
      data-testid={`history-chart-${group.id}`}
    >
      <figcaption className="mb-1 text-xs font-medium text-gray-700 dark:text-gray-300">
        {group.title}
      </figcaption>
      <Chart
        mode="line"
        lines={lines}
        unit={group.unit}
        height={HEIGHT[size]}
        xRange={xRange}
        bands={bands}
        marker={atSec}
        ariaLabel={`${group.title} of ${resourceId} over the last ${range}; drag to zoom, double-click to reset`}
        testId={`history-plot-${group.id}`}
      />
    </figure>
  )
}
