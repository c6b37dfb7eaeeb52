// STAND-IN: replaced by the policy branch
// Events in, no summary.
import type { AlertSchedule } from '../../shared/model/alerts.ts'
import type { NotificationBatch, NotificationEvent } from '../../shared/model/notifications.ts'

export function buildBatch(
  events: NotificationEvent[],
  key: string,
  _schedule: AlertSchedule,
  now: number,
  _reason?: 'quiet-hours',
): NotificationBatch {
  return { key, events, createdAt: now }
}
