// The Alerts overview protocol between the worker and the UI (spec 001 §2 Alerts: overview, §4
// Alert; spec 000 §4 optimistic acknowledgement).
import type { AlertLevel } from '../model/alerts.ts'
import type { AlertNoteView } from './alert-notes.ts'
import type { ViewWindow } from './guest-view-types.ts'

/** What the overview asks the worker for. */
export interface AlertsOverviewRequest {
  kind: 'alertsOverview'
  /** False hides acknowledged alerts from the rows (the counters still count them). */
  showAcknowledged: boolean
  /** Epoch ms the 'since' texts are relative to; default the worker's clock (to the minute). */
  now?: number
  /** Rows to format: an estate in trouble can hold 100,000 alerts. Default the first 200. */
  window?: ViewWindow
  /**
   * Issue 28: keep the alerts whose resource, node, type, level or message hold every word
   * (case-insensitive); '' or absent keeps all.
   */
  search?: string
  /** Issue 28: also answer the ids of every row shown (all matching), for a bulk action. */
  withIds?: boolean
}

/** One active alert, formatted for the list. */
export interface AlertsOverviewRow {
  id: string
  level: AlertLevel
  type: string
  resourceName: string
  resourceId: string
  node: string
  instance: string
  message: string
  /** '91.3%', '120.5 MB/s', '82.0°C'; '' for state alerts (offline, powered off). */
  valueText: string
  thresholdText: string
  /** ISO 8601, as the server sent it. */
  startTime: string
  /** '5m ago', '2h 5m ago', '3d 4h ago', 'just now'; '' when the start time is unreadable. */
  sinceText: string
  acknowledged: boolean
  ackUser: string
  ackTime: string
  stale: boolean
  flapping: boolean
  /** Issue 28: the silence covering it ('' when none), and its time left ('43m left'). */
  silenceId: string
  silencedText: string
  /** 'VM', 'Container', 'Node', 'PBS', 'Storage', 'Disk', or '' when the alert does not say. */
  resourceType: string
  /** An ack or unack of this alert is in flight (applied locally, not yet confirmed). */
  pending: boolean
  /** Issue 28: notes on this occurrence, oldest first. */
  notes: AlertNoteView[]
}

/** What the worker answers. */
export interface AlertsOverviewModel {
  kind: 'alertsOverview'
  version: number
  /** Unacknowledged active alerts. */
  active: number
  /** Acknowledged active alerts. */
  acknowledged: number
  /** Changes whenever an alert fires or ends (a hash of the active occurrences). */
  occurrences: number
  /** Rows shown (after hiding acknowledged ones); `rows` is the window from `start`. */
  rowCount: number
  start: number
  rows: AlertsOverviewRow[]
  /** With `withIds`: the id of every row shown, in order (all pages, not just the window). */
  matchingIds?: string[]
}
