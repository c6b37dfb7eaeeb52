// Local days for the backups tab: day numbers, date group labels (spec 000 §2.4) and the chart's
// daily buckets (spec 000 §9). Pure; "local" is the runtime's time zone (the browser's in the worker).
import type { BackupChartData, BackupChartRange, BackupClass } from './backups-types.ts'

const DAY_SECONDS = 86_400
const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
] as const

// Looking up a time zone offset is slow (tens of µs): cache it per UTC day, and per hour only on
// the days where it changes (DST), so normalising 100k records costs a few hundred lookups.
const offsetByDay = new Map<number, number>()
const offsetByHour = new Map<number, number>()
const VARIES = Number.NaN

function offsetAt(epochSeconds: number): number {
  return new Date(epochSeconds * 1000).getTimezoneOffset() * 60
}

function offsetOf(epochSeconds: number): number {
  const utcDay = Math.floor(epochSeconds / DAY_SECONDS)
  let offset = offsetByDay.get(utcDay)
  if (offset === undefined) {
    const start = offsetAt(utcDay * DAY_SECONDS)
    offset = start === offsetAt(utcDay * DAY_SECONDS + DAY_SECONDS - 1) ? start : VARIES
    if (offsetByDay.size > 100_000) offsetByDay.clear()
    offsetByDay.set(utcDay, offset)
  }
  if (!Number.isNaN(offset)) return offset
  const hour = Math.floor(epochSeconds / 3600)
  let hourly = offsetByHour.get(hour)
  if (hourly === undefined) {
    hourly = offsetAt(hour * 3600)
    if (offsetByHour.size > 100_000) offsetByHour.clear()
    offsetByHour.set(hour, hourly)
  }
  return hourly
}

/** The local day number (days since 1970-01-01 local) of an epoch-seconds time. */
export function localDay(epochSeconds: number): number {
  return Math.floor((epochSeconds - offsetOf(epochSeconds)) / DAY_SECONDS)
}

/** Calendar month (0-11) and day of month of a local day number. */
export function dayParts(day: number): { year: number; month: number; date: number } {
  // A local day number is the UTC calendar date of the same count of days.
  const at = new Date(day * DAY_SECONDS * 1000)
  return { year: at.getUTCFullYear(), month: at.getUTCMonth(), date: at.getUTCDate() }
}

/** English ordinal suffix: 1st, 2nd, 3rd, 4th, 11th-13th, 21st, 22nd, 23rd, 31st. */
export function ordinal(n: number): string {
  const tens = n % 100
  if (tens >= 11 && tens <= 13) return `${n}th`
  switch (n % 10) {
    case 1:
      return `${n}st`
    case 2:
      return `${n}nd`
    case 3:
      return `${n}rd`
    default:
      return `${n}th`
  }
}

/** Date group label (spec 000 §2.4): 'Today', 'Yesterday', else 'Month Dayth' ('March 2nd'). */
export function dateGroupLabel(day: number, today: number): string {
  if (day === today) return 'Today'
  if (day === today - 1) return 'Yesterday'
  const { month, date } = dayParts(day)
  return `${MONTHS[month]} ${ordinal(date)}`
}

/** Short chart axis label of a day: 'Mar 2'. */
export function shortDayLabel(day: number): string {
  const { month, date } = dayParts(day)
  return `${MONTHS[month]!.slice(0, 3)} ${date}`
}

/**
 * Daily stacked counts for the `range` days ending `today`, from the records in `order` (every
 * record when null). Records outside the range (older, or in the future) are not counted.
 */
export function bucketBackups(
  order: Uint32Array | null,
  days: Int32Array,
  classes: readonly BackupClass[],
  range: BackupChartRange,
  today: number,
  byDay?: ReadonlyMap<number, Int32Array>,
): BackupChartData {
  const first = today - range + 1
  const snapshot = new Array<number>(range).fill(0)
  const pve = new Array<number>(range).fill(0)
  const pbs = new Array<number>(range).fill(0)
  // Every record passes and the counts per day are kept: read the days shown, not every record.
  const perDay = order ? undefined : byDay
  if (perDay) {
    for (let slot = 0; slot < range; slot++) {
      const counts = perDay.get(first + slot)
      if (!counts) continue
      snapshot[slot] = counts[0]!
      pve[slot] = counts[1]!
      pbs[slot] = counts[2]!
    }
  }
  const count = perDay ? 0 : order ? order.length : days.length
  for (let i = 0; i < count; i++) {
    const index = order ? order[i]! : i
    const slot = days[index]! - first
    if (slot < 0 || slot >= range) continue
    const kind = classes[index]
    if (kind === 'snapshot') snapshot[slot]!++
    else if (kind === 'local') pve[slot]!++
    else pbs[slot]!++
  }
  let max = 0
  const dayList: number[] = []
  for (let slot = 0; slot < range; slot++) {
    dayList.push(first + slot)
    max = Math.max(max, snapshot[slot]! + pve[slot]! + pbs[slot]!)
  }
  return { range, days: dayList, snapshot, pve, pbs, max }
}
