// The Schedule tab's rules (spec 001 §5 Schedule, §9 schedule defaults): what a typed value becomes,
// the weekday label, a new escalation level. Pure, so the tab and the tests share one definition.
import { WEEKDAYS, type AlertSchedule, type Weekday } from '../model/alerts.ts'

export const COOLDOWN_MIN = 5
export const COOLDOWN_MAX = 120
export const MAX_PER_HOUR_MIN = 1
export const MAX_PER_HOUR_MAX = 10
export const GROUPING_MINUTES_MIN = 1
export const GROUPING_MINUTES_MAX = 30
export const ESCALATION_AFTER_MIN = 5
export const ESCALATION_AFTER_MAX = 180
/** The server refuses more (config-validate.ts). */
export const ESCALATION_LEVELS_MAX = 10
export const STORM_MIN = 2
export const STORM_MAX = 10_000

/** The cooldown used when it is switched on from 0 with nothing to return to (§9 default). */
export const COOLDOWN_DEFAULT = 30

const WEEKDAY_SET: readonly Weekday[] = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday']

function parseInteger(text: string): number | null {
  const trimmed = text.trim()
  return /^-?\d+$/.test(trimmed) ? Number(trimmed) : null
}

const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value))

/**
 * A typed number clamped into [min, max]; text that is no whole number keeps `previous`, since
 * a stray letter should not silently become the minimum.
 */
export function clampInteger(text: string, previous: number, min: number, max: number): number {
  const value = parseInteger(text)
  return value === null ? previous : clamp(value, min, max)
}

/** Cooldown minutes while cooldown is on (spec 001 §5: 5-120). */
export const clampCooldown = (text: string, previous: number) =>
  clampInteger(text, previous, COOLDOWN_MIN, COOLDOWN_MAX)

/** Max alerts per hour (spec 001 §5: 1-10). */
export const clampMaxPerHour = (text: string, previous: number) =>
  clampInteger(text, previous, MAX_PER_HOUR_MIN, MAX_PER_HOUR_MAX)

/** Storm threshold (2-10000, the validator's range). */
export const clampStormThreshold = (text: string, previous: number) =>
  clampInteger(text, previous, STORM_MIN, STORM_MAX)

/**
 * Escalation after-minutes (spec 001 §5: 5-180, invalid keeps previous): unlike the other fields
 * an out-of-range value is not clamped, it is refused, as the spec words it.
 */
export function parseEscalationAfter(text: string, previous: number): number {
  const value = parseInteger(text)
  return value === null || value < ESCALATION_AFTER_MIN || value > ESCALATION_AFTER_MAX
    ? previous
    : value
}

/** The grouping window in whole minutes for the slider (stored in seconds, spec 001 §9). */
export function groupingMinutes(seconds: number): number {
  return clamp(Math.round(seconds / 60), GROUPING_MINUTES_MIN, GROUPING_MINUTES_MAX)
}

/** Set the window everywhere it is stored: `groupingWindow` and `grouping.window`, in seconds. */
export function setGroupingMinutes(schedule: AlertSchedule, minutes: number): void {
  const seconds = clamp(Math.round(minutes), GROUPING_MINUTES_MIN, GROUPING_MINUTES_MAX) * 60
  schedule.groupingWindow = seconds
  schedule.grouping.window = seconds
}

/** 'Weekdays only' or 'Weekends only' when the selection is exactly that (spec 001 §2), else null. */
export function weekdayLabel(days: Readonly<Record<Weekday, boolean>>): string | null {
  let weekdays = 0
  let weekend = 0
  for (const day of WEEKDAYS) {
    if (!days[day]) continue
    if (WEEKDAY_SET.includes(day)) weekdays++
    else weekend++
  }
  if (weekdays === 5 && weekend === 0) return 'Weekdays only'
  if (weekdays === 0 && weekend === 2) return 'Weekends only'
  return null
}

/**
 * A new escalation level (spec 001 §5): the last level's after plus 30 (held inside the range),
 * or 15 for the first; notify all.
 */
export function newEscalationLevel(
  levels: readonly { after: number }[],
): AlertSchedule['escalation']['levels'][number] {
  const last = levels.at(-1)
  const after = last ? Math.min(ESCALATION_AFTER_MAX, last.after + 30) : 15
  return { after, notify: 'all' }
}

/**
 * The §9 schedule defaults: the one definition, read by the server's fresh config
 * (alerts/config-defaults.ts, zone UTC) and by the tab's Reset defaults, which keeps the zone as it
 * is: it says where the administrator is, not how loud alerts should be, and §9 names none.
 */
export function defaultSchedule(timezone: string): AlertSchedule {
  return {
    quietHours: {
      enabled: false,
      start: '22:00',
      end: '08:00',
      timezone,
      days: {
        monday: true,
        tuesday: true,
        wednesday: true,
        thursday: true,
        friday: true,
        saturday: false,
        sunday: false,
      },
      // Nothing extra held: warnings wait, every critical alert is sent (reference meaning).
      suppress: { performance: false, storage: false, offline: false },
    },
    cooldown: COOLDOWN_DEFAULT,
    groupingWindow: 300,
    maxAlertsHour: 3,
    escalation: {
      enabled: false,
      levels: [
        { after: 15, notify: 'email' },
        { after: 30, notify: 'webhook' },
        { after: 60, notify: 'all' },
      ],
    },
    grouping: { enabled: true, window: 300, byNode: true, byGuest: false },
    // Ours: more than this many alerts in one grouping window (per destination and group) go out
    // as one summary message instead of one entry each.
    storm: { enabled: true, threshold: 20 },
  }
}

const TIME_OF_DAY = /^([01]\d|2[0-3]):[0-5]\d$/

/** Whether `value` is a stored quiet-hours time: exactly 'HH:MM', 00:00 to 23:59. */
export function isTimeOfDay(value: unknown): value is string {
  return typeof value === 'string' && TIME_OF_DAY.test(value)
}

/** 'HH:MM' from a time input, or null when it is empty or malformed (the field keeps its value). */
export function parseTimeOfDay(text: string): string | null {
  const match = /^([01]\d|2[0-3]):([0-5]\d)/.exec(text.trim())
  return match ? `${match[1]}:${match[2]}` : null
}
