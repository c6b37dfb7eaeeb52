import { Archive, Bell, Check, Pencil, Trash2, Unplug, X } from 'lucide-react'
import type { CSSProperties } from 'react'
import type { AlertMetric } from '../../shared/model/alerts.ts'
import type { ThresholdResourceRow } from '../../shared/views/alert-thresholds-types.ts'
import type { GuestGroupRow } from '../../shared/views/guest-view-types.ts'
import { clampThresholdInput } from '../../shared/views/alert-override-edit.ts'
import { countText } from '../../shared/format/count.ts'
import { FOCUS_RING } from '../components/button-classes.ts'
import { Switch } from '../components/Switch.tsx'
import {
  beginRowEdit,
  cancelRowEdit,
  removeRowOverride,
  saveEditedRow,
  setRowDraft,
  setRowBackupAlerts,
  setRowFlag,
  type ThresholdEdit,
} from './threshold-edit-state.ts'
import { METRIC_LABELS, formatTrigger } from './threshold-labels.ts'
import { NUMBER_INPUT } from './ThresholdInput.tsx'

/** Fixed: the guest table is virtualised at this height, edit mode included. */
export const THRESHOLD_ROW_HEIGHT = 44

/** Which per-row toggles a table has (spec 001 §2, §4). */
export interface RowToggles {
  disable: boolean
  connectivity: boolean
  /** Issue 26: backup alerts of a guest, job alerts of a PBS. */
  backups: 'guest' | 'pbs' | null
}

/** The grid columns: resource, type, status, one per metric, alerts, actions. */
export function gridTemplate(metricCount: number): CSSProperties {
  return {
    gridTemplateColumns: `minmax(10rem,1.6fr) 4rem 5.5rem repeat(${metricCount}, minmax(4.5rem,1fr)) 3.5rem 18rem`,
  }
}

const ICON_BUTTON = `rounded p-1 text-gray-500 hover:bg-gray-100 hover:text-gray-900 dark:text-gray-400 dark:hover:bg-gray-800 dark:hover:text-gray-100 ${FOCUS_RING}`

interface RowProps {
  row: ThresholdResourceRow
  columns: readonly AlertMetric[]
  toggles: RowToggles
  /** The edit under way when it is this row's. */
  edit: ThresholdEdit | null
  rowIndex: number
  style?: CSSProperties
}

/** One resource (spec 001 §4 Threshold rows): view or edit, with its toggles. */
export function ThresholdRowView({ row, columns, toggles, edit, rowIndex, style }: RowProps) {
  const editing = edit !== null
  return (
    <div
      role="row"
      aria-rowindex={rowIndex}
      style={{ ...gridTemplate(columns.length), height: THRESHOLD_ROW_HEIGHT, ...style }}
      className={`grid items-center gap-x-2 border-b border-gray-100 px-3 text-sm dark:border-gray-800 ${
        editing ? 'bg-blue-50 dark:bg-blue-950/40' : ''
      } ${row.disabled ? 'text-gray-400 dark:text-gray-500' : 'text-gray-800 dark:text-gray-200'}`}
    >
      <div role="cell" className="min-w-0 truncate font-medium" title={row.id}>
        {row.name}
        {row.vmid !== null && (
          <span className="ml-1.5 text-xs text-gray-500 tabular-nums dark:text-gray-400">
            {row.vmid}
          </span>
        )}
        {row.hasOverride && (
          <span className="ml-1.5 rounded bg-blue-100 px-1 text-xs text-blue-800 dark:bg-blue-900 dark:text-blue-100">
            Custom
          </span>
        )}
      </div>
      <div role="cell" className="text-xs">
        {row.typeLabel}
      </div>
      <div role="cell" className="truncate text-xs">
        {row.status}
      </div>
      {columns.map((metric) => (
        <MetricCell key={metric} row={row} metric={metric} edit={edit} />
      ))}
      <div role="cell" className="text-right tabular-nums">
        {row.alertCount > 0 ? (
          <span className="rounded bg-red-100 px-1.5 text-xs font-semibold text-red-800 dark:bg-red-900 dark:text-red-100">
            {row.alertCount}
          </span>
        ) : (
          <span className="text-gray-400">0</span>
        )}
      </div>
      <div role="cell" className="flex items-center justify-end gap-1.5">
        {editing ? (
          <>
            <button
              type="button"
              className={ICON_BUTTON}
              aria-label={`Save thresholds for ${row.name}`}
              onClick={saveEditedRow}
            >
              <Check className="size-4 text-green-600" aria-hidden />
            </button>
            <button
              type="button"
              className={ICON_BUTTON}
              aria-label={`Cancel editing ${row.name}`}
              onClick={cancelRowEdit}
            >
              <X className="size-4" aria-hidden />
            </button>
          </>
        ) : (
          <>
            <button
              type="button"
              className={ICON_BUTTON}
              aria-label={`Edit thresholds for ${row.name}`}
              onClick={() => beginRowEdit(row)}
            >
              <Pencil className="size-4" aria-hidden />
            </button>
            {row.hasOverride && (
              <button
                type="button"
                className={ICON_BUTTON}
                aria-label={`Remove override for ${row.name}`}
                onClick={() => removeRowOverride(row.id)}
              >
                <Trash2 className="size-4" aria-hidden />
              </button>
            )}
          </>
        )}
        {toggles.disable && (
          <span className="flex items-center gap-1 text-xs" title="Alerts for this resource">
            <Bell className="size-3.5 text-gray-400" aria-hidden />
            <Switch
              checked={!row.disabled}
              label={`Alerts for ${row.name}`}
              onChange={(on) => setRowFlag(row.id, 'disabled', !on)}
            />
          </span>
        )}
        {toggles.backups && (
          <span
            className="flex items-center gap-1 text-xs"
            title={toggles.backups === 'pbs' ? 'Backup job alerts' : 'Backup alerts'}
          >
            <Archive className="size-3.5 text-gray-400" aria-hidden />
            <Switch
              checked={!row.backupOff}
              label={`${toggles.backups === 'pbs' ? 'Backup job alerts' : 'Backup alerts'} for ${row.name}`}
              onChange={(on) => setRowBackupAlerts(row.id, on)}
            />
          </span>
        )}
        {toggles.connectivity && (
          <span className="flex items-center gap-1 text-xs" title="Connectivity alerts">
            <Unplug className="size-3.5 text-gray-400" aria-hidden />
            <Switch
              checked={!row.disableConnectivity}
              label={`Connectivity alerts for ${row.name}`}
              onChange={(on) => setRowFlag(row.id, 'disableConnectivity', !on)}
            />
          </span>
        )}
      </div>
    </div>
  )
}

