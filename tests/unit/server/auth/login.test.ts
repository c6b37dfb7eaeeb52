import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  cookieValues,
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

const attempt = (username: string, password: string, headers?: Record<string, string>) =>
  server.call('POST', '/api/login', { body: { username, password }, headers })

describe('POST /api/login', () => {
  it('logs in with the right password: cookies, no password in the answer', async () => {
    const res = await attempt('admin', creds.password)
    expect(res.status).toBe(200)
    expect(res.json).toEqual({ success: true, username: 'admin', role: 'admin' })
    expect(res.text).not.toContain(creds.password)
    const cookies = cookieValues(res)
    expect(res.setCookies.get('pulse_session')).toMatch(/HttpOnly; SameSite=Lax/)
    expect((await server.call('GET', '/api/state', { cookies })).status).toBe(200)
  })

  it('answers a wrong password with 401 INVALID_CREDENTIALS and the attempts left', async () => {
    const res = await attempt('admin', 'wrong-password')
    expect(res.status).toBe(401)
    expect(res.json).toEqual({
      code: 'INVALID_CREDENTIALS',
      success: false,
      message: 'Invalid username or password',
      remaining: 4,
    })
    expect(res.setCookies.size).toBe(0)
    expect((await attempt('admin', 'wrong-again')).json.remaining).toBe(3)
    // An unknown username counts the same way.
    expect((await attempt('root', 'whatever')).json).toMatchObject({ remaining: 4 })
  })

  it('locks the account with ACCOUNT_LOCKED after 5 failures, even for the right password', async () => {
    for (let i = 4; i >= 1; i--) expect((await attempt('admin', 'bad')).json.remaining).toBe(i)
    const fifth = await attempt('admin', 'bad')
    expect(fifth.status).toBe(403)
    expect(fifth.json).toEqual({
      code: 'ACCOUNT_LOCKED',
      success: false,
      locked: true,
      remainingMinutes: 15,
      message: 'Account locked. Please try again in 15 minute(s).',
    })
    const right = await attempt('admin', creds.password)
    expect(right.status).toBe(403)
    expect(right.json.locked).toBe(true)
    expect(right.setCookies.size).toBe(0)
    // Basic authentication shares the lockout.
    const basic = await server.call('GET', '/api/state', {
      basic: { username: 'admin', password: creds.password },
    })
    expect(basic.status).toBe(403)
    expect(basic.json).toEqual({
      code: 'ACCOUNT_LOCKED',
      message: 'Account locked. Please try again in 15 minute(s).',
    })
    // Other credentials keep working.
    expect((await server.call('GET', '/api/state', { token: creds.apiToken })).status).toBe(200)
  })

  it('resets the failure count on success', async () => {
    for (let i = 0; i < 4; i++) await attempt('admin', 'bad')
    expect((await attempt('admin', creds.password)).status).toBe(200)
    expect((await attempt('admin', 'bad')).json.remaining).toBe(4)
  })

  it('answers 429 RATE_LIMITED with Retry-After after 10 attempts in a minute from one IP', async () => {
    for (let i = 0; i < 10; i++) {
      const res = await attempt(`user${i}`, 'bad')
      expect(res.status).toBe(401)
    }
    const limited = await attempt('admin', creds.password)
    expect(limited.status).toBe(429)
    expect(limited.json).toEqual({
      code: 'RATE_LIMITED',
      message: 'Too many requests. Please wait a moment and try again.',
    })
    const retry = Number(limited.headers.get('retry-after'))
    expect(retry).toBeGreaterThanOrEqual(1)
    expect(retry).toBeLessThanOrEqual(60)
  })

  it('names a missing field with 400', async () => {
    const noUser = await server.call('POST', '/api/login', { body: { password: 'x' } })
    expect(noUser.status).toBe(400)
    expect(noUser.json.code).toBe('FIELD_INVALID')
    expect(noUser.json.message).toMatch(/^username:/)
    const noPass = await server.call('POST', '/api/login', { body: { username: 'admin' } })
    expect(noPass.json.message).toMatch(/^password:/)
  })

  it('answers 401 AUTH_NOT_CONFIGURED before the first setup', async () => {
    const fresh = await startAuthServer()
    try {
      const res = await fresh.call('POST', '/api/login', {
        body: { username: 'admin', password: 'whatever1' },
      })
      expect(res.status).toBe(401)
      expect(res.json.code).toBe('AUTH_NOT_CONFIGURED')
    } finally {
      await fresh.close()
    }
  })
})

describe('POST /api/logout', () => {
  it('revokes the session and clears both cookies', async () => {
    const cookies = creds.cookies
    expect((await server.call('GET', '/api/state', { cookies })).status).toBe(200)
    const res = await server.call('POST', '/api/logout', {
      body: {},
      cookies,
      csrf: cookies.pulse_csrf,
    })
    expect(res.status).toBe(200)
    expect(res.json).toEqual({ success: true })
    expect(cookieValues(res)).toEqual({ pulse_session: '', pulse_csrf: '' })
    expect(res.setCookies.get('pulse_session')).toMatch(/Expires=Thu, 01 Jan 1970/)
    expect((await server.call('GET', '/api/state', { cookies })).status).toBe(401)
  })

  it('needs the CSRF token when a live session cookie comes along', async () => {
    const res = await server.call('POST', '/api/logout', { body: {}, cookies: creds.cookies })
    expect(res.status).toBe(403)
    expect(res.json.code).toBe('CSRF_INVALID')
    expect((await server.call('GET', '/api/state', { cookies: creds.cookies })).status).toBe(200)
  })

  it('succeeds without any session', async () => {
    const res = await server.call('POST', '/api/logout')
    expect(res.status).toBe(200)
    expect(res.json).toEqual({ success: true })
  })
})
