// The recent history's retention on the system settings route (issue 25): 60 minutes by default,
// 10 to 360, saved in SQLite and applied to the store at once, a 400 naming the field with nothing
// written, fixed by HISTORY_RETENTION_MINUTES when set.
import { afterEach, describe, expect, it } from 'vitest'
import { readConfig } from '../../../../src/server/config.ts'
import { startAuthServer, type AuthTestServer } from '../auth/auth-helpers.ts'
import { makeCollected } from '../collected-fixture.ts'
import { makeTempDir } from '../temp-dir.ts'

const servers: AuthTestServer[] = []
const cleanups: Array<() => void> = []
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close()
  for (const cleanup of cleanups.splice(0)) cleanup()
})

async function start(overrides: Parameters<typeof startAuthServer>[0] = {}) {
  const server = await startAuthServer({ authDisabled: true, ...overrides })
  servers.push(server)
  return server
}

const save = (server: AuthTestServer, body: unknown) =>
  server.call('POST', '/api/system/settings/update', { body })
const read = async (server: AuthTestServer) =>
  (await server.call('GET', '/api/system/settings')).json as Record<string, unknown>
const storedRow = (server: AuthTestServer) =>
  server.ctx.app.db
    .prepare("SELECT value FROM system_settings WHERE key = 'historyRetentionMinutes'")
    .get()

describe('history retention on the system settings route', () => {
  it('starts at 60 minutes, applies a saved value at once and keeps it over a restart', async () => {
    const { dir, cleanup } = makeTempDir()
    cleanups.push(cleanup)
    const first = await start({ dataDir: dir })
    expect(await read(first)).toMatchObject({ historyRetentionMinutes: 60, envOverrides: {} })
    expect(first.ctx.app.history.recent.retentionMinutes).toBe(60)

    const res = await save(first, { historyRetentionMinutes: 120 })
    expect(res.status).toBe(200)
    expect(res.json).toMatchObject({ historyRetentionMinutes: 120 })
    expect(first.ctx.app.history.recent.retentionMinutes).toBe(120)
    await first.close()
    servers.splice(0)

    // A new server on the same SQLite file.
    const second = await start({ dataDir: dir })
    expect(await read(second)).toMatchObject({ historyRetentionMinutes: 120 })
    expect(second.ctx.app.history.recent.retentionMinutes).toBe(120)
  })

  it.each([5, 361, 60.5, '60', null])(
    'refuses %j with a 400 naming historyRetentionMinutes, writing nothing',
    async (value) => {
      const server = await start()
      const before = await read(server)
      const res = await save(server, { theme: 'dark', historyRetentionMinutes: value })
      expect(res.status).toBe(400)
      expect(res.json).toEqual({
        code: 'FIELD_INVALID',
        message: 'historyRetentionMinutes: must be a whole number of minutes from 10 to 360.',
      })
      expect(await read(server)).toEqual(before)
      expect(storedRow(server)).toBeUndefined()
      expect(server.ctx.app.history.recent.retentionMinutes).toBe(60)
    },
  )

  it('HISTORY_RETENTION_MINUTES fixes the value; a saved one is ignored', async () => {
    const server = await start({ historyRetentionMinutes: 30 })
    expect(await read(server)).toMatchObject({
      historyRetentionMinutes: 30,
      envOverrides: { historyRetentionMinutes: true },
    })
    const res = await save(server, { historyRetentionMinutes: 120 })
    expect(res.status).toBe(200)
    expect(res.json).toMatchObject({ historyRetentionMinutes: 30 })
    expect(storedRow(server)).toBeUndefined()
    expect(server.ctx.app.history.recent.retentionMinutes).toBe(30)
  })

  it('reads HISTORY_RETENTION_MINUTES within 10 to 360 and refuses anything else', () => {
    const config = (value?: string) =>
      readConfig(value === undefined ? {} : { HISTORY_RETENTION_MINUTES: value }, '/tmp', '0')
    expect(config().historyRetentionMinutes).toBeNull()
    expect(config('').historyRetentionMinutes).toBeNull()
    expect(config('360').historyRetentionMinutes).toBe(360)
    for (const bad of ['9', '361', '1.5', 'hour']) {
      expect(() => config(bad)).toThrow(/HISTORY_RETENTION_MINUTES must be an integer from 10/)
    }
  })

  it('the app records polls into the store the history routes read', async () => {
    const server = await start()
    const { history } = server.ctx.app
    const t0 = 1_700_000_040_000
    await history.record(makeCollected(3, 0), t0)
    await history.record(makeCollected(3, 1), t0 + 10_000)
    const cpu = history.recent.series('lab-pve2-101', ['cpu'], t0 / 1000)!.cpu!
    expect(cpu.time).toEqual([t0 / 1000])
    // makeCollected: guest 1's cpu is (7 + tick) % 100 / 100.
    expect(cpu.avg[0]).toBeCloseTo(7.5, 3)
    expect(cpu.max![0]).toBeCloseTo(8, 3)
  })
})
