// GET /api/state (issue 24 #35): by default the plain dialect's shapes, exactly what a plain /ws
// client's initialState carries (spec 000 §3, reference/wire-protocol.md §2.1: pveBackups, RFC 3339
// times); our own shape only on request (?format=internal). Real app, real HTTP and a real socket
// on 127.0.0.1.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { RFC3339, T, withBackups } from '../timed-collected-fixture.ts'
import { buildTestApp } from '../helpers.ts'

let ctx: Awaited<ReturnType<typeof buildTestApp>>
let base: string

beforeAll(async () => {
  ctx = await buildTestApp()
  await ctx.app.live.applyCollected(withBackups(1))
  await ctx.app.http.listen({ host: '127.0.0.1', port: 0 })
  base = `http://127.0.0.1:${(ctx.app.http.server.address() as { port: number }).port}`
})
afterAll(() => ctx?.close())

/** The data of the first initialState a plain /ws client receives. */
async function plainInitialState(): Promise<Record<string, unknown>> {
  const ws = new WebSocket(`${base.replace('http', 'ws')}/ws`)
  try {
    return await new Promise((resolve, reject) => {
      ws.on('message', (raw) => {
        const msg = JSON.parse(String(raw)) as { type: string; data: Record<string, unknown> }
        if (msg.type === 'initialState') resolve(msg.data)
      })
      ws.once('error', reject)
    })
  } finally {
    ws.close()
  }
}

async function getState(query = '') {
  const res = await fetch(`${base}/api/state${query}`)
  return { res, body: (await res.json()) as Record<string, unknown> }
}

describe('GET /api/state', () => {
  it('equals the initialState of a plain /ws client, shapes and times included', async () => {
    const socket = await plainInitialState()
    const { res, body } = await getState()
    expect(res.status).toBe(200)
    expect(res.headers.get('x-state-seq')).toBe(String(ctx.app.live.current().seq))
    expect(Object.keys(socket).length).toBeGreaterThan(10)
    expect(body).toEqual(socket)
  })

  it('groups the PVE backups as pveBackups with RFC 3339 times, as the reference does', async () => {
    const { body } = await getState()
    for (const key of ['storageBackups', 'guestSnapshots', 'backupTasks'])
      expect(body).not.toHaveProperty(key)
    const pve = body.pveBackups as Record<string, Array<Record<string, unknown>>>
    expect(Object.keys(pve).sort()).toEqual(['backupTasks', 'guestSnapshots', 'storageBackups'])
    expect(pve.storageBackups![0]!.time).toBe('2025-10-11T02:00:02Z')
    expect(pve.guestSnapshots![0]!.time).toMatch(RFC3339)
    expect(pve.backupTasks!.map((t) => t.endTime)).toEqual([
      '2025-10-11T02:04:31Z',
      '0001-01-01T00:00:00Z',
    ])
    const pbsBackups = body.pbsBackups as Array<Record<string, unknown>>
    expect(Date.parse(pbsBackups[0]!.backupTime as string) / 1000).toBe(T)
  })

  it('sends our own shape, epoch numbers and top-level collections, with ?format=internal', async () => {
    const { res, body } = await getState('?format=internal')
    expect(res.status).toBe(200)
    expect(res.headers.get('x-state-seq')).toBe(String(ctx.app.live.current().seq))
    expect(body).toEqual(JSON.parse(JSON.stringify(ctx.app.live.current().state)))
    expect(body).not.toHaveProperty('pveBackups')
    expect((body.storageBackups as Array<{ ctime: number }>)[0]!.ctime).toBe(T + 2)
  })

  it('accepts ?format=plain and refuses an unknown format with a 400 naming the field', async () => {
    expect((await getState('?format=plain')).body).toHaveProperty('pveBackups')
    const { res, body } = await getState('?format=raw')
    expect(res.status).toBe(400)
    expect(body.code).toBe('FIELD_INVALID')
    expect(body.message).toMatch(/^format: /)
  })
})
