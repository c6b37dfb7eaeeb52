// The weekly window of quiet hours and of recurring silences (issue 28): inside or not, when it
// ends and when the next one begins, across the DST switches of real zones.
import { describe, expect, it } from 'vitest'
import { WEEKDAYS, type Weekday } from '../../../../src/shared/model/alerts.ts'
import {
  isKnownTimeZone,
  nextWindowStart,
  weeklyWindowAt,
  type WeeklyWindow,
} from '../../../../src/shared/views/weekly-window.ts'

const at = (iso: string) => Date.parse(iso)

function win(start: string, end: string, timezone: string, days: readonly Weekday[]): WeeklyWindow {
  const map = Object.fromEntries(WEEKDAYS.map((d) => [d, days.includes(d)]))
  return { start, end, timezone, days: map as WeeklyWindow['days'] }
}

const next = (w: WeeklyWindow, iso: string) => {
  const t = nextWindowStart(w, at(iso))
  return t === null ? null : new Date(t).toISOString()
}

describe('weekly window', () => {
  it('knows the zones Intl knows and nothing else', () => {
    expect(isKnownTimeZone('Europe/Berlin')).toBe(true)
    expect(isKnownTimeZone('Mars/Olympus')).toBe(false)
    expect(isKnownTimeZone(42)).toBe(false)
  })

  it('is inside from start to end on a day that is on, in the zone', () => {
    // Sunday 02:00-04:00 Berlin (UTC+1 in January): 01:00-03:00 UTC.
    const w = win('02:00', '04:00', 'Europe/Berlin', ['sunday'])
    expect(weeklyWindowAt(w, at('2024-01-14T00:59:59Z')).inside).toBe(false)
    expect(weeklyWindowAt(w, at('2024-01-14T01:00:00Z'))).toEqual({
      inside: true,
      endsAt: at('2024-01-14T03:00:00Z'),
    })
    expect(weeklyWindowAt(w, at('2024-01-14T03:00:00Z')).inside).toBe(false)
    // Monday at the same time: off.
    expect(weeklyWindowAt(w, at('2024-01-15T01:30:00Z')).inside).toBe(false)
  })

  it('finds the next start a week ahead, and none for an empty window or no day', () => {
    const w = win('02:00', '04:00', 'Europe/Berlin', ['sunday'])
    expect(next(w, '2024-01-14T01:30:00Z')).toBe('2024-01-21T01:00:00.000Z')
    expect(next(w, '2024-01-15T12:00:00Z')).toBe('2024-01-21T01:00:00.000Z')
    expect(next(win('02:00', '02:00', 'UTC', ['sunday']), '2024-01-15T12:00:00Z')).toBeNull()
    expect(next(win('02:00', '04:00', 'UTC', []), '2024-01-15T12:00:00Z')).toBeNull()
    expect(
      next(win('02:00', '04:00', 'Mars/Olympus', ['sunday']), '2024-01-15T12:00:00Z'),
    ).toBeNull()
  })

  it('starts an overnight window at midnight of a day whose evening before is off', () => {
    // 22:00-06:00 on Monday only: Monday's morning (00:00-06:00) and Monday's evening to midnight.
    const w = win('22:00', '06:00', 'UTC', ['monday'])
    expect(next(w, '2024-01-14T12:00:00Z')).toBe('2024-01-15T00:00:00.000Z')
    expect(next(w, '2024-01-15T03:00:00Z')).toBe('2024-01-15T22:00:00.000Z')
    expect(weeklyWindowAt(w, at('2024-01-15T23:00:00Z'))).toEqual({
      inside: true,
      endsAt: at('2024-01-16T00:00:00Z'),
    })
    // With Sunday on too, Sunday 22:00 runs through to Monday 06:00: no start at midnight.
    const both = win('22:00', '06:00', 'UTC', ['sunday', 'monday'])
    expect(next(both, '2024-01-14T12:00:00Z')).toBe('2024-01-14T22:00:00.000Z')
    expect(next(both, '2024-01-14T23:00:00Z')).toBe('2024-01-15T22:00:00.000Z')
  })

  it('keeps wall-clock times across the spring-forward switch', () => {
    // Berlin, 2024-03-31: 02:00 CET becomes 03:00 CEST (01:00 UTC).
    const w = win('01:00', '05:00', 'Europe/Berlin', ['sunday'])
    // Saturday 30 March 01:00 CET is 00:00 UTC; the next Sunday window starts 00:00 UTC (CET)...
    expect(next(w, '2024-03-30T12:00:00Z')).toBe('2024-03-31T00:00:00.000Z')
    // ...and ends at 05:00 CEST, 03:00 UTC: a window of three real hours.
    expect(weeklyWindowAt(w, at('2024-03-31T00:30:00Z')).endsAt).toBe(at('2024-03-31T03:00:00Z'))
    // A start inside the gap (02:30 does not exist that night) begins at the switch.
    const gap = win('02:30', '05:00', 'Europe/Berlin', ['sunday'])
    expect(next(gap, '2024-03-30T12:00:00Z')).toBe('2024-03-31T01:00:00.000Z')
    // The week after, in summer time: 02:30 CEST is 00:30 UTC.
    expect(next(gap, '2024-03-31T12:00:00Z')).toBe('2024-04-07T00:30:00.000Z')
  })

  it('keeps wall-clock times across the fall-back switch', () => {
    // New York, 2024-11-03: 02:00 EDT becomes 01:00 EST (06:00 UTC).
    const w = win('00:30', '03:00', 'America/New_York', ['sunday'])
    // 00:30 EDT is 04:30 UTC; 03:00 EST is 08:00 UTC: three and a half real hours.
    expect(next(w, '2024-11-02T12:00:00Z')).toBe('2024-11-03T04:30:00.000Z')
    expect(weeklyWindowAt(w, at('2024-11-03T05:30:00Z'))).toEqual({
      inside: true,
      endsAt: at('2024-11-03T08:00:00Z'),
    })
    // A start in the repeated hour (01:30) begins at its first occurrence (EDT, 05:30 UTC).
    const repeated = win('01:30', '03:00', 'America/New_York', ['sunday'])
    expect(next(repeated, '2024-11-02T12:00:00Z')).toBe('2024-11-03T05:30:00.000Z')
    // The week after, in standard time: 00:30 EST is 05:30 UTC.
    expect(next(w, '2024-11-03T12:00:00Z')).toBe('2024-11-10T05:30:00.000Z')
  })
})
