// The variables a webhook template sees (spec 001 §7: ID, Level, Type, ResourceName, Node, Message,
// Value, Threshold, Duration, Timestamp, CustomFields; the reference's extras of wire-protocol.md
// §3.7.1; ours: Event, Resolved, Title, EventAction, DedupKey, Severity, Priority, Grouped).
import { createHash } from 'node:crypto'
import type { Alert, ResolvedAlert } from '../../../shared/model/alerts.ts'
import { alertResourceLink } from '../resource-link.ts'
import { METRIC_NAMES } from '../../../shared/views/alert-message.ts'
import type {
  NotificationBatch,
  NotificationEvent,
  Webhook,
} from '../../../shared/model/notifications.ts'

/** What one alert contributes. */
export interface AlertVars {
  ID: string
  Level: string
  Type: string
  ResourceName: string
  ResourceID: string
  ResourceType: string
  Node: string
  Instance: string
  Message: string
  Value: number
  Threshold: number
  ValueFormatted: string
  ThresholdFormatted: string
  StartTime: string
  Duration: string
  Acknowledged: boolean
  AckTime: string
  AckUser: string
  Metadata: Record<string, unknown>
  /** fired, escalated, resolved or escalation. */
  Event: string
  Resolved: boolean
  ResolvedTime: string
  EscalationLevel: number
  /** "Warning: CPU on vm-101", "Resolved: CPU on vm-101". */
  Title: string
  /** The resource's page at the alert's start (PULSE_PUBLIC_URL + /guests/<id>?at=…); '' without it. */
  ResourceURL: string
}

export interface TemplateData extends AlertVars {
  Timestamp: string
  /** Epoch seconds of Timestamp. */
  TimestampUnix: number
  CustomFields: Record<string, string>
  AlertCount: number
  /** The batch's first alerts: CUSTOM_ALERTS_MAX for a custom template, GROUP_LIST_MAX otherwise. */
  Alerts: AlertVars[]
  Grouped: boolean
  /** Telegram chat id from the URL's `chat_id` query. */
  ChatID: string
  /** PagerDuty: 'trigger', or 'resolve' for a resolved alert. */
  EventAction: string
  /**
   * One alert: its occurrence's key (dedupKey), the same for its trigger, escalations and resolve,
   * so the resolve closes the incident the trigger opened. Several: the batch key (PagerDuty never
   * sees one: the channel sends it one event per alert, render.ts renderWebhookRequests).
   */
  DedupKey: string
  /** PagerDuty severity: critical, warning or info (resolved). */
  Severity: string
  /** PagerDuty routing key: custom field or header `routing_key`. */
  RoutingKey: string
  IdempotencyKey: string
  /** Storm or quiet-hours summary text, '' otherwise. */
  Summary: string
}

/** PagerDuty's limit on dedup_key. */
const DEDUP_KEY_MAX = 255

/**
 * The key of one occurrence of an alert: its id and start, not the transition, so a trigger, a
 * retry of it, an escalation and the resolve all name the same incident, and the next occurrence of
 * the same alert opens a new one. A key over PagerDuty's limit becomes a hash of itself.
 */
export function dedupKey(alert: Alert | ResolvedAlert): string {
  const key = `${alert.id}@${alert.startTime}`
  if (key.length <= DEDUP_KEY_MAX) return key
  return `pulse-${createHash('sha256').update(key).digest('hex')}`
}

/** Alerts listed in a grouped message; the rest are counted (service message size limits). */
export const GROUP_LIST_MAX = 25
/**
 * Alerts a custom template's Alerts holds (AlertCount has them all): what a template is tried on
 * before it is saved, so a loop over them stays within the render bound (liquid-engine.ts).
 */
export const CUSTOM_ALERTS_MAX = 100

const TYPE_LABELS: Record<string, string> = {
  ...METRIC_NAMES,
  usage: 'Storage usage',
  connectivity: 'Connectivity',
  offline: 'Offline',
  'powered-off': 'Powered off',
  'disk-health': 'Disk health',
  'disk-wearout': 'Disk wearout',
  'zfs-pool-state': 'ZFS pool state',
  'zfs-pool-errors': 'ZFS pool errors',
  'zfs-device': 'ZFS device',
}

export const typeLabel = (type: string): string => TYPE_LABELS[type] ?? type

/** "45s", "12m", "3h 5m", "2d 4h" (the reference's form). */
export function formatDuration(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000))
  if (s < 60) return `${s}s`
  const m = Math.floor(s / 60)
  if (m < 60) return `${m}m`
  const h = Math.floor(m / 60)
  if (h < 24) return `${h}h ${m % 60}m`
  return `${Math.floor(h / 24)}d ${h % 24}h`
}

function formatValue(value: number, unit: string | undefined): string {
  const rounded = Number.isInteger(value) ? String(value) : value.toFixed(1)
  if (!unit) return rounded
  return unit === '%' ? `${rounded}%` : `${rounded} ${unit}`
}

const upperFirst = (text: string) => text.charAt(0).toUpperCase() + text.slice(1)

function eventTitle(event: NotificationEvent): string {
  const { alert } = event
  const what = `${typeLabel(alert.type)} on ${alert.resourceName}`
  switch (event.kind) {
    case 'resolved':
      return `Resolved: ${what}`
    case 'escalated':
      return `Escalated to critical: ${what}`
    case 'escalation':
      return `${upperFirst(alert.level)} (escalation level ${event.level ?? 1}): ${what}`
    default:
      return `${upperFirst(alert.level)}: ${what}`
  }
}

/**
 * The variables of one event; `now` (epoch ms) ends the duration of an unresolved alert;
 * `publicUrl` (PULSE_PUBLIC_URL) makes ResourceURL.
 */
