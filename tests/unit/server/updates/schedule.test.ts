// When automatic update checks run: the day's slots from the chosen local time, weekly a week
// after the last check, wall-clock times kept across daylight-saving changes; and the timer
// re-armed on settings changes and stopped on close (fake clock and timers).
import { afterEach, describe, expect, it } from 'vitest'
import { UPDATE_DEFAULTS, type UpdateSettings } from '../../../../src/shared/model/updates.ts'
import { createAutoUpdater, nextCheckAt } from '../../../../src/server/updates/schedule.ts'

const settings = (patch: Partial<UpdateSettings> = {}): UpdateSettings => ({
  ...UPDATE_DEFAULTS,
  autoUpdateEnabled: true,
  ...patch,
})
/** A local time (the process's time zone). */
const at = (y: number, mo: number, d: number, h: number, mi = 0) =>
  new Date(y, mo - 1, d, h, mi).getTime()

const savedTz = process.env.TZ
afterEach(() => {
  process.env.TZ = savedTz
})

describe('nextCheckAt', () => {
  it('runs at the chosen time today when still ahead, else tomorrow', () => {
    const s = settings({ autoUpdateTime: '03:00' })
    expect(nextCheckAt(at(2026, 5, 10, 1, 30), s)).toBe(at(2026, 5, 10, 3))
    expect(nextCheckAt(at(2026, 5, 10, 3, 0), s)).toBe(at(2026, 5, 11, 3))
    expect(nextCheckAt(at(2026, 5, 10, 22, 0), s)).toBe(at(2026, 5, 11, 3))
    expect(nextCheckAt(at(2026, 12, 31, 23, 59), settings({ autoUpdateTime: '00:00' }))).toBe(
      at(2027, 1, 1, 0),
    )
  })

  it('spreads 6 and 12 hour intervals over the day from the chosen time', () => {
    const six = settings({ autoUpdateCheckInterval: 6, autoUpdateTime: '03:15' })
    expect(nextCheckAt(at(2026, 5, 10, 1, 0), six)).toBe(at(2026, 5, 10, 3, 15))
    expect(nextCheckAt(at(2026, 5, 10, 3, 15), six)).toBe(at(2026, 5, 10, 9, 15))
    expect(nextCheckAt(at(2026, 5, 10, 16, 0), six)).toBe(at(2026, 5, 10, 21, 15))
    expect(nextCheckAt(at(2026, 5, 10, 22, 0), six)).toBe(at(2026, 5, 11, 3, 15))
    const twelve = settings({ autoUpdateCheckInterval: 12, autoUpdateTime: '18:00' })
    expect(nextCheckAt(at(2026, 5, 10, 1, 0), twelve)).toBe(at(2026, 5, 10, 6))
    expect(nextCheckAt(at(2026, 5, 10, 7, 0), twelve)).toBe(at(2026, 5, 10, 18))
  })

  it('checks weekly a week after the last check, at the chosen time', () => {
    const weekly = settings({ autoUpdateCheckInterval: 168, autoUpdateTime: '03:00' })
    expect(nextCheckAt(at(2026, 5, 10, 4, 0), weekly)).toBe(at(2026, 5, 11, 3))
    const last = at(2026, 5, 11, 3)
    expect(nextCheckAt(last, weekly, last)).toBe(at(2026, 5, 18, 3))
    expect(nextCheckAt(at(2026, 5, 14, 12), weekly, last)).toBe(at(2026, 5, 18, 3))
    // Down for longer than a week: the next chosen time.
    expect(nextCheckAt(at(2026, 6, 1, 12), weekly, last)).toBe(at(2026, 6, 2, 3))
  })

  it('keeps the wall-clock time across daylight-saving changes', () => {
    process.env.TZ = 'Europe/Berlin'
    const daily = settings({ autoUpdateTime: '03:00' })
    // Clocks go forward on 2026-03-29 and back on 2026-10-25: 03:00 local either way.
    const spring = nextCheckAt(at(2026, 3, 28, 3, 0), daily)
    expect(new Date(spring).getHours()).toBe(3)
    expect(spring - at(2026, 3, 28, 3, 0)).toBe(23 * 3_600_000)
    const autumn = nextCheckAt(at(2026, 10, 24, 3, 0), daily)
    expect(autumn - at(2026, 10, 24, 3, 0)).toBe(25 * 3_600_000)
    // A time the spring change skips (02:30) runs once, an hour late.
    const skipped = nextCheckAt(at(2026, 3, 29, 0, 0), settings({ autoUpdateTime: '02:30' }))
    expect(new Date(skipped).getHours()).toBe(3)
    expect(nextCheckAt(skipped, settings({ autoUpdateTime: '02:30' }))).toBe(at(2026, 3, 30, 2, 30))
    // A time the autumn change repeats (02:30) runs once.
    const twice = settings({ autoUpdateTime: '02:30' })
    const first = nextCheckAt(at(2026, 10, 25, 0, 0), twice)
    expect(nextCheckAt(first, twice)).toBe(at(2026, 10, 26, 2, 30))
  })
})

