// The notification policy: for one event, what goes to which destination, when, in which group,
// and why not (spec 001 §2/§5 Schedule; reference/wire-protocol.md §5.5 without its defects;
// reference/alerting.md). Pure: no I/O, time is `input.now`, the past is `input.memory`.
//
// Rules, checked in this order for each destination:
// 1. Recovery ('resolved') is planned only when the 'fired' of the same occurrence (alert id +
//    startTime) went or will go to that destination (memory.firedWasNotified); otherwise no row at
//    all: a recovery of something never announced is noise. An occurrence that ended because it was
//    disabled (endReason 'disabled': a config save, a disabled resource) sends no recovery
//    (suppressed 'disabled'): a disabled alert never notifies, and a config save is not an event.
// 1c (below 1b). A custom rule's email or webhook switch turned off (issue 28, event.channelsOff,
//    decided by the dispatcher from the rule that decides the alert's guest): that kind of
//    destination is suppressed 'rule', every event kind, so resolved follows fired.
// 1b. Silences (issue 28): an event of an alert an active silence covers (event.silenced, decided
//    by the dispatcher) is suppressed 'silenced', whatever its kind. When the last silence covering
//    a still-firing alert ends, a 'fired' marked afterSilence goes to each destination that has no
//    live 'fired' of that occurrence (its own idempotency key, so at most once per occurrence).
// 2. Applicability: an 'escalation' event goes only to the destinations of its level's `notify`
//    (email / webhook / all); the others get a row suppressed 'disabled' so the log says why. An
//    'escalation' of an acknowledged alert is suppressed 'disabled' (escalation.ts makes none).
// 3. Cooldown (`schedule.cooldown` minutes, 0 = off) limits repeats of one occurrence, never a new
//    one (issue 24 item 13): a 'fired' within cooldown of the last notification of the SAME
//    occurrence (alert id + startTime) to that destination (memory.lastNotified, sent or due) is
//    suppressed 'cooldown'. An alert that fired, recovered and fires again has a new startTime:
//    it is news, and is sent, and so is its recovery. 'escalated' (warning -> critical) and
//    'escalation' bypass it: news of something worse is never held back by a repeat guard.
// 4. Max per hour (`schedule.maxAlertsHour`, per alert id and destination, rolling hour, 0 = off)
//    applies to every kind but 'resolved': at that many notifications (memory.countSince) the next
//    is suppressed 'max-per-hour'. Neither 3 nor 4 ever swallows a recovery whose fire was sent.
// 5. Quiet hours (quiet-hours.ts): an event they hold is pending with reason 'quiet-hours', due at
//    the end of the window, in the one group 'quiet-hours' of its destination, so everything held
//    leaves as ONE summary per destination when the window ends (batches.ts), neither dropped nor a
//    burst. They hold warnings, and the critical alerts of a category whose `suppress[category]`
//    flag is set; other critical alerts are sent at once (the reference's meaning). A recovery
//    follows the same rule as its alert (the level decides).
// 6. Grouping: off -> due now, group = the alert id alone. On -> group `node:<instance>/<node>`
//    (byNode), `resource:<resourceId>` (byGuest; it wins when both are set, being the finer), else
//    `all`; due when the open group of that destination and key is due (input.openGroupDue), or a
//    new group due now + groupingWindow seconds; such rows carry reason 'grouped' while they wait.
// The idempotency key `${alert.id}|${kind}[#level]|${startTime}|${destination.id}` is a pure
// function of the event and the destination, so a replanned or retried row is recognisable.
import type { AlertSchedule } from '../../shared/model/alerts.ts'
import type { NotificationEvent, NotSentReason } from '../../shared/model/notifications.ts'
import { notifyFor } from './escalation.ts'
import { heldByQuietHours, quietWindow } from './quiet-hours.ts'
import type { PlanInput, PlannedDelivery, PolicyDestination } from './types.ts'

const MINUTE = 60_000
const HOUR = 60 * MINUTE
/** The group every event held by quiet hours joins, per destination. */
export const QUIET_GROUP = 'quiet-hours'

/**
 * The outbox row key of one event to one destination: stable across retries and restarts. The
 * 'fired' planned after a silence has a key of its own (the first 'fired' row of the occurrence
 * was stored suppressed), and only one: a second silence of the same occurrence adds nothing.
 */
