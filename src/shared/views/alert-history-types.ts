// The alert history view's request and model (spec 001 §2 Alerts: history). The worker fetches
// the rows from the server (filtered and paged there) and answers this model.
import type { AlertNoteView } from './alert-notes.ts'
import type { AlertLevel, HistoryAlert, HistoryStatus } from '../model/alerts.ts'
import type { ViewWindow } from './guest-view-types.ts'

/** Time filters of the history tab (spec 001 §2), default 7d. */
export const HISTORY_RANGES = ['24h', '7d', '30d', 'all'] as const
export type HistoryRange = (typeof HISTORY_RANGES)[number]

/** Severity filter values: All Levels, Critical Only, Warning Only. */
export const HISTORY_SEVERITIES = ['all', 'critical', 'warning'] as const
export type HistorySeverity = (typeof HISTORY_SEVERITIES)[number]

/** Resource type shown in the Type column (spec 001 §3 History alert). */
export type HistoryResourceType = HistoryAlert['resourceType']

/** A chart bucket chosen by a click: occurrences that started in [start, end). */
export interface HistoryBucketFilter {
  start: number
  end: number
}

export interface AlertHistoryRequest {
  kind: 'alertHistory'
  range: HistoryRange
  severity: HistorySeverity
  /** Free text, matched by the server (message, resource, node, type, id). */
  search: string
  bucket: HistoryBucketFilter | null
  window: ViewWindow
  /** Bumped by the UI after it changed the history (Clear All History): the worker refetches. */
  reload: number
  /** Only this resource's occurrences (a resource page, issue 25). */
  resourceId?: string
}

/** One bar of the frequency chart. */
export interface HistoryChartBucket {
  start: number
  end: number
  count: number
  critical: number
  warning: number
  /** Start of the bucket for the axis and the Clear filter button ('14:00', 'Nov 3 18:00'). */
  label: string
}

/** A day header of the grouped table. */
export interface HistoryDayRow {
  kind: 'day'
  key: string
  /** 'Today', 'Yesterday' or 'Nov 3'. */
  label: string
  count: number
}

/** One alert occurrence, formatted for display. */
export interface HistoryAlertRow {
  kind: 'alert'
  key: string
  alertId: string
  /** The resource's id, for its metrics history (issue 25). */
  resourceId: string
  /** Unix seconds the occurrence began, or null when the row's time is unreadable. */
  startSec: number | null
  /** Unix seconds it ended; null while active. */
  endSec: number | null
  /** Time of day ('14:05:09'); the day is the group's. */
  timestampText: string
  /** Full local date and time, for a tooltip. */
  timestampTitle: string
  resource: string
  resourceType: HistoryResourceType
  /** The type as the rest of the UI writes it (VM, LXC, Node...). */
  resourceTypeText: string
  /** The highest level the occurrence reached. */
  level: AlertLevel
  severityText: string
  /** Metric alerts: the peak (labelled when it differs from the last value), else the message. */
  message: string
  /** The alert's type (cpu, memory, connectivity...), for a tooltip. */
  alertType: string
  durationText: string
  status: HistoryStatus
  statusText: string
  node: string
  /** Issue 28: notes on the occurrence, oldest first. */
  notes: AlertNoteView[]
}

export type HistoryViewRow = HistoryDayRow | HistoryAlertRow

export interface AlertHistoryModel {
  kind: 'alertHistory'
  version: number
  /** A fetch for the current filters is under way; the rows are the previous answer's. */
  loading: boolean
  /** Why the last fetch failed, or null. */
  error: string | null
  /** Rows matching the filters on the server. */
  total: number
  /** Rows held and listed (at most HISTORY_ROW_LIMIT). */
  shown: number
  /** False until the first answer arrives. */
  loaded: boolean
  bucketMs: number
  buckets: HistoryChartBucket[]
  /** Day headers plus alert rows. */
  rowCount: number
  /** Index of rows[0] in the whole list. */
  start: number
  rows: HistoryViewRow[]
}
