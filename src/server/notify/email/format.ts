// Small formatters the email renderer uses per alert. Each runs once per event of a message
// (10,000 events must render in well under 100 ms): no regex unless a value needs escaping.
import { ALERT_METRICS, type Alert, type AlertMetric } from '../../../shared/model/alerts.ts'
import type { NotificationEvent } from '../../../shared/model/notifications.ts'

const METRICS: ReadonlySet<string> = new Set(ALERT_METRICS)

/** The unit of a metric alert without metadata (as the engine's; notify may not import alerts/). */
function unitOf(metric: AlertMetric): string {
  if (metric === 'temperature') return '°C'
  if (metric === 'diskRead' || metric === 'diskWrite') return 'MB/s'
  if (metric === 'networkIn' || metric === 'networkOut') return 'MB/s'
  return '%'
}
const NEEDS_ESCAPE = /[&<>"']/
const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
}

/** Text safe inside HTML elements and attribute values. */
export function escapeHtml(text: string): string {
  if (!NEEDS_ESCAPE.test(text)) return text
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]!)
}

/** Milliseconds as the reference's durations: '45s', '12m', '3h 5m', '2d 4h'. */
export function formatDuration(ms: number): string {
  const total = Number.isFinite(ms) && ms > 0 ? Math.floor(ms / 1000) : 0
  if (total < 60) return `${total}s`
  const minutes = Math.floor(total / 60)
  if (minutes < 60) return `${minutes}m`
  const hours = Math.floor(minutes / 60)
  if (hours < 24) return `${hours}h ${minutes % 60}m`
  return `${Math.floor(hours / 24)}d ${hours % 24}h`
}

/** '95.0% / 90%' for a metric alert; '' for a state alert (offline, powered-off, ...). */
export function formatValue(alert: Alert): string {
  if (!METRICS.has(alert.type)) return ''
  const unit = alert.metadata?.unit ?? unitOf(alert.type as AlertMetric)
  const sep = unit === 'MB/s' ? ' ' : ''
  return `${alert.value.toFixed(1)}${sep}${unit} / ${alert.threshold}${sep}${unit}`
}

/** How long the alert lasted (resolved) or has lasted until the event. */
export function eventDuration(event: NotificationEvent): string {
  const alert = event.alert
  const end = 'resolvedTime' in alert ? Date.parse(alert.resolvedTime) : event.at
  return formatDuration(end - Date.parse(alert.startTime))
}

/** 'web-01 (pve1)', or just 'pve1' when the resource is the node itself. */
export function where(alert: Alert): string {
  if (!alert.node || alert.node === alert.resourceName) return alert.resourceName || alert.node
  return `${alert.resourceName} (${alert.node})`
}

/** The event's state word for tables and subjects. */
export function eventLabel(event: NotificationEvent): string {
  switch (event.kind) {
    case 'resolved':
      return 'RESOLVED'
    case 'escalated':
      return 'ESCALATED to CRITICAL'
    case 'escalation':
      return `UNACKNOWLEDGED ${event.alert.level.toUpperCase()} (level ${event.level ?? 1})`
    default:
      return event.alert.level.toUpperCase()
  }
}

/**
 * One line for one event: 'CRITICAL: VM cpu at 95.0% on web-01 (pve1)'; a resolution names what
 * ended and how long it lasted: 'RESOLVED: VM cpu on web-01 (pve1) after 12m'.
 */
export function eventLine(event: NotificationEvent): string {
  const alert = event.alert
  const label = eventLabel(event)
  if (event.kind === 'resolved') {
    const what = `${alert.metadata?.resourceType ?? ''} ${alert.type}`.trim()
    return `${label}: ${what} on ${where(alert)} after ${eventDuration(event)}`
  }
  // State messages often name the resource already ("Node 'pve1' is offline").
  const named = alert.resourceName !== '' && alert.message.includes(alert.resourceName)
  const place = named
    ? alert.node && alert.node !== alert.resourceName
      ? ` (${alert.node})`
      : ''
    : ` on ${where(alert)}`
  return `${label}: ${alert.message}${place}`
}
