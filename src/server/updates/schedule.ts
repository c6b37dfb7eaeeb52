// Automatic updates (spec 001 §2 System tab, §9): when enabled, check at the chosen local time and
// then every interval hours, stage what is found, and never restart. Times are wall-clock slots
// built with local dates, so a 24 h check stays at 03:00 across daylight-saving changes.
import type { UpdateSettings } from '../../shared/model/updates.ts'
import { runInBackground, type JobLog } from '../background.ts'

const HOUR = 3_600_000

/**
 * When the next scheduled check is due (ms), strictly after `now`. Intervals of 6, 12 and 24 h are
 * the day's slots `time + k * interval` (e.g. 03:00, 09:00, 15:00, 21:00); weekly (168 h) checks
 * run at `time` on the first day at least a week after `lastCheckAt` (an hour of slack absorbs a
 * daylight-saving day), or at the next `time` when there was none. A local time that a clock
 * change skips runs an hour late (the Date constructor moves it forward); one that occurs twice
 * runs once.
 */
export function nextCheckAt(now: number, settings: UpdateSettings, lastCheckAt?: number): number {
  const [hh, mm] = settings.autoUpdateTime.split(':').map(Number) as [number, number]
  const interval = settings.autoUpdateCheckInterval
  const hours =
    interval >= 24
      ? [hh]
      : Array.from({ length: 24 / interval }, (_, k) => (hh + k * interval) % 24).sort(
          (a, b) => a - b,
        )
  const today = new Date(now)
  for (let day = 0; day <= 8; day++) {
    for (const hour of hours) {
      const at = new Date(
        today.getFullYear(),
        today.getMonth(),
        today.getDate() + day,
        hour,
        mm,
      ).getTime()
      if (at <= now) continue
      if (interval === 168 && lastCheckAt !== undefined && at < lastCheckAt + 168 * HOUR - HOUR)
        continue
      return at
    }
  }
  // Unreachable with valid settings (some slot lies within 8 days); keep a sane fallback.
  return now + interval * HOUR
}

export interface AutoUpdateDeps {
  now: () => number
  settings: () => UpdateSettings
  /** Check on the saved channel and stage what is found; resolves when done (never throws). */
  run: (channel: UpdateSettings['updateChannel']) => Promise<void>
  setTimer?: (fn: () => void, ms: number) => unknown
  clearTimer?: (handle: unknown) => void
  /** Where a failed run or settings read is reported (the timer is re-armed regardless). */
  log?: JobLog
}

export interface AutoUpdater {
  /** Re-read the settings and (re)arm or stop the timer. */
  rearm(): void
  /** When the armed check is due (ms), or null when off. */
  dueAt(): number | null
  stop(): void
}

/** The scheduler; nothing runs until rearm(). */
export function createAutoUpdater(deps: AutoUpdateDeps): AutoUpdater {
  const setTimer = deps.setTimer ?? ((fn, ms) => setTimeout(fn, ms).unref())
  const clearTimer = deps.clearTimer ?? ((h) => clearTimeout(h as NodeJS.Timeout))
  let handle: unknown = null
  let due: number | null = null
  let lastCheckAt: number | undefined
  // The slot that last ran: a timer firing a hair early must not pick the same slot again.
  let lastSlot = -Infinity
  let stopped = false

  const disarm = () => {
    if (handle !== null) clearTimer(handle)
    handle = null
    due = null
  }
  const rearm = () => {
    disarm()
    const settings = deps.settings()
    if (stopped || !settings.autoUpdateEnabled) return
    const at = nextCheckAt(Math.max(deps.now(), lastSlot), settings, lastCheckAt)
    due = at
    handle = setTimer(
      () => {
        handle = null
        lastSlot = at
        lastCheckAt = Math.max(deps.now(), at)
        void runInBackground(deps.log, 'automatic update check', async () => {
          try {
            await deps.run(deps.settings().updateChannel)
          } finally {
            rearm()
          }
        })
      },
      Math.max(0, at - deps.now()),
    )
  }
  return {
    rearm,
    dueAt: () => due,
    stop() {
      stopped = true
      disarm()
    },
  }
}
