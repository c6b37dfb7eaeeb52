// Plain words for the delivery log (issue 15: "why didn't I get it?" answered on screen).
import type {
  DeliveryRecord,
  DeliveryStatus,
  NotSentReason,
  NotificationEventKind,
} from '../../../shared/model/notifications.ts'

export const DELIVERY_STATUS_LABEL: Record<DeliveryStatus, string> = {
  sent: 'Sent',
  pending: 'Pending',
  failed: 'Failed, will retry',
  dead: 'Gave up',
  suppressed: 'Not sent',
}

export const DELIVERY_STATUS_CLASS: Record<DeliveryStatus, string> = {
  sent: 'bg-green-100 text-green-800 dark:bg-green-950 dark:text-green-300',
  pending: 'bg-blue-100 text-blue-800 dark:bg-blue-950 dark:text-blue-300',
  failed: 'bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-300',
  dead: 'bg-red-100 text-red-800 dark:bg-red-950 dark:text-red-300',
  suppressed: 'bg-gray-100 text-gray-700 dark:bg-gray-800 dark:text-gray-300',
}

/** Why a notification was held or dropped, as a sentence the user can act on. */
export const NOT_SENT_REASON_TEXT: Record<NotSentReason, string> = {
  'quiet-hours': 'Held by quiet hours; sent in one summary when they end',
  cooldown: 'Skipped: the same alert was notified within the cooldown',
  'rate-limit': "Delayed by the destination's rate limit",
  'max-per-hour': 'Skipped: this alert reached its maximum notifications per hour',
  grouped: 'Waiting for the grouping window; sent with the others in one message',
  disabled: 'Not sent: the destination, the alert or notifications are disabled',
  storm: 'Replaced by a storm summary (too many alerts at once)',
  silenced: 'Not sent: a silence covered the alert',
  rule: "Not sent: the guest's custom rule turns this channel off",
}

export const EVENT_KIND_LABEL: Record<NotificationEventKind, string> = {
  fired: 'fired',
  escalated: 'became critical',
  resolved: 'resolved',
  escalation: 'escalation',
}

export const STATUS_FILTERS = [
  { value: 'all', label: 'All' },
  { value: 'sent', label: 'Sent' },
  { value: 'pending', label: 'Pending' },
  { value: 'failed', label: 'Failed' },
  { value: 'dead', label: 'Gave up' },
  { value: 'suppressed', label: 'Not sent' },
] as const

export type StatusFilter = (typeof STATUS_FILTERS)[number]['value']

/** How a row that was sent went out, when it was not on its own. */
const SENT_REASON_TEXT: Partial<Record<NotSentReason, string>> = {
  'quiet-hours': 'Held by quiet hours; sent in their summary when they ended',
  grouped: 'Sent in one message with the rest of its group',
  storm: 'Sent only as a count in a storm summary (too many alerts at once)',
}

/** The reason text of a record, or '' when it needs none. A sent row's reason says how it went. */
export function reasonText(record: DeliveryRecord): string {
  if (!record.reason) return ''
  if (record.status === 'sent') return SENT_REASON_TEXT[record.reason] ?? ''
  return NOT_SENT_REASON_TEXT[record.reason] ?? record.reason
}

/** "2 attempts" / "1 attempt"; nothing before the first attempt. */
export function attemptsText(attempts: number): string {
  if (attempts <= 0) return 'not attempted'
  return `${attempts} ${attempts === 1 ? 'attempt' : 'attempts'}`
}

const pad = (n: number) => String(n).padStart(2, '0')

/** Local date and time, compact: "Jan 5 14:03:09" (today: just the time). */
export function deliveryTime(epochMs: number, now = Date.now()): string {
  if (!epochMs) return ''
  const d = new Date(epochMs)
  const time = `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`
  if (new Date(now).toDateString() === d.toDateString()) return time
  return `${d.toLocaleString('en', { month: 'short' })} ${d.getDate()} ${time}`
}
