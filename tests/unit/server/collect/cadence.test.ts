// The scheduler's cadence rule with an injected clock: every cadence class runs on its interval
// in time, at a 10 s and at a 60 s poll interval, never more often than the poll cycle.
import { describe, expect, it } from 'vitest'
import { CADENCE_MS, isDue, type CadenceName } from '../../../../src/server/collect/cadence.ts'
import {
  runIfDue,
  type Collector,
  type Schedule,
} from '../../../../src/server/collect/collector.ts'
import { detailPolicyFor } from '../../../../src/server/collect/poller.ts'

const HOUR = 3_600_000
const T0 = 1_760_000_000_000

// One simulated hour of cycles; returns the offsets (ms) at which the collector ran.
async function runTimes(intervalMs: number, pollIntervalMs: number, drift = 0): Promise<number[]> {
  const schedule: Schedule = new Map()
  const times: number[] = []
  const collector: Collector<{ now: number; pollIntervalMs: number }, void> = {
    name: 'probe',
    intervalMs,
    collect: async (ctx) => {
      times.push(ctx.now - T0)
    },
  }
  for (let n = 0; n * pollIntervalMs < HOUR; n++) {
    // Cycle starts drift a little, earlier and later, as a real timer does.
    const jitter = drift * (n % 2 === 0 ? 1 : -1)
    await runIfDue(
      schedule,
      collector,
      { now: T0 + n * pollIntervalMs + jitter, pollIntervalMs },
      () => {},
    )
  }
  return times.map((t) => Math.round(t / pollIntervalMs) * pollIntervalMs)
}

function every(stepMs: number): number[] {
  return Array.from({ length: Math.ceil(HOUR / stepMs) }, (_, i) => i * stepMs)
}

const CLASSES = Object.keys(CADENCE_MS) as CadenceName[]

describe('collector cadences in time', () => {
  it.each(CLASSES)('runs %s on its interval at a 10 s poll interval', async (name) => {
    const interval = CADENCE_MS[name]
    expect(await runTimes(interval, 10_000)).toEqual(every(Math.max(interval, 10_000)))
  })

  it.each(CLASSES)(
    'runs %s on its interval at a 60 s poll interval, or every cycle when shorter',
    async (name) => {
      const interval = CADENCE_MS[name]
      expect(await runTimes(interval, 60_000)).toEqual(every(Math.max(interval, 60_000)))
    },
  )

  it('runs the disks collector every 5 min at both a 10 s and a 60 s poll interval', async () => {
    expect(CADENCE_MS.disks).toBe(5 * 60_000)
    const fiveMinutes = every(5 * 60_000)
    expect(await runTimes(CADENCE_MS.disks, 10_000)).toEqual(fiveMinutes)
    expect(await runTimes(CADENCE_MS.disks, 60_000)).toEqual(fiveMinutes)
  })

  it('keeps a 30 s cadence on every third 10 s cycle when cycle starts drift by a few ms', async () => {
    expect(await runTimes(30_000, 10_000, 7)).toEqual(every(30_000))
  })

  it('never runs more often than the poll cycle, even when asked twice at once', () => {
    expect(isDue(T0, 10_000, T0, 60_000)).toBe(false)
    expect(isDue(T0, 10_000, T0 + 29_999, 60_000)).toBe(false)
    expect(isDue(T0, 10_000, T0 + 30_000, 60_000)).toBe(true)
    expect(isDue(-Infinity, 10_000, T0, 60_000)).toBe(true)
  })

  it('makes a collector due when the clock went back', () => {
    expect(isDue(T0, CADENCE_MS.disks, T0 - 1_000, 10_000)).toBe(true)
  })

  it('reports what a collector throws and tries again only on its next interval', async () => {
    const schedule: Schedule = new Map()
    const errors: unknown[] = []
    let calls = 0
    const failing: Collector<{ now: number; pollIntervalMs: number }, number> = {
      name: 'failing',
      intervalMs: 60_000,
      collect: async () => {
        calls++
        throw new Error('boom')
      },
    }
    const run = (now: number) =>
      runIfDue(schedule, failing, { now, pollIntervalMs: 10_000 }, (e) => errors.push(e))
    expect(await run(T0)).toBeUndefined()
    await run(T0 + 10_000)
    await run(T0 + 60_000)
    expect(calls).toBe(2)
    expect(errors).toHaveLength(2)
  })

  it('converts the guest-detail cadence to cycles of the poll interval', () => {
    expect(detailPolicyFor(10_000)).toMatchObject({ every: 6, maxBackoffCycles: 180 })
    expect(detailPolicyFor(60_000)).toMatchObject({ every: 1, maxBackoffCycles: 30 })
  })
})
