import { describe, expect, it } from 'vitest'
import {
  bucketBackups,
  dateGroupLabel,
  localDay,
  ordinal,
} from '../../../../src/shared/views/backups-dates.ts'
import type { BackupClass } from '../../../../src/shared/views/backups-types.ts'
import { at } from './backups-fixtures.ts'

const day = (y: number, m: number, d: number, h = 12) => localDay(at(y, m, d, h))

describe('local days', () => {
  it('puts every time of one local day on the same day number', () => {
    expect(day(2024, 3, 2, 0)).toBe(day(2024, 3, 2, 23))
    expect(localDay(at(2024, 3, 2, 23, 59))).toBe(day(2024, 3, 3, 0) - 1)
  })

  it('counts days across month and year boundaries', () => {
    expect(day(2024, 3, 1) - day(2024, 2, 29)).toBe(1)
    expect(day(2025, 1, 1) - day(2024, 12, 31)).toBe(1)
  })
})

describe('date group labels', () => {
  const today = day(2024, 3, 2)

  it('says Today and Yesterday', () => {
    expect(dateGroupLabel(today, today)).toBe('Today')
    expect(dateGroupLabel(today - 1, today)).toBe('Yesterday')
  })

  it('writes other days as Month Dayth', () => {
    expect(dateGroupLabel(day(2024, 2, 28), today)).toBe('February 28th')
    expect(dateGroupLabel(day(2024, 1, 21), today)).toBe('January 21st')
    expect(dateGroupLabel(day(2023, 4, 11), today)).toBe('April 11th')
    expect(dateGroupLabel(day(2024, 3, 22), today)).toBe('March 22nd')
    expect(dateGroupLabel(day(2024, 3, 23), today)).toBe('March 23rd')
  })

  it('says Yesterday across a month boundary', () => {
    const first = day(2024, 3, 1)
    expect(dateGroupLabel(day(2024, 2, 29), first)).toBe('Yesterday')
    expect(dateGroupLabel(day(2024, 2, 28), first)).toBe('February 28th')
  })

  it('says Yesterday across a year boundary and names the day before', () => {
    const newYear = day(2025, 1, 1)
    expect(dateGroupLabel(newYear, newYear)).toBe('Today')
    expect(dateGroupLabel(day(2024, 12, 31), newYear)).toBe('Yesterday')
    expect(dateGroupLabel(day(2024, 12, 30), newYear)).toBe('December 30th')
    expect(dateGroupLabel(day(2025, 1, 2), day(2025, 1, 3))).toBe('Yesterday')
  })

  it('writes 1st, 2nd, 3rd and the teens with th', () => {
    expect([1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 31].map(ordinal)).toEqual([
      '1st',
      '2nd',
      '3rd',
      '4th',
      '11th',
      '12th',
      '13th',
      '21st',
      '22nd',
      '23rd',
      '31st',
    ])
  })
})

describe('chart buckets', () => {
  const today = day(2024, 3, 2)
  const days = Int32Array.from([
    today, // snapshot today
    today, // PVE today
    today - 6, // PBS, first day of 7
    today - 7, // PBS, outside 7, inside 30
    today - 29, // local, first day of 30
    today - 89, // snapshot, first day of 90
    today - 364, // PBS, first day of 365
    today - 365, // outside every range
    today + 1, // clock skew: in the future
  ])
  const classes: BackupClass[] = [
    'snapshot',
    'local',
    'remote',
    'remote',
    'local',
    'snapshot',
    'remote',
    'remote',
    'local',
  ]
  const all = Uint32Array.from(days.keys())

  it('has one bucket per day of each range, ending today', () => {
    for (const range of [7, 30, 90, 365] as const) {
      const chart = bucketBackups(all, days, classes, range, today)
      expect(chart.days).toHaveLength(range)
      expect(chart.days[0]).toBe(today - range + 1)
      expect(chart.days.at(-1)).toBe(today)
    }
  })

  it('stacks snapshots, PVE and PBS backups per day and drops days outside the range', () => {
    const week = bucketBackups(all, days, classes, 7, today)
    expect(week.snapshot.at(-1)).toBe(1)
    expect(week.pve.at(-1)).toBe(1)
    expect(week.pbs[0]).toBe(1)
    expect(sum(week)).toBe(3)
    expect(week.max).toBe(2)
    expect(sum(bucketBackups(all, days, classes, 30, today))).toBe(5)
    expect(sum(bucketBackups(all, days, classes, 90, today))).toBe(6)
    expect(sum(bucketBackups(all, days, classes, 365, today))).toBe(7)
  })

  it('counts only the records it is given', () => {
    const chart = bucketBackups(Uint32Array.from([2]), days, classes, 7, today)
    expect(sum(chart)).toBe(1)
    expect(bucketBackups(new Uint32Array(0), days, classes, 30, today).max).toBe(0)
  })
})

function sum(chart: { snapshot: number[]; pve: number[]; pbs: number[] }): number {
  return [...chart.snapshot, ...chart.pve, ...chart.pbs].reduce((a, b) => a + b, 0)
}
