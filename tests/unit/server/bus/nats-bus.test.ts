import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Bus, LiveMessage } from '../../../../src/server/bus/bus.ts'
import { connectBus } from '../../../../src/server/bus/nats-bus.ts'
import { natsUnavailable, startNatsServer, type NatsServer } from '../../../support/nats-server.ts'
import { patterned, quietLog, waitFor } from './bus-helpers.ts'

const MAX_PAYLOAD = 64 * 1024

describe.skipIf(natsUnavailable())('NATS bus', () => {
  let server: NatsServer
  let a: Bus
  let b: Bus

  beforeAll(async () => {
    server = await startNatsServer({ maxPayload: MAX_PAYLOAD })
    a = await connectBus({ url: server.url, name: 'test-a', log: quietLog })
    b = await connectBus({ url: server.url, name: 'test-b', log: quietLog })
  })
  afterAll(async () => {
    await a?.close()
    await b?.close()
    await server?.dispose()
  })

  it('carries a live message larger than max_payload whole, and resumes after a position', async () => {
    const start = await b.lastLiveSeq()
    const got: { message: LiveMessage; streamSeq: number }[] = []
    const consumer = b.consumeLive(start, (message, streamSeq) => got.push({ message, streamSeq }))
    const big = patterned(5 * MAX_PAYLOAD + 123)
    await a.publishLive({ epoch: 'e1', seq: 1, kind: 'delta', body: big })
    await a.publishLive({ epoch: 'e1', seq: 2, kind: 'event', body: patterned(10) })
    await waitFor(() => got.length === 2, 'two live messages')
    consumer.stop()
    const { body, ...meta } = got[0]!.message
    expect(meta).toEqual({ epoch: 'e1', seq: 1, kind: 'delta' })
    expect(Buffer.compare(body, big)).toBe(0)
    expect(got[1]!.message.kind).toBe('event')
    expect(got[1]!.streamSeq).toBeGreaterThan(got[0]!.streamSeq)

    // Resuming after the first message's position yields exactly the second one.
    const resumed: LiveMessage[] = []
    const again = b.consumeLive(got[0]!.streamSeq, (message) => resumed.push(message))
    await a.publishLive({ epoch: 'e1', seq: 3, kind: 'delta', body: patterned(3) })
    await waitFor(() => resumed.length === 2, 'the messages after the position')
    again.stop()
    expect(resumed.map((m) => m.seq)).toEqual([2, 3])
  })

  it('answers a request with a reply far larger than max_payload, both ways', async () => {
    const answer = patterned(3 * 1024 * 1024 + 5)
    const service = a.serve('pulse.test.big', async (request) => {
      expect(request.length).toBe(200_000)
      return answer
    })
    await service.ready
    const reply = await b.request('pulse.test.big', patterned(200_000), 10_000)
    service.stop()
    // Byte comparison: a deep equal over 3 MB element by element takes seconds.
    expect(Buffer.compare(reply, answer)).toBe(0)
  })

  it('passes a handler error back to the requester', async () => {
    const service = a.serve('pulse.test.fail', () => Promise.reject(new Error('database locked')))
    await service.ready
    await expect(b.request('pulse.test.fail', new Uint8Array(1), 5_000)).rejects.toThrow(
      /database locked/,
    )
    service.stop()
  })

  it('says when no one serves a subject, and when no one answers in time', async () => {
    await expect(b.request('pulse.test.nobody', new Uint8Array(1), 5_000)).rejects.toThrow(
      /no responders/,
    )
    const service = a.serve('pulse.test.slow', () => new Promise<Uint8Array>(() => undefined))
    await service.ready
    await expect(b.request('pulse.test.slow', new Uint8Array(1), 200)).rejects.toThrow(
      'No collector answered pulse.test.slow within 200 ms',
    )
    service.stop()
  })

  it('names the URL when the connection is refused', async () => {
    const url = `nats://127.0.0.1:${server.port + 1}`
    await expect(connectBus({ url, name: 'refused', log: quietLog })).rejects.toThrow(url)
  })
})
