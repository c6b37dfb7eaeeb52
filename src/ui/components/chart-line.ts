// The line and sparkline modes of the one chart (Chart.tsx): time on x (unix seconds), the
// average line plus a lighter peak line, gaps as gaps (NaN in, null to uPlot, spanGaps false),
// alert bands drawn under the lines and a marked moment. Pure option building and data shaping;
// Chart owns the uPlot lifecycle.
import uPlot from 'uplot'
import { formatLocalDateTime } from '../../shared/format/date-time.ts'
import {
  AXIS_FONT,
  AXIS_STROKE,
  GRID_STROKE,
  axisSize,
  formatChartValue,
  type ChartUnit,
} from './chart-axes.ts'
import { CHART_BAND_FILL, CHART_COLOURS, CHART_MARKER_STROKE } from './colours.ts'

/** A shaded window on a time chart (an alert occurrence). Unix seconds. */
export interface ChartBand {
  start: number
  end: number
  label: string
  level: 'warning' | 'critical'
}

/** One line: the average, and the peak where the source keeps one. NaN is a gap. */
export interface ChartLine {
  label: string
  /** Unix seconds, ascending. */
  time: Float64Array
  avg: Float64Array
  max?: Float64Array
  /** Default: the next of CHART_COLOURS. */
  colour?: string
}

/** The props of `<Chart mode="line">`. */
export interface LineChartProps {
  mode: 'line'
  lines: readonly ChartLine[]
  unit: ChartUnit
  height: number
  /** The x window to show and to return to on double-click (unix s); default the data's. */
  xRange?: [number, number]
  bands?: readonly ChartBand[]
  /** A moment to mark with a vertical line (unix s). */
  marker?: number
  ariaLabel: string
  testId: string
}

/** The props of `<Chart mode="sparkline">`: one tiny line, no axes, legend or cursor. */
export interface SparklineProps {
  mode: 'sparkline'
  line: ChartLine
  unit: ChartUnit
  height: number
  ariaLabel: string
  testId: string
}

/** NaN (a gap) as null, which uPlot draws as a gap. */
function withGaps(values: Float64Array): (number | null)[] {
  const out = new Array<number | null>(values.length)
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!
    out[i] = Number.isNaN(v) ? null : v
  }
  return out
}

function sameTimes(a: Float64Array, b: Float64Array): boolean {
  if (a === b) return true
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false
  return true
}

/** uPlot's aligned data: time, then per line its average and (if any) its peak. */
export function lineData(lines: readonly ChartLine[]): uPlot.AlignedData {
  const first = lines[0]
  if (!first) return [[]]
  const tables = lines.map((line): uPlot.AlignedData => {
    const cols = [Array.from(line.time), withGaps(line.avg)]
    if (line.max) cols.push(withGaps(line.max))
    return cols as uPlot.AlignedData
  })
  if (lines.every((line) => sameTimes(line.time, first.time))) {
    return [tables[0]![0], ...tables.flatMap((t) => t.slice(1))] as uPlot.AlignedData
  }
  // Different sample times: join on the union of times, keeping nulls as gaps (mode 1).
  return uPlot.join(
    tables,
    tables.map((t) => t.slice(1).map(() => 1 as uPlot.JoinNullMode)),
  )
}

/** The x window: the one asked for, else the data's first and last time. */
export function fullXRange(props: LineChartProps): [number, number] | null {
  if (props.xRange) return props.xRange
  let min = Infinity
  let max = -Infinity
  for (const line of props.lines) {
    if (line.time.length === 0) continue
    min = Math.min(min, line.time[0]!)
    max = Math.max(max, line.time[line.time.length - 1]!)
  }
  return min < max ? [min, max] : null
}

function alpha(hex: string, a: number): string {
  const n = parseInt(hex.slice(1), 16)
  return `rgba(${(n >> 16) & 255}, ${(n >> 8) & 255}, ${n & 255}, ${a})`
}

function lineSeries(lines: readonly ChartLine[], unit: ChartUnit): uPlot.Series[] {
  const value = (_u: uPlot, v: number | null) => formatChartValue(unit, v)
  return lines.flatMap((line, i) => {
    const colour = line.colour ?? CHART_COLOURS[i % CHART_COLOURS.length]!
    const avg: uPlot.Series = {
      label: line.label,
      stroke: colour,
      width: 1.5,
      fill: lines.length === 1 ? alpha(colour, 0.08) : undefined,
      spanGaps: false,
      points: { show: false },
      value,
    }
    if (!line.max) return [avg]
    const peak: uPlot.Series = {
      label: `${line.label} peak`,
      stroke: alpha(colour, 0.45),
      width: 1,
      dash: [4, 3],
      spanGaps: false,
      points: { show: false },
      value,
    }
    return [avg, peak]
  })
}

