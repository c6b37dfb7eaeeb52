// Editing nodes over app.inject against a real app on a temporary SQLite file: edits without
// credential fields, renames onto a taken name, what a name and a host may contain, and that every
// accepted name gives guest ids the metadata routes take (issue 12 items 2 and 3).
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { guestKey } from '../../../../src/shared/model/guest-key.ts'
import { buildTestApp } from '../helpers.ts'

const SECRET = '9d1c2b3a-4e5f-4a6b-8c7d-0e1f2a3b4c5d'
// Port 9 on loopback: nothing answers, so nothing is sent anywhere else.
const valid = {
  type: 'pve',
  name: 'lab',
  host: '127.0.0.1:9',
  tokenName: 'monitor@pve!dashboard',
  tokenValue: SECRET,
  verifySSL: false,
}

let ctx: Awaited<ReturnType<typeof buildTestApp>>
beforeEach(async () => {
  ctx = await buildTestApp()
})
afterEach(async () => {
  await ctx.close()
})

const NODES = '/api/config/nodes'
const call = (method: 'POST' | 'PUT', url: string, payload: unknown) =>
  ctx.app.http.inject({ method, url, payload: payload as object })
const list = async () => (await ctx.app.http.inject({ method: 'GET', url: NODES })).json()
/** The stored configurations, without the poller's status and error (they change on their own). */
const configs = async () =>
  ((await list()) as Array<Record<string, unknown>>).map(
    ({ status: _status, error: _error, ...config }) => config,
  )
const addNode = async (payload: unknown = valid): Promise<string> => {
  const res = await call('POST', NODES, payload)
  expect(res.statusCode).toBe(201)
  return res.json().id as string
}

describe('PUT /api/config/nodes/{id} without credential fields', () => {
  it('stores the new name and host and keeps the stored token', async () => {
    const id = await addNode()
    const res = await call('PUT', `${NODES}/${id}`, {
      type: 'pve',
      name: 'lab renamed',
      host: '127.0.0.2:9',
      verifySSL: false,
    })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toMatchObject({
      id,
      name: 'lab renamed',
      host: 'https://127.0.0.2:9',
      tokenName: 'monitor@pve!dashboard',
      hasToken: true,
    })
    expect(await list()).toMatchObject([{ id, name: 'lab renamed', host: 'https://127.0.0.2:9' }])
  })

  it('answers 409 for a rename onto another node name and changes nothing', async () => {
    await addNode()
    const id = await addNode({ ...valid, name: 'other', host: '127.0.0.3:9' })
    const before = await configs()
    const res = await call('PUT', `${NODES}/${id}`, {
      type: 'pve',
      name: 'lab',
      host: '127.0.0.3:9',
    })
    expect(res.statusCode).toBe(409)
    expect(res.json().code).toBe('NODE_NAME_TAKEN')
    expect(await configs()).toEqual(before)
  })

  it('test-connection with an id tests the host sent, not the stored one', async () => {
    const id = await addNode()
    // Port 10 refuses too, but the error names the host that was tried.
    const res = await call('POST', `${NODES}/test-connection`, {
      type: 'pve',
      id,
      host: '127.0.0.1:10',
      verifySSL: false,
    })
    expect(res.statusCode).toBe(502)
    expect(res.json().message).toContain('127.0.0.1:10')
    expect(res.json().message).not.toContain('127.0.0.1:9')
  })
})

describe('what a node name may contain', () => {
  it.each([
    ['NUL', 'lab\u0000x'],
    ['a newline', 'lab\nx'],
    ['an escape', 'lab\u001b[31m'],
    ['a right-to-left override', 'lab\u202Egnp.exe'],
    ['a bidi isolate', 'lab\u2066x'],
    ['a zero-width space', 'lab\u200Bx'],
    ['a lone surrogate', 'lab\uD800x'],
    ['a slash', 'dc1/lab'],
    ['101 characters', 'n'.repeat(101)],
  ])('refuses a name with %s with 400 naming name; nothing stored or changed', async (_, name) => {
    const refused = await call('POST', NODES, { ...valid, name })
    expect(refused.statusCode).toBe(400)
    expect(refused.json().code).toBe('FIELD_INVALID')
    expect(refused.json().message).toMatch(/^name:/)
    expect(await list()).toEqual([])

    const id = await addNode()
    const before = await configs()
    const edit = await call('PUT', `${NODES}/${id}`, { ...valid, name })
    expect(edit.statusCode).toBe(400)
    expect(edit.json().message).toMatch(/^name:/)
    expect(await configs()).toEqual(before)
  })

  it.each([
    'My Lab',
    'Zürich – Rack 2 (prod)',
    '東京ラボ',
    'lab_#1: [edge] & co.',
    'n'.repeat(100),
  ])('accepts %s, and guests of that node can get metadata', async (name) => {
    const added = await call('POST', NODES, { ...valid, name: ` ${name} ` })
    expect(added.statusCode).toBe(201)
    expect(added.json().name).toBe(name)

    const guestId = guestKey({ instance: name, node: 'pve-node-1', vmid: 100 })
    const url = `/api/guests/metadata/${encodeURIComponent(guestId)}`
    const saved = await ctx.app.http.inject({
      method: 'PUT',
      url,
      payload: { description: 'web server' },
    })
    expect(saved.statusCode).toBe(200)
    expect(saved.json().id).toBe(guestId)
    const read = await ctx.app.http.inject({ method: 'GET', url })
    expect(read.json()).toMatchObject({ id: guestId, description: 'web server' })
  })
})

describe('what a host may contain', () => {
  it.each([
    ['a path', 'https://pve.example.com:8006/api2/json'],
    ['a query', 'pve.example.com:8006?x=1'],
    ['a fragment', 'pve.example.com#top'],
    ['user info', 'https://root:pw@pve.example.com'],
    ['a newline inside', 'pve.exa\nmple.com'],
    ['a tab inside', 'pve.exa\tmple.com'],
    ['a space inside', 'pve example.com'],
    ['a bidi override', 'pve\u202E.example.com'],
    ['port 0', 'pve.example.com:0'],
  ])('refuses a host with %s with 400 naming host; nothing changed', async (_, host) => {
    const refused = await call('POST', NODES, { ...valid, host })
    expect(refused.statusCode).toBe(400)
    expect(refused.json().message).toMatch(/^host:/)
    expect(await list()).toEqual([])

    const id = await addNode()
    const before = await configs()
    const edit = await call('PUT', `${NODES}/${id}`, { ...valid, host })
    expect(edit.statusCode).toBe(400)
    expect(edit.json().message).toMatch(/^host:/)
    expect(await configs()).toEqual(before)
  })

  it.each([
    ['pve.example.com', 'https://pve.example.com:8006'],
    ['https://pve.example.com:8443/', 'https://pve.example.com:8443'],
    ['[::1]:8006', 'https://[::1]:8006'],
  ])('accepts %s as %s', async (host, stored) => {
    const res = await call('POST', NODES, { ...valid, host })
    expect(res.statusCode).toBe(201)
    expect(res.json().host).toBe(stored)
  })
})
