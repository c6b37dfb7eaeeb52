import { describe, expect, it } from 'vitest'
import type { AlertSchedule } from '../../../../src/shared/model/alerts.ts'
import { DEFAULT_ALERT_CONFIG } from '../../../../src/server/alerts/config-defaults.ts'
import {
  clampCooldown,
  clampMaxPerHour,
  clampStormThreshold,
  defaultSchedule,
  groupingMinutes,
  newEscalationLevel,
  parseEscalationAfter,
  parseTimeOfDay,
  setGroupingMinutes,
  weekdayLabel,
} from '../../../../src/shared/views/schedule-rules.ts'

const days = (on: string[]) =>
  Object.fromEntries(
    ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((d) => [
      d,
      on.includes(d),
    ]),
  ) as AlertSchedule['quietHours']['days']

describe('schedule rules (spec 001 §5 Schedule)', () => {
  it('clamps cooldown to 5-120 and keeps the previous value for text that is no number', () => {
    expect(clampCooldown('1', 30)).toBe(5)
    expect(clampCooldown('500', 30)).toBe(120)
    expect(clampCooldown(' 45 ', 30)).toBe(45)
    expect(clampCooldown('abc', 30)).toBe(30)
    expect(clampCooldown('', 30)).toBe(30)
    expect(clampCooldown('7.5', 30)).toBe(30)
  })

  it('clamps max alerts per hour to 1-10 and the storm threshold to 2-10000', () => {
    expect(clampMaxPerHour('0', 3)).toBe(1)
    expect(clampMaxPerHour('-4', 3)).toBe(1)
    expect(clampMaxPerHour('11', 3)).toBe(10)
    expect(clampMaxPerHour('x', 3)).toBe(3)
    expect(clampStormThreshold('1', 20)).toBe(2)
    expect(clampStormThreshold('99999', 20)).toBe(10_000)
    expect(clampStormThreshold('150', 20)).toBe(150)
  })

  it('keeps the previous escalation after-minutes when the typed value is outside 5-180', () => {
    expect(parseEscalationAfter('4', 15)).toBe(15)
    expect(parseEscalationAfter('181', 15)).toBe(15)
    expect(parseEscalationAfter('soon', 15)).toBe(15)
    expect(parseEscalationAfter('5', 15)).toBe(5)
    expect(parseEscalationAfter('180', 15)).toBe(180)
  })

  it('labels exactly Monday-Friday and exactly Saturday-Sunday, nothing else', () => {
    expect(weekdayLabel(days(['monday', 'tuesday', 'wednesday', 'thursday', 'friday']))).toBe(
      'Weekdays only',
    )
    expect(weekdayLabel(days(['saturday', 'sunday']))).toBe('Weekends only')
    expect(weekdayLabel(days(['monday', 'tuesday', 'wednesday', 'thursday']))).toBeNull()
    expect(weekdayLabel(days(['saturday']))).toBeNull()
    expect(
      weekdayLabel(days(['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'sunday'])),
    ).toBeNull()
    expect(weekdayLabel(days([]))).toBeNull()
  })

  it('keeps the grouping window in seconds in both fields, shown in minutes', () => {
    const schedule = defaultSchedule('UTC')
    setGroupingMinutes(schedule, 12)
    expect(schedule.groupingWindow).toBe(720)
    expect(schedule.grouping.window).toBe(720)
    setGroupingMinutes(schedule, 45)
    expect(schedule.groupingWindow).toBe(1800)
    setGroupingMinutes(schedule, 0)
    expect(schedule.grouping.window).toBe(60)
    expect(groupingMinutes(300)).toBe(5)
    expect(groupingMinutes(90)).toBe(2)
    expect(groupingMinutes(0)).toBe(1)
    expect(groupingMinutes(7200)).toBe(30)
  })

  it('adds a level 30 minutes after the last one, 15 for the first, notify all', () => {
    expect(newEscalationLevel([])).toEqual({ after: 15, notify: 'all' })
    expect(newEscalationLevel([{ after: 15 }, { after: 40 }])).toEqual({ after: 70, notify: 'all' })
    // Never beyond the range the server accepts.
    expect(newEscalationLevel([{ after: 170 }])).toEqual({ after: 180, notify: 'all' })
  })

  it('resets to the §9 defaults the server uses, keeping the chosen time zone', () => {
    const reset = defaultSchedule('Europe/Berlin')
    expect(reset.quietHours.timezone).toBe('Europe/Berlin')
    expect({ ...reset, quietHours: { ...reset.quietHours, timezone: 'UTC' } }).toEqual(
      DEFAULT_ALERT_CONFIG.schedule,
    )
    // A fresh object each time: editing one reset must not edit the next.
    expect(defaultSchedule('UTC').escalation.levels).not.toBe(
      defaultSchedule('UTC').escalation.levels,
    )
  })

  it('reads HH:MM from a time input and refuses anything else', () => {
    expect(parseTimeOfDay('23:30')).toBe('23:30')
    expect(parseTimeOfDay('07:05:00')).toBe('07:05')
    expect(parseTimeOfDay('')).toBeNull()
    expect(parseTimeOfDay('24:00')).toBeNull()
    expect(parseTimeOfDay('7:5')).toBeNull()
  })
})