function MetricCell({
  row,
  metric,
  edit,
}: {
  row: ThresholdResourceRow
  metric: AlertMetric
  edit: ThresholdEdit | null
}) {
  if (row.notApplicable.includes(metric)) {
    return (
      <div role="cell" className="text-right text-gray-400" title="Not applicable">
        <span aria-label="Not applicable">—</span>
      </div>
    )
  }
  if (edit) {
    const label = `${METRIC_LABELS[metric]} for ${row.name}`
    return (
      <div role="cell" className="text-right">
        <input
          type="text"
          inputMode="numeric"
          aria-label={label}
          value={edit.drafts[metric] ?? ''}
          onChange={(event) => setRowDraft(metric, event.target.value)}
          onBlur={(event) =>
            setRowDraft(metric, String(clampThresholdInput(event.target.value, metric, 'table')))
          }
          onKeyDown={(event) => {
            if (event.key === 'Enter') saveEditedRow()
            else if (event.key === 'Escape') cancelRowEdit()
          }}
          className={NUMBER_INPUT}
        />
      </div>
    )
  }
  const value = row.thresholds[metric]
  const custom = row.override[metric] !== undefined && row.override[metric] !== row.defaults[metric]
  return (
    <div
      role="cell"
      className={`text-right tabular-nums ${custom ? 'font-semibold text-blue-700 dark:text-blue-300' : ''}`}
    >
      {formatTrigger(value)}
    </div>
  )
}

/** A node header in the grouped guest table. */
export function ThresholdGroupRow({
  row,
  rowIndex,
  style,
}: {
  row: GuestGroupRow
  rowIndex: number
  style?: CSSProperties
}) {
  return (
    <div
      role="row"
      aria-rowindex={rowIndex}
      style={{ height: THRESHOLD_ROW_HEIGHT, ...style }}
      className="flex items-center gap-2 border-b border-gray-200 bg-gray-50 px-3 text-sm font-semibold text-gray-700 dark:border-gray-800 dark:bg-gray-800/60 dark:text-gray-200"
    >
      <div role="cell" className="flex items-center gap-2">
        <span
          aria-hidden
          className={`size-2 rounded-full ${row.online ? 'bg-green-500' : 'bg-red-500'}`}
        />
        {row.label}
        <span className="text-xs font-normal text-gray-500 dark:text-gray-400">
          {row.sublabel} · {countText(row.guestCount, 'guest')}
        </span>
      </div>
    </div>
  )
}
