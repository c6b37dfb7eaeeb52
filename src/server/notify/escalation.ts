// STAND-IN: replaced by the policy branch
// Each level once per occurrence of an unacknowledged alert, `after` minutes after it began.
import type { Alert, AlertSchedule } from '../../shared/model/alerts.ts'
import type { NotificationEvent } from '../../shared/model/notifications.ts'

/** Whether level `level` (1-based) of this occurrence was already planned. */
export type AlreadySent = (alertId: string, startTime: string, level: number) => boolean

export function escalationsDue(
  active: readonly Alert[],
  schedule: AlertSchedule,
  now: number,
  alreadySent: AlreadySent,
): NotificationEvent[] {
  if (!schedule.escalation.enabled) return []
  const events: NotificationEvent[] = []
  for (const alert of active) {
    if (alert.acknowledged) continue
    const start = Date.parse(alert.startTime)
    schedule.escalation.levels.forEach((level, i) => {
      if (now >= start + level.after * 60_000 && !alreadySent(alert.id, alert.startTime, i + 1))
        events.push({ kind: 'escalation', alert, at: now, level: i + 1 })
    })
  }
  return events
}
