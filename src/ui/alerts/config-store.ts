// The alert configuration being edited (spec 001 §4: any alert config change sets the unsaved
// flag; Save Changes sends the config and clears it; Discard reloads from the server). Shared by
// the Thresholds, Custom rules, Notifications and Schedule tabs.
//
// Decision (the spec is silent): the working copy lives as long as the page. Leaving the alerts
// area and coming back keeps unsaved edits and shows the bar again; only Discard or a reload of
// the page drops them.
import { proxy } from 'valtio'
import type { AlertConfig } from '../../shared/model/alerts.ts'
import { HttpError, apiJson } from '../api/http.ts'
import { showToast } from '../components/toast-store.ts'

export const ALERT_CONFIG_PATH = '/api/alerts/config'

export interface AlertConfigState {
  /** The config as the server last gave or accepted it; null until loaded. */
  saved: AlertConfig | null
  /** The copy the tabs edit; null until loaded. */
  working: AlertConfig | null
  /** The working copy differs from what was saved (spec 001 §4 unsaved flag). */
  dirty: boolean
  /** Increases with every change of `working`: the worker's views echo it. */
  version: number
  loading: boolean
  saving: boolean
  /** Why the first load failed, shown in place of the tabs. */
  loadError: string | null
}

export const alertConfigState = proxy<AlertConfigState>(initialState())

function initialState(): AlertConfigState {
  return {
    saved: null,
    working: null,
    dirty: false,
    version: 0,
    loading: false,
    saving: false,
    loadError: null,
  }
}

let inFlight: Promise<boolean> | null = null

/** Load the config once per page; a later call keeps the working copy (and its edits). */
export function ensureAlertConfig(): Promise<boolean> {
  if (alertConfigState.working) return Promise.resolve(true)
  return reloadAlertConfig()
}

/** GET the config and replace both copies; false (with loadError set) on failure. */
export function reloadAlertConfig(): Promise<boolean> {
  if (inFlight) return inFlight
  alertConfigState.loading = true
  inFlight = apiJson<AlertConfig>(ALERT_CONFIG_PATH)
    .then((config) => {
      if (!config) throw new Error('The server sent no alert configuration')
      setBoth(config)
      alertConfigState.loadError = null
      return true
    })
    .catch((error: unknown) => {
      alertConfigState.loadError = messageOf(error)
      return false
    })
    .finally(() => {
      alertConfigState.loading = false
      inFlight = null
    })
  return inFlight
}

/**
 * Change the working copy: `change` gets the live (proxied) working config to mutate, and returns
 * false when it changed nothing. Marks it dirty. Ignored before the config is loaded.
 */
export function updateAlertConfig(change: (config: AlertConfig) => boolean | void): void {
  const working = alertConfigState.working
  if (!working) return
  if (change(working) === false) return
  alertConfigState.dirty = true
  alertConfigState.version++
}

/** PUT the full working config (spec 001 §7); toasts the outcome, with the server's 400 text. */
export async function saveAlertConfig(): Promise<boolean> {
  const working = alertConfigState.working
  if (!working || alertConfigState.saving) return false
  alertConfigState.saving = true
  // What is sent is what becomes `saved`: edits made while the PUT is on its way stay dirty.
  const sent = JSON.parse(JSON.stringify(working)) as AlertConfig
  const version = alertConfigState.version
  try {
    await apiJson(ALERT_CONFIG_PATH, { method: 'PUT', body: sent })
    alertConfigState.saved = sent
    if (alertConfigState.version === version) alertConfigState.dirty = false
    showToast('Configuration saved successfully!', 'success')
    return true
  } catch (error) {
    const detail = error instanceof HttpError && error.status === 400 ? `: ${error.message}` : ''
    showToast(`Failed to save configuration${detail}`, 'error')
    return false
  } finally {
    alertConfigState.saving = false
  }
}

/** Drop the edits and reload from the server (spec 001 §4 Discard). */
export async function discardAlertConfig(): Promise<boolean> {
  const ok = await reloadAlertConfig()
  if (ok) showToast('Changes discarded', 'info')
  else showToast('Failed to reload configuration', 'error')
  return ok
}

/** Forget everything (tests; a fresh page). */
export function resetAlertConfigStore(): void {
  Object.assign(alertConfigState, initialState())
  inFlight = null
}

function setBoth(config: AlertConfig): void {
  alertConfigState.saved = config
  alertConfigState.working = JSON.parse(JSON.stringify(config)) as AlertConfig
  alertConfigState.dirty = false
  alertConfigState.version++
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}
