import { describe, expect, it } from 'vitest'
import type { SimGroup } from '../../../../../src/server/sim/pbs/model.ts'
import {
  DAY_SEC,
  groupSnapshots,
  keptByPrune,
  weekdayOf,
  type SimSnapshot,
} from '../../../../../src/server/sim/pbs/schedule.ts'
import { createUpid, escapeWorkerId } from '../../../../../src/server/sim/pbs/upid.ts'

const group: SimGroup = {
  type: 'vm',
  id: '101',
  owner: 'root@pam',
  startSec: 3600,
  durationSec: 300,
  everyDays: 1,
  weekday: 0,
  archives: [],
  encrypted: false,
  uniqueFraction: 0.3,
  changePerRun: 0.02,
  salt: 12345,
}

/** Snapshots on the given epoch days (newest first), one per day at 01:00. */
function onDays(days: number[], protectedDays: number[] = []): SimSnapshot[] {
  return days
    .sort((a, b) => b - a)
    .map((day) => ({
      group,
      day,
      time: day * DAY_SEC + 3600,
      protected: protectedDays.includes(day),
    }))
}

describe('PBS simulator schedule', () => {
  it('knows the weekday of an epoch day', () => {
    expect(weekdayOf(0)).toBe(4) // 1970-01-01 was a Thursday
    expect(weekdayOf(Date.UTC(2025, 5, 1) / 86_400_000)).toBe(0) // a Sunday
  })

  it('prunes like PBS: keep-daily first, keep-weekly only for weeks not yet covered', () => {
    // 2025-06-02 is a Monday; 21 consecutive days back from Sunday 2025-06-22.
    const monday = Date.UTC(2025, 5, 2) / 86_400_000
    const list = onDays(Array.from({ length: 21 }, (_, i) => monday + i))
    const kept = [...keptByPrune(list, { daily: 3, weekly: 2 })].map((s) => s.day - monday)
    // Daily: days 20, 19, 18 (week 3). Weekly skips week 3 and keeps the newest of weeks 2 and 1.
    expect(kept.sort((a, b) => b - a)).toEqual([20, 19, 18, 13, 6])
  })

  it('keeps protected snapshots whatever the options, without counting them', () => {
    const list = onDays([10, 9, 8, 7, 6], [7])
    const kept = [...keptByPrune(list, { last: 2 })].map((s) => s.day)
    expect(kept.sort((a, b) => b - a)).toEqual([10, 9, 7])
    expect(keptByPrune(list, {}).size).toBe(5)
  })

  it("derives a group's snapshots from the clock alone", () => {
    const now = Date.UTC(2025, 5, 3, 14) / 1000
    const a = groupSnapshots(group, { daily: 7, weekly: 4 }, 5 * 3600, now)
    const b = groupSnapshots(group, { daily: 7, weekly: 4 }, 5 * 3600, now)
    expect(a.map((s) => s.time)).toEqual(b.map((s) => s.time))
    expect(a.length).toBeGreaterThanOrEqual(9)
    expect(a.length).toBeLessThanOrEqual(11)
    // Before 01:00 + duration the night's snapshot does not exist yet; after it, it does.
    const tonight = Math.floor(now / DAY_SEC + 1) * DAY_SEC
    const early = groupSnapshots(group, { daily: 7, weekly: 4 }, 5 * 3600, tonight + 1800)
    const late = groupSnapshots(group, { daily: 7, weekly: 4 }, 5 * 3600, tonight + 4 * 3600)
    expect(early[0]!.time).toBeLessThan(tonight)
    expect(late[0]!.time).toBeGreaterThan(tonight)
  })

  it('escapes worker ids and builds UPIDs with the PBS task-id field', () => {
    expect(escapeWorkerId('main:v-weekly')).toBe('main\\x3av\\x2dweekly')
    expect(escapeWorkerId('main:ns/prod/vm/101')).toBe('main\\x3ans-prod-vm-101')
    const { upid } = createUpid({
      node: 'pbs1',
      salt: 1,
      starttime: 0x6786b9c0,
      workerType: 'verificationjob',
      workerId: 'main:v-weekly',
      user: 'root@pam',
    })
    expect(upid).toMatch(
      /^UPID:pbs1:[0-9A-F]{8}:[0-9A-F]{8}:[0-9A-F]{8}:6786B9C0:verificationjob:main\\x3av\\x2dweekly:root@pam:$/,
    )
  })
})
