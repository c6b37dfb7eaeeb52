// The one uPlot chart of the UI (STYLE.md "one time chart"): line charts of metrics history,
// sparklines in table rows, and the stacked bars of the backups and alert history charts. uPlot
// is created once per shape (mode, series, height), fed new data in place (setData), resized
// with its box and disposed in an effect. A new chart is another set of props, not another wrapper.
import { useEffect, useMemo, useRef, type KeyboardEvent } from 'react'
import uPlot from 'uplot'
import 'uplot/dist/uPlot.min.css'
import { FOCUS_RING } from './button-classes.ts'
import {
  barData,
  barOptions,
  bindBarClicks,
  type BarChartProps,
  type BarSeries,
} from './chart-bar.ts'
import {
  fullXRange,
  lineData,
  showLatestWhenIdle,
  lineOptions,
  sparklineOptions,
  type LineChartProps,
  type SparklineProps,
} from './chart-line.ts'

export type { BarChartProps, BarSeries } from './chart-bar.ts'
export { chartSplits } from './chart-bar.ts'
export type { ChartBand, ChartLine, LineChartProps, SparklineProps } from './chart-line.ts'
export type { ChartUnit } from './chart-axes.ts'

export type ChartProps = LineChartProps | SparklineProps | BarChartProps

/** The narrowest a chart is drawn (a sparkline may be narrower). */
const MIN_WIDTH = 200

// Lets tests reach the uPlot behind a chart's box (what data it was handed, its x scale).
const plots = new WeakMap<Element, uPlot>()
/** The uPlot drawing into `box` (a Chart's element), for tests. */
export function plotOf(box: Element): uPlot | undefined {
  return plots.get(box)
}

/** What forces a new uPlot: anything that is an option rather than data. */
function shapeOf(props: ChartProps): string {
  switch (props.mode) {
    case 'bar':
      return `bar:${props.stacks[0]?.length ?? 0}:${props.height}`
    case 'sparkline':
      return `spark:${props.unit}:${props.height}`
    case 'line': {
      const lines = props.lines.map((l) => `${l.label}/${l.colour ?? ''}/${l.max ? 1 : 0}`)
      return `line:${props.unit}:${props.height}:${lines.join('|')}`
    }
  }
}

function dataOf(props: ChartProps): uPlot.AlignedData {
  if (props.mode === 'bar') return barData(props.stacks)
  if (props.mode === 'sparkline') return lineData([{ ...props.line, max: undefined }])
  return lineData(props.lines)
}

function widthOf(props: ChartProps, el: HTMLElement): number {
  return props.mode === 'sparkline'
    ? Math.max(20, el.clientWidth)
    : Math.max(MIN_WIDTH, el.clientWidth)
}

/** One chart; the box takes its container's width. */
export function Chart(props: ChartProps) {
  const box = useRef<HTMLDivElement>(null)
  const plot = useRef<uPlot | null>(null)
  const latest = useRef(props)
  // A drag-zoomed line chart keeps its window when fresh data arrives.
  const zoomed = useRef(false)
  useEffect(() => {
    latest.current = props
  })
  const shape = shapeOf(props)
  const source =
    props.mode === 'bar' ? props.stacks : props.mode === 'line' ? props.lines : props.line
  const data = useMemo(() => dataOf(props), [source]) // eslint-disable-line react-hooks/exhaustive-deps

  const showFull = (u: uPlot) => {
    const current = latest.current
    if (current.mode !== 'line') return
    const full = fullXRange(current)
    zoomed.current = false
    if (full) u.setScale('x', { min: full[0], max: full[1] })
  }

  useEffect(() => {
    const el = box.current
    if (!el) return
    const current = latest.current
    const width = widthOf(current, el)
    const options =
      current.mode === 'bar'
        ? barOptions(current, () => latest.current as BarChartProps, width)
        : current.mode === 'sparkline'
          ? sparklineOptions(current, width)
          : lineOptions(current, () => latest.current as LineChartProps, width, showFull)
    if (current.mode === 'line') {
      options.hooks = {
        ...options.hooks,
        // A drag that selected a window zoomed in (setScale: true); remember it.
        setSelect: [(u) => void (zoomed.current = u.select.width > 0)],
      }
    }
    zoomed.current = false
    const u = new uPlot(options, dataOf(current), el)
    showFull(u)
    if (current.mode === 'line') showLatestWhenIdle(u)
    plots.set(el, u)
    plot.current = u
    const unbind =
      current.mode === 'bar' ? bindBarClicks(u, () => latest.current as BarChartProps) : null
    const resize = new ResizeObserver(() => {
      u.setSize({ width: widthOf(latest.current, el), height: latest.current.height })
    })
    resize.observe(el)
    return () => {
      resize.disconnect()
      unbind?.()
      u.destroy()
      plots.delete(el)
      plot.current = null
    }
  }, [shape])

  useEffect(() => {
    const u = plot.current
    if (!u || u.data === data) return
    if (zoomed.current) {
      u.setData(data, false)
    } else {
      u.setData(data)
      showFull(u)
    }
    if (latest.current.mode === 'line') showLatestWhenIdle(u)
  }, [data])

  const bands = props.mode === 'line' ? props.bands : undefined
  const marker = props.mode === 'line' ? props.marker : undefined
  useEffect(() => {
    plot.current?.redraw(false)
  }, [bands, marker])

  if (props.mode !== 'bar') {
    return (
      <div
        ref={box}
        role="img"
        aria-label={props.ariaLabel}
        data-testid={props.testId}
        data-bands={bands?.length ?? 0}
        className="w-full min-w-0"
      />
    )
  }
  return <BarBox box={box} props={props} />
}

/** The bar chart's box: keyboard picks a bar (arrows move, Home and End jump). */
function BarBox({
  box,
  props,
}: {
  box: React.RefObject<HTMLDivElement | null>
  props: BarChartProps
}) {
  const { selected, onPick } = props
  const count = props.stacks[0]?.length ?? 0
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
