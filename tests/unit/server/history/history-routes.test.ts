// GET /api/history/:resourceId and GET /api/history over real HTTP on 127.0.0.1, with
// authentication on: a session is required, bad input is a 400 naming the parameter, an unknown
// resource a 404 naming resourceId. The app's own poller reads the RRD through its client for the
// endpoint; Proxmox is a real HTTPS stub on 127.0.0.1 scripted per test
// (history-sim.test.ts runs against the simulator).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { HistoryAnswer, HistoryBatchAnswer } from '../../../../src/shared/model/history.ts'
import { HISTORY_BATCH_MAX } from '../../../../src/shared/model/history.ts'
import type { Storage } from '../../../../src/shared/model/state.ts'
import {
  quickSetup,
  startAuthServer,
  type AuthTestServer,
  type Credentials,
} from '../auth/auth-helpers.ts'
import { makeCollected } from '../collected-fixture.ts'
import { createTestCert, startStubPve, type StubPve } from '../collect/stub-pve.ts'
import { makeStorage, monthRows, NODE_HOUR, recorded } from './history-fixture.ts'

// The recorded node hour ends at 1785169080; the app's clock is a minute later.
const NOW_MS = 1_785_169_140_000

/** A storage filling 10 GB a day, 605 GB used now of 1 TB: full in 39 days. */
const fillingMonth = () => monthRows(NOW_MS / 1000, (day) => 605e9 + day * 10e9)
const LOCAL = makeStorage('pve1', 'local')

let stub: StubPve
let server: AuthTestServer
let creds: Credentials

beforeAll(async () => {
  stub = await startStubPve(await createTestCert(), (req) => ({
    body: {
      data: req.path.includes('/storage/')
        ? fillingMonth()
        : req.path.includes('/rrddata')
          ? recorded(NODE_HOUR)
          : [],
    },
  }))
  server = await startAuthServer({}, { now: () => NOW_MS })
  creds = await quickSetup(server)
  const { app } = server.ctx
  app.nodes.add({
    type: 'pve',
    name: 'lab',
    host: stub.url,
    tokenName: 'pulse@pve!history',
    tokenValue: 'deadbeef-dead-beef-dead-beefdeadbeef',
    verifySSL: false,
  })
  await app.poller.pollNow()
  await app.live.applyCollected({ ...makeCollected(40, 0), storage: [LOCAL] })
})
afterAll(async () => {
  await server?.close()
  await stub?.close()
})

const get = (path: string) => server.call('GET', path, { cookies: creds.cookies })

describe('GET /api/history/:resourceId', () => {
  it('requires a session', async () => {
    expect((await server.call('GET', '/api/history/lab-pve1?range=1h')).status).toBe(401)
    expect((await server.call('GET', '/api/history?id=lab-pve1')).status).toBe(401)
  })

  it("answers a node's hour from its RRD, read through the poller's client", async () => {
    stub.requests.length = 0
    const res = await get('/api/history/lab-pve1?range=1h&metrics=cpu,memory')
    expect(res.status).toBe(200)
    const answer = res.json as HistoryAnswer
    expect(answer).toMatchObject({
      resourceId: 'lab-pve1',
      range: '1h',
      stepSeconds: 60,
      source: 'proxmox',
    })
    expect(Object.keys(answer.series).sort()).toEqual(['cpu', 'memory'])
    const first = recorded(NODE_HOUR)[0] as Record<string, number>
    expect(answer.series.cpu!.time[0]).toBe(first.time)
    expect(answer.series.cpu!.avg[0]).toBeCloseTo(first.cpu! * 100, 10)
    expect(stub.requests.map((r) => r.path).sort()).toEqual([
      '/api2/json/nodes/pve1/rrddata?timeframe=hour&cf=AVERAGE',
      '/api2/json/nodes/pve1/rrddata?timeframe=hour&cf=MAX',
    ])
    // The second time from the cache: no call.
    expect((await get('/api/history/lab-pve1?range=1h')).status).toBe(200)
    expect(stub.requests).toHaveLength(2)
  })

  it('answers 400 naming range or metrics, and 404 naming resourceId', async () => {
    const cases: [string, number, RegExp][] = [
      ['/api/history/lab-pve1', 400, /^range: must be one of 1h, 6h, 24h, 7d, 30d, 1y/],
      ['/api/history/lab-pve1?range=2h', 400, /^range: /],
      ['/api/history/lab-pve1?range=1h&metrics=cpu,bogus', 400, /^metrics: "bogus" is not/],
      ['/api/history/lab-pve1?range=1h&metrics=usage', 400, /^metrics: a node has no metric/],
      ['/api/history/no-such-thing?range=1h', 404, /^resourceId: no-such-thing /],
    ]
    for (const [path, status, message] of cases) {
      const res = await get(path)
      expect(res.status, path).toBe(status)
      expect(res.json?.message, path).toMatch(message)
    }
  })
})

describe('GET /api/history (batch)', () => {
  it('answers the known ids in the order asked and leaves the others out', async () => {
    const res = await get('/api/history?id=lab-pve1&id=nope&id=lab-pve2&range=1h&metrics=cpu')
    expect(res.status).toBe(200)
    const batch = res.json as HistoryBatchAnswer
    expect(batch.range).toBe('1h')
    expect(batch.items.map((i) => i.resourceId)).toEqual(['lab-pve1', 'lab-pve2'])
    expect(Object.keys(batch.items[0]!.series)).toEqual(['cpu'])
  })

  it('answers 400 naming id when none or too many are given', async () => {
    const none = await get('/api/history?range=1h')
    expect(none.status).toBe(400)
    expect(none.json?.message).toMatch(/^id: /)
    const many = Array.from({ length: HISTORY_BATCH_MAX + 1 }, (_, i) => `id=g${i}`).join('&')
    const tooMany = await get(`/api/history?${many}&range=1h`)
    expect(tooMany.status).toBe(400)
    expect(tooMany.json?.message).toMatch(new RegExp(`^id: at most ${HISTORY_BATCH_MAX}`))
    const badRange = await get('/api/history?id=lab-pve1&range=forever')
    expect(badRange.json?.message).toMatch(/^range: /)
  })
})

describe('storage forecast on the published state', () => {
  it('puts "full in N days" on the storage the clients receive', async () => {
    const { app } = server.ctx
    await app.historySource.forecasts.tick()
    const publication = await app.live.republish()
    const [local] = publication.state.storage
    expect(local?.forecast).toMatchObject({ fullInDays: 39, computedAt: NOW_MS })
    expect(local!.forecast!.r2).toBeGreaterThan(0.99)
    const res = await server.call('GET', '/api/state?format=internal', { cookies: creds.cookies })
    expect((res.json as { storage: Storage[] }).storage[0]!.forecast?.fullInDays).toBe(39)
  })
})
