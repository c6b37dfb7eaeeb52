// The one uPlot chart of the UI (STYLE.md "one time chart"): stacked bars over an index axis,
// created once per bar count, fed new data in place, resized with its box, disposed in an effect.
// A click or the arrow keys pick a bar. The alert history and backups charts are this component
// with their own series; a new chart is another set of props, not another uPlot wrapper.
import { useEffect, useRef, type KeyboardEvent } from 'react'
import uPlot from 'uplot'
import 'uplot/dist/uPlot.min.css'
import { FOCUS_RING } from './button-classes.ts'

/** Up to 5 grid intervals (spec 000 §9). */
const MAX_INTERVALS = 5
/** Pixels per character of the 10 px axis font, and room for the ticks and the gap. */
const CHAR_WIDTH = 6.5
const AXIS_PADDING = 14
const AXIS_FONT = '10px sans-serif'
const AXIS_STROKE = '#6b7280'

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

export interface BarChartProps {
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

/** Stacked bars drawn by uPlot; the box takes its container's width. */
export function BarChart(props: BarChartProps) {
  const { stacks, height, selected, onPick } = props
  const count = stacks[0]?.length ?? 0
  const box = useRef<HTMLDivElement>(null)
  const plot = useRef<uPlot | null>(null)
  const latest = useRef(props)
  useEffect(() => {
    latest.current = props
  })

  useEffect(() => {
    const el = box.current
    if (!el) return
    const { maxBarWidth, labelSpace } = latest.current
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
    const u = new uPlot(
      {
        width: Math.max(200, el.clientWidth),
        height,
        legend: { show: false },
        cursor: { y: false, points: { show: false } },
        scales: {
          // Half a bar of room on each side so the first and last bars are whole.
          x: { time: false, auto: false, range: [-0.5, count - 0.5] },
          y: { range: (_u, _min, max) => [0, chartSplits(max).at(-1)!] },
        },
        axes: [
          {
            values: (_u, splits) => splits.map((i) => latest.current.labelOf(i)),
            space: labelSpace,
            size: 24,
            font: AXIS_FONT,
            stroke: AXIS_STROKE,
            grid: { show: false },
          },
          {
            splits: (u) => chartSplits(Math.max(0, ...totals(u).map((n) => n ?? 0))),
            values: (_u, splits) => splits.map(countLabel),
            // Wide enough for the longest label: a fixed width cut '2500' to '500'.
            size: (_u, values) =>
              AXIS_PADDING + CHAR_WIDTH * Math.max(1, ...(values ?? []).map((v) => v.length)),
            font: AXIS_FONT,
            stroke: AXIS_STROKE,
            grid: { stroke: 'rgba(127,127,127,0.15)', width: 1 },
          },
        ],
        series: [{}, ...latest.current.series.map((s, i) => toSeries(s, i === 0))],
      },
      toPlotData(latest.current.stacks),
      el,
    )
    // The bar under the pointer, from the click itself rather than the (throttled) cursor.
    const onClick = (event: MouseEvent) => {
      const left = event.clientX - u.over.getBoundingClientRect().left
      const index = Math.round(u.posToVal(left, 'x'))
      if (index >= 0 && index < (latest.current.stacks[0]?.length ?? 0)) {
        latest.current.onPick(index)
      }
    }
    u.over.addEventListener('click', onClick)
    u.over.style.cursor = 'pointer'
    plot.current = u
    const resize = new ResizeObserver(() => {
      u.setSize({ width: Math.max(200, el.clientWidth), height })
    })
    resize.observe(el)
    return () => {
      resize.disconnect()
      u.over.removeEventListener('click', onClick)
      u.destroy()
      plot.current = null
    }
  }, [count, height])

  useEffect(() => {
    plot.current?.setData(toPlotData(stacks))
  }, [stacks])

  // Keyboard: the arrows move the picked bar, Home and End jump to the first and last.
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const at = selected ?? -1
    let next: number | null = null
    if (event.key === 'ArrowLeft') next = Math.max(0, (at < 0 ? count : at) - 1)
    else if (event.key === 'ArrowRight') next = Math.min(count - 1, at + 1)
    else if (event.key === 'Home') next = 0
    else if (event.key === 'End') next = count - 1
    if (next === null || next < 0) return
    event.preventDefault()
    onPick(next)
  }
  return (
    <div
      ref={box}
      role="img"
      tabIndex={0}
      onKeyDown={onKeyDown}
      aria-keyshortcuts="ArrowLeft ArrowRight Home End"
      aria-label={props.ariaLabel}
      data-testid={props.testId}
      className={`w-full rounded ${FOCUS_RING}`}
    />
  )
}

function toPlotData(stacks: readonly (readonly number[])[]): uPlot.AlignedData {
  const count = stacks[0]?.length ?? 0
  return [Array.from({ length: count }, (_, i) => i), ...stacks.map((stack) => [...stack])]
}

/** The coloured squares that name a chart's series. */
export function ChartLegend({ series }: { series: readonly Pick<BarSeries, 'label' | 'fill'>[] }) {
  return (
    <span className="flex gap-3 text-xs text-gray-600 dark:text-gray-400">
      {series.map((s) => (
        <span key={s.label} className="inline-flex items-center gap-1">
          <span
            aria-hidden
            className="inline-block size-2.5 rounded-sm"
            style={{ background: s.fill }}
          />
          {s.label}
        </span>
      ))}
    </span>
  )
}
