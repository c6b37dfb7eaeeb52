// Pure helpers of the alert history tab (spec 001 §2 Alerts: history, §3 History alert, §9 History
// chart): the chart's bucket plan, day grouping in a given time zone, derived status and resource
// type, durations and labels. The zone is a parameter: the worker passes the browser's.
import type { AlertLevel, HistoryAlert, HistoryStatus } from '../model/alerts.ts'
import type {
  HistoryAlertRow,
  HistoryDayRow,
  HistoryRange,
  HistoryResourceType,
  HistorySeverity,
} from './alert-history-types.ts'
import { RESOURCE_TYPE_LABELS, alertMessageText } from './alert-message.ts'
import { toNoteViews } from './alert-notes.ts'

/** The history screen lists at most this many rows (spec 001 §7: limit 1000 on the history screen). */
export const HISTORY_ROW_LIMIT = 1000
/** Spec 001 §9: the chart has at most 30 buckets. */
export const MAX_HISTORY_BUCKETS = 30

const HOUR = 3_600_000
const DAY = 24 * HOUR

/** Spec 001 §9: span and bucket size of each range; 'all' is 90 days in 72 h buckets. */
export const HISTORY_RANGE_PLANS: Record<HistoryRange, { spanMs: number; bucketMs: number }> = {
  '24h': { spanMs: DAY, bucketMs: HOUR },
  '7d': { spanMs: 7 * DAY, bucketMs: 6 * HOUR },
  '30d': { spanMs: 30 * DAY, bucketMs: DAY },
  all: { spanMs: 90 * DAY, bucketMs: 3 * DAY },
}

/** The time window and bucket size that the history and summary calls are asked for. */
export interface HistoryBucketPlan {
  since: number
  until: number
  bucketMs: number
}

/**
 * The plan of `spanMs` ending at `now` in buckets of at least `bucketMs`: a bucket size that
 * would give more than MAX_HISTORY_BUCKETS bars is widened to span / MAX_HISTORY_BUCKETS.
 */
export function planBuckets(spanMs: number, bucketMs: number, now: number): HistoryBucketPlan {
  const size = Math.max(bucketMs, Math.ceil(spanMs / MAX_HISTORY_BUCKETS))
  return { since: now - spanMs, until: now, bucketMs: size }
}

/** The bucket plan of a range (24h: 24 × 1 h, 7d: 28 × 6 h, 30d: 30 × 24 h, all: 30 × 72 h). */
export function planHistoryBuckets(range: HistoryRange, now: number): HistoryBucketPlan {
  const plan = HISTORY_RANGE_PLANS[range]
  return planBuckets(plan.spanMs, plan.bucketMs, now)
}

/** Label of a severity. */
export function severityLabel(level: AlertLevel): string {
  return level === 'critical' ? 'Critical' : 'Warning'
}

/** Labels of the severity filter's options. */
export const SEVERITY_FILTER_LABELS: Record<HistorySeverity, string> = {
  all: 'All Levels',
  critical: 'Critical Only',
  warning: 'Warning Only',
}

/** Labels of the time filter's buttons. */
export const RANGE_LABELS: Record<HistoryRange, string> = {
  '24h': 'Last 24h',
  '7d': 'Last 7d',
  '30d': 'Last 30d',
  all: 'All Time',
}

/**
 * Derived status (spec 001 §3, §4: a resolved alert shows in history "as resolved or
 * acknowledged"): acknowledged wins, then ended rows are resolved, the rest active.
 */
export function deriveHistoryStatus(
  row: Pick<HistoryAlert, 'endTime' | 'acknowledged'> & { status?: string },
): HistoryStatus {
  if (row.acknowledged) return 'acknowledged'
  return row.endTime || row.status === 'resolved' ? 'resolved' : 'active'
}

const STATUS_LABELS: Record<HistoryStatus, string> = {
  active: 'Active',
  acknowledged: 'Acknowledged',
  resolved: 'Resolved',
}

/** Label of a status. */
export function statusLabel(status: HistoryStatus): string {
  return STATUS_LABELS[status]
}

const METADATA_TYPES: Record<string, HistoryResourceType> = {
  VM: 'VM',
  Container: 'CT',
  CT: 'CT',
  Node: 'Node',
  PBS: 'PBS',
  Storage: 'Storage',
  // A physical disk alert is about storage hardware.
  Disk: 'Storage',
}

/**
 * Resource type for display: the row's own when known, else its metadata's, else what its alert
 * type or id says (a reference server's rows carry neither field).
 */
export function deriveResourceType(
  row: Pick<HistoryAlert, 'id' | 'type'> & { resourceType?: unknown; metadata?: unknown },
): HistoryResourceType {
  const own = typeof row.resourceType === 'string' ? METADATA_TYPES[row.resourceType] : undefined
  if (own) return own
  const meta = row.metadata as { resourceType?: unknown } | undefined
  const fromMeta =
    typeof meta?.resourceType === 'string' ? METADATA_TYPES[meta.resourceType] : undefined
  if (fromMeta) return fromMeta
  const type = String(row.type)
  if (row.id.startsWith('pbs-offline-')) return 'PBS'
  if (type === 'connectivity' || row.id.startsWith('node-offline-')) return 'Node'
  if (
    type === 'usage' ||
    type.startsWith('zfs-') ||
    type.startsWith('disk-') ||
    row.id.startsWith('storage-offline-')
  ) {
    return 'Storage'
  }
  return 'Unknown'
}

