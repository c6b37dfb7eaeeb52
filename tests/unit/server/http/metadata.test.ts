import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { buildApp } from '../../../../src/server/app.ts'
import { readConfig } from '../../../../src/server/config.ts'
import { buildTestApp } from '../helpers.ts'
import { makeTempDir } from '../temp-dir.ts'

let ctx: Awaited<ReturnType<typeof buildTestApp>>
beforeEach(async () => {
  ctx = await buildTestApp()
})
afterEach(async () => {
  await ctx.close()
})

const BASE = '/api/guests/metadata'
const put = (id: string, payload: unknown) =>
  ctx.app.http.inject({ method: 'PUT', url: `${BASE}/${id}`, payload: payload as object })
const get = (url: string) => ctx.app.http.inject({ method: 'GET', url })

describe('guest metadata routes', () => {
  it('starts with an empty map', async () => {
    const res = await get(BASE)
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({})
  })

  it('saves, reads back, lists and deletes a custom URL', async () => {
    const saved = await put('lab-pve1-101', { customUrl: 'https://app.example.com/login' })
    expect(saved.statusCode).toBe(200)
    const record = {
      id: 'lab-pve1-101',
      customUrl: 'https://app.example.com/login',
      description: '',
      tags: [],
    }
    expect(saved.json()).toEqual(record)
    expect((await get(`${BASE}/lab-pve1-101`)).json()).toEqual(record)
    expect((await get(BASE)).json()).toEqual({ 'lab-pve1-101': record })

    const deleted = await ctx.app.http.inject({ method: 'DELETE', url: `${BASE}/lab-pve1-101` })
    expect(deleted.statusCode).toBe(204)
    expect(deleted.body).toBe('')
    expect((await get(BASE)).json()).toEqual({})
  })

  it('merges a save into the stored fields and an empty URL clears it', async () => {
    await put('pve1-100', { customUrl: 'http://192.0.2.10:8080', description: 'wiki' })
    expect((await put('pve1-100', { tags: [' ops ', 'db'] })).json()).toEqual({
      id: 'pve1-100',
      customUrl: 'http://192.0.2.10:8080',
      description: 'wiki',
      tags: ['ops', 'db'],
    })
    const cleared = await put('pve1-100', { customUrl: '' })
    expect(cleared.json()).toMatchObject({ customUrl: '', description: 'wiki' })
    expect((await get(BASE)).json()['pve1-100'].customUrl).toBe('')
  })

  it('removes a record once every field is empty', async () => {
    await put('pve1-100', { customUrl: 'https://a.example.com' })
    const res = await put('pve1-100', { customUrl: null })
    expect(res.json()).toEqual({ id: 'pve1-100', customUrl: '', description: '', tags: [] })
    expect((await get(BASE)).json()).toEqual({})
  })

  it('ignores unknown body fields, including an id that differs from the path', async () => {
    const res = await put('pve1-100', { customUrl: 'https://a.example.com', id: 'x', color: 1 })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({
      id: 'pve1-100',
      customUrl: 'https://a.example.com',
      description: '',
      tags: [],
    })
  })

  it('answers an empty record, not 404, for a guest without metadata', async () => {
    const res = await get(`${BASE}/lab-pve9-999`)
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({ id: 'lab-pve9-999', customUrl: '', description: '', tags: [] })
  })

  it('deleting an unknown guest is still 204, also with an empty JSON body', async () => {
    const res = await ctx.app.http.inject({
      method: 'DELETE',
      url: `${BASE}/nobody`,
      headers: { 'content-type': 'application/json' },
    })
    expect(res.statusCode).toBe(204)
  })

  it('accepts a 200-character guest id', async () => {
    const id = `a${'b'.repeat(194)}-1001`
    expect((await put(id, { description: 'long' })).statusCode).toBe(200)
    expect((await get(`${BASE}/${id}`)).json().description).toBe('long')
  })

  it.each([
    [{ customUrl: 'javascript:alert(1)' }, 'customUrl'],
    [{ customUrl: 'ftp://files.example.com' }, 'customUrl'],
    [{ customUrl: 'not a url' }, 'customUrl'],
    [{ customUrl: 'https://example.' }, 'customUrl'],
    [{ customUrl: `https://example.com/${'a'.repeat(2048)}` }, 'customUrl'],
    [{ customUrl: 42 }, 'customUrl'],
    [{ description: 'x'.repeat(1001) }, 'description'],
    [{ description: ['x'] }, 'description'],
    [{ tags: 'a,b' }, 'tags'],
    [{ tags: ['ok', ''] }, 'tags.1'],
    [{ tags: Array.from({ length: 51 }, (_, i) => `t${i}`) }, 'tags'],
  ])('rejects %j with 400 naming %s and changes nothing', async (payload, field) => {
    await put('pve1-100', { customUrl: 'https://keep.example.com' })
    const res = await put('pve1-100', payload)
    expect(res.statusCode).toBe(400)
    expect(res.json().code).toBe('FIELD_INVALID')
    expect(res.json().message.startsWith(`${field}:`)).toBe(true)
    expect((await get(BASE)).json()).toEqual({
      'pve1-100': {
        id: 'pve1-100',
        customUrl: 'https://keep.example.com',
        description: '',
        tags: [],
      },
    })
  })

  it.each([
    ['bad%00id', 'PUT'],
    ['bad%E2%80%AEid', 'PUT'],
    ['a%2Fb', 'PUT'],
    ['x'.repeat(301), 'PUT'],
    ['bad%0Aid', 'GET'],
    ['bad%00id', 'DELETE'],
  ])('rejects the guest id %s on %s with 400 naming guestId', async (id, method) => {
    const res = await ctx.app.http.inject({
      method: method as 'PUT' | 'GET' | 'DELETE',
      url: `${BASE}/${id}`,
      ...(method === 'PUT' ? { payload: { customUrl: 'https://a.example.com' } } : {}),
    })
    expect(res.statusCode).toBe(400)
    expect(res.json().code).toBe('FIELD_INVALID')
    expect(res.json().message.startsWith('guestId:')).toBe(true)
    expect((await get(BASE)).json()).toEqual({})
  })

  it('rejects a body that is not a JSON object', async () => {
    for (const payload of ['[1]', '"text"', 'null']) {
      const res = await ctx.app.http.inject({
        method: 'PUT',
        url: `${BASE}/pve1-100`,
        headers: { 'content-type': 'application/json' },
        payload,
      })
      expect(res.statusCode).toBe(400)
      expect(res.json().code).toBe('BODY_INVALID')
    }
    const broken = await ctx.app.http.inject({
      method: 'PUT',
      url: `${BASE}/pve1-100`,
      headers: { 'content-type': 'application/json' },
      payload: '{"customUrl":',
    })
    expect(broken.statusCode).toBe(400)
    expect(broken.json().message.startsWith('body:')).toBe(true)
  })

  it.each([
    ['__proto__', '{"customUrl":"https://a.example.com","__proto__":{"isAdmin":true}}'],
    ['constructor.prototype', '{"tags":["a"],"constructor":{"prototype":{"isAdmin":true}}}'],
  ])(
    'refuses a %s key with 400 as every other route does, and stores nothing',
    async (_, payload) => {
      const headers = { 'content-type': 'application/json' }
      const nodes = await ctx.app.http.inject({
        method: 'POST',
        url: '/api/config/nodes',
        headers,
        payload,
      })
      expect(nodes.statusCode).toBe(400)
      for (const method of ['PUT', 'DELETE'] as const) {
        const res = await ctx.app.http.inject({ method, url: `${BASE}/pve1-100`, headers, payload })
        expect(res.statusCode).toBe(400)
        expect(res.json()).toEqual(nodes.json())
        expect(res.json().message).toMatch(/^body:/)
      }
      expect((await get(BASE)).json()).toEqual({})
    },
  )

  it('keeps metadata across a restart on the same data directory', async () => {
    const { dir, cleanup } = makeTempDir()
    const config = readConfig(
      { PULSE_DATA_DIR: dir, PULSE_STATIC_DIR: path.join(dir, 'no-dist'), DISABLE_AUTH: 'true' },
      process.cwd(),
      '0.0.0-test',
    )
    try {
      const first = await buildApp({ config })
      await first.http.inject({
        method: 'PUT',
        url: `${BASE}/lab-pve1-101`,
        payload: { customUrl: 'https://grafana.example.com', tags: ['ops'] },
      })
      await first.close()
      const second = await buildApp({ config })
      const res = await second.http.inject({ method: 'GET', url: BASE })
      await second.close()
      expect(res.json()).toEqual({
        'lab-pve1-101': {
          id: 'lab-pve1-101',
          customUrl: 'https://grafana.example.com',
          description: '',
          tags: ['ops'],
        },
      })
    } finally {
      cleanup()
    }
  })
})
