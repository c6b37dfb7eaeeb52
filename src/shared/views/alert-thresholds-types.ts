// The Thresholds tab protocol between the worker and the UI (spec 001 §2 Alerts: thresholds, §3
// Threshold override row, §4 Threshold rows). One subscription per table: scrolling the guest
// table pushes only the guest section, and a 100k-guest estate never crosses the boundary whole.
import type { AlertConfig, AlertMetric } from '../model/alerts.ts'
import type { GuestGroupRow, ViewWindow } from './guest-view-types.ts'

/** The four tables of the tab, in display order. */
export const THRESHOLD_SECTIONS = ['nodes', 'pbs', 'guests', 'storage'] as const
export type ThresholdSection = (typeof THRESHOLD_SECTIONS)[number]

/** The metric columns of each table (spec 001 §2), in column order. */
export const SECTION_COLUMNS: Readonly<Record<ThresholdSection, readonly AlertMetric[]>> = {
  nodes: ['cpu', 'memory', 'disk', 'temperature'],
  pbs: ['cpu', 'memory'],
  guests: ['cpu', 'memory', 'disk', 'diskRead', 'diskWrite', 'networkIn', 'networkOut'],
  storage: ['usage'],
}

/** The resource kinds of spec 001 §3 Threshold override row (`type`). */
export type ThresholdResourceKind = 'guest' | 'node' | 'pbs' | 'storage'
/** Spec 001 §3 `resourceType`. */
export type ThresholdTypeLabel = 'VM' | 'CT' | 'Node' | 'PBS' | 'Storage'

/** What the UI asks for. The working config itself goes once per change through setAlertConfig. */
export interface AlertThresholdsViewRequest {
  kind: 'alertThresholds'
  section: ThresholdSection
  /**
   * Guests: the guest search language (spec 000 §5). Others: every word in the name, node, id,
   * type or status. A search that is exactly a type (vm, ct, lxc, node, pbs, storage) keeps only
   * resources of that type.
   */
  search: string
  /** Rows (group headers included) the UI wants. */
  window: ViewWindow
}

/** One resource row (spec 001 §3 Threshold override row). */
export interface ThresholdResourceRow {
  kind: 'resource'
  key: string
  /** The override key: the resource id (`pbs-<name>` for PBS). */
  id: string
  name: string
  type: ThresholdResourceKind
  typeLabel: ThresholdTypeLabel
  /** Guests only; null otherwise. */
  vmid: number | null
  node: string
  instance: string
  status: string
  /** Effective trigger per applicable metric (override, else defaults); <= 0 means off. */
  thresholds: Partial<Record<AlertMetric, number>>
  /** The defaults' trigger per applicable metric. */
  defaults: Partial<Record<AlertMetric, number>>
  /** The override's trigger per metric it sets. */
  override: Partial<Record<AlertMetric, number>>
  /** Metrics that make no sense for this resource (spec 001 §2: shown as not applicable). */
  notApplicable: AlertMetric[]
  /** Spec 001 §4: a threshold differs from defaults, or disabled, or connectivity disabled. */
  hasOverride: boolean
  disabled: boolean
  disableConnectivity: boolean
  /** Issue 26: the override switches this resource's backup alerts off (a guest; a PBS's jobs). */
  backupOff: boolean
  /** Active alerts on this resource. */
  alertCount: number
}

export type ThresholdViewRow = ThresholdResourceRow | GuestGroupRow

export interface AlertThresholdsViewModel {
  kind: 'alertThresholds'
  version: number
  section: ThresholdSection
  /** The version of the config (setAlertConfig) the rows were computed from; 0 before any. */
  configVersion: number
  /** Resources in the section, and those the search keeps. */
  total: number
  matched: number
  /** Rows, group headers included (guests are grouped by node). */
  rowCount: number
  start: number
  rows: ThresholdViewRow[]
}

/** The working config as the worker holds it, with the version the UI gave it. */
export interface VersionedAlertConfig {
  config: AlertConfig | null
  version: number
}