export function alertVars(event: NotificationEvent, now: number, publicUrl?: string): AlertVars {
  const alert: Alert | ResolvedAlert = event.alert
  const resolvedTime = 'resolvedTime' in alert ? alert.resolvedTime : ''
  const resolved = event.kind === 'resolved'
  const end = resolvedTime ? Date.parse(resolvedTime) : now
  const unit = alert.metadata?.unit
  return {
    ID: alert.id,
    Level: alert.level,
    Type: alert.type,
    ResourceName: alert.resourceName,
    ResourceID: alert.resourceId,
    ResourceType: alert.metadata?.resourceType ?? '',
    Node: alert.node,
    Instance: alert.instance,
    Message: alert.message,
    Value: alert.value,
    Threshold: alert.threshold,
    ValueFormatted: formatValue(alert.value, unit),
    ThresholdFormatted: formatValue(alert.threshold, unit),
    StartTime: alert.startTime,
    Duration: formatDuration(end - Date.parse(alert.startTime)),
    Acknowledged: alert.acknowledged,
    AckTime: alert.ackTime ?? '',
    AckUser: alert.ackUser ?? '',
    Metadata: (alert.metadata ?? {}) as Record<string, unknown>,
    Event: event.kind,
    Resolved: resolved,
    ResolvedTime: resolvedTime,
    EscalationLevel: event.level ?? 0,
    Title: eventTitle(event),
    ResourceURL: alertResourceLink(alert, publicUrl),
  }
}

/** The message of a grouped send: the first alert's, then "All N alerts:" and a capped list. */
function groupedMessage(first: AlertVars, listed: readonly AlertVars[], count: number): string {
  const lines = [first.Message, '', `All ${count} alerts:`]
  const shown = Math.min(count, GROUP_LIST_MAX)
  for (let i = 0; i < shown; i++) lines.push(`• ${listed[i]!.Title}`)
  if (count > shown) lines.push(`… and ${count - shown} more`)
  return lines.join('\n')
}

/** The instance link: PULSE_PUBLIC_URL, else the alert's instance when it is a URL. */
function instanceLink(instance: string, publicUrl: string | undefined): string {
  if (publicUrl) return publicUrl
  return /^https?:\/\//i.test(instance) ? instance : ''
}

function summaryVars(batch: NotificationBatch, text: string): AlertVars {
  const critical = batch.events.some((e) => e.alert.level === 'critical')
  const resolvedOnly = batch.events.length > 0 && batch.events.every((e) => e.kind === 'resolved')
  const level = critical ? 'critical' : 'warning'
  const nodes = new Set(batch.events.map((e) => e.alert.node))
  const node = nodes.size === 1 ? [...nodes][0]! : ''
  return {
    ID: batch.key,
    Level: level,
    Type: 'summary',
    ResourceName: `${batch.summary?.count ?? batch.events.length} alerts`,
    ResourceID: '',
    ResourceType: '',
    Node: node,
    Instance: '',
    Message: text,
    Value: 0,
    Threshold: 0,
    ValueFormatted: '0',
    ThresholdFormatted: '0',
    StartTime: new Date(batch.createdAt).toISOString(),
    Duration: '0s',
    Acknowledged: false,
    AckTime: '',
    AckUser: '',
    Metadata: {},
    Event: resolvedOnly ? 'resolved' : 'fired',
    Resolved: resolvedOnly,
    ResolvedTime: '',
    EscalationLevel: 0,
    Title: text.split('\n', 1)[0]!,
    ResourceURL: '',
  }
}

/**
 * The data of a batch: one event as itself; a group as its first event with the list of all in
 * Message and Alerts; a summary as a synthetic alert whose message is the summary text.
 */
export function templateData(
  batch: NotificationBatch,
  webhook: Webhook,
  opts: { publicUrl?: string; now: number; chatId: string; custom?: boolean },
): TemplateData {
  const { events } = batch
  // Templates read the first alerts only: vars for thousands of alerts are never built.
  const upTo = batch.summary
    ? 0
    : Math.min(events.length, opts.custom ? CUSTOM_ALERTS_MAX : GROUP_LIST_MAX)
  const all: AlertVars[] = new Array<AlertVars>(upTo)
  for (let i = 0; i < upTo; i++) all[i] = alertVars(events[i]!, opts.now, opts.publicUrl)
  let head: AlertVars
  if (batch.summary) head = summaryVars(batch, batch.summary.text)
  else if (events.length === 0) throw new Error('a webhook batch needs events or a summary')
  else if (events.length === 1) head = all[0]!
  else {
    // A group reads as resolved only when everything in it is: one firing keeps it a trigger.
    const resolved = events.every((e) => e.kind === 'resolved')
    head = { ...all[0]!, Message: groupedMessage(all[0]!, all, events.length), Resolved: resolved }
  }
  const single = !batch.summary && events.length === 1
  const custom = webhook.customFields
  const routingKey =
    custom.routing_key ??
    Object.entries(webhook.headers).find(([k]) => k.toLowerCase() === 'routing_key')?.[1] ??
    ''
  return {
    ...head,
    Instance: instanceLink(head.Instance, opts.publicUrl),
    Timestamp: new Date(opts.now).toISOString(),
    TimestampUnix: Math.floor(opts.now / 1000),
    CustomFields: custom,
    AlertCount: batch.summary ? batch.summary.count : events.length,
    Alerts: all,
    Grouped: !single,
    ChatID: opts.chatId,
    EventAction: head.Resolved ? 'resolve' : 'trigger',
    DedupKey: single ? dedupKey(events[0]!.alert) : batch.key,
    Severity: head.Resolved ? 'info' : head.Level === 'critical' ? 'critical' : 'warning',
    RoutingKey: routingKey,
    IdempotencyKey: batch.key,
    Summary: batch.summary?.text ?? '',
  }
}
