import { describe, expect, it } from 'vitest'
import { defaultSchedule } from '../../../../src/shared/views/schedule-rules.ts'
import { joinAnd, summarizeSchedule } from '../../../../src/shared/views/schedule-summary.ts'

describe('schedule summary', () => {
  it('describes the §9 defaults in plain sentences', () => {
    expect(summarizeSchedule(defaultSchedule('UTC'))).toEqual([
      'Quiet hours are off: alerts are sent at any time.',
      'Repeats of one occurrence at most every 30 min (a new occurrence is always sent), at most 3 per hour.',
      'Recoveries are always sent; cooldown never swallows them.',
      'Alerts within 5 minutes are grouped by node.',
      'More than 20 alerts within one grouping window are sent as one summary.',
      'Escalation is off.',
    ])
  })

  it('spells out quiet hours, their days and which alerts they hold (issue 24 item 12)', () => {
    const schedule = defaultSchedule('Europe/Berlin')
    schedule.quietHours.enabled = true
    expect(summarizeSchedule(schedule)[0]).toBe(
      'Quiet hours 22:00-08:00 Europe/Berlin on weekdays: warnings are held, critical alerts are ' +
        'still sent. What was held is sent as one summary when they end.',
    )
    schedule.quietHours.suppress.offline = true
    expect(summarizeSchedule(schedule)[0]).toBe(
      'Quiet hours 22:00-08:00 Europe/Berlin on weekdays: warnings and critical offline alerts ' +
        'are held, other critical alerts are still sent. What was held is sent as one summary ' +
        'when they end.',
    )
    schedule.quietHours.suppress.performance = true
    schedule.quietHours.suppress.storage = true
    schedule.quietHours.days = {
      monday: true,
      tuesday: false,
      wednesday: true,
      thursday: false,
      friday: true,
      saturday: false,
      sunday: false,
    }
    expect(summarizeSchedule(schedule)[0]).toMatch(
      /on Mon, Wed and Fri: everything is held, even critical alerts\./,
    )
    schedule.quietHours.suppress = { performance: false, storage: false, offline: false }
    schedule.quietHours.days.monday = false
    schedule.quietHours.days.wednesday = false
    schedule.quietHours.days.friday = false
    expect(summarizeSchedule(schedule)[0]).toBe(
      'Quiet hours are on but no day is selected, so they never apply.',
    )
    schedule.quietHours.days.saturday = true
    schedule.quietHours.days.sunday = true
    expect(summarizeSchedule(schedule)[0]).toMatch(
      /at weekends: warnings are held, critical alerts are still sent\./,
    )
  })

  it('describes cooldown off, grouping variants, storm off and escalation levels', () => {
    const schedule = defaultSchedule('UTC')
    schedule.cooldown = 0
    schedule.maxAlertsHour = 1
    schedule.grouping.byGuest = true
    schedule.groupingWindow = 60
    schedule.storm.enabled = false
    schedule.escalation.enabled = true
    const lines = summarizeSchedule(schedule)
    expect(lines[1]).toBe('No cooldown between repeats of one occurrence, at most 1 per hour.')
    expect(lines[3]).toBe('Alerts within 1 minute are grouped by node and guest.')
    expect(lines[4]).toBe('Storm control is off: every alert is listed on its own.')
    expect(lines[5]).toBe(
      'Unacknowledged alerts escalate after 15 min (email), after 30 min (webhooks) and after 60 min (all channels).',
    )
    schedule.grouping.byNode = false
    schedule.grouping.byGuest = false
    expect(summarizeSchedule(schedule)[3]).toBe(
      'Alerts within 1 minute are sent together as one message.',
    )
    schedule.grouping.enabled = false
    expect(summarizeSchedule(schedule)[3]).toBe('Each alert is sent on its own, without grouping.')
    schedule.escalation.levels = []
    expect(summarizeSchedule(schedule)[5]).toBe('Escalation is on but has no levels yet.')
  })

  it('joins lists the English way', () => {
    expect(joinAnd([])).toBe('')
    expect(joinAnd(['a'])).toBe('a')
    expect(joinAnd(['a', 'b'])).toBe('a and b')
    expect(joinAnd(['a', 'b', 'c'])).toBe('a, b and c')
  })
})
