// One guest of the Guest URLs table (spec 001 §2): name, type, VMID, the custom URL field with
// its §5 validation text as the user types, and Test (opens a new tab) and Clear.
import { ExternalLink, X } from 'lucide-react'
import { memo, useId, type CSSProperties } from 'react'
import { BUTTON, FOCUS_RING } from '../../components/button-classes.ts'
import type { GuestUrlGroupRow, GuestUrlRow } from '../../../shared/views/guest-urls-types.ts'
import { validateGuestUrl } from './url-validation.ts'

/** Wide screens: Name, Type, VMID, Custom URL, Actions. Phones stack name, field and actions. */
export const ROW_GRID =
  'grid grid-cols-[1fr_auto] gap-x-3 gap-y-1 sm:grid-cols-[minmax(9rem,1.2fr)_3.5rem_4.5rem_minmax(12rem,2.4fr)_9.5rem] sm:items-start'

const SMALL_BUTTON = `${BUTTON.secondary} px-2 py-1 text-xs disabled:cursor-not-allowed disabled:opacity-50`

interface RowProps {
  row: GuestUrlRow
  value: string
  onChange: (row: GuestUrlRow, value: string) => void
  rowIndex: number
  index: number
  style: CSSProperties
  measure: (node: Element | null) => void
}

export const GuestUrlRowView = memo(function GuestUrlRowView({
  row,
  value,
  onChange,
  rowIndex,
  index,
  style,
  measure,
}: RowProps) {
  const errorId = useId()
  const error = validateGuestUrl(value)
  const present = value.trim() !== ''
  // Names repeat across clusters: VMID and node make every control's name unique.
  const who = `${row.name || 'guest'} (VMID ${row.vmid} on ${row.node})`
  return (
    <div
      ref={measure}
      data-index={index}
      role="row"
      aria-rowindex={rowIndex}
      style={style}
      className={`${ROW_GRID} border-b border-gray-100 px-3 py-2 text-sm dark:border-gray-800`}
    >
      <div role="cell" className="min-w-0 self-center font-medium text-gray-900 dark:text-gray-100">
        <span className="block truncate" title={row.name}>
          {row.name || `Guest ${row.vmid}`}
        </span>
      </div>
      <div role="cell" className="self-center text-gray-600 dark:text-gray-400">
        <span
          className={`rounded px-1.5 py-0.5 text-xs font-medium ${
            row.type === 'VM'
              ? 'bg-blue-100 text-blue-800 dark:bg-blue-900/50 dark:text-blue-200'
              : 'bg-green-100 text-green-800 dark:bg-green-900/50 dark:text-green-200'
          }`}
        >
          {row.type}
        </span>
        <span className="ml-2 tabular-nums sm:hidden">{row.vmid}</span>
      </div>
      <div
        role="cell"
        className="hidden self-center tabular-nums text-gray-600 sm:block dark:text-gray-400"
      >
        {row.vmid}
      </div>
      <div role="cell" className="col-span-2 min-w-0 sm:col-span-1">
        <input
          type="url"
          inputMode="url"
          spellCheck={false}
          autoComplete="off"
          value={value}
          placeholder="https://192.168.1.100:8080"
          aria-label={`Custom URL for ${who}`}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          onChange={(event) => onChange(row, event.target.value)}
          className={`w-full rounded-md border bg-white px-2 py-1 text-sm text-gray-900 placeholder:text-gray-400 dark:bg-gray-800 dark:text-gray-100 dark:placeholder:text-gray-500 ${FOCUS_RING} ${
            error ? 'border-red-500 dark:border-red-500' : 'border-gray-300 dark:border-gray-600'
          }`}
        />
        {error && (
          <p id={errorId} className="mt-1 text-xs text-red-600 dark:text-red-400">
            {error}
          </p>
        )}
      </div>
      <div role="cell" className="col-span-2 flex gap-2 sm:col-span-1">
        <button
          type="button"
          className={SMALL_BUTTON}
          disabled={!present || error !== null}
          aria-label={`Test URL of ${who}, opens a new tab`}
          onClick={() => window.open(value.trim(), '_blank', 'noopener,noreferrer')}
        >
          <ExternalLink className="h-3.5 w-3.5" aria-hidden="true" />
          Test
        </button>
        <button
          type="button"
          className={SMALL_BUTTON}
          disabled={!present}
          aria-label={`Clear URL of ${who}`}
          onClick={() => onChange(row, '')}
        >
          <X className="h-3.5 w-3.5" aria-hidden="true" />
          Clear
        </button>
      </div>
    </div>
  )
})

interface GroupProps {
  row: GuestUrlGroupRow
  rowIndex: number
  index: number
  style: CSSProperties
  measure: (node: Element | null) => void
}

export function GuestUrlGroupRowView({ row, rowIndex, index, style, measure }: GroupProps) {
  return (
    <div
      ref={measure}
      data-index={index}
      role="row"
      aria-rowindex={rowIndex}
      style={style}
      className="border-b border-gray-200 bg-gray-50 px-3 py-1.5 text-xs font-semibold text-gray-700 dark:border-gray-700 dark:bg-gray-800/70 dark:text-gray-200"
    >
      <div role="cell" aria-colspan={5}>
        {row.label}{' '}
        {row.sublabel && (
          <span className="ml-2 font-normal text-gray-500 dark:text-gray-400">{row.sublabel} </span>
        )}
        <span className="ml-2 font-normal text-gray-500 dark:text-gray-400">
          {row.guestCount} {row.guestCount === 1 ? 'guest' : 'guests'}
        </span>
      </div>
    </div>
  )
}
