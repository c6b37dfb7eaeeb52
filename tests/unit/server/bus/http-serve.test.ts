// The collector side on its own: an envelope without a valid client address is refused rather
// than run as if it came from 127.0.0.1 (which the rate limits exempt).
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  decodeFrame,
  encodeFrame,
  HTTP_SUBJECT,
  type ForwardedResponse,
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
})
