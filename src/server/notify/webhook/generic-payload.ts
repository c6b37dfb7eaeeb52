// The generic webhook's payload (README "Generic webhook payload"): one schema for every message,
// a test, one alert, a group or a summary. The reference's single-alert shape (`alert` with
// snake_case fields, `timestamp`, `source`) is kept and extended: every message also lists its
// alerts in `alerts`, each with the event that put it in the message, and says whether it is
// grouped, how many alerts it covers and, for a storm or quiet-hours summary, the summary's text.
import type { NotificationBatch, NotificationEvent } from '../../../shared/model/notifications.ts'
import { alertVars } from './template-data.ts'

export const PAYLOAD_SOURCE = 'pulse-monitoring'

/** One alert of a generic payload. */
export interface GenericAlert {
  id: string
  /** fired, escalated (warning became critical), escalation (a reminder) or resolved. */
  event: NotificationEvent['kind']
  level: string
  type: string
  resource_id: string
  resource_name: string
  resource_type: string
  node: string
  instance: string
  message: string
  value: number
  threshold: number
  unit: string
  start_time: string
  duration: string
  resolved_time: string | null
  acknowledged: boolean
  escalation_level: number
  /** The resource's page in Pulse at the alert's start; '' without PULSE_PUBLIC_URL. */
  resource_url: string
}

export interface GenericPayload {
  /** The first of `alerts` (the reference's single-alert field); null in a summary. */
  alert: GenericAlert | null
  /** Every alert of the message, one entry each, as it now stands; empty in a summary. */
  alerts: GenericAlert[]
  /** Alerts the message covers (a summary's too). */
  count: number
  /** More than one alert, or a summary. */
  grouped: boolean
  source: typeof PAYLOAD_SOURCE
  summary: { reason: 'storm' | 'quiet-hours'; text: string } | null
  /** When the message was sent, RFC 3339 in UTC. */
  timestamp: string
}

/** One event as a generic alert; `now` (epoch ms) ends the duration of an unresolved alert. */
export function genericAlert(
  event: NotificationEvent,
  now: number,
  publicUrl?: string,
): GenericAlert {
  const v = alertVars(event, now, publicUrl)
  return {
    id: v.ID,
    event: event.kind,
    level: v.Level,
    type: v.Type,
    resource_id: v.ResourceID,
    resource_name: v.ResourceName,
    resource_type: v.ResourceType,
    node: v.Node,
    instance: v.Instance,
    message: v.Message,
    value: v.Value,
    threshold: v.Threshold,
    unit: event.alert.metadata?.unit ?? '',
    start_time: v.StartTime,
    duration: v.Duration,
    resolved_time: v.ResolvedTime === '' ? null : v.ResolvedTime,
    acknowledged: v.Acknowledged,
    escalation_level: v.EscalationLevel,
    resource_url: v.ResourceURL,
  }
}

/** The payload of `batch` sent at `now` (epoch ms); `publicUrl` makes each resource_url. */
export function genericPayload(
  batch: NotificationBatch,
  now: number,
  publicUrl?: string,
): GenericPayload {
  const alerts = batch.summary
    ? []
    : batch.events.map((event) => genericAlert(event, now, publicUrl))
  const count = batch.summary ? batch.summary.count : alerts.length
  return {
    alert: alerts[0] ?? null,
    alerts,
    count,
    grouped: batch.summary !== undefined || count > 1,
    source: PAYLOAD_SOURCE,
    summary: batch.summary ? { reason: batch.summary.reason, text: batch.summary.text } : null,
    timestamp: new Date(now).toISOString(),
  }
}
