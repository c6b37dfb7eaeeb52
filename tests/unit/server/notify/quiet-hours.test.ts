import { describe, expect, it } from 'vitest'
import {
  alertCategory,
  createQuietHoursCheck,
  heldByQuietHours,
  quietHoursProblem,
  quietWindow,
} from '../../../../src/server/notify/quiet-hours.ts'
import type { AlertSchedule, AlertType } from '../../../../src/shared/model/alerts.ts'
import { WEEKDAYS } from '../../../../src/shared/model/alerts.ts'
import { makeAlert, makeSchedule } from './policy-fixture.ts'

const at = (iso: string) => Date.parse(iso)

function quiet(
  start: string,
  end: string,
  timezone = 'UTC',
  days: readonly string[] = WEEKDAYS,
): AlertSchedule {
  return makeSchedule((s) => {
    s.quietHours = {
      ...s.quietHours,
      enabled: true,
      start,
      end,
      timezone,
      days: Object.fromEntries(
        WEEKDAYS.map((d) => [d, days.includes(d)]),
      ) as typeof s.quietHours.days,
    }
  })
}

const window = (schedule: AlertSchedule, iso: string) => quietWindow(schedule, at(iso))

describe('quiet hours', () => {
  it('is never quiet when disabled', () => {
    const s = makeSchedule()
    expect(window(s, '2024-01-15T23:00:00Z')).toEqual({
      quiet: false,
      endsAt: at('2024-01-15T23:00:00Z'),
    })
  })

  it('holds an overnight window across midnight and ends it at end time, [start, end)', () => {
    const s = quiet('22:00', '08:00')
    expect(window(s, '2024-01-15T21:59:00Z').quiet).toBe(false)
    expect(window(s, '2024-01-15T22:00:00Z')).toEqual({
      quiet: true,
      endsAt: at('2024-01-16T08:00:00Z'),
    })
    expect(window(s, '2024-01-16T03:00:00Z')).toEqual({
      quiet: true,
      endsAt: at('2024-01-16T08:00:00Z'),
    })
    expect(window(s, '2024-01-16T07:59:59Z').quiet).toBe(true)
    expect(window(s, '2024-01-16T08:00:00Z').quiet).toBe(false)
  })

  it('lets the day of the moment decide after midnight, as the reference does (issue 24 item 16)', () => {
    const weekdays = quiet('22:00', '08:00', 'UTC', [
      'monday',
      'tuesday',
      'wednesday',
      'thursday',
      'friday',
    ])
    // Monday 02:00: Monday is on, so quiet until Monday 08:00 (Sunday being off does not matter).
    expect(window(weekdays, '2024-01-22T02:00:00Z')).toEqual({
      quiet: true,
      endsAt: at('2024-01-22T08:00:00Z'),
    })
    // Saturday 02:00: Saturday is off, so not quiet, although Friday's evening was.
    expect(window(weekdays, '2024-01-20T02:00:00Z').quiet).toBe(false)
    // Friday 23:00 is quiet until midnight, where Saturday (off) takes over.
    expect(window(weekdays, '2024-01-19T23:00:00Z')).toEqual({
      quiet: true,
      endsAt: at('2024-01-20T00:00:00Z'),
    })
    // Sunday 23:00 is not quiet; a weekday evening runs on into the next weekday's morning.
    expect(window(weekdays, '2024-01-21T23:00:00Z').quiet).toBe(false)
    expect(window(weekdays, '2024-01-22T22:30:00Z')).toEqual({
      quiet: true,
      endsAt: at('2024-01-23T08:00:00Z'),
    })
  })

  it('handles a same-day window, and treats start = end as no window', () => {
    const lunch = quiet('12:00', '14:00')
    expect(window(lunch, '2024-01-15T11:59:00Z').quiet).toBe(false)
    expect(window(lunch, '2024-01-15T13:00:00Z')).toEqual({
      quiet: true,
      endsAt: at('2024-01-15T14:00:00Z'),
    })
    expect(window(lunch, '2024-01-15T14:00:00Z').quiet).toBe(false)
    expect(window(quiet('08:00', '08:00'), '2024-01-15T08:00:00Z').quiet).toBe(false)
  })

  it('reads time and weekday in the schedule zone far from UTC (Pacific/Auckland)', () => {
    const tuesdays = quiet('22:00', '08:00', 'Pacific/Auckland', ['tuesday'])
    // 10:00 UTC on Monday is 23:00 Monday in Auckland (NZDT, +13): Monday is off.
    expect(window(tuesdays, '2024-01-15T10:00:00Z').quiet).toBe(false)
    // 10:00 UTC Tuesday = 23:00 Tuesday local; Wednesday is off, so it ends at local midnight.
    expect(window(tuesdays, '2024-01-16T10:00:00Z')).toEqual({
      quiet: true,
      endsAt: at('2024-01-16T11:00:00Z'),
    })
    // Tuesday 03:00 local (14:00 UTC Monday) is quiet until Tuesday 08:00 local.
    expect(window(tuesdays, '2024-01-15T14:00:00Z')).toEqual({
      quiet: true,
      endsAt: at('2024-01-15T19:00:00Z'),
    })
    // Monday 21:00 UTC is Tuesday 10:00 local: outside the window, although UTC says Monday night.
    expect(window(tuesdays, '2024-01-15T21:00:00Z').quiet).toBe(false)
  })

  it('ends exactly across the Auckland DST switches (April end, September start)', () => {
    const s = quiet('22:00', '08:00', 'Pacific/Auckland')
    // Sat 6 Apr 23:00 NZDT (+13); Sunday 08:00 is NZST (+12).
    expect(window(s, '2024-04-06T10:00:00Z')).toEqual({
      quiet: true,
      endsAt: at('2024-04-06T20:00:00Z'),
    })
    // Sat 28 Sep 23:00 NZST (+12); Sunday 08:00 is NZDT (+13).
    expect(window(s, '2024-09-28T11:00:00Z')).toEqual({
      quiet: true,
      endsAt: at('2024-09-28T19:00:00Z'),
    })
  })

  it('ends exactly across the Europe/Berlin DST switches (March and October)', () => {
    const s = quiet('22:00', '08:00', 'Europe/Berlin')
    // Sat 30 Mar 23:00 CET (+1); Sunday 08:00 is CEST (+2) = 06:00 UTC, not 07:00.
    expect(window(s, '2024-03-30T22:00:00Z')).toEqual({
      quiet: true,
      endsAt: at('2024-03-31T06:00:00Z'),
    })
    // Sat 26 Oct 23:00 CEST (+2); Sunday 08:00 is CET (+1) = 07:00 UTC, not 06:00.
    expect(window(s, '2024-10-26T21:00:00Z')).toEqual({
      quiet: true,
      endsAt: at('2024-10-27T07:00:00Z'),
    })
    // Just before and after the switch itself, in the same window.
    expect(window(s, '2024-03-31T00:59:00Z').endsAt).toBe(at('2024-03-31T06:00:00Z'))
    expect(window(s, '2024-03-31T01:00:00Z').endsAt).toBe(at('2024-03-31T06:00:00Z'))
  })

  it('ends a window whose end falls in the spring-forward gap at the switch', () => {
    // 02:30 does not exist in Berlin on 31 Mar 2024 (02:00 CET -> 03:00 CEST at 01:00 UTC).
    const s = quiet('22:00', '02:30', 'Europe/Berlin')
    expect(window(s, '2024-03-31T00:30:00Z')).toEqual({
      quiet: true,
      endsAt: at('2024-03-31T01:00:00Z'),
    })
    expect(window(s, '2024-03-31T01:00:00Z').quiet).toBe(false)
  })

  it('ends a window whose end falls in the fall-back overlap at the wall clock end that comes next', () => {
    // 02:30 happens twice in Berlin on 27 Oct 2024: 00:30 UTC (CEST) and 01:30 UTC (CET).
    const s = quiet('22:00', '02:30', 'Europe/Berlin')
    expect(window(s, '2024-10-26T22:00:00Z')).toEqual({
      quiet: true,
      endsAt: at('2024-10-27T00:30:00Z'),
    })
    expect(window(s, '2024-10-27T00:30:00Z').quiet).toBe(false)
    // The repeated hour reads 02:10 again on the wall clock: inside [22:00, 02:30) once more.
    expect(window(s, '2024-10-27T01:10:00Z')).toEqual({
      quiet: true,
      endsAt: at('2024-10-27T01:30:00Z'),
    })
  })
})

