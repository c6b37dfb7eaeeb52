// /api/notifications webhook routes over real HTTP with authentication on (session + CSRF), a real
// SQLite file and a real receiver on 127.0.0.1: secrets are sealed at rest and never answered,
// masked or empty values keep what is stored, errors name the field, the test route sends.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { Webhook } from '../../../../src/shared/model/notifications.ts'
import {
  quickSetup,
  startAuthServer,
  type AuthTestServer,
  type CallOptions,
  type Credentials,
} from '../auth/auth-helpers.ts'
import { renderWebhook } from '../../../../src/server/notify/webhook/render.ts'
import {
  fired,
  makeWebhook,
  startReceiver,
  useReceiver,
  type Receiver,
} from './webhook-receiver.ts'

let server: AuthTestServer
let creds: Credentials
let receiver: Receiver
const BASE = '/api/notifications'
const TOKEN = 'Zq8sXv1TopSecretTokenValue42'

beforeAll(async () => {
  server = await startAuthServer({ webhookAllowLoopback: true })
  creds = await quickSetup(server)
  receiver = await startReceiver()
})
afterAll(async () => {
  await server.close()
  await receiver.close()
})
beforeEach(() => {
  receiver.requests.length = 0
  receiver.respond = () => ({ status: 200, body: 'received' })
})

const session = (body?: unknown): CallOptions => ({
  cookies: creds.cookies,
  csrf: creds.cookies.pulse_csrf,
  body,
})
const call = (method: string, path: string, body?: unknown) =>
  server.call(method, BASE + path, session(body))

const discord = (overrides: Partial<Webhook> = {}) => ({
  name: 'Ops Discord',
  url: `${receiver.base}/api/webhooks/123/${TOKEN}`,
  method: 'POST',
  headers: { Authorization: `Bearer ${TOKEN}`, 'X-Team': 'ops', '': 'ignored row' },
  enabled: true,
  service: 'discord',
  template: '',
  customFields: { apikey: TOKEN, note: 'plain' },
  secretFields: ['apikey'],
  ...overrides,
})

