// The box an opened history sits in (issue 25): a heading and a close button above the charts.
// A node's from the summary and an alert occurrence's on the History tab share it.
import { X } from 'lucide-react'
import type { ReactNode } from 'react'
import { FOCUS_RING } from '../components/button-classes.ts'

interface Props {
  heading: ReactNode
  closeLabel: string
  onClose: () => void
  children: ReactNode
}

/** A bordered box with a heading row and a close button. */
export function HistoryBox({ heading, closeLabel, onClose, children }: Props) {
  return (
    <div className="shrink-0 space-y-2 rounded-md border border-gray-200 bg-white p-2 sm:p-3 dark:border-gray-800 dark:bg-gray-900">
      <div className="flex items-center gap-2">
        <h2 className="min-w-0 truncate text-sm font-semibold text-gray-900 dark:text-gray-100">
          {heading}
        </h2>
        <button
          type="button"
          onClick={onClose}
          aria-label={closeLabel}
          title="Close"
          className={`ml-auto shrink-0 rounded p-1 text-gray-500 hover:bg-gray-100 dark:text-gray-400 dark:hover:bg-gray-800 ${FOCUS_RING}`}
        >
          <X className="size-4" aria-hidden />
        </button>
      </div>
      {children}
    </div>
  )
}
