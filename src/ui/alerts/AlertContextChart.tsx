// Alert context (issue 25): the chart of the metric an alert history occurrence was about, for
// its resource around its time, with its occurrences shaded as bands and its start marked.
import { useMemo } from 'react'
import { alertBands, alertChartTarget } from '../../shared/views/alert-history-chart.ts'
import type { HistoryAlertRow, HistoryViewRow } from '../../shared/views/alert-history-types.ts'
import { HistoryBox } from '../history/HistoryBox.tsx'
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
    <HistoryBox
      heading={
        <>
          {row.resource}{' '}
          <span className="font-normal text-gray-500 dark:text-gray-400">
            {row.message} · {row.timestampTitle}
          </span>
        </>
      }
      closeLabel="Close the alert’s chart"
      onClose={onClose}
    >
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
    </HistoryBox>
  )
}
