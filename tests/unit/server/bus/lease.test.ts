// Leases against a real nats-server. Bounds are stated in lease.ts: a holder renews every ttl/3
// and stops at ttl - ttl/4 without a renewal; contenders retry every ttl/5; takeover within
// ttl + ttl/5 of the last renewal.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { Bus, Lease } from '../../../../src/server/bus/bus.ts'
import { leaseTimings } from '../../../../src/server/bus/lease.ts'
import { connectBus } from '../../../../src/server/bus/nats-bus.ts'
import { natsUnavailable, startNatsServer, type NatsServer } from '../../../support/nats-server.ts'
import { startTcpProxy } from '../../../support/tcp-proxy.ts'
import { quietLog, waitFor } from './bus-helpers.ts'

// One bucket TTL per server (a KV bucket has one max age), so every test uses the same ttl.
const TTL = 3_000
const { retryMs } = leaseTimings(TTL)
/** Scheduling and expiry-timer slack on top of the stated bound (2 shared cores). */
const SLACK = 1_500

describe.skipIf(natsUnavailable())('lease', () => {
  let server: NatsServer
  const cleanup: Array<() => Promise<unknown>> = []
  let n = 0

  beforeAll(async () => {
    server = await startNatsServer()
  })
  afterEach(async () => {
    for (const step of cleanup.splice(0).reverse()) await step().catch(() => undefined)
  })
  afterAll(async () => {
    await server?.dispose()
  })

  const open = async (url = server.url): Promise<Bus> => {
    const bus = await connectBus({ url, name: `lease-${++n}`, log: quietLog })
    cleanup.push(() => bus.close())
    return bus
  }
  const contend = (bus: Bus, key: string, id: string, ttl = TTL): Lease => {
    const lease = bus.lease(key, id, ttl)
    cleanup.push(() => lease.release())
    return lease
  }

  it('gives the lease to exactly one of two contenders', async () => {
    const a = contend(await open(), 'one', 'a')
    const b = contend(await open(), 'one', 'b')
    await waitFor(() => a.held() || b.held(), 'a holder')
    expect(a.held() !== b.held()).toBe(true)
  })

  it('hands over to the standby within ttl + retry once the holder dies', async () => {
    let holderBus: Bus
    const proxy = await startTcpProxy(server.port)
    await open(`nats://127.0.0.1:${proxy.port}`).then((bus) => (holderBus = bus))
    cleanup.push(() => proxy.close())
    const holder = contend(holderBus!, 'dies', 'holder')
    await waitFor(() => holder.held(), 'the holder to win')
    const standby = contend(await open(), 'dies', 'standby')
    // The holder's machine is gone: its connection drops and nothing renews or releases.
    await proxy.close()
    await waitFor(() => standby.held(), 'the standby to take over', TTL + retryMs + SLACK)
  })

  it('times a lease by the bucket TTL when asked for another one', async () => {
    const proxy = await startTcpProxy(server.port)
    const holderBus = await open(`nats://127.0.0.1:${proxy.port}`)
    cleanup.push(() => proxy.close())
    // Asks for a minute, but the bucket (created first) drops keys after TTL.
    const holder = contend(holderBus, 'other-ttl', 'holder', 60_000)
    await waitFor(() => holder.held(), 'the holder to win')
    const events: string[] = []
    holder.onChange((held) => events.push(held ? 'holder won' : 'holder lost'))
    const standby = contend(await open(), 'other-ttl', 'standby', 60_000)
    standby.onChange((held) => held && events.push('standby won'))
    proxy.freeze()
    await waitFor(() => standby.held(), 'the standby to take over', TTL + retryMs + SLACK)
    expect(events).toEqual(['holder lost', 'standby won'])
  })

  it('hands over at once on release', async () => {
    const holder = contend(await open(), 'released', 'holder')
    await waitFor(() => holder.held(), 'the holder to win')
    const standby = contend(await open(), 'released', 'standby')
    await holder.release()
    expect(holder.held()).toBe(false)
    // Well inside the ttl: the standby did not wait for an expiry.
    await waitFor(() => standby.held(), 'the standby after a release', retryMs + SLACK)
  })

  it('makes a partitioned holder stop before a standby can win', async () => {
    const proxy = await startTcpProxy(server.port)
    const holderBus = await open(`nats://127.0.0.1:${proxy.port}`)
    // Closed first (cleanup runs in reverse): a frozen link would hold the lease release.
    cleanup.push(() => proxy.close())
    const holder = contend(holderBus, 'fenced', 'holder')
    await waitFor(() => holder.held(), 'the holder to win')
    const events: string[] = []
    holder.onChange((held) => events.push(held ? 'holder won' : 'holder lost'))
    const standby = contend(await open(), 'fenced', 'standby')
    standby.onChange((held) => held && events.push('standby won'))
    proxy.freeze()
    await waitFor(() => standby.held(), 'the standby to take over', TTL + retryMs + SLACK)
    expect(events).toEqual(['holder lost', 'standby won'])
  })
})
