// A node's (or PBS's) history, opened from its summary row (issue 25): below the summary box, so
// the capped, virtualised table keeps its fixed row height.
import { X } from 'lucide-react'
import type { ReactNode } from 'react'
import type { NodeSummaryRow } from '../../shared/views/node-summary-types.ts'
import { FOCUS_RING } from '../components/button-classes.ts'
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
    <div className="shrink-0 space-y-3 rounded-md border border-gray-200 bg-white p-2 sm:p-3 dark:border-gray-800 dark:bg-gray-900">
      <div className="flex items-center gap-2">
        <h2 className="text-sm font-semibold text-gray-900 dark:text-gray-100">
          {row.name} <span className="font-normal text-gray-500 dark:text-gray-400">history</span>
        </h2>
        <button
          type="button"
          onClick={onClose}
          aria-label={`Close history of ${row.name}`}
          title="Close"
          className={`ml-auto rounded p-1 text-gray-500 hover:bg-gray-100 dark:text-gray-400 dark:hover:bg-gray-800 ${FOCUS_RING}`}
        >
          <X className="size-4" aria-hidden />
        </button>
      </div>
      <HistoryPanel
        key={row.id}
        resourceId={row.id}
        title={row.name}
        kind={row.kind === 'pbs' ? 'pbs' : 'node'}
      />
      {children}
    </div>
  )
}