describe('webhook CRUD', () => {
  it('stores secrets sealed and answers them masked', async () => {
    const created = await call('POST', '/webhooks', discord())
    expect(created.status).toBe(200)
    const hook = created.json as Webhook
    expect(hook.id).toMatch(/^[0-9a-f-]{36}$/)
    expect(hook).toMatchObject({
      name: 'Ops Discord',
      url: `${receiver.base}/api/webhooks/123/****`,
      urlMasked: true,
      headers: { Authorization: '********', 'X-Team': 'ops' },
      customFields: { apikey: '', note: 'plain' },
      hasSecret: { apikey: true },
    })
    expect(JSON.stringify(hook)).not.toContain(TOKEN)
    const list = await call('GET', '/webhooks')
    expect(list.text).not.toContain(TOKEN)
    expect((list.json as Webhook[]).map((w) => w.id)).toContain(hook.id)
    // At rest: no column holds the token in clear.
    const row = server.ctx.app.db.prepare('SELECT * FROM webhooks WHERE id = ?').get(hook.id)
    expect(JSON.stringify(row)).not.toContain(TOKEN)
    expect(JSON.stringify(row)).not.toContain('SecretToken')
  })

  it('keeps stored secrets when the masked URL, masked header and empty field come back', async () => {
    const hook = (await call('POST', '/webhooks', discord())).json as Webhook
    const edited = await call('PUT', `/webhooks/${hook.id}`, { ...hook, name: 'Renamed' })
    expect(edited.status).toBe(200)
    expect(edited.json).toMatchObject({ name: 'Renamed', urlMasked: true })
    // The stored webhook still sends with the real secrets.
    const test = await call('POST', '/webhooks/test', { id: hook.id })
    expect(test.json).toEqual({ status: 200, response: 'received', success: true })
    const got = receiver.requests[0]!
    expect(got.url).toBe(`/api/webhooks/123/${TOKEN}`)
    expect(got.headers.authorization).toBe(`Bearer ${TOKEN}`)
    expect(got.headers['x-team']).toBe('ops')
  })

  it('replaces the URL when a new one is entered, and refuses a half-masked one', async () => {
    const hook = (await call('POST', '/webhooks', discord())).json as Webhook
    const half = await call('PUT', `/webhooks/${hook.id}`, {
      ...hook,
      url: hook.url.replace('/123/', '/456/'),
    })
    expect(half.status).toBe(400)
    expect(half.json.error).toMatch(/^url: holds masked parts/)
    const fresh = await call('PUT', `/webhooks/${hook.id}`, {
      ...hook,
      url: `${receiver.base}/plain`,
    })
    expect(fresh.json).toMatchObject({ url: `${receiver.base}/plain` })
    expect(fresh.json.urlMasked).toBe(false)
  })

  it('deletes, and answers 404 for an unknown id', async () => {
    const hook = (await call('POST', '/webhooks', discord())).json as Webhook
    expect((await call('DELETE', `/webhooks/${hook.id}`)).json).toEqual({ status: 'success' })
    const again = await call('DELETE', `/webhooks/${hook.id}`)
    expect(again.status).toBe(404)
    expect(again.json).toMatchObject({ error: `webhook not found: ${hook.id}` })
    const put = await call('PUT', '/webhooks/nope', discord())
    expect(put.status).toBe(404)
    expect(put.json.error).toBe('webhook not found: nope')
  })

  it('records each change in the audit log', async () => {
    await call('POST', '/webhooks', discord({ name: 'Audited' }))
    const audit = await server.call('GET', '/api/security/audit', { cookies: creds.cookies })
    const events = audit.json.events as Array<{ type: string; detail: string }>
    expect(events.some((e) => e.type === 'webhook_changed' && e.detail.includes('Audited'))).toBe(
      true,
    )
  })

  it('refuses a write without the CSRF token', async () => {
    const before = ((await call('GET', '/webhooks')).json as Webhook[]).length
    const res = await server.call('POST', `${BASE}/webhooks`, {
      cookies: creds.cookies,
      body: discord(),
    })
    expect(res.status).toBe(403)
    expect(((await call('GET', '/webhooks')).json as Webhook[]).length).toBe(before)
  })
})

describe('stored secrets and a new origin', () => {
  const otherReceiver = useReceiver()

  const stored = async (overrides: Partial<Webhook> = {}) =>
    (await call('POST', '/webhooks', discord({ service: 'generic', ...overrides }))).json as Webhook

  it('refuses a test to a new origin with a masked header, sending nothing', async () => {
    const hook = await stored()
    const res = await call('POST', '/webhooks/test', {
      ...hook,
      url: `${otherReceiver().base}/steal`,
      headers: { Authorization: '********' },
    })
    expect(res.status).toBe(400)
    expect(res.json.error).toMatch(/^headers\.Authorization: .*enter it again/)
    expect(otherReceiver().requests).toHaveLength(0)
    expect(receiver.requests).toHaveLength(0)
  })

  it('refuses a save with a new origin and an empty header, changing nothing', async () => {
    const hook = await stored()
    const res = await call('PUT', `/webhooks/${hook.id}`, {
      ...hook,
      url: `${otherReceiver().base}/steal`,
      headers: { Authorization: '' },
    })
    expect(res.status).toBe(400)
    expect(res.json.error).toMatch(/^headers\.Authorization: /)
    expect((await call('GET', '/webhooks')).json).toContainEqual(hook)
    // The stored webhook still goes where it went, with its secret.
    await call('POST', '/webhooks/test', { id: hook.id })
    expect(otherReceiver().requests).toHaveLength(0)
    expect(receiver.requests[0]!.headers.authorization).toBe(`Bearer ${TOKEN}`)
  })

  it('refuses an empty secret custom field with a new origin', async () => {
    const hook = await stored({ headers: {} })
    const res = await call('PUT', `/webhooks/${hook.id}`, {
      ...hook,
      url: `${otherReceiver().base}/x`,
    })
    expect(res.status).toBe(400)
    expect(res.json.error).toMatch(/^customFields\.apikey: /)
  })

  it('saves a new origin when the secrets are typed again', async () => {
    const hook = await stored()
    const res = await call('PUT', `/webhooks/${hook.id}`, {
      ...hook,
      url: `${otherReceiver().base}/moved`,
      headers: { Authorization: 'Bearer typed-again', 'X-Team': 'ops' },
      customFields: { apikey: 'typed-too', note: 'plain' },
    })
    expect(res.status).toBe(200)
    await call('POST', '/webhooks/test', { id: hook.id })
    expect(otherReceiver().requests[0]!.headers.authorization).toBe('Bearer typed-again')
  })

  it('keeps stored secrets for a new path on the same origin', async () => {
    const hook = await stored()
    const res = await call('PUT', `/webhooks/${hook.id}`, { ...hook, url: `${receiver.base}/new` })
    expect(res.status).toBe(200)
    await call('POST', '/webhooks/test', { id: hook.id })
    expect(receiver.requests[0]!.url).toBe('/new')
    expect(receiver.requests[0]!.headers.authorization).toBe(`Bearer ${TOKEN}`)
  })
})

