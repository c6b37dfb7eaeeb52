// Issue 24 item 2: against a release server that closes the connection after every answer, an
// apply refused for size followed at once by a check and an apply ended the whole process (an
// uncaught AssertionError from undici's socket 'end' handler while a download body was paused).
// Real loopback feed, real archives of a few MiB written to disk; the test process must survive
// every round (an uncaught error fails the run) and each apply must finish.
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { startUpdateServers, useUpdateServers } from './update-servers.ts'

const held = useUpdateServers()

const BIG = 4 * 1024 * 1024

describe('a release server closing the connection after each answer', () => {
  it('survives a refused apply followed at once by a check and an apply, repeatedly', async () => {
    // The feed first publishes a size far below the real archive: the download is refused.
    const { s, f } = await startUpdateServers(
      held,
      [{ tag: 'v0.2.0', padBytes: BIG, declaredSize: 1000 }],
      { closeConnections: true },
    )
    const statusOf = async () => (await s.call('GET', '/api/updates/status')).json
    for (let round = 0; round < 5; round++) {
      f.setReleases([{ tag: 'v0.2.0', padBytes: BIG, declaredSize: 1000 }])
      const refused = (await s.call('GET', '/api/updates/check')).json
      expect((await s.call('POST', '/api/updates/apply', { body: refused })).status).toBe(200)
      await s.ctx.app.updater.idle()
      const error = await statusOf()
      expect(error.status).toBe('error')
      expect(error.error).toContain('is larger than 1000 bytes')

      f.setReleases([{ tag: 'v0.2.0', padBytes: BIG }])
      const check = (await s.call('GET', '/api/updates/check')).json
      expect(check.available).toBe(true)
      const apply = await s.call('POST', '/api/updates/apply', { body: check })
      expect(apply.status).toBe(200)
      await s.ctx.app.updater.idle()
      expect(await statusOf()).toMatchObject({ status: 'completed', progress: 100 })
      const padding = path.join(s.ctx.dataDir, 'updates/staged/0.2.0/pulse-monitor/padding.bin')
      expect(fs.statSync(padding).size).toBe(BIG)
    }
    expect((await s.call('GET', '/api/health')).status).toBe(200)
  })
})
