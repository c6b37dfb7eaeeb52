// Quiet hours of the schedule (spec 001 §2/§3 schedule; reference/wire-protocol.md §5.5), and the
// alert categories their critical exceptions name. Pure: time is a parameter, the zone is read
// through Intl.DateTimeFormat.
//
// Rules (decided here where the spec is silent):
// - A window is [start, end) in the schedule's IANA zone; end < start is an overnight window
//   (22:00-08:00); start === end is an empty window (never quiet), not a whole day.
// - The day a window STARTS is the day that counts: Friday 22:00-Saturday 08:00 is quiet when Friday
//   is enabled, whatever Saturday says. (The reference checks the current day, which cuts a Friday
//   night window at midnight when the weekend is off: a defect not copied.)
// - `endsAt` is the first instant after `now` at which the zone's wall clock reaches `end`, so it is
//   exact across DST: when `end` falls in a spring-forward gap the window ends at the switch; when it
//   falls in a fall-back overlap it ends at its first occurrence (the repeated hour that follows is
//   inside [start, end) again on the wall clock, and `quietWindow` then answers the second end).
import type { Alert, AlertSchedule, AlertType } from '../../shared/model/alerts.ts'
import { WEEKDAYS } from '../../shared/model/alerts.ts'

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
  connectivity: 'offline',
  offline: 'offline',
  'powered-off': 'offline',
}

/** The quiet-hours exception category of an alert (metrics, and anything unknown, are performance). */
export function alertCategory(alert: Pick<Alert, 'type'>): AlertCategory {
  return CATEGORY[alert.type] ?? (alert.type.startsWith('zfs-') ? 'storage' : 'performance')
}

/**
 * Whether quiet hours hold this alert's notifications. The flag `quietHours.suppress[category]`
 * reads as "this category suppresses quiet hours": a critical alert of a category whose flag is
 * true is sent during quiet hours; everything else (warnings, recoveries of warnings, critical
 * alerts of unflagged categories) is held (wire-protocol.md §5.5: "critical ones only if their
 * category flag is set"; the contract's comment on AlertSchedule says the same).
 */
export function breaksQuietHours(
  alert: Pick<Alert, 'type' | 'level'>,
  schedule: AlertSchedule,
): boolean {
  return alert.level === 'critical' && schedule.quietHours.suppress[alertCategory(alert)]
}

const MINUTE = 60_000
const DAY = 24 * 60 * MINUTE
const NOT_QUIET = (now: number): QuietWindow => ({ quiet: false, endsAt: now })

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
  const start = toMinutes(q.start)
  const end = toMinutes(q.end)
  if (start === end) return NOT_QUIET(now)
  // The zone's wall clock written as if it were UTC: its day (a UTC midnight) and minute of day.
  const wall = now + offsetAt(q.timezone, now)
  const today = wall - mod(wall, DAY)
  const minute = Math.floor(mod(wall, DAY) / MINUTE)
  // The local day the window started on; undefined when outside any window.
  let startDay: number | undefined
  if (start < end) {
    if (minute >= start && minute < end) startDay = today
  } else if (minute >= start) {
    startDay = today
  } else if (minute < end) {
    startDay = today - DAY
  }
  if (startDay === undefined) return NOT_QUIET(now)
  if (!q.days[weekdayOf(startDay)]) return NOT_QUIET(now)
  const endDay = start < end ? startDay : startDay + DAY
  return { quiet: true, endsAt: firstInstantAtOrAfter(q.timezone, endDay + end * MINUTE, now) }
}

const mod = (a: number, b: number) => ((a % b) + b) % b

function toMinutes(hhmm: string): number {
  const [h = '0', m = '0'] = hhmm.split(':')
  return Number(h) * 60 + Number(m)
}

/** WEEKDAYS is Monday-first; getUTCDay is Sunday = 0. */
function weekdayOf(dayUtcMidnight: number) {
  return WEEKDAYS[(new Date(dayUtcMidnight).getUTCDay() + 6) % 7]!
}

const formatters = new Map<string, Intl.DateTimeFormat>()

function formatter(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone)
  if (f === undefined) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    })
    formatters.set(zone, f)
  }
  return f
}

/** The zone's offset from UTC at `t`, in ms (local wall time = t + offset). */
function offsetAt(zone: string, t: number): number {
  const whole = t - mod(t, 1000)
  const p = { year: 0, month: 0, day: 0, hour: 0, minute: 0, second: 0 }
  for (const part of formatter(zone).formatToParts(whole)) {
    if (part.type in p) p[part.type as keyof typeof p] = Number(part.value)
  }
  return Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second) - whole
}

/**
 * The first instant after `after` at which the zone's wall clock shows `wall` (a local time written
 * as if it were UTC) or later. Zones change their offset at most once around any one wall time, so
 * the offsets 12 h either side give every candidate.
 */
function firstInstantAtOrAfter(zone: string, wall: number, after: number): number {
  const before = offsetAt(zone, wall - DAY / 2)
  const later = offsetAt(zone, wall + DAY / 2)
  const candidates: number[] = []
  for (const offset of before === later ? [before] : [before, later]) {
    const t = wall - offset
    if (offsetAt(zone, t) === offset && t > after) candidates.push(t)
  }
  if (candidates.length > 0) return Math.min(...candidates)
  // `wall` is in a spring-forward gap (or every occurrence is past): the wall clock first passes it
  // at the switch, the first instant in (wall - later, wall - before] that has the later offset.
  let lo = wall - later
  let hi = wall - before
  if (hi <= lo) return Math.max(after + 1, wall - later)
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2)
    if (offsetAt(zone, mid) === later) hi = mid
    else lo = mid
  }
  return Math.max(hi, after + 1)
}
