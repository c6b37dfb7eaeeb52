// The forwarding plugin against a stand-in collector on the local bus: what goes into the
// envelope (no hop-by-hop headers, the raw body, the client address), what comes back, and a
// bounded wait when no collector answers.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  decodeFrame,
  encodeFrame,
  HTTP_SUBJECT,
  type ForwardedRequest,
  type ForwardedResponse,
} from '../../../../src/server/bus/http-envelope.ts'
import { call, createLocalBus, startWebNode, type LocalBus, type WebNode } from './web-nodes.ts'

let bus: LocalBus
let web: WebNode
beforeEach(async () => {
  bus = createLocalBus()
  web = await startWebNode(bus, { timeoutMs: () => 300 })
})
afterEach(async () => {
  await web.app.close()
  await bus.close()
})

/** A collector stand-in that records each envelope and answers `response`. */
function echoCollector(response: ForwardedResponse, body = '') {
  const seen: Array<{ head: ForwardedRequest; body: Buffer }> = []
  bus.serve(HTTP_SUBJECT, async (frame) => {
    seen.push(decodeFrame<ForwardedRequest>(frame))
    return encodeFrame(response, Buffer.from(body))
  })
  return seen
}

describe('forwarding envelope', () => {
  it("marks its own /api/health as a demo once the collector's answers say so", async () => {
    expect((await call(web, 'GET', '/api/health')).headers['x-demo-mode']).toBeUndefined()
    echoCollector({ status: 200, headers: { 'content-type': 'text/html', 'x-demo-mode': 'true' } })
    await call(web, 'GET', '/')
    expect((await call(web, 'GET', '/api/health')).headers['x-demo-mode']).toBe('true')
  })

  it('strips hop-by-hop headers both ways and keeps the end-to-end ones', async () => {
    const seen = echoCollector(
      {
        status: 201,
        headers: {
          'content-type': 'application/json; charset=utf-8',
          'set-cookie': ['one=1; Path=/', 'two=2; Path=/; HttpOnly'],
          'keep-alive': 'timeout=99',
          'proxy-authenticate': 'Basic',
          'x-collector': 'yes',
        },
      },
      '{"ok":true}',
    )
    const res = await call(web, 'PUT', '/api/some/thing?x=1', {
      from: '127.0.0.4',
      headers: {
        connection: 'keep-alive, x-private-hop',
        'x-private-hop': 'secret',
        'keep-alive': 'timeout=5',
        te: 'trailers',
        'proxy-authorization': 'Basic Zm9vOmJhcg==',
        cookie: 'pulse_session=abc',
        'x-csrf-token': 'tok',
        origin: 'https://pulse.example.com',
        'user-agent': 'test-agent',
      },
      raw: Buffer.from([0, 1, 2, 255]),
    })
    expect(res.status).toBe(201)
    expect(res.json).toEqual({ ok: true })
    expect(res.setCookies).toEqual(['one=1; Path=/', 'two=2; Path=/; HttpOnly'])
    expect(res.headers['x-collector']).toBe('yes')
    expect(res.headers['proxy-authenticate']).toBeUndefined()
    expect(res.headers['keep-alive']).not.toBe('timeout=99')

    const [sent] = seen
    expect(sent!.head).toMatchObject({ method: 'PUT', url: '/api/some/thing?x=1' })
    expect(sent!.head.remoteAddress).toBe('127.0.0.4')
    expect(sent!.head.headers).toMatchObject({
      cookie: 'pulse_session=abc',
      'x-csrf-token': 'tok',
      origin: 'https://pulse.example.com',
      'user-agent': 'test-agent',
      host: `127.0.0.1:${web.port}`,
    })
    for (const hop of [
      'connection',
      'x-private-hop',
      'keep-alive',
      'te',
      'proxy-authorization',
      'content-length',
      'transfer-encoding',
    ]) {
      expect(sent!.head.headers[hop], hop).toBeUndefined()
    }
    expect([...sent!.body]).toEqual([0, 1, 2, 255])
  })

  it('answers 503 COLLECTOR_UNAVAILABLE when the collector does not answer in time', async () => {
    let asked = 0
    bus.serve(HTTP_SUBJECT, () => {
      asked++
      return new Promise<Uint8Array>(() => {})
    })
    const res = await call(web, 'GET', '/api/alerts/active')
    expect(asked).toBe(1)
    expect(res.status).toBe(503)
    expect(res.headers['retry-after']).toBe('5')
    expect(res.json).toEqual({
      code: 'COLLECTOR_UNAVAILABLE',
      message: 'No active collector answered this web node (no answer within 0.3 s); retry shortly',
    })
  })

  it('answers 503 at once when no collector serves the subject', async () => {
    const res = await call(web, 'POST', '/api/login', { body: { username: 'a', password: 'b' } })
    expect(res.status).toBe(503)
    expect(res.json).toMatchObject({
      code: 'COLLECTOR_UNAVAILABLE',
      message: 'No active collector answered this web node (none is running); retry shortly',
    })
  })

  it('answers a page load with a page that says so and retries, not raw JSON', async () => {
    const res = await call(web, 'GET', '/settings/system', { headers: { accept: 'text/html' } })
    expect(res.status).toBe(503)
    expect(res.headers['content-type']).toMatch(/^text\/html/)
    expect(res.text).toContain('Pulse is waiting for its collector')
    expect(res.text).toContain('(none is running)')
    expect(res.text).toContain('<meta http-equiv="refresh" content="5">')
    // API calls keep the JSON error whatever they accept.
    const api = await call(web, 'GET', '/api/alerts/active', { headers: { accept: 'text/html' } })
    expect(api.json).toMatchObject({ code: 'COLLECTOR_UNAVAILABLE' })
  })
})
