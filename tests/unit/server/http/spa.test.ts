// The SPA over real HTTP on 127.0.0.1: uptime checkers that use HEAD see the same status as GET
// (issue 24 #34) for the root, client routes, assets and /api/health.
import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp } from '../helpers.ts'
import { makeTempDir } from '../temp-dir.ts'

const INDEX = '<!doctype html><title>Pulse</title><div id="root"></div>'

let ctx: Awaited<ReturnType<typeof buildTestApp>>
let dist: { dir: string; cleanup: () => void }
let base: string
beforeAll(async () => {
  dist = makeTempDir('pulse-dist-')
  fs.writeFileSync(path.join(dist.dir, 'index.html'), INDEX)
  fs.mkdirSync(path.join(dist.dir, 'assets'))
  fs.writeFileSync(path.join(dist.dir, 'assets', 'app.js'), 'console.log(1)\n')
  ctx = await buildTestApp({ staticDir: dist.dir })
  await ctx.app.http.listen({ host: '127.0.0.1', port: 0 })
  base = `http://127.0.0.1:${(ctx.app.http.server.address() as { port: number }).port}`
})
afterAll(async () => {
  await ctx.close()
  dist.cleanup()
})

describe('HEAD answers as GET does', () => {
  it.each(['/', '/storage', '/settings/nodes', '/alerts/history?x=1'])(
    'HEAD %s: 200 text/html without a body, like GET',
    async (route) => {
      const get = await fetch(base + route)
      expect(get.status).toBe(200)
      expect(await get.text()).toBe(INDEX)
      const head = await fetch(base + route, { method: 'HEAD' })
      expect(head.status).toBe(200)
      expect(head.headers.get('content-type')).toBe(get.headers.get('content-type'))
      expect(head.headers.get('content-type')).toMatch(/^text\/html/)
      expect(await head.text()).toBe('')
    },
  )

  it('HEAD of an asset is 200, of a missing asset 404, of an unknown /api path 404', async () => {
    expect((await fetch(`${base}/assets/app.js`, { method: 'HEAD' })).status).toBe(200)
    expect((await fetch(`${base}/assets/nope.js`, { method: 'HEAD' })).status).toBe(404)
    expect((await fetch(`${base}/api/nope`, { method: 'HEAD' })).status).toBe(404)
  })

  it('HEAD /api/health is 200 with the JSON content type', async () => {
    const head = await fetch(`${base}/api/health`, { method: 'HEAD' })
    expect(head.status).toBe(200)
    expect(head.headers.get('content-type')).toMatch(/^application\/json/)
    expect(await head.text()).toBe('')
  })

  it('other methods on a client route stay 404', async () => {
    expect((await fetch(`${base}/storage`, { method: 'POST' })).status).toBe(404)
  })
})
