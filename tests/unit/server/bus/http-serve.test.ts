// The collector side on its own, asked over the bus directly: an envelope without a valid client
// address is refused rather than run as if it came from 127.0.0.1 (which the rate limits
// exempt), and the /ws rate limit counts the envelope's client address. The documentation
// addresses (203.0.113.0/24) below are only strings in envelopes: nothing is sent to them.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  decodeFrame,
  encodeFrame,
  HTTP_SUBJECT,
  WS_ADMIT_SUBJECT,
  type ForwardedResponse,
  type WsAdmission,
} from '../../../../src/server/bus/http-envelope.ts'
import { createLocalBus, startCollector, type Collector, type LocalBus } from './web-nodes.ts'

let bus: LocalBus
let collector: Collector
beforeEach(async () => {
  bus = createLocalBus()
  collector = await startCollector(bus)
})
afterEach(async () => {
  await collector.stop()
  await bus.close()
})

async function ask(head: object): Promise<{ head: ForwardedResponse; body: string }> {
  const answer = decodeFrame<ForwardedResponse>(
    await bus.request(HTTP_SUBJECT, encodeFrame(head), 5_000),
  )
  return { head: answer.head, body: answer.body.toString('utf8') }
}

describe('serveForwardedHttp', () => {
  it('answers a well-formed envelope from the app', async () => {
    const res = await ask({ method: 'GET', url: '/api/version', headers: {}, remoteAddress: '::1' })
    expect(res.head.status).toBe(200)
    expect(JSON.parse(res.body)).toMatchObject({ version: '0.0.0-test' })
  })

  it('refuses an envelope without a valid client address', async () => {
    for (const remoteAddress of [undefined, '', 'web-node-1']) {
      const res = await ask({ method: 'GET', url: '/api/version', headers: {}, remoteAddress })
      expect(res.head.status).toBe(500)
      expect(JSON.parse(res.body)).toMatchObject({ code: 'INTERNAL' })
    }
  })

  it('counts the /ws rate limit per client address of the admission', async () => {
    const admit = async (remoteAddress: string) =>
      decodeFrame<WsAdmission>(
        await bus.request(
          WS_ADMIT_SUBJECT,
          encodeFrame({ url: '/ws', headers: {}, remoteAddress }),
          5_000,
        ),
      ).head
    for (let i = 0; i < 20; i++) {
      expect(await admit('203.0.113.5')).toMatchObject({ admitted: false, status: 401 })
    }
    const limited = await admit('203.0.113.5')
    expect(limited).toMatchObject({ admitted: false, status: 429 })
    expect(limited.admitted === false && limited.headers['retry-after']).toBeTruthy()
    expect(await admit('203.0.113.6')).toMatchObject({ admitted: false, status: 401 })
  })
})
