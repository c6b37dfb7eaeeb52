import { Lock, Plus, Trash2 } from 'lucide-react'
import { BUTTON, FOCUS_RING } from '../../components/button-classes.ts'
import { INPUT } from '../../components/TextField.tsx'
import { newRow, type KeyValueRow } from './webhook-form.ts'

/**
 * Editable key/value rows (headers or custom fields). Rows with an empty key are kept while
 * editing and dropped on send (spec 001 §5). A required row's key is fixed and it has no remove
 * button; custom fields can be marked secret.
 */
export function KeyValueRows({
  label,
  rows,
  onChange,
  secrets = false,
}: {
  /** "Header" or "Custom field": names the group and each control. */
  label: string
  rows: KeyValueRow[]
  onChange: (rows: KeyValueRow[]) => void
  secrets?: boolean
}) {
  const update = (rowId: number, patch: Partial<KeyValueRow>) =>
    onChange(rows.map((row) => (row.rowId === rowId ? { ...row, ...patch } : row)))
  return (
    <fieldset className="flex min-w-0 flex-col gap-2">
      <legend className="mb-1 text-sm font-medium text-gray-700 dark:text-gray-300">
        {label}s
      </legend>
      {rows.length === 0 && <p className="text-xs text-gray-600 dark:text-gray-400">None.</p>}
      {rows.map((row, index) => {
        const n = index + 1
        return (
          <div
            key={row.rowId}
            data-row={row.key}
            className="grid grid-cols-[1fr_auto] gap-2 sm:grid-cols-[minmax(0,1fr)_minmax(0,1.5fr)_auto_auto]"
          >
            <input
              aria-label={`${label} ${n} name`}
              placeholder="Name"
              value={row.key}
              readOnly={row.required}
              title={row.required ? 'Required by this service' : undefined}
              onChange={(event) => update(row.rowId, { key: event.target.value })}
              className={`${INPUT} col-span-2 sm:col-span-1 ${row.required ? 'bg-gray-50 dark:bg-gray-800/60' : ''}`}
            />
            <input
              aria-label={`${label} ${n} value`}
              placeholder={row.stored ? 'stored (leave blank to keep)' : 'Value'}
              type={row.secret ? 'password' : 'text'}
              autoComplete="off"
              value={row.value}
              onChange={(event) => update(row.rowId, { value: event.target.value })}
              className={INPUT}
            />
            {secrets ? (
              <label className="inline-flex items-center gap-1 text-xs text-gray-700 dark:text-gray-300">
                <input
                  type="checkbox"
                  checked={row.secret}
                  aria-label={`${label} ${n} secret`}
                  onChange={(event) => update(row.rowId, { secret: event.target.checked })}
                  className="size-4"
                />
                <Lock className="size-3.5" aria-hidden />
                <span className="sr-only sm:not-sr-only">secret</span>
              </label>
            ) : (
              <span className="hidden sm:block" />
            )}
            {row.required ? (
              <span className="self-center text-xs text-gray-600 dark:text-gray-400">required</span>
            ) : (
              <button
                type="button"
                aria-label={`Remove ${label.toLowerCase()} ${n}`}
                onClick={() => onChange(rows.filter((item) => item.rowId !== row.rowId))}
                className={`rounded p-1.5 text-gray-500 hover:bg-gray-100 hover:text-red-700 dark:text-gray-400 dark:hover:bg-gray-800 ${FOCUS_RING}`}
              >
                <Trash2 className="size-4" aria-hidden />
              </button>
            )}
            {row.stored && !row.value && (
              <p className="col-span-full text-xs text-gray-600 dark:text-gray-400">
                A value is stored for {row.key}; leave blank to keep it.
              </p>
            )}
          </div>
        )
      })}
      <div>
        <button
          type="button"
          onClick={() => onChange([...rows, newRow()])}
          className={BUTTON.secondary}
        >
          <Plus className="size-4" aria-hidden />
          Add {label.toLowerCase()}
        </button>
      </div>
    </fieldset>
  )
}