/** The y range from 0: percent tops out at 100, others get 10 % headroom. */
function yRange(unit: ChartUnit) {
  return (_u: uPlot, _min: number | null, max: number | null): uPlot.Range.MinMax => {
    const top = max !== null && Number.isFinite(max) && max > 0 ? max * 1.1 : 1
    return [0, unit === 'percent' ? Math.min(100, Math.max(top, 1)) : top]
  }
}

/** Shaded bands under the lines and the marked moment, read from the current props. */
function overlayHooks(latest: () => LineChartProps): uPlot.Hooks.Arrays {
  const drawBands = (u: uPlot) => {
    const bands = latest().bands
    if (!bands?.length) return
    const { ctx, bbox } = u
    ctx.save()
    ctx.beginPath()
    ctx.rect(bbox.left, bbox.top, bbox.width, bbox.height)
    ctx.clip()
    ctx.font = `${Math.round(10 * uPlot.pxRatio)}px sans-serif`
    for (const band of bands) {
      const x0 = Math.max(bbox.left, u.valToPos(band.start, 'x', true))
      const x1 = Math.min(bbox.left + bbox.width, u.valToPos(band.end, 'x', true))
      if (!(x1 >= x0)) continue
      ctx.fillStyle = CHART_BAND_FILL[band.level]
      ctx.fillRect(x0, bbox.top, Math.max(x1 - x0, uPlot.pxRatio), bbox.height)
      ctx.fillStyle = AXIS_STROKE
      ctx.fillText(band.label, x0 + 3 * uPlot.pxRatio, bbox.top + 11 * uPlot.pxRatio)
    }
    ctx.restore()
  }
  const drawMarker = (u: uPlot) => {
    const at = latest().marker
    if (at === undefined) return
    const x = u.valToPos(at, 'x', true)
    const { ctx, bbox } = u
    if (x < bbox.left || x > bbox.left + bbox.width) return
    ctx.save()
    ctx.strokeStyle = CHART_MARKER_STROKE
    ctx.lineWidth = uPlot.pxRatio
    ctx.setLineDash([3 * uPlot.pxRatio, 3 * uPlot.pxRatio])
    ctx.beginPath()
    ctx.moveTo(x, bbox.top)
    ctx.lineTo(x, bbox.top + bbox.height)
    ctx.stroke()
    ctx.restore()
  }
  // drawAxes runs before the series: the bands sit under the lines.
  return { drawAxes: [drawBands], draw: [drawMarker] }
}

/** uPlot options for the line mode. Drag selects a window to zoom; double-click goes back. */
export function lineOptions(
  props: LineChartProps,
  latest: () => LineChartProps,
  width: number,
  onReset: (u: uPlot) => void,
): uPlot.Options {
  const { unit } = props
  return {
    width,
    height: props.height,
    legend: { show: true, live: true },
    cursor: {
      y: false,
      drag: { x: true, y: false, setScale: true },
      bind: {
        dblclick: (u) => () => {
          onReset(u)
          return null
        },
      },
    },
    scales: { x: { time: true }, y: { range: yRange(unit) } },
    axes: [
      { font: AXIS_FONT, stroke: AXIS_STROKE, grid: { stroke: GRID_STROKE, width: 1 }, size: 28 },
      {
        values: (_u, splits) => splits.map((v) => formatChartValue(unit, v)),
        space: 24,
        size: axisSize,
        font: AXIS_FONT,
        stroke: AXIS_STROKE,
        grid: { stroke: GRID_STROKE, width: 1 },
      },
    ],
    series: [
      { value: (_u, v) => (v === null ? '' : formatLocalDateTime(v * 1000, false)) },
      ...lineSeries(props.lines, unit),
    ],
    hooks: { ...overlayHooks(latest), setCursor: [showLatestWhenIdle] },
  }
}

/** Off the plot, the legend shows the latest point rather than dashes. */
export function showLatestWhenIdle(u: uPlot): void {
  if (u.cursor.idx !== null && u.cursor.idx !== undefined) return
  const last = (u.data[0]?.length ?? 0) - 1
  if (last >= 0) u.setLegend({ idx: last })
}

/** uPlot options for a sparkline: no axes, legend, cursor or zoom. */
export function sparklineOptions(props: SparklineProps, width: number): uPlot.Options {
  return {
    width,
    height: props.height,
    legend: { show: false },
    cursor: { show: false },
    select: { show: false, left: 0, top: 0, width: 0, height: 0 },
    padding: [2, 0, 2, 0],
    scales: { x: { time: true }, y: { range: yRange(props.unit) } },
    axes: [{ show: false }, { show: false }],
    series: [{}, ...lineSeries([{ ...props.line, max: undefined }], props.unit)],
  }
}