describe('validation', () => {
  it.each([
    [{ name: '' }, /^name: /],
    [{ name: 'x'.repeat(101) }, /^name: /],
    [{ url: 'ftp://example.com/x' }, /^Invalid webhook URL: only http and https/],
    [{ url: 'http://169.254.169.254/latest' }, /^Invalid webhook URL: a cloud metadata/],
    [{ url: '' }, /^Invalid webhook URL: /],
    [{ method: 'GET' }, /^method: /],
    [{ service: 'myspace' }, /^service: /],
    [{ headers: { 'Bad Header': 'x' } }, /^headers\.Bad Header: /],
    [{ headers: { 'X-A': 'a\r\nInjected: 1' } }, /^headers\.X-A: /],
    [{ customFields: { a: 5 } }, /^customFields\.a: /],
    [{ template: '{% if %}' }, /^template: /],
    [{ service: 'pushover', customFields: { app_token: 'a' } }, /^customFields\.user_token: /],
    [{ service: 'pushover', customFields: { app_token: '', user_token: 'u' } }, /app_token/],
    [{ service: 'telegram', url: 'http://127.0.0.1:9/botX/sendMessage' }, /chat_id/],
    [
      { service: 'pushover', customFields: { app_token: 'a', user_token: 'u', priority: '3' } },
      /^customFields\.priority: /,
    ],
  ])('refuses %j naming the field, saving nothing', async (change, error) => {
    const before = ((await call('GET', '/webhooks')).json as Webhook[]).length
    const res = await call('POST', '/webhooks', discord(change as Partial<Webhook>))
    expect(res.status).toBe(400)
    expect(res.json.error).toMatch(error)
    expect(res.json.code).toBe('FIELD_INVALID')
    expect(res.json.message).toBe(res.json.error)
    expect(((await call('GET', '/webhooks')).json as Webhook[]).length).toBe(before)
  })

  it('accepts pushover with both required fields, keeping them secret', async () => {
    const res = await call(
      'POST',
      '/webhooks',
      discord({
        service: 'pushover',
        url: `${receiver.base}/1/messages.json`,
        customFields: { app_token: 'app-secret', user_token: 'user-secret' },
        secretFields: [],
      }),
    )
    expect(res.status).toBe(200)
    expect(res.json.customFields).toEqual({ app_token: '', user_token: '' })
    expect(res.json.hasSecret).toEqual({ app_token: true, user_token: true })
    // An edit that leaves them empty keeps them (and passes the required check).
    const edit = await call('PUT', `/webhooks/${res.json.id}`, res.json)
    expect(edit.status).toBe(200)
    await call('POST', '/webhooks/test', { id: res.json.id })
    expect(JSON.parse(receiver.requests[0]!.body)).toMatchObject({
      token: 'app-secret',
      user: 'user-secret',
    })
  })
})

