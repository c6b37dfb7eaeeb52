import { describe, expect, it } from 'vitest'
import { createRateLimiter } from '../../../../src/server/auth/rate-limiter.ts'

describe('sliding-window rate limiter', () => {
  it('allows 10 per minute per key, then says when to retry', () => {
    let clock = 0
    const limiter = createRateLimiter({ limit: 10, windowMs: 60_000, now: () => clock })
    for (let i = 0; i < 10; i++) {
      clock += 1000
      expect(limiter.hit('a').allowed).toBe(true)
    }
    expect(limiter.hit('a')).toEqual({ allowed: false, retryAfterSeconds: 51 })
    expect(limiter.hit('b').allowed).toBe(true)
    // The window slides: the first hit (t=1s) leaves at t=61s.
    clock = 61_000
    expect(limiter.hit('a').allowed).toBe(true)
    expect(limiter.hit('a').allowed).toBe(false)
  })

  it('does not count refused attempts', () => {
    let clock = 0
    const limiter = createRateLimiter({ limit: 2, windowMs: 1000, now: () => clock })
    limiter.hit('a')
    limiter.hit('a')
    for (let i = 0; i < 50; i++) limiter.hit('a')
    clock = 1000
    expect(limiter.hit('a').allowed).toBe(true)
  })

  it('sweeps idle keys when the map grows', () => {
    let clock = 0
    const limiter = createRateLimiter({ limit: 1, windowMs: 1000, now: () => clock, maxKeys: 3 })
    for (const key of ['a', 'b', 'c']) limiter.hit(key)
    clock = 5000
    expect(limiter.hit('d').allowed).toBe(true)
    expect(limiter.hit('a').allowed).toBe(true)
  })
})
