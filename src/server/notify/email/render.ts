// One email per notification batch: a subject that says what and where, a plain-text body and an
// HTML body with a table of the alerts. Every value from an alert is HTML-escaped.
import type { NotificationBatch, NotificationEvent } from '../../../shared/model/notifications.ts'
import { alertResourceLink } from '../resource-link.ts'
import { escapeHtml, eventDuration, eventLabel, eventLine, formatValue } from './format.ts'

/** Rows listed in one message; the rest are counted. Mail servers refuse messages of many MB. */
export const EMAIL_MAX_ROWS = 500

export interface RenderedEmail {
  subject: string
  text: string
  html: string
}

export interface RenderOptions {
  /**
   * PULSE_PUBLIC_URL: when set, the message links to the dashboard's alerts page, and each alert
   * to its resource's page at the alert's start.
   */
  publicUrl?: string
}

const LEVEL_COLOURS: Record<string, string> = {
  critical: '#dc2626',
  warning: '#d97706',
  resolved: '#16a34a',
}

interface Counts {
  critical: number
  warning: number
  resolved: number
  /** The one node every event is on, '' when none, null when several. */
  node: string | null
  nodes: number
}

function countEvents(events: readonly NotificationEvent[]): Counts {
  const counts: Counts = { critical: 0, warning: 0, resolved: 0, node: '', nodes: 0 }
  const seen = new Set<string>()
  for (const event of events) {
    if (event.kind === 'resolved') counts.resolved++
    else if (event.alert.level === 'critical') counts.critical++
    else counts.warning++
    const node = event.alert.node
    if (node && !seen.has(node)) seen.add(node)
  }
  counts.nodes = seen.size
  counts.node = seen.size === 1 ? seen.values().next().value! : seen.size === 0 ? '' : null
  return counts
}

const place = (counts: Counts): string =>
  counts.node === null ? ` on ${counts.nodes} nodes` : counts.node ? ` on ${counts.node}` : ''

/** '[Pulse] CRITICAL: VM cpu at 95.0% on web-01 (pve1)', '[Pulse] 3 alerts on pve1: 2 critical, 1 warning'. */
export function renderSubject(
  batch: NotificationBatch,
  counts = countEvents(batch.events),
): string {
  if (batch.summary) return `[Pulse] ${batch.summary.count} alerts${place(counts)} (summary)`
  const events = batch.events
  if (events.length === 1) return `[Pulse] ${eventLine(events[0]!)}`
  const parts: string[] = []
  if (counts.critical) parts.push(`${counts.critical} critical`)
  if (counts.warning) parts.push(`${counts.warning} warning`)
  if (counts.resolved) parts.push(`${counts.resolved} resolved`)
  return `[Pulse] ${events.length} alerts${place(counts)}: ${parts.join(', ')}`
}

/** '2023-11-14 22:13:20 UTC' from an ISO time. */
function shortTime(iso: string): string {
  const z = iso.endsWith('Z') ? iso : new Date(iso).toISOString()
  return `${z.slice(0, 10)} ${z.slice(11, 19)} UTC`
}

/** Render one batch as one message. */
export function renderEmail(batch: NotificationBatch, opts: RenderOptions = {}): RenderedEmail {
  const counts = countEvents(batch.events)
  // A name with a line break must not fold the subject into a second header.
  const subject = renderSubject(batch, counts).replace(/[\r\n]+/g, ' ')
  const link = opts.publicUrl ? `${opts.publicUrl.replace(/\/+$/, '')}/alerts` : ''
  const shown = Math.min(batch.events.length, EMAIL_MAX_ROWS)
  const more = batch.events.length - shown

  const text: string[] = [subject.slice('[Pulse] '.length), '']
  const rows: string[] = []
  if (batch.summary) text.push(batch.summary.text, '')
  for (let i = 0; i < shown; i++) {
    const event = batch.events[i]!
    const alert = event.alert
    const value = formatValue(alert)
    const started = shortTime(alert.startTime)
    const duration = eventDuration(event)
    const label = eventLabel(event)
    // The resource's page around the alert (issue 25): its chart from a phone in one click.
    const page = alertResourceLink(alert, opts.publicUrl)
    text.push(
      `${label}  ${alert.resourceName}${alert.node ? ` on ${alert.node}` : ''}`,
      `  ${alert.message}${value ? `  (${value})` : ''}`,
      `  Started ${started}, ${event.kind === 'resolved' ? 'lasted' : 'for'} ${duration}`,
      ...(page ? [`  Chart: ${page}`] : []),
      '',
    )
    const name = escapeHtml(alert.resourceName)
    const colour = LEVEL_COLOURS[event.kind === 'resolved' ? 'resolved' : alert.level]
    rows.push(
      `<tr><td style="color:${colour};font-weight:600">${escapeHtml(label)}</td>` +
        `<td>${page ? `<a href="${escapeHtml(page)}">${name}</a>` : name}</td>` +
        `<td>${escapeHtml(alert.node)}</td>` +
        `<td>${escapeHtml(alert.message)}</td><td>${escapeHtml(value)}</td>` +
        `<td>${started}</td><td>${event.kind === 'resolved' ? 'resolved after ' : ''}` +
        `${duration}</td></tr>`,
    )
  }
  if (more > 0) text.push(`... and ${more} more alerts.`, '')
  if (link) text.push(`Open Pulse: ${link}`)
  text.push('Sent by Pulse monitoring.')

  const html =
    '<!DOCTYPE html><html><body style="font-family:system-ui,sans-serif;font-size:14px">' +
    `<h2 style="margin:0 0 12px">${escapeHtml(subject.slice('[Pulse] '.length))}</h2>` +
    (batch.summary ? `<p>${escapeHtml(batch.summary.text)}</p>` : '') +
    '<table cellpadding="6" style="border-collapse:collapse" border="1">' +
    '<thead><tr><th>Level</th><th>Resource</th><th>Node</th><th>Message</th>' +
    '<th>Value / threshold</th><th>Started</th><th>Duration</th></tr></thead><tbody>' +
    rows.join('') +
    '</tbody></table>' +
    (more > 0 ? `<p>... and ${more} more alerts.</p>` : '') +
    (link ? `<p><a href="${escapeHtml(link)}">Open Pulse</a></p>` : '') +
    '<p style="color:#6b7280">Sent by Pulse monitoring.</p></body></html>'
  return { subject, text: text.join('\n'), html }
}