describe('alert categories and critical exceptions', () => {
  it('sorts every alert type into performance, storage or offline', () => {
    const expected: Record<AlertType, string> = {
      cpu: 'performance',
      memory: 'performance',
      disk: 'performance',
      diskRead: 'performance',
      diskWrite: 'performance',
      networkIn: 'performance',
      networkOut: 'performance',
      temperature: 'performance',
      usage: 'storage',
      'disk-health': 'storage',
      'disk-wearout': 'storage',
      'zfs-pool-state': 'storage',
      'zfs-pool-errors': 'storage',
      'zfs-device': 'storage',
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
    for (const [type, category] of Object.entries(expected)) {
      expect(alertCategory({ type: type as AlertType }), type).toBe(category)
    }
  })

  it('holds warnings; sends critical alerts unless their category flag is set (issue 24 item 12)', () => {
    const none = makeSchedule()
    expect(heldByQuietHours(makeAlert({ type: 'offline', level: 'critical' }), none)).toBe(false)
    expect(heldByQuietHours(makeAlert({ type: 'cpu', level: 'critical' }), none)).toBe(false)
    expect(heldByQuietHours(makeAlert({ type: 'offline', level: 'warning' }), none)).toBe(true)
    const s = makeSchedule((x) => {
      x.quietHours.suppress = { performance: false, storage: true, offline: true }
    })
    expect(heldByQuietHours(makeAlert({ type: 'powered-off', level: 'critical' }), s)).toBe(true)
    expect(heldByQuietHours(makeAlert({ type: 'usage', level: 'critical' }), s)).toBe(true)
    expect(heldByQuietHours(makeAlert({ type: 'cpu', level: 'critical' }), s)).toBe(false)
    expect(heldByQuietHours(makeAlert({ type: 'cpu', level: 'warning' }), s)).toBe(true)
  })
})

describe('invalid quiet hours from the database (issue 24 item 18)', () => {
  it('treats an invalid start, end or zone as no quiet hours instead of throwing', () => {
    const night = '2024-01-16T03:00:00Z'
    for (const [start, end, zone] of [
      ['22:00', '08:00', 'Mars/Olympus_Mons'],
      ['25:00', '08:00', 'UTC'],
      ['22:00', '8', 'UTC'],
      ['', '08:00', 'UTC'],
    ] as const) {
      expect(window(quiet(start, end, zone), night), `${start} ${end} ${zone}`).toEqual({
        quiet: false,
        endsAt: at(night),
      })
    }
    // A hand edit that dropped the day map or the flags does not throw either.
    const broken = quiet('22:00', '08:00')
    Reflect.deleteProperty(broken.quietHours, 'days')
    expect(window(broken, night).quiet).toBe(false)
    const noFlags = makeSchedule()
    Reflect.deleteProperty(noFlags.quietHours, 'suppress')
    expect(heldByQuietHours(makeAlert({ type: 'offline', level: 'critical' }), noFlags)).toBe(false)
  })

  it('names the invalid field, and the check logs it once per distinct value', () => {
    expect(quietHoursProblem(quiet('22:00', '08:00').quietHours)).toBeUndefined()
    expect(quietHoursProblem(quiet('22:00', '08:00', 'Nowhere/City').quietHours)).toEqual({
      field: 'timezone',
      value: 'Nowhere/City',
    })
    expect(quietHoursProblem(quiet('24:00', '08:00').quietHours)).toEqual({
      field: 'start',
      value: '24:00',
    })
    const warnings: { obj: object; msg: string }[] = []
    const check = createQuietHoursCheck({ warn: (obj, msg) => warnings.push({ obj, msg }) })
    const bad = quiet('22:00', '08:00', 'Nowhere/City')
    check(bad)
    check(bad)
    check(quiet('22:00', '08:00', 'Nowhere/City'))
    expect(warnings).toHaveLength(1)
    expect(warnings[0]!.obj).toEqual({
      field: 'schedule.quietHours.timezone',
      value: 'Nowhere/City',
    })
    expect(warnings[0]!.msg).toMatch(/quiet hours are ignored/)
    // Off: nothing to say. Another bad value, or the same again after a fix: said again.
    check(makeSchedule((x) => (x.quietHours.timezone = 'Nowhere/City')))
    check(quiet('22:00', '08:00'))
    check(bad)
    check(quiet('22:00', '8:00'))
    expect(warnings.map((w) => w.obj)).toEqual([
      { field: 'schedule.quietHours.timezone', value: 'Nowhere/City' },
      { field: 'schedule.quietHours.timezone', value: 'Nowhere/City' },
      { field: 'schedule.quietHours.end', value: '8:00' },
    ])
  })
})
