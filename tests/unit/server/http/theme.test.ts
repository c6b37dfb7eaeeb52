import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { quickSetup, startAuthServer, type AuthTestServer } from '../auth/auth-helpers.ts'
import { openEvents, startOpenServer } from '../nodes/node-helpers.ts'

let server: AuthTestServer
afterEach(async () => {
  await server.close()
})

describe('theme route (open server)', () => {
  beforeEach(async () => {
    server = await startOpenServer()
  })

  it('reads no theme until one is saved, then the saved one', async () => {
    expect((await server.call('GET', '/api/system/theme')).json).toEqual({ theme: '' })
    const saved = await server.call('POST', '/api/system/theme', { body: { theme: 'dark' } })
    expect(saved.status).toBe(200)
    expect(saved.json).toEqual({ theme: 'dark' })
    expect((await server.call('GET', '/api/system/theme')).json).toEqual({ theme: 'dark' })
  })

  it('announces a saved theme to every socket as settingsUpdate', async () => {
    const events = await openEvents(server.base)
    try {
      await server.call('POST', '/api/system/theme', { body: { theme: 'light' } })
      expect((await events.next('settingsUpdate')).data).toEqual({ theme: 'light' })
      await server.call('POST', '/api/system/theme', { body: { theme: 'dark' } })
      expect((await events.next('settingsUpdate')).data).toEqual({ theme: 'dark' })
    } finally {
      events.close()
    }
  })

  it('refuses a bad theme with a 400 naming the field, and keeps the stored one', async () => {
    await server.call('POST', '/api/system/theme', { body: { theme: 'dark' } })
    for (const body of [{ theme: 'blue' }, { theme: '' }, { theme: 1 }, {}]) {
      const res = await server.call('POST', '/api/system/theme', { body })
      expect(res.status).toBe(400)
      expect(res.json).toMatchObject({ code: 'FIELD_INVALID' })
      expect(res.json.message).toContain('theme')
    }
    const notObject = await server.call('POST', '/api/system/theme', { body: ['dark'] })
    expect(notObject.status).toBe(400)
    expect((await server.call('GET', '/api/system/theme')).json).toEqual({ theme: 'dark' })
  })
})

describe('theme route (password auth)', () => {
  beforeEach(async () => {
    server = await startAuthServer({ authDisabled: false })
  })

  it('needs a session and its CSRF token to save', async () => {
    const { cookies } = await quickSetup(server)
    expect((await server.call('GET', '/api/system/theme')).status).toBe(401)
    const noCsrf = await server.call('POST', '/api/system/theme', {
      cookies,
      body: { theme: 'dark' },
    })
    expect(noCsrf.status).toBe(403)
    const ok = await server.call('POST', '/api/system/theme', {
      cookies,
      csrf: cookies.pulse_csrf,
      body: { theme: 'dark' },
    })
    expect(ok.status).toBe(200)
    expect((await server.call('GET', '/api/system/theme', { cookies })).json).toEqual({
      theme: 'dark',
    })
  })
})
