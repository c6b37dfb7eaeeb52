// A collector's LiveState replicated to a web node over a real nats-server: late start, lost
// messages, a collector restart, events in order, staleness. max_payload is small so deltas and
// snapshots are chunked.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { Bus } from '../../../../src/server/bus/bus.ts'
import {
  createLivePublisher,
  type LivePublisher,
} from '../../../../src/server/bus/live-publisher.ts'
import {
  createLiveReplica,
  STALE_ERROR,
  type LiveReplica,
} from '../../../../src/server/bus/live-replica.ts'
import { connectBus } from '../../../../src/server/bus/nats-bus.ts'
import { createLiveState, type LiveState } from '../../../../src/server/live/live-state.ts'
import type { State } from '../../../../src/shared/model/state.ts'
import { natsUnavailable, startNatsServer, type NatsServer } from '../../../support/nats-server.ts'
import { makeCollected } from '../collected-fixture.ts'
import { canonical, quietLog, waitFor } from './bus-helpers.ts'

const GUESTS = 300

describe.skipIf(natsUnavailable())('live replication', () => {
  let server: NatsServer
  let collectorBus: Bus
  let webBus: Bus
  const stops: Array<() => void> = []

  beforeAll(async () => {
    server = await startNatsServer({ maxPayload: 16 * 1024 })
    collectorBus = await connectBus({ url: server.url, name: 'collector', log: quietLog })
    webBus = await connectBus({ url: server.url, name: 'web', log: quietLog })
  })
  afterEach(() => {
    for (const stop of stops.splice(0)) stop()
  })
  afterAll(async () => {
    await collectorBus?.close()
    await webBus?.close()
    await server?.dispose()
  })

  let tick = 0
  const poll = (live: LiveState) => live.applyCollected(makeCollected(GUESTS, ++tick))

  const startCollector = async (id: string, bus: Bus = collectorBus) => {
    const live = createLiveState({ now: Date.now, version: 'test', clientCount: () => 0 })
    const publisher = createLivePublisher({ bus, live, collectorId: id, log: quietLog })
    stops.push(() => publisher.stop())
    await publisher.ready
    return { live, publisher }
  }

  const startReplica = (options: { staleAfterMs?: number } = {}) => {
    const states: State[] = []
    const events: Array<{ type: string; data: unknown; seq: number }> = []
    const replica: LiveReplica = createLiveReplica({
      bus: webBus,
      onState: (state) => states.push(state),
      onEvent: (type, data) => events.push({ type, data, seq: replica.status().seq }),
      retryMs: 50,
      log: quietLog,
      ...options,
    })
    stops.push(() => replica.stop())
    return { replica, states, events }
  }

  const converged = async (replica: LiveReplica, live: LiveState, publisher: LivePublisher) => {
    await publisher.flushed()
    await waitFor(
      () =>
        replica.status().epoch === publisher.epoch && replica.status().seq === live.current().seq,
      `the replica at seq ${live.current().seq}`,
    )
    expect(canonical(replica.state())).toEqual(canonical(live.current().state))
  }

  it('brings a replica started late to the collector state, then follows its deltas', async () => {
    const { live, publisher } = await startCollector('c1')
    for (let i = 0; i < 3; i++) await poll(live)
    const { replica, states } = startReplica()
    await converged(replica, live, publisher)
    const resyncs = replica.status().resyncs
    for (let i = 0; i < 4; i++) await poll(live)
    await converged(replica, live, publisher)
    expect(replica.status()).toMatchObject({ connected: true, stale: false, resyncs })
    expect(states.at(-1)).toBe(replica.state())
  })

  it('waits for a collector when none serves yet, then synchronises', async () => {
    const { replica } = startReplica()
    await waitFor(() => replica.status().resyncs >= 2, 'a retry without a collector')
    expect(replica.status().connected).toBe(false)
    const { live, publisher } = await startCollector('c0')
    await poll(live)
    await converged(replica, live, publisher)
  })

  it('takes a snapshot after a lost message and converges', async () => {
    let drop = false
    const lossy: Bus = {
      ...collectorBus,
      publishLive: (message) => {
        if (!drop) return collectorBus.publishLive(message)
        drop = false
        return Promise.resolve()
      },
    }
    const { live, publisher } = await startCollector('c2', lossy)
    await poll(live)
    const { replica } = startReplica()
    await converged(replica, live, publisher)
    const resyncs = replica.status().resyncs
    drop = true
    await poll(live)
    await poll(live)
    await converged(replica, live, publisher)
    expect(replica.status().resyncs).toBe(resyncs + 1)
  })

  it('takes a snapshot when the collector restarts (new epoch)', async () => {
    const first = await startCollector('c3')
    await poll(first.live)
    const { replica } = startReplica()
    await converged(replica, first.live, first.publisher)
    first.publisher.stop()

    const second = await startCollector('c3')
    expect(second.publisher.epoch).not.toBe(first.publisher.epoch)
    await poll(second.live)
    await poll(second.live)
    await converged(replica, second.live, second.publisher)
  })

  it('delivers events in order with the deltas around them', async () => {
    const { live, publisher } = await startCollector('c4')
    await poll(live)
    const { replica, events } = startReplica()
    await converged(replica, live, publisher)
    const seqs: number[] = []
    for (let i = 0; i < 3; i++) {
      seqs.push((await poll(live)).seq)
      publisher.publishEvent('settingsUpdate', { n: i })
      publisher.publishEvent('node_deleted', { id: `n${i}` })
    }
    await converged(replica, live, publisher)
    // The last events are stored after the last delta: the replica may apply that delta first.
    await waitFor(() => events.length >= 6, 'the six events')
    // Each event arrives once the delta before it was applied, and no gap was seen.
    expect(events).toEqual(
      seqs.flatMap((seq, i) => [
        { type: 'settingsUpdate', data: { n: i }, seq },
        { type: 'node_deleted', data: { id: `n${i}` }, seq },
      ]),
    )
    expect(replica.status().resyncs).toBe(1)
  })

  it('recovers from a nats-server restart and converges again', async () => {
    const { live, publisher } = await startCollector('c6')
    await poll(live)
    const { replica } = startReplica()
    await converged(replica, live, publisher)
    await server.restart()
    await poll(live)
    await poll(live)
    await converged(replica, live, publisher)
  })

  it('shows the data as stale when no collector publishes, and live again when one does', async () => {
    const { live, publisher } = await startCollector('c5')
    await poll(live)
    const { replica, states } = startReplica({ staleAfterMs: 300 })
    await converged(replica, live, publisher)
    publisher.stop()
    await waitFor(() => replica.status().stale, 'the replica to report stale')
    expect(states.at(-1)!.connectionHealth).toEqual({ lab: false })
    expect(states.at(-1)!.connectionErrors).toEqual({ lab: STALE_ERROR })

    const next = await startCollector('c5')
    await poll(next.live)
    await converged(replica, next.live, next.publisher)
    expect(replica.status().stale).toBe(false)
    expect(states.at(-1)!.connectionHealth).toEqual({ lab: true })
  })
})
