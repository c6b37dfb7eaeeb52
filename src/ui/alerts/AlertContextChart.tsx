// Alert context (issue 25): the chart of the metric an alert history occurrence was about, for
// its resource around its time, with its occurrences shaded as bands and its start marked.
import { X } from 'lucide-react'
import { useMemo } from 'react'
import { alertBands, alertChartTarget } from '../../shared/views/alert-history-chart.ts'
import type { HistoryAlertRow, HistoryViewRow } from '../../shared/views/alert-history-types.ts'
import { FOCUS_RING } from '../components/button-classes.ts'
import { HistoryPanel } from '../history/HistoryPanel.tsx'

interface Props {
  row: HistoryAlertRow
  /** The rows the list holds: other occurrences of the same alert among them become bands. */
  rows: readonly (HistoryViewRow | undefined)[]
  onClose: () => void
}

/** The picked occurrence's chart, above the list. */
export function AlertContextChart({ row, rows, onClose }: Props) {
  const target = alertChartTarget(row)
  const bands = useMemo(() => alertBands(rows, row, Math.floor(Date.now() / 1000)), [rows, row])
  return (
    <div className="shrink-0 space-y-2 rounded-md border border-gray-200 bg-white p-2 sm:p-3 dark:border-gray-800 dark:bg-gray-900">
      <div className="flex items-center gap-2">
        <h2 className="min-w-0 truncate text-sm font-semibold text-gray-900 dark:text-gray-100">
          {row.resource}{' '}
          <span className="font-normal text-gray-500 dark:text-gray-400">
            {row.message} · {row.timestampTitle}
          </span>
        </h2>
        <button
          type="button"
          onClick={onClose}
          aria-label="Close the alert’s chart"
          title="Close"
          className={`ml-auto shrink-0 rounded p-1 text-gray-500 hover:bg-gray-100 dark:text-gray-400 dark:hover:bg-gray-800 ${FOCUS_RING}`}
        >
          <X className="size-4" aria-hidden />
        </button>
      </div>
      {target ? (
        <HistoryPanel
          key={`${row.key}:${target.metric}`}
          resourceId={target.resourceId}
          title={row.resource}
          kind={target.kind}
          metrics={[target.metric]}
          atSec={row.startSec ?? undefined}
          bands={bands}
        />
      ) : (
        <p className="text-xs text-gray-500 dark:text-gray-400">
          No metrics history for this kind of resource.
        </p>
      )}
    </div>
  )
}