export function idempotencyKey(event: NotificationEvent, destinationId: string): string {
  const level = event.level ? `#${event.level}` : ''
  const after = event.afterSilence ? '~after-silence' : ''
  return `${event.alert.id}|${event.kind}${level}${after}|${event.alert.startTime}|${destinationId}`
}

/** The group an event joins when grouping is on (or its own, when off). */
export function groupKeyOf(event: NotificationEvent, schedule: AlertSchedule): string {
  const g = schedule.grouping
  if (!g.enabled) return event.alert.id
  if (g.byGuest) return `resource:${event.alert.resourceId}`
  if (g.byNode) return `node:${event.alert.instance}/${event.alert.node}`
  return 'all'
}

/** One decision per destination the event concerns (see the rules above). */
export function planEvent(input: PlanInput): PlannedDelivery[] {
  const { event, schedule, now, memory } = input
  const out: PlannedDelivery[] = []
  const alert = event.alert
  const quiet = quietWindow(schedule, now)
  const held = quiet.quiet && heldByQuietHours(alert, schedule)
  const groupKey = groupKeyOf(event, schedule)
  for (const destination of input.destinations) {
    if (event.kind === 'resolved') {
      if (!memory.firedWasNotified(alert.id, alert.startTime, destination.id)) continue
      if ('endReason' in event.alert && event.alert.endReason === 'disabled') {
        out.push(suppressed(event, destination, groupKey, now, 'disabled'))
        continue
      }
    }
    // A silence ended: only a destination that never heard of this occurrence is told.
    if (event.afterSilence && memory.firedWasNotified(alert.id, alert.startTime, destination.id))
      continue
    if (event.silenced) {
      out.push(suppressed(event, destination, groupKey, now, 'silenced'))
      continue
    }
    if (event.channelsOff?.[destination.kind]) {
      out.push(suppressed(event, destination, groupKey, now, 'rule'))
      continue
    }
    const notSent = rateReason(input, destination)
    if (notSent !== undefined) {
      out.push(suppressed(event, destination, groupKey, now, notSent))
      continue
    }
    const key = idempotencyKey(event, destination.id)
    if (held) {
      out.push({
        destination,
        event,
        idempotencyKey: key,
        groupKey: QUIET_GROUP,
        dueAt: quiet.endsAt,
        status: 'pending',
        reason: 'quiet-hours',
      })
      continue
    }
    const row: PlannedDelivery = {
      destination,
      event,
      idempotencyKey: key,
      groupKey,
      dueAt: now,
      status: 'pending',
    }
    if (schedule.grouping.enabled) {
      row.dueAt =
        input.openGroupDue(destination.id, groupKey) ?? now + schedule.groupingWindow * 1000
      if (row.dueAt > now) row.reason = 'grouped'
    }
    out.push(row)
  }
  return out
}

/** Applicability, cooldown and max per hour (rules 2-4); undefined when the event may go. */
function rateReason(input: PlanInput, destination: PolicyDestination): NotSentReason | undefined {
  const { event, schedule, now, memory } = input
  if (event.kind === 'resolved') return undefined
  if (event.kind === 'escalation') {
    if (event.alert.acknowledged) return 'disabled'
    const notify = notifyFor(event.level ?? 0, schedule)
    if (notify !== 'all' && notify !== destination.kind) return 'disabled'
  }
  if (event.kind === 'fired' && schedule.cooldown > 0) {
    const last = memory.lastNotified(event.alert.id, event.alert.startTime, destination.id)
    if (last !== undefined && now - last < schedule.cooldown * MINUTE) return 'cooldown'
  }
  if (schedule.maxAlertsHour > 0) {
    const sent = memory.countSince(event.alert.id, destination.id, now - HOUR)
    if (sent >= schedule.maxAlertsHour) return 'max-per-hour'
  }
  return undefined
}

function suppressed(
  event: NotificationEvent,
  destination: PolicyDestination,
  groupKey: string,
  now: number,
  reason: NotSentReason,
): PlannedDelivery {
  return {
    destination,
    event,
    idempotencyKey: idempotencyKey(event, destination.id),
    groupKey,
    dueAt: now,
    status: 'suppressed',
    reason,
  }
}
