// One message to one destination from the due outbox rows of one group (policy.ts), one entry per
// alert, and the summary that replaces the individual alerts in a storm or when quiet hours release
// what they held (issue 15: "142 alerts on pve3: 120 powered-off, …"). Pure but for the hash of
// the batch key.
import { createHash } from 'node:crypto'
import type { AlertSchedule } from '../../shared/model/alerts.ts'
import type { NotificationBatch, NotificationEvent } from '../../shared/model/notifications.ts'

/**
 * The batch's idempotency key: a hash of its members' keys, sorted, so the same rows give the same
 * key whatever order the outbox read them in (a retry after a restart is recognisable).
 */
export function batchKey(idempotencyKeys: readonly string[]): string {
  const hash = createHash('sha256')
  for (const key of [...idempotencyKeys].sort()) hash.update(key).update('\n')
  return hash.digest('hex').slice(0, 32)
}

/**
 * One event per alert: the latest (by time, then by position), kept where it stood. A
 * message that held an alert's warning, critical and resolve lists it once, as it now stands; its
 * outbox rows are all settled by the message all the same.
 */
export function latestPerAlert(events: readonly NotificationEvent[]): NotificationEvent[] {
  const latest = new Map<string, number>()
  for (let i = 0; i < events.length; i++) {
    const id = events[i]!.alert.id
    const seen = latest.get(id)
    if (seen === undefined || events[i]!.at >= events[seen]!.at) latest.set(id, i)
  }
  if (latest.size === events.length) return [...events]
  const kept = [...latest.values()].sort((a, b) => a - b)
  return kept.map((i) => events[i]!)
}

/**
 * The message for `events`, one entry per alert (latestPerAlert). A summary is set when it releases quiet hours' held events, or when
 * storm control is on and more than `storm.threshold` of its events are 'fired'; quiet hours win
 * when both hold (the release is what the reader needs to know). `summary.count` is the number of
 * events the summary stands for.
 */
export function buildBatch(
  rows: readonly NotificationEvent[],
  key: string,
  schedule: AlertSchedule,
  now: number,
  reason?: 'quiet-hours',
): NotificationBatch {
  const events = latestPerAlert(rows)
  const batch: NotificationBatch = { key, events, createdAt: now }
  let summaryReason: 'storm' | 'quiet-hours' | undefined = reason
  if (summaryReason === undefined && schedule.storm.enabled) {
    let fired = 0
    for (const e of events) if (e.kind === 'fired') fired++
    if (fired > schedule.storm.threshold) summaryReason = 'storm'
  }
  if (summaryReason !== undefined && events.length > 0) {
    batch.summary = { reason: summaryReason, text: summaryText(events), count: events.length }
  }
  return batch
}

/**
 * One line for many events: "142 alerts on pve3: 120 powered-off, 22 cpu; 12 resolved". Alerts are
 * counted once per alert id (a fire and its escalation are one alert), by type, most first then by
 * name; recoveries are counted apart. The place is the node's name when every event is on one node
 * (instance and node), else "<n> nodes".
 */
export function summaryText(events: readonly NotificationEvent[]): string {
  const alertType = new Map<string, string>()
  const resolved = new Set<string>()
  const nodes = new Set<string>()
  let nodeName = ''
  for (const e of events) {
    const a = e.alert
    if (e.kind === 'resolved') resolved.add(a.id)
    else alertType.set(a.id, a.type)
    nodes.add(`${a.instance}/${a.node}`)
    nodeName = a.node
  }
  const where = nodes.size === 1 ? nodeName : `${nodes.size} nodes`
  const byType = new Map<string, number>()
  for (const type of alertType.values()) byType.set(type, (byType.get(type) ?? 0) + 1)
  const types = [...byType]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    .map(([type, n]) => `${n} ${type}`)
    .join(', ')
  const n = alertType.size
  if (n === 0) return `${resolved.size} resolved on ${where}`
  const head = `${n} ${n === 1 ? 'alert' : 'alerts'} on ${where}: ${types}`
  return resolved.size > 0 ? `${head}; ${resolved.size} resolved` : head
}
