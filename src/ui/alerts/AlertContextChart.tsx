// Alert context (issue 25): the chart of the metric an alert history occurrence was about, for
// its resource around its time, with its occurrences shaded as bands and its start marked; and
// the occurrence's notes (issue 28).
import { useMemo } from 'react'
import { alertBands, alertChartTarget } from '../../shared/views/alert-history-chart.ts'
import type { HistoryAlertRow, HistoryViewRow } from '../../shared/views/alert-history-types.ts'
import { HistoryBox } from '../history/HistoryBox.tsx'
import { HistoryPanel } from '../history/HistoryPanel.tsx'
import { notesLabel } from '../../shared/views/alert-notes.ts'
import { NotesList } from './NotesDialog.tsx'

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
      {row.notes.length > 0 && (
        <section aria-label="Notes on this alert" className="mt-2">
          <h3 className="mb-1 text-xs font-semibold text-gray-600 uppercase dark:text-gray-400">
            {notesLabel(row.notes.length)}
          </h3>
          <NotesList notes={row.notes} />
        </section>
      )}
    </HistoryBox>
  )
}
