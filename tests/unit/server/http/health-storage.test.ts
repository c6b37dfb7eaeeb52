// /api/health reports storage trouble and writes name the data file (issue 24 #9), over real HTTP
// with a real SQLite file.
// - Read-only: tests run as root, where chmod does not stop a write, so the app's own connection is
//   switched to `PRAGMA query_only`: SQLite then refuses every write with SQLITE_READONLY, the
//   same code a read-only file gives.
// - Full disk: the data directory on a real 24 MiB tmpfs, filled up by a file. Mounting needs
//   CAP_SYS_ADMIN; where the test cannot mount, it is skipped and says so.
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { STORAGE_PROBE_EVERY_MS } from '../../../../src/server/store/storage-health.ts'
import { buildTestApp } from '../helpers.ts'
import { makeTempDir } from '../temp-dir.ts'

let clock = Date.UTC(2026, 0, 5, 12, 0, 0)
let ctx: Awaited<ReturnType<typeof buildTestApp>> | undefined
let base = ''
const cleanups: Array<() => void> = []
afterEach(async () => {
  await ctx?.close()
  ctx = undefined
  for (const step of cleanups.splice(0).reverse()) step()
})

async function start(dataDir?: string) {
  ctx = await buildTestApp(dataDir ? { dataDir } : {}, { now: () => clock })
  await ctx.app.http.listen({ host: '127.0.0.1', port: 0 })
  base = `http://127.0.0.1:${(ctx.app.http.server.address() as { port: number }).port}`
  return path.join(dataDir ?? ctx.dataDir, 'pulse.db')
}
const health = async () => {
  clock += STORAGE_PROBE_EVERY_MS
  return (await (await fetch(`${base}/api/health`)).json()) as {
    status: string
    storage: { ok: boolean; path: string; freeBytes: number; problem?: string }
  }
}
const saveUrl = (id: string, description = '') =>
  fetch(`${base}/api/guests/metadata/${id}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ customUrl: 'https://a.example.com', description }),
  })

describe('storage in /api/health and in write errors', () => {
  it('reports healthy storage with the data file path', async () => {
    const file = await start()
    const body = await health()
    expect(body).toMatchObject({
      status: 'healthy',
      role: 'all',
      storage: { ok: true, path: file },
    })
    expect(body.storage.freeBytes).toBeGreaterThan(0)
  })

  it('read-only database: writes answer 503 naming the file, health says degraded', async () => {
    const file = await start()
    ctx!.app.db.pragma('query_only = ON')
    const res = await saveUrl('pve1-100')
    expect(res.status).toBe(503)
    expect(await res.json()).toEqual({
      code: 'STORAGE_UNAVAILABLE',
      message: `The database ${file} cannot be written: it is read-only (SQLITE_READONLY).`,
    })
    expect(await health()).toMatchObject({
      status: 'degraded',
      storage: {
        ok: false,
        path: file,
        problem: `The database ${file} cannot be written: it is read-only (SQLITE_READONLY).`,
      },
    })
    ctx!.app.db.pragma('query_only = OFF')
    expect(await health()).toMatchObject({ status: 'healthy', storage: { ok: true } })
    expect((await saveUrl('pve1-100')).status).toBe(200)
  })

  const mountable = (() => {
    if (process.platform !== 'linux') return false
    const probe = makeTempDir('pulse-mount-probe-')
    const ok = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', probe.dir]).status === 0
    if (ok) spawnSync('umount', [probe.dir])
    probe.cleanup()
    if (!ok)
      console.warn(
        'health-storage.test: cannot mount a tmpfs here (needs CAP_SYS_ADMIN): the full-disk test is skipped',
      )
    return ok
  })()

  it.skipIf(!mountable)(
    'full disk: writes answer 503 naming the file, health says degraded',
    async () => {
      const temp = makeTempDir('pulse-full-')
      cleanups.push(temp.cleanup)
      expect(spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=24m', 'tmpfs', temp.dir]).status).toBe(
        0,
      )
      cleanups.push(() => void spawnSync('umount', ['-l', temp.dir]))
      const dataDir = path.join(temp.dir, 'data')
      const file = await start(dataDir)
      expect((await health()).status).toBe('healthy')
      // Fill the file system: writing stops at ENOSPC.
      const filler = path.join(temp.dir, 'filler')
      const fd = fs.openSync(filler, 'w')
      const block = Buffer.alloc(1024 * 1024, 1)
      try {
        for (;;) fs.writeSync(fd, block)
      } catch (err) {
        expect((err as NodeJS.ErrnoException).code).toBe('ENOSPC')
      } finally {
        fs.closeSync(fd)
      }
      const body = await health()
      expect(body.status).toBe('degraded')
      expect(body.storage.ok).toBe(false)
      // The probe's own write fails (SQLITE_FULL), or the free space gives it away.
      expect([
        `The database ${file} cannot be written: the disk is full (SQLITE_FULL).`,
        expect.stringMatching(/^The disk holding .+ is full: \d+ bytes free\.$/),
      ]).toContainEqual(body.storage.problem)
      expect(body.storage.problem).toContain(file)
      // Enough new rows to need new pages: the write fails with SQLITE_FULL.
      let refused: Response | undefined
      for (let i = 0; i < 200 && !refused; i++) {
        const res = await saveUrl(`pve1-${100 + i}`, 'x'.repeat(1000))
        if (res.status !== 200) refused = res
      }
      expect(refused?.status).toBe(503)
      expect(await refused!.json()).toEqual({
        code: 'STORAGE_UNAVAILABLE',
        message: `The database ${file} cannot be written: the disk is full (SQLITE_FULL).`,
      })
      fs.rmSync(filler)
      expect(await health()).toMatchObject({ status: 'healthy', storage: { ok: true } })
    },
  )
})
