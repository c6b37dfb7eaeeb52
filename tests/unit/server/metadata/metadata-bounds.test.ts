// Guest metadata is bounded (issue 24 #8): ids of guests in the live state are accepted without
// limit (an estate's worth in one batch), ids of unknown guests only up to a fixed number of
// stored records, and only ids shaped like a guest key. Real app, real SQLite file.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { MAX_UNKNOWN_GUEST_RECORDS } from '../../../../src/server/metadata/metadata-service.ts'
import { buildTestApp } from '../helpers.ts'
import { estate, guestIds } from './metadata-state.ts'

let ctx: Awaited<ReturnType<typeof buildTestApp>>
beforeEach(async () => {
  ctx = await buildTestApp()
  await ctx.app.live.applyCollected(estate(10, 1))
})
afterEach(async () => {
  await ctx.close()
})

const BASE = '/api/guests/metadata'
const batch = (updates: Record<string, unknown>) =>
  ctx.app.http.inject({ method: 'POST', url: `${BASE}/batch`, payload: { updates } })
const put = (id: string, payload: object) =>
  ctx.app.http.inject({ method: 'PUT', url: `${BASE}/${encodeURIComponent(id)}`, payload })
const stored = async () =>
  Object.keys((await ctx.app.http.inject({ method: 'GET', url: BASE })).json() as object)
const url = (i: number) => ({ customUrl: `https://g${i}.example.com` })
const fake = (i: number) => `ghost-pve-${100_000 + i}`

describe('guest metadata bounds', () => {
  it('refuses 100,000 made-up guest ids in one batch, naming them, and stores nothing', async () => {
    const updates = Object.fromEntries(Array.from({ length: 100_000 }, (_, i) => [fake(i), url(i)]))
    const res = await batch(updates)
    expect(res.statusCode).toBe(400)
    const lines = (res.json() as { message: string }).message.split('\n')
    expect(lines[0]).toBe(
      `updates["${fake(0)}"].id: no monitored guest has this id, and at most ` +
        `${MAX_UNKNOWN_GUEST_RECORDS} records of guests not in the live state are kept ` +
        `(0 stored, this request would add 100000).`,
    )
    expect(lines.at(-1)).toBe('… and 99980 more.')
    expect(await stored()).toEqual([])
  })

  it('accepts every guest of the live state, by guest id or by node-vmid', async () => {
    const updates = Object.fromEntries(
      Array.from({ length: 10 }, (_, i) => [i % 2 ? guestIds(i).id : guestIds(i).nodeVmid, url(i)]),
    )
    expect((await batch(updates)).statusCode).toBe(200)
    expect(await stored()).toHaveLength(10)
  })

  it(`keeps at most ${MAX_UNKNOWN_GUEST_RECORDS} records of unknown guests; updating or clearing one is always allowed`, async () => {
    const first = Object.fromEntries(
      Array.from({ length: MAX_UNKNOWN_GUEST_RECORDS }, (_, i) => [fake(i), url(i)]),
    )
    expect((await batch(first)).statusCode).toBe(200)
    const one = await put(fake(-1), url(1))
    expect(one.statusCode).toBe(400)
    expect(one.json()).toMatchObject({
      code: 'FIELD_INVALID',
      message:
        `guestId: no monitored guest has this id, and at most ${MAX_UNKNOWN_GUEST_RECORDS} ` +
        `records of guests not in the live state are kept (${MAX_UNKNOWN_GUEST_RECORDS} ` +
        `stored, this request would add 1).`,
    })
    // A known guest is still accepted, and so are changes to records already stored.
    expect((await put(guestIds(3).id, url(3))).statusCode).toBe(200)
    expect((await put(fake(5), { description: 'kept' })).statusCode).toBe(200)
    expect((await put(fake(6), { customUrl: '' })).statusCode).toBe(200)
    expect((await batch({ [fake(-2)]: { customUrl: '' } })).statusCode).toBe(200)
    // Clearing fake(6) freed a place.
    expect((await put(fake(-1), url(1))).statusCode).toBe(200)
    expect((await put(fake(-3), url(1))).statusCode).toBe(400)
    expect(await stored()).toHaveLength(MAX_UNKNOWN_GUEST_RECORDS + 1)
  })

  it('refuses a guest id that is not shaped <name>-<vmid>, naming it', async () => {
    const res = await put('not-a-guest', url(0))
    expect(res.statusCode).toBe(400)
    expect(res.json().message).toBe(
      'guestId: must be a guest id: <node>-<vmid> or <instance>-<node>-<vmid>.',
    )
    const many = await batch({ [guestIds(0).id]: url(0), 'x-1234567890': url(1) })
    expect(many.json().message).toBe(
      'updates["x-1234567890"].id: must be a guest id: <node>-<vmid> or <instance>-<node>-<vmid>.',
    )
    expect(await stored()).toEqual([])
  })
})
