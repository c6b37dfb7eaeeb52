import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  CPU_SPIKERS,
  MEMORY_HOGS,
  cpuAt,
  isNodeDown,
  isSpiking,
  memoryAt,
  planCpuSpike,
  planMemoryLeak,
  planNodeOutage,
} from '../../../../src/server/sim/alert-schedule.ts'

const SEC = 1000
const MIN = 60 * SEC
const seeds = fc.integer({ min: 0, max: 2 ** 32 - 1 })
// Every poll of the first minute, on the 10 s sample grid and between samples.
const FIRST_MINUTE = Array.from({ length: 13 }, (_, i) => i * 5 * SEC)

describe('alert schedules (pure functions of seed and elapsed time)', () => {
  it('has the first spiker above 80 % CPU and the first hog above 85 % memory all through the first minute', () => {
    fc.assert(
      fc.property(seeds, (seed) => {
        const spike = planCpuSpike(seed, 0)
        const leak = planMemoryLeak(seed, 0)
        for (const t of FIRST_MINUTE) {
          expect(cpuAt(spike, t)).toBeGreaterThanOrEqual(0.8)
          expect(memoryAt(leak, t)).toBeGreaterThanOrEqual(0.85)
        }
      }),
    )
  })

  it('lets the first spiker and the first hog recover within the first five minutes, so history fills', () => {
    fc.assert(
      fc.property(seeds, (seed) => {
        const spike = planCpuSpike(seed, 0)
        const leak = planMemoryLeak(seed, 0)
        const times = Array.from({ length: 31 }, (_, i) => i * 10 * SEC)
        expect(times.some((t) => cpuAt(spike, t) < 0.75)).toBe(true)
        expect(times.some((t) => memoryAt(leak, t) < 0.8)).toBe(true)
      }),
    )
  })

  it('spikes every spiker above 85 % for a few minutes per 5-15 minute cycle, then below 70 %', () => {
    fc.assert(
      fc.property(seeds, fc.integer({ min: 0, max: CPU_SPIKERS - 1 }), (seed, slot) => {
        const spike = planCpuSpike(seed, slot)
        expect(spike.periodMs).toBeGreaterThanOrEqual(5 * MIN)
        expect(spike.periodMs).toBeLessThanOrEqual(15 * MIN)
        expect(spike.highMs).toBeGreaterThanOrEqual(2 * MIN)
        expect(spike.highMs).toBeLessThan(spike.periodMs)
        // One whole cycle from the start of a spike: high for highMs, then quiet until the next.
        const base = spike.firstMs + spike.periodMs
        for (let offset = 0; offset < spike.periodMs; offset += 5 * SEC) {
          const cpu = cpuAt(spike, base + offset)
          if (offset < spike.highMs) expect(cpu).toBeGreaterThan(0.85)
          else expect(cpu).toBeLessThan(0.7)
        }
        expect(isSpiking(spike, base + spike.periodMs)).toBe(true)
      }),
    )
  })

  it('leaks every hog past 85 % and drops it below 80 % once per cycle', () => {
    fc.assert(
      fc.property(seeds, fc.integer({ min: 0, max: MEMORY_HOGS - 1 }), (seed, slot) => {
        const leak = planMemoryLeak(seed, slot)
        expect(leak.periodMs).toBeLessThanOrEqual(15 * MIN)
        const values = Array.from({ length: Math.ceil(leak.periodMs / (10 * SEC)) }, (_, i) =>
          memoryAt(leak, 20 * MIN + i * 10 * SEC),
        )
        expect(Math.max(...values)).toBeGreaterThan(0.85)
        expect(Math.min(...values)).toBeLessThan(0.8)
        expect(Math.max(...values)).toBeLessThanOrEqual(1)
      }),
    )
  })

  it('returns the same values for the same seed and time, and differs between seeds', () => {
    expect(cpuAt(planCpuSpike(7, 1), 123_456)).toBe(cpuAt(planCpuSpike(7, 1), 123_456))
    expect(planCpuSpike(7, 1)).not.toEqual(planCpuSpike(8, 1))
  })

  it('takes the node down for 3 minutes every hour, the first time 4-5 minutes after start', () => {
    fc.assert(
      fc.property(seeds, (seed) => {
        const outage = planNodeOutage(seed)
        expect(outage.firstMs).toBeGreaterThanOrEqual(4 * MIN)
        expect(outage.firstMs).toBeLessThanOrEqual(5 * MIN)
        expect(outage.downMs).toBe(3 * MIN)
        expect(outage.periodMs).toBe(60 * MIN)
        for (const hour of [0, 1, 5]) {
          const start = outage.firstMs + hour * outage.periodMs
          expect(isNodeDown(outage, start - 1)).toBe(false)
          expect(isNodeDown(outage, start)).toBe(true)
          expect(isNodeDown(outage, start + 90 * SEC)).toBe(true)
          expect(isNodeDown(outage, start + outage.downMs - 1)).toBe(true)
          expect(isNodeDown(outage, start + outage.downMs)).toBe(false)
          expect(isNodeDown(outage, start + 30 * MIN)).toBe(false)
        }
        expect(isNodeDown(outage, 0)).toBe(false)
      }),
    )
  })
})
