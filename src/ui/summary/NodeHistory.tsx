// A node's (or PBS's) history, opened from its summary row (issue 25): below the summary box, so
// the capped, virtualised table keeps its fixed row height.
import type { ReactNode } from 'react'
import type { NodeSummaryRow } from '../../shared/views/node-summary-types.ts'
import { HistoryBox } from '../history/HistoryBox.tsx'
import { HistoryPanel } from '../history/HistoryPanel.tsx'

interface Props {
  row: NodeSummaryRow
  onClose: () => void
  /** More charts (a PBS's datastores). */
  children?: ReactNode
}

/** The charts of one summary row, with a close button. */
export function NodeHistory({ row, onClose, children }: Props) {
  return (
    <HistoryBox
      heading={
        <>
          {row.name} <span className="font-normal text-gray-500 dark:text-gray-400">history</span>
        </>
      }
      closeLabel={`Close history of ${row.name}`}
      onClose={onClose}
    >
      <HistoryPanel
        key={row.id}
        resourceId={row.id}
        title={row.name}
        kind={row.kind === 'pbs' ? 'pbs' : 'node'}
      />
      {children}
    </HistoryBox>
  )
}