describe('auto-update timer', () => {
  function fakeTimers() {
    const timers: Array<{ fn: () => void; due: number; cleared: boolean }> = []
    return {
      timers,
      setTimer: (fn: () => void, ms: number) => {
        const t = { fn, due: ms, cleared: false }
        timers.push(t)
        return t
      },
      clearTimer: (h: unknown) => {
        ;(h as { cleared: boolean }).cleared = true
      },
      live: () => timers.filter((t) => !t.cleared),
    }
  }

  it('arms only when enabled, re-arms on change, runs on the saved channel, stops on close', async () => {
    let now = at(2026, 5, 10, 1, 0)
    let current = settings({ autoUpdateEnabled: false })
    const runs: string[] = []
    const fake = fakeTimers()
    const auto = createAutoUpdater({
      now: () => now,
      settings: () => current,
      run: async (channel) => {
        runs.push(channel)
      },
      setTimer: fake.setTimer,
      clearTimer: fake.clearTimer,
    })
    auto.rearm()
    expect(auto.dueAt()).toBeNull()
    expect(fake.live()).toHaveLength(0)

    current = settings({ autoUpdateTime: '03:00', updateChannel: 'rc' })
    auto.rearm()
    expect(auto.dueAt()).toBe(at(2026, 5, 10, 3))
    expect(fake.live()).toHaveLength(1)
    expect(fake.live()[0]!.due).toBe(2 * 3_600_000)

    current = settings({ autoUpdateTime: '02:00', updateChannel: 'rc' })
    auto.rearm()
    expect(fake.live()).toHaveLength(1)
    expect(auto.dueAt()).toBe(at(2026, 5, 10, 2))

    now = at(2026, 5, 10, 2)
    const fire = fake.live()[0]!
    fire.cleared = true
    fire.fn()
    await expect.poll(() => auto.dueAt()).toBe(at(2026, 5, 11, 2))
    expect(runs).toEqual(['rc'])

    // A timer firing a little early does not run the same slot twice.
    now = at(2026, 5, 11, 2) - 5
    const early = fake.live()[0]!
    early.cleared = true
    early.fn()
    await expect.poll(() => auto.dueAt()).toBe(at(2026, 5, 12, 2))
    expect(runs).toEqual(['rc', 'rc'])

    auto.stop()
    expect(fake.live()).toHaveLength(0)
    auto.rearm()
    expect(fake.live()).toHaveLength(0)
  })

  it('survives a failing check or settings read: logged, never an unhandled rejection', async () => {
    // Issue 24 item 2: a background job must not end the process. An unhandled rejection here
    // would fail the test run.
    const fake = fakeTimers()
    const logged: string[] = []
    let broken: 'none' | 'run' | 'settings' = 'none'
    const auto = createAutoUpdater({
      now: () => at(2026, 5, 10, 1, 0),
      settings: () => {
        if (broken === 'settings') throw new Error('database is locked')
        return settings({ autoUpdateTime: '03:00' })
      },
      run: async () => {
        if (broken === 'run') throw new Error('feed exploded')
        broken = 'settings'
      },
      setTimer: fake.setTimer,
      clearTimer: fake.clearTimer,
      log: { warn: () => {}, error: (_obj, msg) => logged.push(msg) },
    })
    auto.rearm()
    const fire = () => {
      const timer = fake.live()[0]!
      timer.cleared = true
      timer.fn()
    }
    broken = 'run'
    fire()
    await expect.poll(() => logged).toEqual(['automatic update check failed'])
    expect(fake.live()).toHaveLength(1)
    broken = 'none'
    fire()
    await expect.poll(() => logged.length).toBe(2)
    expect(logged[1]).toBe('automatic update check failed')
    auto.stop()
  })
})
