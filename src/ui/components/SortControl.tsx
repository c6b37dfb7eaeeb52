import { ArrowDownWideNarrow, ArrowUpNarrowWide } from 'lucide-react'
import type { SortDirection } from '../../shared/views/guest-view-types.ts'
import { FOCUS_RING } from './button-classes.ts'
import { ICON_BUTTON } from './SearchField.tsx'

interface Props<K extends string> {
  /** Accessible name of the select ('Sort by', 'Sort storage by'). */
  label: string
  keys: readonly K[]
  labels: Record<K, string>
  sort: { key: K; direction: SortDirection }
  onKey: (key: K) => void
  onToggleDirection: () => void
}

/** A filter bar's sort: a 'Sort' select over the keys and a direction toggle beside it. */
export function SortControl<K extends string>({
  label,
  keys,
  labels,
  sort,
  onKey,
  onToggleDirection,
}: Props<K>) {
  const Direction = sort.direction === 'asc' ? ArrowUpNarrowWide : ArrowDownWideNarrow
  return (
    <>
      <label className="inline-flex items-center gap-1 text-xs text-gray-600 dark:text-gray-300">
        Sort
        <select
          aria-label={label}
          value={sort.key}
          onChange={(event) => onKey(event.target.value as K)}
          className={`rounded-md border border-gray-300 bg-white px-1.5 py-1 text-sm text-gray-800 dark:border-gray-600 dark:bg-gray-800 dark:text-gray-100 ${FOCUS_RING}`}
        >
          {keys.map((key) => (
            <option key={key} value={key}>
              {labels[key]}
            </option>
          ))}
        </select>
      </label>
      <button
        type="button"
        className={ICON_BUTTON}
        aria-label={sort.direction === 'asc' ? 'Sort ascending' : 'Sort descending'}
        title="Change sort direction"
        onClick={onToggleDirection}
      >
        <Direction className="size-4" aria-hidden />
      </button>
    </>
  )
}
