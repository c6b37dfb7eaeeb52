// The small chart button on a table row that opens or closes the row's history (issue 25): the
// node summary rows and the storage pools share it.
import { ChartLine } from 'lucide-react'
import { FOCUS_RING } from '../components/button-classes.ts'

interface Props {
  /** 'pve1', 'local on pve1': the button says "History of …". */
  name: string
  open: boolean
  onToggle: () => void
}

/** An icon button with aria-expanded; its click does not reach the row. */
export function HistoryToggle({ name, open, onToggle }: Props) {
  return (
    <button
      type="button"
      onClick={(event) => {
        // Not the row's own click (selecting a node, opening a Ceph panel).
        event.stopPropagation()
        onToggle()
      }}
      aria-expanded={open}
      aria-label={`History of ${name}`}
      title={`History of ${name}`}
      className={`shrink-0 rounded p-0.5 ${
        open
          ? 'text-blue-700 dark:text-blue-300'
          : 'text-gray-400 hover:text-blue-700 dark:text-gray-500 dark:hover:text-blue-300'
      } ${FOCUS_RING}`}
    >
      <ChartLine className="size-3.5" aria-hidden />
    </button>
  )
}
