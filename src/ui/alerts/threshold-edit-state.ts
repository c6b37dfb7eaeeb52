// Which threshold row is being edited and its draft values (spec 001 §4 Threshold rows: view and
// edit). Kept outside the rows: a virtualised row scrolled out of view must not lose its edit.
import { proxy } from 'valtio'
import type { AlertConfig, AlertMetric } from '../../shared/model/alerts.ts'
import type { ThresholdResourceRow } from '../../shared/views/alert-thresholds-types.ts'
import {
  clampThresholdInput,
  removeOverride,
  saveRowEdit,
  startRowEdit,
  toggleOverrideFlag,
} from '../../shared/views/alert-override-edit.ts'
import { toggleBackupAlerts } from '../../shared/views/alert-threshold-backups.ts'
import { updateAlertConfig } from './config-store.ts'

export interface ThresholdEdit {
  /** Override key of the row. */
  id: string
  /** Input text per metric: validated (§5) when the row is saved. */
  drafts: Partial<Record<AlertMetric, string>>
  defaults: Partial<Record<AlertMetric, number>>
}

export const thresholdEditState = proxy<{ edit: ThresholdEdit | null }>({ edit: null })

/** Begin editing `row`: the drafts start from the defaults with its override over them. */
export function beginRowEdit(row: ThresholdResourceRow): void {
  const start = startRowEdit(row.defaults, row.override)
  const drafts: ThresholdEdit['drafts'] = {}
  for (const metric of Object.keys(start) as AlertMetric[]) drafts[metric] = String(start[metric])
  thresholdEditState.edit = { id: row.id, drafts, defaults: { ...row.defaults } }
}

export function setRowDraft(metric: AlertMetric, text: string): void {
  const edit = thresholdEditState.edit
  if (edit) edit.drafts[metric] = text
}

export function cancelRowEdit(): void {
  thresholdEditState.edit = null
}

/** Save the edited row into the working config (not the server: that is Save Changes). */
export function saveEditedRow(): void {
  const edit = thresholdEditState.edit
  if (!edit) return
  const values: Partial<Record<AlertMetric, number>> = {}
  for (const metric of Object.keys(edit.drafts) as AlertMetric[]) {
    values[metric] = clampThresholdInput(edit.drafts[metric] ?? '', metric, 'table')
  }
  const defaults = { ...edit.defaults }
  const id = edit.id
  updateAlertConfig((config) =>
    replaceOverrides(config, (all) => saveRowEdit(all, id, values, defaults)),
  )
  thresholdEditState.edit = null
}

export function removeRowOverride(id: string): void {
  updateAlertConfig((config) => replaceOverrides(config, (all) => removeOverride(all, id)))
  if (thresholdEditState.edit?.id === id) thresholdEditState.edit = null
}

export function setRowFlag(
  id: string,
  flag: 'disabled' | 'disableConnectivity',
  on: boolean,
): void {
  updateAlertConfig((config) =>
    replaceOverrides(config, (all) => toggleOverrideFlag(all, id, flag, on)),
  )
}

/** Issue 26: switch a guest's backup alerts (or a PBS's job alerts) on or off. */
export function setRowBackupAlerts(id: string, on: boolean): void {
  updateAlertConfig((config) => replaceOverrides(config, (all) => toggleBackupAlerts(all, id, on)))
}

// The pure edits take plain data (a copy of the proxied overrides) and return the same object when
// nothing changed: then the config is not marked dirty.
function replaceOverrides(
  config: AlertConfig,
  edit: (overrides: AlertConfig['overrides']) => Readonly<AlertConfig['overrides']>,
): boolean {
  const current = JSON.parse(JSON.stringify(config.overrides)) as AlertConfig['overrides']
  const next = edit(current)
  if (next === current) return false
  config.overrides = { ...next }
  return true
}
