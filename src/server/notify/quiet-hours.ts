// Quiet hours of the schedule (spec 001 §2/§3 schedule; the reference's meaning, issue 24 items
// 12, 16, 18), and the alert categories their flags name. Pure: time is a parameter, the zone is
// read through Intl.DateTimeFormat.
//
// Rules:
// - What they hold: every notification of a warning (its fire, escalation levels, its recovery),
//   and the critical alerts of a category whose `suppress[category]` flag is set. Critical alerts
//   of the other categories are sent at once: by default a node down at 03:00 pages. This is the
//   reference's meaning of the same field names, so an imported config means the same here.
// - A window is [start, end) in the schedule's IANA zone; end < start is an overnight window
//   (22:00-08:00); start === end is an empty window (never quiet), not a whole day.
// - The day of the current moment decides, as in the reference: with 22:00-08:00 on Monday-Friday,
//   Monday 02:00 is quiet (Monday is on) and Saturday 02:00 is not (Saturday is off); Friday's
//   evening is quiet until midnight, where Saturday takes over, and Sunday's is not.
// - `endsAt` is the first instant after `now` at which quiet hours stop: the wall clock reaching
//   `end`, or midnight when an evening runs into a day that is off. It is exact across DST: when
//   that time falls in a spring-forward gap the window ends at the switch; when it falls in a
//   fall-back overlap it ends at its first occurrence (the repeated hour that follows is inside
//   [start, end) again on the wall clock, and `quietWindow` then answers the second end).
// - An invalid start, end, zone or day map (a hand edit or an old import that reached the
//   database) means no quiet hours: everything is sent as if they were off, rather than held at
//   times nobody chose. `quietHoursProblem` names the field; `createQuietHoursCheck` logs it once.
import type { Alert, AlertSchedule, AlertType } from '../../shared/model/alerts.ts'
import { isTimeOfDay } from '../../shared/views/schedule-rules.ts'
import { isKnownTimeZone, weeklyWindowAt } from '../../shared/views/weekly-window.ts'

export interface QuietWindow {
  quiet: boolean
  /** Epoch ms the current quiet window ends; `now` when not quiet. */
  endsAt: number
}

export type AlertCategory = 'performance' | 'storage' | 'offline'

const CATEGORY: Partial<Record<AlertType, AlertCategory>> = {
  usage: 'storage',
  'disk-health': 'storage',
  'disk-wearout': 'storage',
  'zfs-pool-state': 'storage',
  'zfs-pool-errors': 'storage',
  'zfs-device': 'storage',
  // Issue 26: backups are data protection, held with the storage category.
  'backup-age': 'storage',
  'backup-uncovered': 'storage',
  'backup-failed': 'storage',
  'pbs-job-failed': 'storage',
  'pbs-job-overdue': 'storage',
  'backup-verify-failed': 'storage',
  'backup-orphaned': 'storage',
  connectivity: 'offline',
  offline: 'offline',
  'powered-off': 'offline',
}

/** The quiet-hours exception category of an alert (metrics, and anything unknown, are performance). */
export function alertCategory(alert: Pick<Alert, 'type'>): AlertCategory {
  return CATEGORY[alert.type] ?? (alert.type.startsWith('zfs-') ? 'storage' : 'performance')
}

/**
 * Whether quiet hours hold this alert's notifications: a warning always; a critical alert only
 * when the flag `quietHours.suppress[category]` of its category is set (reference meaning).
 */
export function heldByQuietHours(
  alert: Pick<Alert, 'type' | 'level'>,
  schedule: AlertSchedule,
): boolean {
  if (alert.level !== 'critical') return true
  return schedule.quietHours.suppress?.[alertCategory(alert)] === true
}

/** What is wrong with stored quiet hours, if anything (the first invalid field). */
export interface QuietHoursProblem {
  field: 'start' | 'end' | 'timezone' | 'days'
  value: string
}

/** The first invalid field of `quietHours`, or undefined when they can be applied. */
export function quietHoursProblem(q: AlertSchedule['quietHours']): QuietHoursProblem | undefined {
  for (const field of ['start', 'end'] as const) {
    if (!isTimeOfDay(q[field])) return { field, value: shown(q[field]) }
  }
  if (!isKnownTimeZone(q.timezone)) return { field: 'timezone', value: shown(q.timezone) }
  if (typeof q.days !== 'object' || q.days === null) return { field: 'days', value: shown(q.days) }
  return undefined
}

const shown = (value: unknown) => String(value).slice(0, 100)

/**
 * A check for the notification service: given the schedule in force, it logs a warning naming the
 * invalid field when quiet hours are on but cannot be applied, once per distinct problem (again
 * only after the value changed or was fixed in between).
 */
export function createQuietHoursCheck(log: {
  warn(obj: object, msg: string): void
}): (schedule: AlertSchedule) => void {
  let lastSchedule: AlertSchedule | undefined
  let lastKey: string | undefined
  return (schedule) => {
    if (schedule === lastSchedule) return
    lastSchedule = schedule
    const q = schedule.quietHours
    const problem = q.enabled ? quietHoursProblem(q) : undefined
    const key = problem && `${problem.field}\u0000${problem.value}`
    if (problem && key !== lastKey) {
      log.warn(
        { field: `schedule.quietHours.${problem.field}`, value: problem.value },
        'quiet hours are ignored (every alert is sent as if they were off) until this field is fixed',
      )
    }
    lastKey = key
  }
}

// The dispatcher plans every event of a cycle with the same schedule and `now`: one entry of memo
// spares thousands of Intl calls for a storm.
let memo: { schedule: AlertSchedule; now: number; result: QuietWindow } | undefined

/** Whether `now` is inside a quiet window of `schedule`, and when that window ends. */
export function quietWindow(schedule: AlertSchedule, now: number): QuietWindow {
  const q = schedule.quietHours
  if (!q.enabled) return NOT_QUIET(now)
  if (memo !== undefined && memo.schedule === schedule && memo.now === now) return memo.result
  const result = computeQuietWindow(schedule, now)
  memo = { schedule, now, result }
  return result
}

function computeQuietWindow(schedule: AlertSchedule, now: number): QuietWindow {
  const q = schedule.quietHours
  if (quietHoursProblem(q) !== undefined) return NOT_QUIET(now)
  const at = weeklyWindowAt(q, now)
  return at.inside ? { quiet: true, endsAt: at.endsAt } : NOT_QUIET(now)
}

const NOT_QUIET = (now: number): QuietWindow => ({ quiet: false, endsAt: now })