describe('template render bound', () => {
  it.each([
    [
      'nested loops',
      '{% for a in (1..100000) %}{% for b in (1..100000) %}{% endfor %}{% endfor %}',
    ],
    ['one filter over a long list', '{% assign r = (1..30000) %}{{ r | where: "x", 1 | size }}'],
    [
      'a string doubled',
      '{% assign s = "xx" %}{% for i in (1..40) %}{% assign s = s | append: s %}{% endfor %}',
    ],
  ])(
    'refuses a template that does not render within the bound (%s), saving nothing',
    async (_what, template) => {
      const before = ((await call('GET', '/webhooks')).json as Webhook[]).length
      const res = await call('POST', '/webhooks', discord({ template }))
      expect(res.status).toBe(400)
      expect(res.json.error).toMatch(/^template: /)
      expect(((await call('GET', '/webhooks')).json as Webhook[]).length).toBe(before)
    },
  )

  it('accepts a template that lists every alert of a group', async () => {
    const template =
      '{"alerts": [{% for a in Alerts %}{"id": {{ a.ID | json }}, "message": {{ a.Message | json }}}{% unless forloop.last %},{% endunless %}{% endfor %}], "count": {{ AlertCount }}}'
    const res = await call('POST', '/webhooks', discord({ service: 'generic', template }))
    expect(res.status).toBe(200)
    await call('POST', '/webhooks/test', { id: res.json.id })
    expect(JSON.parse(receiver.requests[0]!.body)).toMatchObject({ count: 1 })
  })
})

describe('templates and test', () => {
  it('lists the ten service templates', async () => {
    const res = await call('GET', '/webhook-templates')
    expect(res.json.map((t: { service: string }) => t.service)).toHaveLength(10)
  })

  it('tests an unsaved webhook and answers the receiver status and body', async () => {
    const res = await call('POST', '/webhooks/test', discord({ service: 'generic' }))
    expect(res.json).toEqual({ status: 200, response: 'received', success: true })
    const payload = JSON.parse(receiver.requests[0]!.body)
    expect(payload.alert).toMatchObject({ resource_name: 'test-vm', level: 'warning' })
  })

  it('sends a test in the schema of a real delivery: the same keys, the alert with its event', async () => {
    await call('POST', '/webhooks/test', discord({ service: 'generic', headers: {} }))
    const test = JSON.parse(receiver.requests[0]!.body)
    const real = JSON.parse(renderWebhook(fired(), makeWebhook(), {}).body)
    expect(Object.keys(test).sort()).toEqual(Object.keys(real).sort())
    expect(Object.keys(test.alert).sort()).toEqual(Object.keys(real.alert).sort())
    expect(test).toMatchObject({ grouped: false, count: 1, summary: null })
    expect(test.alerts).toEqual([test.alert])
    expect(test.alert.event).toBe('fired')
    expect(typeof test.timestamp).toBe(typeof real.timestamp)
    expect(Date.parse(test.timestamp)).not.toBeNaN()
  })

  it('answers 400 with the receiver error when the receiver refuses', async () => {
    receiver.respond = () => ({ status: 404, body: 'unknown webhook' })
    const res = await call('POST', '/webhooks/test', discord())
    expect(res.status).toBe(400)
    expect(res.json).toMatchObject({
      error: 'Webhook returned HTTP 404: unknown webhook',
      status: 404,
      success: false,
    })
  })

  it('answers 404 for a stored id that does not exist', async () => {
    const res = await call('POST', '/webhooks/test', { id: 'missing' })
    expect(res.status).toBe(404)
    expect(res.json.error).toBe('webhook not found: missing')
  })
})
