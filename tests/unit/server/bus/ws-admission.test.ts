// /ws on a web node: the collector's guard decides (cookie, Origin rule), the web node upgrades
// and hands the socket with the collector's answer (who the user is) to its own hub.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { ADMISSION_HEADER } from '../../../../src/server/bus/ws-admission.ts'
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
let web: WebNode
let cookie: string
let apiToken: string
let username: string

beforeEach(async () => {
  bus = createLocalBus()
  collector = await startCollector(bus)
  // The hub stand-in: greets an admitted socket with what the collector said about it.
  web = await startWebNode(bus, {
    admitTimeoutMs: 1_000,
    onSocket: (socket, { admission, query }) => {
      socket.send(JSON.stringify({ type: 'admitted', admission, deltas: query.deltas }))
    },
  })
  const setup = await call(web, 'POST', '/api/security/quick-setup', { body: {} })
  expect(setup.status).toBe(200)
  apiToken = setup.json.apiToken
  username = setup.json.username
  cookie = `pulse_session=${setup.cookies.pulse_session}; pulse_csrf=${setup.cookies.pulse_csrf}`
})
afterEach(async () => {
  await web.app.close()
  await collector.stop()
  await bus.close()
})

type Opened = { status: number; first?: { type: string; admission: object; deltas?: string } }

/** Open /ws on the web node: the first message, or the HTTP status of a refusal. */
function open(headers: Record<string, string>, query = ''): Promise<Opened> {
  const url = web.base.replace('http', 'ws') + '/ws' + query
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers })
    ws.once('unexpected-response', (_req, res) => {
      resolve({ status: res.statusCode ?? 0 })
      ws.terminate()
    })
    ws.once('message', (data) => {
      resolve({ status: 101, first: JSON.parse(String(data)) as Opened['first'] })
      ws.close()
    })
    ws.once('error', reject)
  })
}

describe('/ws admission through a web node', () => {
  it('admits a session cookie from the same host and says who it is', async () => {
    const res = await open({ cookie, origin: web.base }, '?deltas=2')
    expect(res).toEqual({
      status: 101,
      first: {
        type: 'admitted',
        admission: {
          admitted: true,
          username,
          method: 'session',
          isAdmin: true,
          owner: { localUser: username, sessionIdHash: expect.stringMatching(/^[0-9a-f]{64}$/) },
        },
        deltas: '2',
      },
    })
  })

  it('admits an API token without an Origin, as the collector does', async () => {
    const res = await open({ 'x-api-token': apiToken })
    expect(res.first?.admission).toMatchObject({ admitted: true, method: 'token' })
  })

  it('refuses without credentials (401) and from a foreign Origin (403)', async () => {
    expect(await open({ origin: web.base })).toEqual({ status: 401 })
    expect(await open({ cookie, origin: 'https://evil.example.net' })).toEqual({ status: 403 })
  })

  it('answers 503 when no collector answers the admission', async () => {
    await collector.stop()
    expect(await open({ cookie, origin: web.base })).toEqual({ status: 503 })
    collector = await startCollector(bus)
  })

  it('does not let a browser forge an admission replay', async () => {
    const res = await call(web, 'GET', '/ws', {
      headers: { cookie, origin: web.base, [ADMISSION_HEADER]: 'guess' },
    })
    expect(res.status).toBe(404)
  })
})
