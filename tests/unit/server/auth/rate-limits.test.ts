// Per-address request limits (issue 4: rate limits with 429 and Retry-After). Requests come from a
// documentation address through fastify.inject (no network): loopback clients are exempt, so a
// real socket on 127.0.0.1 could not show the limits.
import { afterEach, describe, expect, it } from 'vitest'
import { findRequestLimit, isLoopback } from '../../../../src/server/auth/rate-limits.ts'
import { buildTestApp } from '../helpers.ts'

const REMOTE = '203.0.113.7'
let close: (() => Promise<void>) | null = null
afterEach(async () => {
  await close?.()
  close = null
})

describe('request limits', () => {
  it('classify routes like the reference, and exempt the live reads', () => {
    expect(findRequestLimit('POST', '/api/login')?.name).toBe('auth')
    expect(findRequestLimit('POST', '/api/config/export')?.name).toBe('backup')
    expect(findRequestLimit('PUT', '/api/config/nodes/:id')?.name).toBe('config-write')
    expect(findRequestLimit('GET', '/api/config/nodes')?.name).toBe('config-read')
    expect(findRequestLimit('GET', '/ws')?.name).toBe('socket')
    expect(findRequestLimit('GET', '/api/health')?.name).toBe('health')
    expect(findRequestLimit('GET', '/api/security/audit')?.name).toBe('default')
    expect(findRequestLimit('GET', '/api/state')).toBeNull()
    expect(findRequestLimit('GET', '/api/guests/metadata')).toBeNull()
    expect(findRequestLimit('GET', '/assets/app.js')).toBeNull()
    expect(['127.0.0.1', '::1', '::ffff:127.0.0.1'].every(isLoopback)).toBe(true)
    expect(isLoopback(REMOTE)).toBe(false)
  })

  it('answer 429 with Retry-After past the limit, per address, never to loopback', async () => {
    const ctx = await buildTestApp({ authDisabled: false })
    close = ctx.close
    const login = (remoteAddress: string) =>
      ctx.app.http.inject({
        method: 'POST',
        url: '/api/login',
        remoteAddress,
        payload: { username: 'admin', password: 'not-the-password' },
      })
    const statuses: number[] = []
    for (let i = 0; i < 11; i++) statuses.push((await login(REMOTE)).statusCode)
    // Not configured yet: the login answers 401 until the limit, then 429.
    expect(statuses.slice(0, 10).every((status) => status !== 429)).toBe(true)
    const refused = await login(REMOTE)
    expect(refused.statusCode).toBe(429)
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0)
    expect(refused.json()).toMatchObject({ code: 'RATE_LIMITED' })
    // Another address has its own window; loopback has none.
    expect((await login('198.51.100.9')).statusCode).not.toBe(429)
    const local = ctx.app.http.inject({
      method: 'GET',
      url: '/api/health',
      remoteAddress: '127.0.0.1',
    })
    expect((await local).statusCode).toBe(200)
    // Every other route has its class's window too (default: 500 a minute), before authentication.
    const audit = () =>
      ctx.app.http.inject({ method: 'GET', url: '/api/security/audit', remoteAddress: REMOTE })
    for (let i = 0; i < 500; i++) expect((await audit()).statusCode).toBe(401)
    expect((await audit()).statusCode).toBe(429)
    // The live state is never limited.
    for (let i = 0; i < 3; i++) {
      const state = await ctx.app.http.inject({
        method: 'GET',
        url: '/api/state',
        remoteAddress: REMOTE,
      })
      expect(state.statusCode).not.toBe(429)
    }
  })
})
