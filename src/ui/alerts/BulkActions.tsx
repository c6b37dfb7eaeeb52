import { useCallback, useState } from 'react'
import type { BulkAlertResult } from '../../shared/model/alerts.ts'
import type { AlertsOverviewModel } from '../../shared/views/alerts-overview-types.ts'
import { apiJson } from '../api/http.ts'
import { useRole } from '../auth/useRole.ts'
import { BUTTON } from '../components/button-classes.ts'
import { ConfirmDialog } from '../components/ConfirmDialog.tsx'
import { showToast } from '../components/toast-store.ts'

/**
 * The Overview's selection (issue 28 item 3): alerts picked one by one, or every alert matching
 * the current filter (`all`, resolved to ids by the worker when an action runs; the rows picked
 * off since are in `except`).
 */
export interface AlertSelection {
  all: boolean
  ids: ReadonlySet<string>
  except: ReadonlySet<string>
}

export const NO_SELECTION: AlertSelection = { all: false, ids: new Set(), except: new Set() }

export function isSelected(selection: AlertSelection, id: string): boolean {
  return selection.all ? !selection.except.has(id) : selection.ids.has(id)
}

/** The selection with one alert picked or dropped. */
export function toggleSelected(selection: AlertSelection, id: string): AlertSelection {
  if (selection.all) {
    const except = new Set(selection.except)
    if (except.has(id)) except.delete(id)
    else except.add(id)
    return { ...selection, except }
  }
  const ids = new Set(selection.ids)
  if (ids.has(id)) ids.delete(id)
  else ids.add(id)
  return { ...selection, ids }
}

/** How many alerts the selection holds, given how many match the filter. */
export function selectedCount(selection: AlertSelection, matching: number): number {
  return selection.all ? Math.max(0, matching - selection.except.size) : selection.ids.size
}

/** The ids an action applies to: with `all`, the worker's matching ids at this moment. */
export function selectedIds(selection: AlertSelection, matchingIds: readonly string[] | undefined) {
  if (!selection.all) return [...selection.ids]
  return (matchingIds ?? []).filter((id) => !selection.except.has(id))
}

type BulkAction = 'acknowledge' | 'unacknowledge' | 'clear'

const DONE: Record<BulkAction, string> = {
  acknowledge: 'acknowledged',
  unacknowledge: 'unacknowledged',
  clear: 'cleared',
}

const plural = (n: number) => `${n.toLocaleString('en')} alert${n === 1 ? '' : 's'}`

/**
 * The bar over the list while alerts are selected: Acknowledge, Unacknowledge and Clear (after a
 * confirmation) in one request each (POST /api/alerts/bulk/…), and "Select all N matching".
 */
export function BulkBar({
  model,
  selection,
  onSelection,
}: {
  model: AlertsOverviewModel
  selection: AlertSelection
  onSelection: (next: AlertSelection) => void
}) {
  const [running, setRunning] = useState<BulkAction | null>(null)
  const [confirmClear, setConfirmClear] = useState(false)
  const count = selectedCount(selection, model.rowCount)
  const run = useCallback(
    async (action: BulkAction) => {
      const alertIds = selectedIds(selection, model.matchingIds)
      if (alertIds.length === 0) return
      setRunning(action)
      try {
        const answer = await apiJson<BulkAlertResult>(`/api/alerts/bulk/${action}`, {
          method: 'POST',
          body: { alertIds },
        })
        const results = answer?.results ?? []
        const done = results.filter((r) => r.success).length
        const missed = results.length - done
        showToast(
          `${plural(done)} ${DONE[action]}${missed > 0 ? `; ${missed.toLocaleString('en')} had already ended` : ''}`,
          missed > 0 ? 'warning' : 'success',
        )
        onSelection(NO_SELECTION)
      } catch (error) {
        showToast(
          `Could not ${action} the alerts: ${error instanceof Error ? error.message : String(error)}`,
          'error',
        )
      } finally {
        setRunning(null)
      }
    },
    [selection, model.matchingIds, onSelection],
  )
  const operate = useRole().can('operator')
  if (count === 0 || !operate) return null
  const waitingForIds = selection.all && model.matchingIds === undefined
  const disabled = running !== null || waitingForIds
  return (
    <div
      role="toolbar"
      aria-label="Selected alerts"
      className="flex flex-wrap items-center gap-2 rounded-md border border-blue-200 bg-blue-50 px-3 py-2 text-sm dark:border-blue-900 dark:bg-blue-950"
    >
      <span
        className="font-medium text-blue-900 tabular-nums dark:text-blue-100"
        aria-live="polite"
      >
        {plural(count)} selected
      </span>
      {!selection.all && model.rowCount > count && (
        <button
          type="button"
          className="text-blue-700 underline hover:no-underline dark:text-blue-300"
          onClick={() => onSelection({ all: true, ids: new Set(), except: new Set() })}
        >
          Select all {model.rowCount.toLocaleString('en')} matching
        </button>
      )}
      <span className="ml-auto flex flex-wrap gap-2">
        <button
          type="button"
          className={`${BUTTON.primary} px-2 py-1 text-xs disabled:opacity-60`}
          disabled={disabled}
          onClick={() => void run('acknowledge')}
        >
          {running === 'acknowledge' ? 'Acknowledging...' : 'Acknowledge'}
        </button>
        <button
          type="button"
          className={`${BUTTON.secondary} px-2 py-1 text-xs disabled:opacity-60`}
          disabled={disabled}
          onClick={() => void run('unacknowledge')}
        >
          {running === 'unacknowledge' ? 'Unacknowledging...' : 'Unacknowledge'}
        </button>
        <button
          type="button"
          className={`${BUTTON.secondary} px-2 py-1 text-xs disabled:opacity-60`}
          disabled={disabled}
          onClick={() => setConfirmClear(true)}
        >
          Clear
        </button>
        <button
          type="button"
          className={`${BUTTON.secondary} px-2 py-1 text-xs`}
          onClick={() => onSelection(NO_SELECTION)}
        >
          Clear selection
        </button>
      </span>
      {confirmClear && (
        <ConfirmDialog
          title={`Clear ${plural(count)}?`}
          describedBy="bulk-clear-text"
          confirmLabel="Clear alerts"
          busyLabel="Clearing..."
          tone="danger"
          onConfirm={async () => {
            await run('clear')
            setConfirmClear(false)
          }}
          onClose={() => setConfirmClear(false)}
        >
          <p id="bulk-clear-text" className="text-sm">
            They leave the active list and their history ends as cleared. An alert whose condition
            still holds opens again after its delay.
          </p>
        </ConfirmDialog>
      )}
    </div>
  )
}
