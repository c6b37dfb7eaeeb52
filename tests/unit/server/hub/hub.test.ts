import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { applyDelta } from '../../../../src/shared/model/delta.ts'
import type { State } from '../../../../src/shared/model/state.ts'
import { makeCollected } from '../collected-fixture.ts'
import { startHubHarness, type HubHarness } from './hub-harness.ts'

const silentLog = { warn: () => {} }
let harness: HubHarness

beforeEach(async () => {
  harness = await startHubHarness(silentLog)
})
afterEach(async () => {
  await harness.close()
})

describe('socket hub', () => {
  it('greets a plain client with welcome and initialState, then full rawData', async () => {
    await harness.live.applyCollected(makeCollected(20, 1))
    const client = await harness.connect()
    await client.waitFor((m) => m.length >= 2)
    expect(client.messages.map((m) => m.type)).toEqual(['welcome', 'initialState'])
    const initial = client.messages[1]!.data as State
    expect(initial.nodes).toHaveLength(2)
    expect(initial.vms.length + initial.containers.length).toBeGreaterThan(0)
    await harness.live.applyCollected(makeCollected(20, 2))
    await client.waitFor((m) => m.length >= 3)
    expect(client.messages[2]!.type).toBe('rawData')
    expect((client.messages[2]!.data as State).stats.pollingCycles).toBe(2)
    client.ws.close()
  })

  it('sends sequence-numbered deltas whose merge equals the published state', async () => {
    await harness.live.applyCollected(makeCollected(50, 1))
    const client = await harness.connect('/ws?deltas=1')
    await client.waitFor((m) => m.length >= 2)
    expect((client.messages[0]!.data as { deltas?: number }).deltas).toBe(1)
    const initial = client.messages[1]!
    expect(initial.type).toBe('initialState')
    let merged = initial.data as State
    let seq = initial.seq!
    for (let tick = 2; tick <= 9; tick++) {
      harness.clock.now += 10_000
      await harness.live.applyCollected(makeCollected(50, tick))
    }
    await client.waitFor((m) => m.filter((x) => x.type === 'delta').length >= 8)
    for (const msg of client.messages.filter((m) => m.type === 'delta')) {
      expect(msg.seq).toBe(seq + 1)
      seq = msg.seq!
      merged = applyDelta(merged, msg.data as never)
    }
    const published = harness.live.current()
    expect(seq).toBe(published.seq)
    const byId = (s: State) => ({
      ...s,
      vms: [...s.vms].sort((a, b) => a.id.localeCompare(b.id)),
      containers: [...s.containers].sort((a, b) => a.id.localeCompare(b.id)),
    })
    expect(byId(merged)).toEqual(byId(JSON.parse(JSON.stringify(published.state)) as State))
    client.ws.close()
  })

  it('answers ping with pong, resync with a full state, and ignores malformed messages', async () => {
    await harness.live.applyCollected(makeCollected(5, 1))
    const client = await harness.connect('/ws?deltas=1')
    await client.waitFor((m) => m.length >= 2)
    client.ws.send('{not json')
    client.ws.send(JSON.stringify({ noType: true }))
    client.ws.send(JSON.stringify({ type: 'ping', data: { timestamp: 1 } }))
    await client.waitFor((m) => m.some((x) => x.type === 'pong'))
    client.ws.send(JSON.stringify({ type: 'resync' }))
    await client.waitFor((m) => m.filter((x) => x.type === 'initialState').length === 2)
    expect(client.ws.readyState).toBe(WebSocket.OPEN)
    expect(client.messages.at(-1)!.seq).toBe(harness.live.current().seq)
    client.ws.close()
  })

  it('skips a stalled client without holding up the others, then drops it', async () => {
    await harness.close()
    harness = await startHubHarness(silentLog, { highWaterBytes: 256 * 1024, stallLimitMs: 30_000 })
    await harness.live.applyCollected(makeCollected(200, 1, 400))
    const slow = await harness.connect('/ws?deltas=1')
    const fast = await harness.connect('/ws?deltas=1')
    await slow.waitFor((m) => m.length >= 2)
    // Stop reading on the slow client's TCP socket: the server's send queue for it grows.
    ;(slow.ws as unknown as { _socket: { pause(): void } })._socket.pause()
    let maxQueued = 0
    for (let tick = 2; tick < 120; tick++) {
      harness.clock.now += 100
      await harness.live.applyCollected(makeCollected(200, tick, 400))
      await new Promise((resolve) => setImmediate(resolve))
      for (const s of harness.hub.clientStats()) maxQueued = Math.max(maxQueued, s.bufferedAmount)
    }
    await fast.waitFor((m) => m.filter((x) => x.type === 'delta').length >= 118)
    // Bounded: at most the high-water mark plus one full frame (~200 guests x ~1 KB).
    expect(maxQueued).toBeLessThan(256 * 1024 + 1024 * 1024)
    expect(maxQueued).toBeGreaterThan(256 * 1024)
    expect(
      harness.hub.clientStats().filter((s) => s.seq !== harness.live.current().seq),
    ).toHaveLength(1)
    harness.clock.now += 31_000
    await harness.live.applyCollected(makeCollected(200, 99, 400))
    expect(harness.hub.clientCount()).toBe(1)
    fast.ws.close()
    slow.ws.terminate()
  })
})
