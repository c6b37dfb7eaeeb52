// Issue 12 item 7: the lockout locks the account, whatever addresses the guesses come from, and an
// admin sees and lifts it. `inject` with remoteAddress stands in for clients on other machines.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  quickSetup,
  startAuthServer,
  type AuthTestServer,
  type Credentials,
} from './auth-helpers.ts'

let server: AuthTestServer
let creds: Credentials
beforeEach(async () => {
  server = await startAuthServer()
  creds = await quickSetup(server)
})
afterEach(async () => {
  await server.close()
})

/** One login attempt from `ip` (a documentation address, never contacted). */
const loginFrom = async (ip: string, username: string, password: string) => {
  const res = await server.ctx.app.http.inject({
    method: 'POST',
    url: '/api/login',
    remoteAddress: ip,
    payload: { username, password },
  })
  return { status: res.statusCode, json: res.json() }
}

const lockoutState = async () =>
  (await server.call('GET', '/api/security/lockout', { token: creds.apiToken })).json

describe('account lockout against distributed guessing', () => {
  it('locks the account after 5 failures from 5 different addresses', async () => {
    for (let i = 1; i <= 4; i++) {
      const res = await loginFrom(`203.0.113.${i}`, 'admin', 'guess')
      expect(res.status).toBe(401)
      expect(res.json).toMatchObject({ code: 'INVALID_CREDENTIALS', remaining: 5 - i })
    }
    const fifth = await loginFrom('203.0.113.5', 'admin', 'guess')
    expect(fifth.status).toBe(403)
    expect(fifth.json).toMatchObject({ code: 'ACCOUNT_LOCKED', locked: true, remainingMinutes: 15 })
    // The owner, from an address that never failed, is locked out too.
    const owner = await loginFrom('198.51.100.7', 'admin', creds.password)
    expect(owner.status).toBe(403)
    expect(owner.json.code).toBe('ACCOUNT_LOCKED')
  })

  it('shows the lock to an admin and unlocks it through the API', async () => {
    for (let i = 1; i <= 5; i++) await loginFrom(`203.0.113.${i}`, 'admin', 'guess')
    expect(await lockoutState()).toEqual({
      accounts: [
        {
          username: 'admin',
          locked: true,
          failures: 5,
          lockedUntil: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
          remainingMinutes: 15,
        },
      ],
    })
    const unlock = await server.call('POST', '/api/security/unlock', {
      token: creds.apiToken,
      body: { username: 'admin' },
    })
    expect(unlock.status).toBe(200)
    expect(unlock.json).toEqual({ success: true, unlocked: true })
    expect((await lockoutState()).accounts[0]).toMatchObject({ locked: false, failures: 0 })
    expect((await loginFrom('198.51.100.7', 'admin', creds.password)).status).toBe(200)
    const audit = await server.call('GET', '/api/security/audit?limit=5', { token: creds.apiToken })
    expect(audit.json.events.map((e: { type: string }) => e.type)).toContain('account_unlocked')
  })

  it('needs an authenticated admin to read or lift the lock', async () => {
    expect((await server.call('GET', '/api/security/lockout')).status).toBe(401)
    const res = await server.call('POST', '/api/security/unlock', { body: { username: 'admin' } })
    expect(res.status).toBe(401)
    expect(res.json.code).toBe('AUTH_REQUIRED')
  })

  it('answers 400 naming the username field', async () => {
    const res = await server.call('POST', '/api/security/unlock', {
      token: creds.apiToken,
      body: { username: '' },
    })
    expect(res.status).toBe(400)
    expect(res.json).toEqual({ code: 'FIELD_INVALID', message: 'username: is required.' })
  })
})
