import { useEffect, useRef, type KeyboardEvent } from 'react'
import uPlot from 'uplot'
import 'uplot/dist/uPlot.min.css'
import type {
  HistoryBucketFilter,
  HistoryChartBucket,
} from '../../shared/views/alert-history-types.ts'
import { chartSplits } from '../backups/BackupsChart.tsx'
import { BUTTON, FOCUS_RING } from '../components/button-classes.ts'

const CHART_HEIGHT = 120
/** Critical red, warning amber: the severity badges' colours. */
const FILL = { critical: '#dc2626', warning: '#f59e0b' } as const

interface Props {
  buckets: HistoryChartBucket[]
  selected: HistoryBucketFilter | null
  onSelect: (bucket: HistoryBucketFilter | null) => void
}

/** The alert frequency chart (spec 001 §2 history): stacked bars per bucket; a click filters. */
export function HistoryChart({ buckets, selected, onSelect }: Props) {
  const chosen = selected ? buckets.find((b) => b.start === selected.start) : undefined
  const total = buckets.reduce((sum, bucket) => sum + bucket.count, 0)
  return (
    <section
      aria-label="Alert frequency"
      className="rounded-md border border-gray-200 bg-white p-2 dark:border-gray-800 dark:bg-gray-900"
    >
      <div className="mb-1 flex flex-wrap items-center gap-2">
        <h2 className="text-sm font-semibold text-gray-800 dark:text-gray-100">Alert frequency</h2>
        <span className="flex gap-3 text-xs text-gray-600 dark:text-gray-400">
          <Swatch colour={FILL.critical} label="Critical" />
          <Swatch colour={FILL.warning} label="Warning" />
        </span>
        {selected && (
          <button
            type="button"
            className={`${BUTTON.secondary} ml-auto`}
            onClick={() => onSelect(null)}
          >
            Clear filter
            {chosen && <span className="text-xs text-gray-500">({chosen.label})</span>}
          </button>
        )}
      </div>
      {total === 0 ? (
        <p
          className="flex items-center justify-center text-xs text-gray-500 dark:text-gray-400"
          style={{ height: CHART_HEIGHT }}
        >
          No alerts to chart in this period
        </p>
      ) : (
        <Plot buckets={buckets} selected={selected} onSelect={onSelect} />
      )}
    </section>
  )
}

function Swatch({ colour, label }: { colour: string; label: string }) {
  return (
    <span className="inline-flex items-center gap-1">
      <span
        aria-hidden
        className="inline-block size-2.5 rounded-sm"
        style={{ background: colour }}
      />
      {label}
    </span>
  )
}

/** Warning stacked on critical: uPlot draws later series over earlier ones, so the total first. */
function toPlotData(buckets: HistoryChartBucket[]): uPlot.AlignedData {
  return [
    buckets.map((_, i) => i),
    buckets.map((bucket) => bucket.critical + bucket.warning),
    buckets.map((bucket) => bucket.critical),
  ]
}

/** The uPlot instance: created once per bucket count, fed new data in place. */
function Plot({ buckets, selected, onSelect }: Props) {
  const box = useRef<HTMLDivElement>(null)
  const plot = useRef<uPlot | null>(null)
  const latest = useRef({ buckets, onSelect })
  useEffect(() => {
    latest.current = { buckets, onSelect }
  })

  useEffect(() => {
    const el = box.current
    if (!el) return
    const bars = uPlot.paths.bars!({ size: [0.8, 40], gap: 1 })
    const series = (label: string, fill: string): uPlot.Series => ({
      label,
      fill,
      stroke: fill,
      width: 0,
      paths: bars,
      points: { show: false },
    })
    const u = new uPlot(
      {
        width: Math.max(200, el.clientWidth),
        height: CHART_HEIGHT,
        legend: { show: false },
        cursor: { y: false, points: { show: false } },
        scales: {
          x: { time: false, auto: false, range: [-0.5, buckets.length - 0.5] },
          y: { range: (_u, _min, max) => [0, chartSplits(max).at(-1)!] },
        },
        axes: [
          {
            values: (_u, splits) => splits.map((i) => latest.current.buckets[i]?.label ?? ''),
            space: 70,
            size: 24,
            font: '10px sans-serif',
            stroke: '#6b7280',
            grid: { show: false },
          },
          {
            splits: (u) => chartSplits(Math.max(0, ...((u.data[1] ?? []) as number[]))),
            size: 36,
            font: '10px sans-serif',
            stroke: '#6b7280',
            grid: { stroke: 'rgba(127,127,127,0.15)', width: 1 },
          },
        ],
        series: [{}, series('Warning', FILL.warning), series('Critical', FILL.critical)],
      },
      toPlotData(buckets),
      el,
    )
    // The bar under the pointer, from the click itself rather than the (throttled) cursor.
    const onClick = (event: MouseEvent) => {
      const left = event.clientX - u.over.getBoundingClientRect().left
      const bucket = latest.current.buckets[Math.round(u.posToVal(left, 'x'))]
      if (bucket) latest.current.onSelect({ start: bucket.start, end: bucket.end })
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
    // One plot per bucket count: the x scale depends on it.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [buckets.length])

  useEffect(() => {
    plot.current?.setData(toPlotData(buckets))
  }, [buckets])

  // Keyboard: the arrows move the chosen bar, Home and End jump to the first and last.
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const at = selected ? buckets.findIndex((b) => b.start === selected.start) : -1
    let next: number | null = null
    if (event.key === 'ArrowLeft') next = Math.max(0, (at < 0 ? buckets.length : at) - 1)
    else if (event.key === 'ArrowRight') next = Math.min(buckets.length - 1, at + 1)
    else if (event.key === 'Home') next = 0
    else if (event.key === 'End') next = buckets.length - 1
    const bucket = next === null ? undefined : buckets[next]
    if (!bucket) return
    event.preventDefault()
    onSelect({ start: bucket.start, end: bucket.end })
  }
  const peak = Math.max(0, ...buckets.map((bucket) => bucket.count))
  return (
    <div
      ref={box}
      role="img"
      tabIndex={0}
      onKeyDown={onKeyDown}
      aria-keyshortcuts="ArrowLeft ArrowRight Home End"
      aria-label={`Alerts per period, ${buckets.length} bars; the busiest has ${peak}. Arrow keys choose a bar to filter the list.`}
      data-testid="history-chart"
      className={`w-full rounded ${FOCUS_RING}`}
    />
  )
}
