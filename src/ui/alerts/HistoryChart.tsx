import { useMemo } from 'react'
import type {
  HistoryBucketFilter,
  HistoryChartBucket,
} from '../../shared/views/alert-history-types.ts'
import { Chart, ChartLegend, type BarSeries } from '../components/Chart.tsx'
import { BUTTON } from '../components/button-classes.ts'

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
        <ChartLegend series={LEGEND} />
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

const SERIES: BarSeries[] = [
  { label: 'Warning', fill: FILL.warning },
  { label: 'Critical', fill: FILL.critical },
]
const LEGEND = [...SERIES].reverse()

/** Warning stacked on critical: the total first (it is drawn under the critical part). */
function Plot({ buckets, selected, onSelect }: Props) {
  const stacks = useMemo(
    () => [buckets.map((b) => b.critical + b.warning), buckets.map((b) => b.critical)],
    [buckets],
  )
  const at = selected ? buckets.findIndex((b) => b.start === selected.start) : -1
  const peak = Math.max(0, ...buckets.map((bucket) => bucket.count))
  return (
    <Chart
      mode="bar"
      stacks={stacks}
      series={SERIES}
      height={CHART_HEIGHT}
      labelOf={(i) => buckets[i]?.label ?? ''}
      labelSpace={70}
      maxBarWidth={40}
      selected={at < 0 ? null : at}
      onPick={(i) => {
        const bucket = buckets[i]
        if (bucket) onSelect({ start: bucket.start, end: bucket.end })
      }}
      ariaLabel={`Alerts per period, ${buckets.length} bars; the busiest has ${peak}. Arrow keys choose a bar to filter the list.`}
      testId="history-chart"
    />
  )
}
