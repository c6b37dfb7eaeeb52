import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { buildTestApp } from '../helpers.ts'
import { estate, guestIds } from '../metadata/metadata-state.ts'

let ctx: Awaited<ReturnType<typeof buildTestApp>>
beforeEach(async () => {
  ctx = await buildTestApp()
})
afterEach(async () => {
  await ctx.close()
})

const BASE = '/api/guests/metadata'
const batch = (payload: unknown) =>
  ctx.app.http.inject({ method: 'POST', url: `${BASE}/batch`, payload: payload as object })
const all = async () => (await ctx.app.http.inject({ method: 'GET', url: BASE })).json()

describe('POST /api/guests/metadata/batch', () => {
  it('saves, merges and clears many guests in one request', async () => {
    await ctx.app.http.inject({
      method: 'PUT',
      url: `${BASE}/pve1-100`,
      payload: { customUrl: 'http://192.0.2.10', description: 'wiki' },
    })
    const res = await batch({
      updates: {
        'pve1-100': { customUrl: '' },
        'lab-pve1-101': { customUrl: ' https://app.example.com/login ' },
        'lab pve 2-102': { customUrl: 'http://192.0.2.12:8080/' },
        'pve1-103': { customUrl: null },
      },
    })
    expect(res.statusCode).toBe(200)
    expect(res.json().saved['lab-pve1-101']).toEqual({
      id: 'lab-pve1-101',
      customUrl: 'https://app.example.com/login',
      description: '',
      tags: [],
    })
    const stored = await all()
    expect(Object.keys(stored).sort()).toEqual(['lab pve 2-102', 'lab-pve1-101', 'pve1-100'])
    // The clear kept the other field; the URL of the guest that had none stays unset.
    expect(stored['pve1-100']).toMatchObject({ customUrl: '', description: 'wiki' })
    expect(stored['lab pve 2-102'].customUrl).toBe('http://192.0.2.12:8080/')
  })

  it('an empty batch saves nothing and answers an empty map', async () => {
    const res = await batch({ updates: {} })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({ saved: {} })
  })

  it('a bad entry is a 400 naming guest and field, one line each, and nothing is saved', async () => {
    const res = await batch({
      updates: {
        'pve1-100': { customUrl: 'https://good.example.com' },
        'pve1-101': { customUrl: 'ftp://files.example.com' },
        'pve1-102': { customUrl: 'https://example.' },
        'pve1-103': { customUrl: 42 },
        'pve1-104': 'https://example.com',
      },
    })
    expect(res.statusCode).toBe(400)
    const body = res.json()
    expect(body.code).toBe('FIELD_INVALID')
    expect(body.message.split('\n')).toEqual([
      'updates["pve1-101"].customUrl: must be an http:// or https:// URL with a host.',
      'updates["pve1-102"].customUrl: must be an http:// or https:// URL with a host.',
      'updates["pve1-103"].customUrl: must be a string.',
      'updates["pve1-104"].body: must be a JSON object.',
    ])
    expect(await all()).toEqual({})
  })

  it('an unsafe guest id is named and saves nothing', async () => {
    const res = await batch({
      updates: {
        'a/b': { customUrl: 'https://x.example.com' },
        ok: { customUrl: 'https://y.example.com' },
      },
    })
    expect(res.statusCode).toBe(400)
    expect(res.json().message).toMatch(/^updates\["a\/b"\]\.id: must be 1-300 /)
    expect(await all()).toEqual({})
  })

  it('a body without an updates object is a 400 naming updates', async () => {
    for (const payload of [{}, { updates: [] }, { updates: 'x' }]) {
      const res = await batch(payload)
      expect(res.statusCode).toBe(400)
      expect(res.json().message).toBe('updates: must be an object of guest id to metadata.')
    }
    const notObject = await ctx.app.http.inject({
      method: 'POST',
      url: `${BASE}/batch`,
      headers: { 'content-type': 'application/json' },
      payload: '[1]',
    })
    expect(notObject.statusCode).toBe(400)
    expect(notObject.json().code).toBe('BODY_INVALID')
  })

  it('lists at most 20 failures and counts the rest', async () => {
    const updates = Object.fromEntries(
      Array.from({ length: 25 }, (_, i) => [`pve1-${i}`, { customUrl: 'nope' }]),
    )
    const lines = (await batch({ updates })).json().message.split('\n')
    expect(lines).toHaveLength(21)
    expect(lines[20]).toBe('… and 5 more.')
  })

  it('saves 100,000 guests of the live state in one request', async () => {
    await ctx.app.live.applyCollected(estate(100_000, 0))
    const updates = Object.fromEntries(
      Array.from({ length: 100_000 }, (_, i) => [
        guestIds(i).id,
        { customUrl: `https://g${i}.example.com` },
      ]),
    )
    const res = await batch({ updates })
    expect(res.statusCode).toBe(200)
    const stored = await all()
    expect(Object.keys(stored)).toHaveLength(100_000)
    expect(stored['lab-pve2-103'].customUrl).toBe('https://g3.example.com')
  })
})
