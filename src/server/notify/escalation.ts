// Escalation levels of the schedule (spec 001 §2/§5 Schedule; reference/wire-protocol.md §5.5):
// an active alert nobody acknowledged is announced again when its age passes each level's `after`
// minutes, once per level and occurrence. Pure: the dispatcher calls it (about once a minute) with
// the active alerts, the time and what the outbox already holds.
//
// - Acknowledged alerts get no escalation events: acknowledgement stops escalation
//   (reference/alerting.md invariants).
// - Every due level not yet sent is returned, so after a restart an alert two hours old gets its
//   missing levels at once; they share a due time and group key, so they leave as one message per
//   destination, and each level still reaches only its own destinations (notifyFor).
// - An event's `at` is the moment the level became due (startTime + after), not `now`: the same
//   level planned twice (a restart) is the same event.
import type { Alert, AlertSchedule } from '../../shared/model/alerts.ts'
import type { NotificationEvent } from '../../shared/model/notifications.ts'

const MINUTE = 60_000

/** Escalation events due at `now` for the active alerts: one per level reached and not yet sent. */
export function escalationsDue(
  active: readonly Alert[],
  schedule: AlertSchedule,
  now: number,
  alreadySent: (alertId: string, startTime: string, level: number) => boolean,
): NotificationEvent[] {
  const out: NotificationEvent[] = []
  const { enabled, levels } = schedule.escalation
  if (!enabled || levels.length === 0) return out
  // The earliest level bounds every check: younger alerts (the common case) cost one parse.
  let first = Infinity
  for (const level of levels) first = Math.min(first, level.after * MINUTE)
  for (const alert of active) {
    if (alert.acknowledged) continue
    const start = Date.parse(alert.startTime)
    if (!(now - start >= first)) continue
    for (let i = 0; i < levels.length; i++) {
      const dueAt = start + levels[i]!.after * MINUTE
      if (now < dueAt || alreadySent(alert.id, alert.startTime, i + 1)) continue
      out.push({ kind: 'escalation', alert, at: dueAt, level: i + 1 })
    }
  }
  return out
}

/** Which destinations a level (1-based) notifies; an unknown level notifies all. */
export function notifyFor(level: number, schedule: AlertSchedule): 'email' | 'webhook' | 'all' {
  return schedule.escalation.levels[level - 1]?.notify ?? 'all'
}
