// A weekly window in a time zone: the days it is on, a start and an end time of day ('HH:MM'), an
// IANA zone. Quiet hours (server notify/quiet-hours.ts) and the maintenance windows of silences
// (issue 28) are such windows. Pure: time is a parameter, the zone is read through
// Intl.DateTimeFormat, which the page, the worker and Node all have.
//
// Rules:
// - A window is [start, end) on the zone's wall clock; end < start runs overnight (22:00-08:00);
//   start === end is empty (never on), not a whole day.
// - The day of the moment decides: with 22:00-08:00 on Monday-Friday, Monday 02:00 is inside
//   (Monday is on) and Saturday 02:00 is not; Friday's evening runs until midnight, where Saturday
//   takes over, and Sunday's evening is not inside.
// - `endsAt` is the first instant after `now` at which the window stops: the wall clock reaching
//   `end`, or midnight when an evening runs into a day that is off. Exact across DST: a time in a
//   spring-forward gap is reached at the switch; a time in a fall-back overlap at its first
//   occurrence.
// - `nextWindowStart` is the first instant after `now` at which a window begins: the wall clock
//   reaching `start` on a day that is on, or midnight of a day that is on when the evening before
//   it was off and its own morning is inside (an overnight window whose day starts with its tail).
import { WEEKDAYS, type Weekday } from '../model/alerts.ts'
import { isTimeOfDay } from './schedule-rules.ts'

export interface WeeklyWindow {
  /** 'HH:MM'. */
  start: string
  end: string
  /** IANA time zone. */
  timezone: string
  days: Record<Weekday, boolean>
}

export interface WindowAt {
  inside: boolean
  /** Epoch ms the window the moment is in ends; `now` when outside. */
  endsAt: number
}

export const MINUTE_MS = 60_000
const DAY = 24 * 60 * MINUTE_MS
/** How far `nextWindowStart` looks: a week and a day covers every window that exists. */
const LOOKAHEAD_DAYS = 8

const outside = (now: number): WindowAt => ({ inside: false, endsAt: now })
const mod = (a: number, b: number) => ((a % b) + b) % b

/** Minutes of the day of a valid 'HH:MM'. */
function toMinutes(hhmm: string): number {
  return Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5))
}

/** WEEKDAYS is Monday-first; getUTCDay is Sunday = 0. */
function weekdayOf(dayUtcMidnight: number): Weekday {
  return WEEKDAYS[(new Date(dayUtcMidnight).getUTCDay() + 6) % 7]!
}

// A zone Intl does not know is remembered as null: callers may ask about it on every evaluation.
const formatters = new Map<string, Intl.DateTimeFormat | null>()

function formatter(zone: string): Intl.DateTimeFormat | undefined {
  const known = formatters.get(zone)
  if (known !== undefined) return known ?? undefined
  let f: Intl.DateTimeFormat | null
  try {
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
  } catch {
    f = null // RangeError: not an IANA zone this runtime knows
  }
  if (formatters.size > 1000) formatters.clear() // hand-edited zones must not grow it forever
  formatters.set(zone, f)
  return f ?? undefined
}

/** Whether this runtime knows `zone` as an IANA time zone. */
export function isKnownTimeZone(zone: unknown): zone is string {
  return typeof zone === 'string' && zone.length <= 100 && formatter(zone) !== undefined
}

/** The zone's offset from UTC at `t`, in ms (local wall time = t + offset). */
function offsetAt(zone: string, t: number): number {
  const whole = t - mod(t, 1000)
  const p = { year: 0, month: 0, day: 0, hour: 0, minute: 0, second: 0 }
  for (const part of formatter(zone)!.formatToParts(whole)) {
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

/** Whether `w` can be applied: valid times, a zone this runtime knows, a day map. */
export function isApplicableWindow(w: WeeklyWindow): boolean {
  return (
    isTimeOfDay(w.start) &&
    isTimeOfDay(w.end) &&
    isKnownTimeZone(w.timezone) &&
    typeof w.days === 'object' &&
    w.days !== null
  )
}

/** Whether `now` is inside `w`, and when that window ends. Outside when `w` cannot be applied. */
export function weeklyWindowAt(w: WeeklyWindow, now: number): WindowAt {
  if (!isApplicableWindow(w)) return outside(now)
  const start = toMinutes(w.start)
  const end = toMinutes(w.end)
  if (start === end) return outside(now)
  // The zone's wall clock written as if it were UTC: its day (a UTC midnight) and minute of day.
  const wall = now + offsetAt(w.timezone, now)
  const today = wall - mod(wall, DAY)
  const minute = Math.floor(mod(wall, DAY) / MINUTE_MS)
  // Today's own day decides (see the rules above).
  if (w.days[weekdayOf(today)] !== true) return outside(now)
  let endWall: number
  if (start < end) {
    if (minute < start || minute >= end) return outside(now)
    endWall = today + end * MINUTE_MS
  } else if (minute < end) {
    endWall = today + end * MINUTE_MS
  } else if (minute >= start) {
    const tomorrow = today + DAY
    endWall = w.days[weekdayOf(tomorrow)] === true ? tomorrow + end * MINUTE_MS : tomorrow
  } else {
    return outside(now)
  }
  return { inside: true, endsAt: firstInstantAtOrAfter(w.timezone, endWall, now) }
}

/**
 * The first instant after `now` at which `w` begins (see the rules above); null when it never
 * does (no day on, an empty window, or one that cannot be applied).
 */
export function nextWindowStart(w: WeeklyWindow, now: number): number | null {
  if (!isApplicableWindow(w)) return null
  const start = toMinutes(w.start)
  const end = toMinutes(w.end)
  if (start === end) return null
  const wall = now + offsetAt(w.timezone, now)
  const today = wall - mod(wall, DAY)
  for (let i = 0; i <= LOOKAHEAD_DAYS; i++) {
    const day = today + i * DAY
    if (w.days[weekdayOf(day)] !== true) continue
    // An overnight window on a day whose evening before was off begins at that day's midnight.
    const yesterdayOn = w.days[weekdayOf(day - DAY)] === true
    const candidates =
      start > end && !yesterdayOn ? [day, day + start * MINUTE_MS] : [day + start * MINUTE_MS]
    for (const c of candidates) {
      // The first instant the wall clock reaches `c` (the switch, when `c` is in a DST gap).
      const t = firstInstantAtOrAfter(w.timezone, c, -Infinity)
      if (t > now) return t
    }
  }
  return null
}
