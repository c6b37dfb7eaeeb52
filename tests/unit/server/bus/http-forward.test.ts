// Browsers' HTTP through web nodes: a real collector (authentication on, SQLite on disk) answers
// over the bus, two web nodes forward on real loopback ports. Sessions live in the collector, so
// one made through web node A works through web node B; writes, errors, cookies and rate limits
// are the collector's own.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { HTTP_SUBJECT } from '../../../../src/server/bus/http-envelope.ts'
import {
  call,
  createLocalBus,
  startCollector,
  startWebNode,
  type Collector,
  type LocalBus,
  type WebNode,
} from './web-nodes.ts'

let bus: LocalBus
let collector: Collector
let a: WebNode
let b: WebNode
let password: string
let username: string

beforeEach(async () => {
  bus = createLocalBus()
  collector = await startCollector(bus)
  a = await startWebNode(bus)
  b = await startWebNode(bus)
  const setup = await call(a, 'POST', '/api/security/quick-setup', { body: {} })
  expect(setup.status).toBe(200)
  username = setup.json.username
  password = setup.json.password
})
afterEach(async () => {
  await a.app.close()
  await b.app.close()
  await collector.stop()
  await bus.close()
})

async function loginThrough(node: WebNode) {
  const res = await call(node, 'POST', '/api/login', { body: { username, password } })
  expect(res.status).toBe(200)
  return res
}

describe('HTTP through web nodes', () => {
  it('keeps both Set-Cookie lines of a login, and the session works through another web node', async () => {
    const login = await loginThrough(a)
    const names = login.setCookies.map((line) => line.split('=')[0])
    expect(names).toEqual(expect.arrayContaining(['pulse_session', 'pulse_csrf']))
    expect(login.setCookies.find((l) => l.startsWith('pulse_session='))).toMatch(/HttpOnly/i)
    const cookies = {
      pulse_session: login.cookies.pulse_session!,
      pulse_csrf: login.cookies.pulse_csrf!,
    }

    expect((await call(b, 'GET', '/api/config/nodes')).status).toBe(401)
    const nodes = await call(b, 'GET', '/api/config/nodes', { cookies })
    expect(nodes.status).toBe(200)
    expect(nodes.json).toEqual([])

    // Logging out through B ends the session everywhere: it lived only in the collector.
    const out = await call(b, 'POST', '/api/logout', {
      cookies,
      csrf: cookies.pulse_csrf,
      body: {},
    })
    expect(out.status).toBe(200)
    expect((await call(a, 'GET', '/api/config/nodes', { cookies })).status).toBe(401)
  })

  it("makes a CSRF-checked write on the collector and answers with the collector's answer", async () => {
    const { cookies: c } = await loginThrough(a)
    const cookies = { pulse_session: c.pulse_session!, pulse_csrf: c.pulse_csrf! }
    const refused = await call(b, 'POST', '/api/system/theme', { cookies, body: { theme: 'dark' } })
    expect(refused.status).toBe(403)
    expect(refused.json).toMatchObject({ code: 'CSRF_INVALID' })

    const saved = await call(b, 'POST', '/api/system/theme', {
      cookies,
      csrf: cookies.pulse_csrf,
      body: { theme: 'dark' },
    })
    expect(saved.status).toBe(200)
    expect(saved.json).toEqual({ theme: 'dark' })
    const direct = await collector.ctx.app.http.inject({
      method: 'GET',
      url: '/api/system/theme',
      headers: { cookie: `pulse_session=${cookies.pulse_session}` },
    })
    expect(direct.json()).toEqual({ theme: 'dark' })
  })

  it('hands back a 400 verbatim, naming the field, and changes nothing', async () => {
    const { cookies: c } = await loginThrough(a)
    const cookies = { pulse_session: c.pulse_session!, pulse_csrf: c.pulse_csrf! }
    const bad = await call(a, 'POST', '/api/system/theme', {
      cookies,
      csrf: cookies.pulse_csrf,
      body: { theme: 'purple' },
    })
    const direct = await collector.ctx.app.http.inject({
      method: 'POST',
      url: '/api/system/theme',
      headers: {
        cookie: `pulse_session=${cookies.pulse_session}; pulse_csrf=${cookies.pulse_csrf}`,
        'x-csrf-token': cookies.pulse_csrf,
        'content-type': 'application/json',
      },
      payload: { theme: 'purple' },
    })
    expect(bad.status).toBe(400)
    expect(bad.text).toBe(direct.body)
    expect(bad.json).toEqual({
      code: 'FIELD_INVALID',
      message: 'theme: must be "light" or "dark".',
    })
    expect((await call(a, 'GET', '/api/system/theme', { cookies })).json).toEqual({ theme: '' })
  })

  it('counts the login rate limit per real client address across web nodes', async () => {
    // Ten failed logins from 127.0.0.2, spread over both web nodes and claiming other addresses
    // in X-Forwarded-For: the eleventh from that address is refused, one from 127.0.0.3 is not.
    for (let i = 0; i < 10; i++) {
      const res = await call(i % 2 ? a : b, 'POST', '/api/login', {
        from: '127.0.0.2',
        headers: { 'x-forwarded-for': `198.51.100.${i}` },
        body: { username: `nobody-${i}`, password: 'wrong-password' },
      })
      expect(res.status).toBe(401)
    }
    const limited = await call(a, 'POST', '/api/login', {
      from: '127.0.0.2',
      body: { username, password },
    })
    expect(limited.status).toBe(429)
    expect(limited.json).toMatchObject({ code: 'RATE_LIMITED' })
    expect(limited.headers['retry-after']).toBeDefined()
    const other = await call(b, 'POST', '/api/login', {
      from: '127.0.0.3',
      body: { username, password },
    })
    expect(other.status).toBe(200)

    // The audit log names the client, not the web node nor the forwarded claim.
    const cookies = { pulse_session: other.cookies.pulse_session! }
    const audit = await call(a, 'GET', '/api/security/audit', { cookies })
    const ips = (audit.json.events as Array<{ ip: string }>).map((event) => event.ip)
    expect(ips).toContain('127.0.0.2')
    expect(ips).toContain('127.0.0.3')
    expect(ips.some((ip) => ip.startsWith('198.51.100.'))).toBe(false)
  })

  it('refuses a body over 1 MiB with 413 without asking the collector', async () => {
    const before = bus.sent(HTTP_SUBJECT)
    const res = await call(a, 'POST', '/api/system/theme', {
      raw: Buffer.alloc(1024 * 1024 + 1, 0x20),
      headers: { 'content-type': 'application/json' },
    })
    expect(res.status).toBe(413)
    expect(res.json).toMatchObject({ code: 'BODY_INVALID' })
    expect(bus.sent(HTTP_SUBJECT)).toBe(before)
  })

  it('forwards the SPA with the collector security headers, and answers its own health', async () => {
    const page = await call(a, 'GET', '/')
    expect(page.status).toBe(503)
    expect(page.text).toMatch(/not built yet/)
    expect(page.headers['x-content-type-options']).toBe('nosniff')
    const before = bus.sent(HTTP_SUBJECT)
    const health = await call(b, 'GET', '/api/health')
    expect(health.json).toMatchObject({ status: 'healthy' })
    expect(bus.sent(HTTP_SUBJECT)).toBe(before)
  })
})