/** '45s', '12m', '3h 5m', '2d 4h'. */
export function formatAlertDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return '-'
  const seconds = Math.floor(ms / 1000)
  if (seconds < 60) return `${seconds}s`
  const minutes = Math.floor(seconds / 60)
  if (minutes < 60) return `${minutes}m`
  const hours = Math.floor(minutes / 60)
  if (hours < 24) return `${hours}h ${minutes % 60}m`
  return `${Math.floor(hours / 24)}d ${hours % 24}h`
}

/** Intl formatters per zone: building one costs far more than using it. */
const formatters = new Map<string, Intl.DateTimeFormat>()
function formatter(
  zone: string,
  kind: 'ymd' | 'day' | 'time' | 'full' | 'hour',
): Intl.DateTimeFormat {
  const key = `${zone}|${kind}`
  let format = formatters.get(key)
  if (!format) {
    const options: Intl.DateTimeFormatOptions =
      kind === 'ymd'
        ? { year: 'numeric', month: 'numeric', day: 'numeric' }
        : kind === 'day'
          ? { month: 'short', day: 'numeric' }
          : kind === 'time'
            ? { hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' }
            : kind === 'hour'
              ? { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }
              : { dateStyle: 'medium', timeStyle: 'medium', hourCycle: 'h23' }
    format = new Intl.DateTimeFormat('en-US', { ...options, timeZone: zone })
    formatters.set(key, format)
  }
  return format
}

/** Days since 1970-01-01 of the calendar date `ms` falls on in `zone`. */
export function localDayNumber(ms: number, zone: string): number {
  let year = 0
  let month = 0
  let day = 0
  for (const part of formatter(zone, 'ymd').formatToParts(ms)) {
    if (part.type === 'year') year = Number(part.value)
    else if (part.type === 'month') month = Number(part.value)
    else if (part.type === 'day') day = Number(part.value)
  }
  return Math.round(Date.UTC(year, month - 1, day) / DAY)
}

/** 'Today', 'Yesterday' or 'Nov 3' for `ms` seen from `now` in `zone`. */
export function dayLabel(ms: number, now: number, zone: string): string {
  const diff = localDayNumber(now, zone) - localDayNumber(ms, zone)
  if (diff === 0) return 'Today'
  if (diff === 1) return 'Yesterday'
  return formatter(zone, 'day').format(ms)
}

/** One entry of the grouped list: a day header, or the index of a row in the fetched rows. */
export type HistoryListItem = HistoryDayRow | { kind: 'alert'; index: number }

/**
 * Groups rows (newest first, as the server sends them) by local day: a header before each day's
 * first row. Rows with an unreadable start time go under 'Unknown date'.
 */
export function groupHistoryByDay(
  rows: readonly Pick<HistoryAlert, 'startTime'>[],
  now: number,
  zone: string,
): HistoryListItem[] {
  const items: HistoryListItem[] = []
  let header: HistoryDayRow | null = null
  let current = Number.NaN
  for (let index = 0; index < rows.length; index++) {
    const ms = Date.parse(rows[index]!.startTime)
    const day = Number.isNaN(ms) ? -1 : localDayNumber(ms, zone)
    if (header === null || day !== current) {
      current = day
      const label = day === -1 ? 'Unknown date' : dayLabel(ms, now, zone)
      header = { kind: 'day', key: `day:${day}`, label, count: 0 }
      items.push(header)
    }
    header.count++
    items.push({ kind: 'alert', index })
  }
  return items
}

/** A history row formatted for the table (only the rows in view are formatted). */
export function formatHistoryRow(row: HistoryAlert, zone: string): HistoryAlertRow {
  const ms = Date.parse(row.startTime)
  const valid = !Number.isNaN(ms)
  const status = deriveHistoryStatus(row)
  const resourceType = deriveResourceType(row)
  return {
    kind: 'alert',
    key: `alert:${row.historyId}`,
    alertId: row.id,
    resourceId: row.resourceId,
    startSec: valid ? Math.floor(ms / 1000) : null,
    endSec: toSeconds(row.endTime),
    timestampText: valid ? formatter(zone, 'time').format(ms) : '-',
    timestampTitle: valid ? formatter(zone, 'full').format(ms) : row.startTime,
    resource: row.resourceName || row.resourceId || '-',
    resourceType,
    resourceTypeText: RESOURCE_TYPE_LABELS[resourceType],
    level: row.level,
    severityText: severityLabel(row.level),
    // The level is the occurrence's highest: the message leads with the peak that reached it.
    message: alertMessageText(row, true),
    alertType: String(row.type),
    durationText: formatAlertDuration(row.duration),
    status,
    // An acknowledged row says whether it is still going on: the status alone cannot.
    statusText:
      status === 'acknowledged' && row.endTime
        ? `${statusLabel(status)} (resolved)`
        : statusLabel(status),
    node: row.node || '-',
    notes: toNoteViews(row.notes),
  }
}

function toSeconds(iso: string | undefined): number | null {
  const ms = iso ? Date.parse(iso) : NaN
  return Number.isNaN(ms) ? null : Math.floor(ms / 1000)
}

/** Axis label of a bucket starting at `ms`: the time for hour buckets, the day for day buckets. */
export function bucketLabel(ms: number, bucketMs: number, zone: string): string {
  if (bucketMs >= DAY) return formatter(zone, 'day').format(ms)
  const time = formatter(zone, 'hour').format(ms)
  return bucketMs <= HOUR ? time : `${formatter(zone, 'day').format(ms)} ${time}`
}
