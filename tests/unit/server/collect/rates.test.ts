import { describe, expect, it } from 'vitest'
import { createRateTracker, type RateSample } from '../../../../src/server/collect/rates.ts'

function sample(t: number, value: number, over: Partial<RateSample> = {}): RateSample {
  return {
    node: 'pve1',
    status: 'running',
    uptime: 1000 + t / 1000,
    counters: { netIn: value, netOut: value * 2, diskRead: value * 3, diskWrite: value * 4 },
    t,
    ...over,
  }
}

describe('createRateTracker', () => {
  it('reports 0 for the first sample, never -1', () => {
    const tracker = createRateTracker()
    expect(tracker.update('lab/100', sample(0, 5000))).toEqual({
      netIn: 0,
      netOut: 0,
      diskRead: 0,
      diskWrite: 0,
    })
  })

  it('computes integer bytes per second from two samples', () => {
    const tracker = createRateTracker()
    tracker.update('lab/100', sample(0, 0))
    expect(tracker.update('lab/100', sample(10_000, 10_005))).toEqual({
      netIn: 1001,
      netOut: 2001,
      diskRead: 3002,
      diskWrite: 4002,
    })
  })

  it('repeats the previous rates when all counters are unchanged, then averages over the gap', () => {
    const tracker = createRateTracker()
    tracker.update('k', sample(0, 0))
    tracker.update('k', sample(10_000, 10_000))
    expect(tracker.update('k', sample(20_000, 10_000)).netIn).toBe(1000)
    // pvestatd caught up: 20 000 bytes arrived over 20 s, not 10 s.
    expect(tracker.update('k', sample(30_000, 30_000)).netIn).toBe(1000)
  })

  it('stops repeating old rates once counters have been still for longer than the stale window', () => {
    const tracker = createRateTracker({ staleRepeatMs: 30_000 })
    tracker.update('k', sample(0, 0))
    tracker.update('k', sample(10_000, 10_000))
    expect(tracker.update('k', sample(50_000, 10_000)).netIn).toBe(0)
  })

  it('resets the baseline when uptime goes down (restart)', () => {
    const tracker = createRateTracker()
    tracker.update('k', sample(0, 1_000_000))
    expect(tracker.update('k', sample(10_000, 2_000_000, { uptime: 5 })).netIn).toBe(0)
    expect(tracker.update('k', sample(20_000, 2_010_000, { uptime: 15 })).netIn).toBe(1000)
  })

  it('resets the baseline when a counter goes down', () => {
    const tracker = createRateTracker()
    tracker.update('k', sample(0, 1_000_000))
    expect(tracker.update('k', sample(10_000, 10))).toEqual({
      netIn: 0,
      netOut: 0,
      diskRead: 0,
      diskWrite: 0,
    })
  })

  it('resets the baseline when the guest moves to another node', () => {
    const tracker = createRateTracker()
    tracker.update('k', sample(0, 0))
    expect(tracker.update('k', sample(10_000, 50_000, { node: 'pve2' })).netIn).toBe(0)
    expect(tracker.update('k', sample(20_000, 60_000, { node: 'pve2' })).netIn).toBe(1000)
  })

  it('reports 0 for a guest that is not running and starts over when it runs again', () => {
    const tracker = createRateTracker()
    tracker.update('k', sample(0, 0))
    expect(tracker.update('k', sample(10_000, 0, { status: 'stopped' })).netIn).toBe(0)
    expect(tracker.update('k', sample(20_000, 100)).netIn).toBe(0)
    expect(tracker.update('k', sample(30_000, 10_100)).netIn).toBe(1000)
  })

  it('returns the previous rates when time did not advance', () => {
    const tracker = createRateTracker()
    const up = { uptime: 2000 }
    tracker.update('k', sample(0, 0, up))
    tracker.update('k', sample(10_000, 10_000, up))
    expect(tracker.update('k', sample(10_000, 99_000, up)).netIn).toBe(1000)
    expect(tracker.update('k', sample(5_000, 99_000, up)).netIn).toBe(1000)
  })

  it('keeps guests of different keys apart', () => {
    const tracker = createRateTracker()
    tracker.update('a/100', sample(0, 0))
    tracker.update('b/100', sample(0, 0))
    expect(tracker.update('a/100', sample(10_000, 10_000)).netIn).toBe(1000)
    expect(tracker.update('b/100', sample(10_000, 20_000)).netIn).toBe(2000)
  })

  it('forgets guests not seen for longer than forgetAfterMs', () => {
    const tracker = createRateTracker({ forgetAfterMs: 60_000 })
    tracker.update('old', sample(0, 0))
    tracker.update('fresh', sample(50_000, 0))
    tracker.prune(100_000)
    expect(tracker.size).toBe(1)
    expect(tracker.update('old', sample(110_000, 110_000)).netIn).toBe(0)
  })
})
