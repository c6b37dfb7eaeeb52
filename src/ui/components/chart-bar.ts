// The bar mode of the one chart (Chart.tsx): stacked bars over an index axis, as the backups and
// alert history charts draw them. Pure option building; Chart owns the uPlot lifecycle.
import uPlot from 'uplot'
import { AXIS_FONT, AXIS_STROKE, GRID_STROKE, axisSize } from './chart-axes.ts'

/** Up to 5 grid intervals (spec 000 §9). */
const MAX_INTERVALS = 5

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

/** One stacked segment. */
export interface BarSeries {
  label: string
  fill: string
  /** Outline colour of each bar (by index); drawn on the first (tallest) series only. */
  outline?: (total: number) => string
}

/** The props of `<Chart mode="bar">`. */
export interface BarChartProps {
  mode: 'bar'
  /** Cumulative stacks, tallest first (uPlot draws later series over earlier ones). */
  stacks: readonly (readonly number[])[]
  series: readonly BarSeries[]
  height: number
  /** Axis label of bar `index`. */
  labelOf: (index: number) => string
  /** Minimum pixels between x labels. */
  labelSpace: number
  /** Widest bar in pixels. */
  maxBarWidth: number
  /** The picked bar, or null. */
  selected: number | null
  /** A click or a key picked bar `index`. */
  onPick: (index: number) => void
  ariaLabel: string
  testId: string
}

/** A count on the y axis: 2500 as is, 12000 as '12k' so the axis stays narrow. */
function countLabel(n: number): string {
  return n >= 10_000 ? `${Math.round(n / 100) / 10}k` : String(n)
}

/** uPlot options for stacked bars; `latest` reads the current props (labels change in place). */
export function barOptions(
  props: BarChartProps,
  latest: () => BarChartProps,
  width: number,
): uPlot.Options {
  const { maxBarWidth, labelSpace, height } = props
  const count = props.stacks[0]?.length ?? 0
  const bars = uPlot.paths.bars!({ size: [0.8, maxBarWidth], gap: 1 })
  const totals = (u: uPlot) => (u.data[1] ?? []) as (number | null)[]
  const toSeries = (s: BarSeries, first: boolean): uPlot.Series => {
    const outline = first ? s.outline : undefined
    const paths = outline
      ? uPlot.paths.bars!({
          size: [0.8, maxBarWidth],
          gap: 1,
          disp: {
            stroke: {
              unit: 3 as uPlot.Series.BarsPathBuilderFacetUnit,
              values: (u) => totals(u).map((n) => outline(n ?? 0)),
            },
          },
        })
      : bars
    return {
      label: s.label,
      fill: s.fill,
      stroke: s.fill,
      width: outline ? 1 : 0,
      paths,
      points: { show: false },
    }
  }
  return {
    width,
    height,
    legend: { show: false },
    cursor: { y: false, points: { show: false }, drag: { x: false, y: false } },
    scales: {
      // Half a bar of room on each side so the first and last bars are whole.
      x: { time: false, auto: false, range: [-0.5, count - 0.5] },
      y: { range: (_u, _min, max) => [0, chartSplits(max).at(-1)!] },
    },
    axes: [
      {
        values: (_u, splits) => splits.map((i) => latest().labelOf(i)),
        space: labelSpace,
        size: 24,
        font: AXIS_FONT,
        stroke: AXIS_STROKE,
        grid: { show: false },
      },
      {
        splits: (u) => chartSplits(Math.max(0, ...totals(u).map((n) => n ?? 0))),
        values: (_u, splits) => splits.map(countLabel),
        size: axisSize,
        font: AXIS_FONT,
        stroke: AXIS_STROKE,
        grid: { stroke: GRID_STROKE, width: 1 },
      },
    ],
    series: [{}, ...props.series.map((s, i) => toSeries(s, i === 0))],
  }
}

/** The aligned data of stacked bars: the index, then each stack. */
export function barData(stacks: readonly (readonly number[])[]): uPlot.AlignedData {
  const count = stacks[0]?.length ?? 0
  return [Array.from({ length: count }, (_, i) => i), ...stacks.map((stack) => [...stack])]
}

/** The bar under a click, from the click itself rather than the (throttled) cursor. */
export function bindBarClicks(u: uPlot, latest: () => BarChartProps): () => void {
  const onClick = (event: MouseEvent) => {
    const left = event.clientX - u.over.getBoundingClientRect().left
    const index = Math.round(u.posToVal(left, 'x'))
    const current = latest()
    if (index >= 0 && index < (current.stacks[0]?.length ?? 0)) current.onPick(index)
  }
  u.over.addEventListener('click', onClick)
  u.over.style.cursor = 'pointer'
  return () => u.over.removeEventListener('click', onClick)
}
