// Issue 24 item 6: a 1 MiB release archive with a valid checksum expanded to gigabytes on disk.
// Real loopback feed, real archives built byte by byte (tests/fixtures/tar-bombs.ts), the system
// tar: an archive whose extracted size or entry count passes STAGE_LIMITS is refused with a
// clear error before anything is extracted; nothing is staged and no scratch file stays behind.
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { STAGE_LIMITS } from '../../../../src/server/updates/stage.ts'
import { manyFiles, zeroBomb } from '../../../fixtures/tar-bombs.ts'
import { startUpdateServers, useUpdateServers } from './update-servers.ts'

const held = useUpdateServers()

async function applyArchive(archiveData: Buffer) {
  const { s } = await startUpdateServers(held, [{ tag: 'v0.2.0', archiveData }])
  const check = (await s.call('GET', '/api/updates/check')).json
  expect((await s.call('POST', '/api/updates/apply', { body: check })).status).toBe(200)
  await s.ctx.app.updater.idle()
  const status = (await s.call('GET', '/api/updates/status')).json
  const updates = path.join(s.ctx.dataDir, 'updates')
  return { status, left: fs.existsSync(updates) ? fs.readdirSync(updates) : [] }
}

describe('staging limits', () => {
  it('refuses an archive expanding past 1 GiB: nothing staged, nothing left behind', async () => {
    expect(STAGE_LIMITS.maxBytes).toBe(1024 ** 3)
    const bomb = zeroBomb(STAGE_LIMITS.maxBytes + 1)
    expect(bomb.length).toBeLessThan(2 * 1024 * 1024)
    const { status, left } = await applyArchive(bomb)
    expect(status.status).toBe('error')
    expect(status.error).toBe('the archive expands to more than 1 GiB')
    expect(status.message).toBe('Update to 0.2.0 failed: the archive expands to more than 1 GiB')
    expect(left).toEqual([])
  })

  it('refuses an archive of more than 100,000 entries', async () => {
    expect(STAGE_LIMITS.maxEntries).toBe(100_000)
    const { status, left } = await applyArchive(manyFiles(STAGE_LIMITS.maxEntries))
    expect(status.status).toBe('error')
    expect(status.error).toBe('the archive holds more than 100000 entries')
    expect(left).toEqual([])
  })

  it('still stages an archive within the limits', async () => {
    const { status, left } = await applyArchive(manyFiles(1000))
    expect(status.status).toBe('completed')
    expect(left).toEqual(['staged'])
  })
})
