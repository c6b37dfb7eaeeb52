// The Version panel's settings and the theme on the system settings route (spec 001 §3, §7, §9):
// defaults, saved in SQLite, a 400 naming the field with nothing written, and the theme announced
// as the theme route does.
import { afterEach, describe, expect, it } from 'vitest'
import { UPDATE_DEFAULTS } from '../../../../src/shared/model/updates.ts'
import type { AuthTestServer } from '../auth/auth-helpers.ts'
import { openEvents, startOpenServer } from '../nodes/node-helpers.ts'

let server: AuthTestServer
afterEach(async () => {
  await server.close()
})

const save = (body: unknown) => server.call('POST', '/api/system/settings/update', { body })
const read = async () => (await server.call('GET', '/api/system/settings')).json

describe('update settings on the system settings route', () => {
  it('start at the defaults and keep what is saved in SQLite', async () => {
    server = await startOpenServer()
    expect(await read()).toMatchObject({ ...UPDATE_DEFAULTS, theme: '' })
    const res = await save({
      updateChannel: 'rc',
      autoUpdateEnabled: true,
      autoUpdateCheckInterval: 6,
      autoUpdateTime: '23:59',
    })
    expect(res.status).toBe(200)
    const expected = {
      updateChannel: 'rc',
      autoUpdateEnabled: true,
      autoUpdateCheckInterval: 6,
      autoUpdateTime: '23:59',
    }
    expect(res.json).toMatchObject(expected)
    expect(await read()).toMatchObject(expected)
    const row = server.ctx.app.db
      .prepare("SELECT value FROM system_settings WHERE key = 'updateSettings'")
      .get() as { value: string }
    expect(JSON.parse(row.value)).toEqual(expected)
    // A partial save keeps the other fields; empty strings are ignored as in the reference.
    await save({ autoUpdateCheckInterval: 168, updateChannel: '', autoUpdateTime: '' })
    expect(await read()).toMatchObject({ ...expected, autoUpdateCheckInterval: 168 })
    expect((await server.call('GET', '/api/version')).json.channel).toBe('rc')
  })

  it('refuses each bad field with a 400 naming it, and writes nothing of the request', async () => {
    server = await startOpenServer()
    const before = await read()
    const bad: Array<[string, unknown]> = [
      ['updateChannel', 'beta'],
      ['updateChannel', 1],
      ['autoUpdateEnabled', 'yes'],
      ['autoUpdateCheckInterval', 8],
      ['autoUpdateCheckInterval', '24'],
      ['autoUpdateTime', '24:00'],
      ['autoUpdateTime', '3:00'],
      ['autoUpdateTime', '03:60'],
      ['theme', 'blue'],
    ]
    for (const [field, value] of bad) {
      // Valid fields alongside must not be written either.
      const res = await save({
        allowedOrigins: 'https://other.example.com',
        discoveryEnabled: true,
        updateChannel: 'rc',
        autoUpdateEnabled: true,
        theme: 'dark',
        [field]: value,
      })
      expect(res.status, `${field}=${JSON.stringify(value)}`).toBe(400)
      expect(res.json).toMatchObject({ code: 'FIELD_INVALID' })
      expect(res.json.message.startsWith(`${field}:`)).toBe(true)
    }
    expect(await read()).toEqual(before)
    expect((await server.call('GET', '/api/system/theme')).json).toEqual({ theme: '' })
  })

  it('saves a theme sent alone and announces it as settingsUpdate, like the theme route', async () => {
    server = await startOpenServer()
    const events = await openEvents(server.base)
    try {
      const res = await save({ theme: 'dark' })
      expect(res.status).toBe(200)
      expect(res.json.theme).toBe('dark')
      expect((await events.next('settingsUpdate')).data).toEqual({ theme: 'dark' })
      expect((await server.call('GET', '/api/system/theme')).json).toEqual({ theme: 'dark' })
      await server.call('POST', '/api/system/theme', { body: { theme: 'light' } })
      expect((await events.next('settingsUpdate')).data).toEqual({ theme: 'light' })
      expect((await read()).theme).toBe('light')
      // A save without a theme announces nothing.
      await save({ autoUpdateEnabled: false })
      await save({ theme: 'dark' })
      expect((await events.next('settingsUpdate')).data).toEqual({ theme: 'dark' })
      expect(events.types().filter((t) => t === 'settingsUpdate')).toHaveLength(3)
    } finally {
      events.close()
    }
  })
})
