// The publisher against a bus that fails or hangs: the poll loop never waits for NATS, and an
// outage is logged once. (Replication over a real nats-server is in replication.test.ts.)
import { describe, expect, it } from 'vitest'
import type { Bus, LiveMessage } from '../../../../src/server/bus/bus.ts'
import { createLivePublisher } from '../../../../src/server/bus/live-publisher.ts'
import { createLiveState } from '../../../../src/server/live/live-state.ts'
import { makeCollected } from '../collected-fixture.ts'

function fakeBus(publishLive: (message: LiveMessage) => Promise<void>): Bus {
  const unused = () => Promise.reject(new Error('not used'))
  return {
    publishLive,
    consumeLive: () => ({ stop: () => undefined }),
    lastLiveSeq: () => Promise.resolve(0),
    serve: () => ({ stop: () => undefined, ready: Promise.resolve() }),
    request: unused,
    lease: () => {
      throw new Error('not used')
    },
    connected: () => true,
    close: () => Promise.resolve(),
  }
}

function setup(bus: Bus) {
  const warnings: string[] = []
  const infos: string[] = []
  const log = {
    info: (_: object, msg: string) => infos.push(msg),
    warn: (_: object, msg: string) => warnings.push(msg),
  }
  const live = createLiveState({ now: Date.now, version: 'test', clientCount: () => 0 })
  const publisher = createLivePublisher({ bus, live, collectorId: 'c', log, heartbeatMs: 60_000 })
  return { live, publisher, warnings, infos }
}

describe('live publisher', () => {
  it('does not hold the poll loop while the bus hangs', async () => {
    const { live, publisher } = setup(fakeBus(() => new Promise<void>(() => undefined)))
    for (let tick = 1; tick <= 3; tick++) await live.applyCollected(makeCollected(10, tick))
    expect(live.current().seq).toBe(3)
    publisher.stop()
  })

  it('drops messages while NATS is down, logging the outage once and its end once', async () => {
    let up = false
    const sent: LiveMessage[] = []
    const bus = fakeBus(async (message) => {
      if (!up) throw new Error('CONNECTION_REFUSED')
      sent.push(message)
    })
    const { live, publisher, warnings, infos } = setup(bus)
    for (let tick = 1; tick <= 3; tick++) await live.applyCollected(makeCollected(10, tick))
    publisher.publishEvent('settingsUpdate', {})
    await publisher.flushed()
    expect(warnings).toEqual(['live publishing failed; dropping until NATS returns'])
    up = true
    await live.applyCollected(makeCollected(10, 4))
    publisher.publishEvent('node_deleted', { id: 'n' })
    await publisher.flushed()
    expect(infos).toEqual(['live publishing resumed'])
    // Deltas carry their publication seq; the event after delta 4 carries 4 too.
    expect(sent.map((m) => [m.kind, m.seq, m.epoch])).toEqual([
      ['delta', 4, publisher.epoch],
      ['event', 4, publisher.epoch],
    ])
    publisher.stop()
  })
})
