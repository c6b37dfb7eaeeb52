import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { readConfig } from '../../../../src/server/config.ts'
import { cookieValues, quickSetup, startAuthServer, type AuthTestServer } from './auth-helpers.ts'

const HOUR = 3600_000
const DAY = 24 * HOUR
let clock: number
let server: AuthTestServer
beforeEach(async () => {
  clock = 1_700_000_000_000
  server = await startAuthServer({}, { now: () => clock })
})
afterEach(async () => {
  await server.close()
})

describe('session lifetime', () => {
  it('slides: a session used after an hour gets its cookies and expiry renewed', async () => {
    const { cookies } = await quickSetup(server)
    clock += 30 * 60_000
    const early = await server.call('GET', '/api/state', { cookies })
    expect(early.status).toBe(200)
    expect(early.setCookies.size).toBe(0)
    clock += 2 * HOUR
    const renewed = await server.call('GET', '/api/state', { cookies })
    expect(renewed.status).toBe(200)
    expect(cookieValues(renewed)).toEqual(cookies)
    expect(renewed.setCookies.get('pulse_session')).toMatch(/Max-Age=604800/)
    // Six days later the session is still alive thanks to the renewal, not the original expiry.
    clock += 6 * DAY
    expect((await server.call('GET', '/api/state', { cookies })).status).toBe(200)
  })

  it('expires after 7 days without use', async () => {
    const { cookies } = await quickSetup(server)
    clock += 7 * DAY + 1
    const res = await server.call('GET', '/api/state', { cookies })
    expect(res.status).toBe(401)
    expect(res.json.code).toBe('AUTH_REQUIRED')
  })
})

describe('auth configuration from the environment', () => {
  it('reads DISABLE_AUTH and ALLOWED_ORIGINS', () => {
    expect(readConfig({}, '/', '1')).toMatchObject({ authDisabled: false, allowedOrigins: [] })
    const config = readConfig(
      { DISABLE_AUTH: 'true', ALLOWED_ORIGINS: 'https://a.example/, https://b.example:8443,' },
      '/',
      '1',
    )
    expect(config.authDisabled).toBe(true)
    expect(config.allowedOrigins).toEqual(['https://a.example', 'https://b.example:8443'])
  })
})
