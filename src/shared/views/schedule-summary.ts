// The Schedule tab's configuration summary (spec 001 §2): a few plain sentences of what the
// schedule will do, so a reader does not have to add up the switches.
import { WEEKDAYS, type AlertSchedule, type Weekday } from '../model/alerts.ts'
import { groupingMinutes, weekdayLabel } from './schedule-rules.ts'

/** Three-letter day names, Monday first. */
export const SHORT_DAY: Record<Weekday, string> = {
  monday: 'Mon',
  tuesday: 'Tue',
  wednesday: 'Wed',
  thursday: 'Thu',
  friday: 'Fri',
  saturday: 'Sat',
  sunday: 'Sun',
}

/** A schedule as the summary reads it: a frozen UI snapshot is fine too. */
export type ScheduleReadout = Omit<AlertSchedule, 'escalation'> & {
  readonly escalation: {
    readonly enabled: boolean
    readonly levels: readonly AlertSchedule['escalation']['levels'][number][]
  }
}

const NOTIFY_TEXT = { email: 'email', webhook: 'webhooks', all: 'all channels' } as const

/** 'a', 'a and b', 'a, b and c'. */
export function joinAnd(items: readonly string[]): string {
  if (items.length <= 1) return items.join('')
  return `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`
}

function daysPhrase(days: Readonly<Record<Weekday, boolean>>): string | null {
  const label = weekdayLabel(days)
  if (label === 'Weekdays only') return 'on weekdays'
  if (label === 'Weekends only') return 'at weekends'
  const chosen = WEEKDAYS.filter((day) => days[day])
  if (chosen.length === 0) return null
  if (chosen.length === 7) return 'every day'
  return `on ${joinAnd(chosen.map((day) => SHORT_DAY[day]))}`
}

const CATEGORIES = ['performance', 'storage', 'offline'] as const

/**
 * Which alerts quiet hours hold, as a clause: warnings always; critical alerts only of the
 * categories whose flag is set (the reference's meaning of `suppress`, issue 24 item 12). The
 * Quiet hours card and the summary both say it with this one function, so they cannot disagree.
 */
export function quietHoursHeldClause(suppress: AlertSchedule['quietHours']['suppress']): string {
  const held = CATEGORIES.filter((category) => suppress[category])
  if (held.length === 0) return 'warnings are held, critical alerts are still sent'
  if (held.length === CATEGORIES.length) return 'everything is held, even critical alerts'
  return `warnings and critical ${joinAnd(held)} alerts are held, other critical alerts are still sent`
}

function quietHoursSentence(quiet: AlertSchedule['quietHours']): string {
  if (!quiet.enabled) return 'Quiet hours are off: alerts are sent at any time.'
  const days = daysPhrase(quiet.days)
  if (days === null) return 'Quiet hours are on but no day is selected, so they never apply.'
  return (
    `Quiet hours ${quiet.start}-${quiet.end} ${quiet.timezone} ${days}: ` +
    `${quietHoursHeldClause(quiet.suppress)}. What was held is sent as one summary when they end.`
  )
}

function repeatSentence(schedule: ScheduleReadout): string {
  const perHour = `at most ${schedule.maxAlertsHour} per hour`
  return schedule.cooldown > 0
    ? `Repeats of one occurrence at most every ${schedule.cooldown} min (a new occurrence is always sent), ${perHour}.`
    : `No cooldown between repeats of one occurrence, ${perHour}.`
}

function groupingSentence(schedule: ScheduleReadout): string {
  if (!schedule.grouping.enabled) return 'Each alert is sent on its own, without grouping.'
  const minutes = groupingMinutes(schedule.groupingWindow)
  const within = `Alerts within ${minutes} minute${minutes === 1 ? '' : 's'}`
  const keys = [schedule.grouping.byNode && 'node', schedule.grouping.byGuest && 'guest'].filter(
    (key): key is string => typeof key === 'string',
  )
  return keys.length === 0
    ? `${within} are sent together as one message.`
    : `${within} are grouped by ${joinAnd(keys)}.`
}

function stormSentence(schedule: ScheduleReadout): string {
  if (!schedule.storm.enabled) return 'Storm control is off: every alert is listed on its own.'
  return `More than ${schedule.storm.threshold} alerts within one grouping window are sent as one summary.`
}

function escalationSentence(escalation: ScheduleReadout['escalation']): string {
  if (!escalation.enabled) return 'Escalation is off.'
  if (escalation.levels.length === 0) return 'Escalation is on but has no levels yet.'
  const steps = escalation.levels.map(
    (level) => `after ${level.after} min (${NOTIFY_TEXT[level.notify]})`,
  )
  return `Unacknowledged alerts escalate ${joinAnd(steps)}.`
}

/** The summary, one sentence per part of the schedule, in the order the tab shows the parts. */
export function summarizeSchedule(schedule: ScheduleReadout): string[] {
  return [
    quietHoursSentence(schedule.quietHours),
    repeatSentence(schedule),
    'Recoveries are always sent; cooldown never swallows them.',
    groupingSentence(schedule),
    stormSentence(schedule),
    escalationSentence(schedule.escalation),
  ]
}
