// Delta mode 2 end to end: the real hub on a real socket, frames fed to the worker's real store.
// The first load comes in chunks, guest metrics in a binary frame; the store must equal the state.
import { afterEach, describe, expect, it } from 'vitest'
import { parseServerMessage } from '../../../../src/worker/parse-message.ts'
import { createStateStore, type StateStore } from '../../../../src/worker/store.ts'
import type { State } from '../../../../src/shared/model/state.ts'
import { makeCollected } from '../collected-fixture.ts'
import { startHubHarness, type HubHarness, type TestClient } from './hub-harness.ts'

const silentLog = { warn: () => {} }
/** Small chunks, so that a few hundred guests make a load of many chunks. */
const CHUNK_ROWS = 40
let harness: HubHarness | undefined

afterEach(async () => {
  await harness?.close()
  harness = undefined
})

/** Feed every frame received so far (from `from`) to `store`, as the worker's socket does. */
function feed(client: TestClient, store: StateStore, from: number): number {
  for (let i = from; i < client.messages.length; i++) {
    const msg = client.messages[i]!
    const frame = msg.type === 'binary' ? msg.data : JSON.stringify(msg)
    const parsed = parseServerMessage(frame)
    if (!parsed.ok) throw new Error(parsed.reason)
    const m = parsed.message
    if (m.type === 'snapshot') store.beginLoad(m.seq, m.data, m.counts, m.partial)
    else if (m.type === 'snapshotChunk') store.applyChunk(m.seq, m.key, m.rows, m.slots)
    else if (m.type === 'snapshotEnd') expect(store.endLoad(m.seq)).toBe(true)
    else if (m.type === 'delta') {
      expect(store.applyDelta(m.data, m.seq, m.metrics).outcome).toBe('applied')
    } else if (m.type === 'metrics') expect(store.applyMetrics(m.frame).outcome).toBe('applied')
  }
  return client.messages.length
}

const byId = <T extends { id: string }>(rows: readonly T[]) =>
  [...rows].sort((a, b) => a.id.localeCompare(b.id))

function expectSameGuests(store: StateStore, state: State) {
  const plain = JSON.parse(JSON.stringify(state)) as State
  const held = store.toState()
  expect(byId(held.vms)).toEqual(byId(plain.vms))
  expect(byId(held.containers)).toEqual(byId(plain.containers))
  expect(held.nodes).toEqual(plain.nodes)
}

describe('socket hub, delta mode 2', () => {
  it('loads in chunks, then merges JSON deltas and binary metrics frames into the published state', async () => {
    harness = await startHubHarness(silentLog, { chunkRows: CHUNK_ROWS })
    const guests = CHUNK_ROWS * 5 + 10
    await harness.live.applyCollected(makeCollected(guests, 1))
    const client = await harness.connect('/ws?deltas=2')
    await client.waitFor((m) => m.some((x) => x.type === 'snapshotEnd'))
    const types = client.messages.map((m) => m.type)
    expect(types[0]).toBe('welcome')
    expect((client.messages[0]!.data as { deltas?: number }).deltas).toBe(2)
    expect(types[1]).toBe('snapshot')
    // More guests than one chunk holds: several chunks, none larger than the chunk size.
    const chunks = client.messages.filter((m) => m.type === 'snapshotChunk')
    expect(chunks.length).toBeGreaterThanOrEqual(3)
    for (const chunk of chunks) {
      expect((chunk as unknown as { rows: unknown[] }).rows.length).toBeLessThanOrEqual(CHUNK_ROWS)
    }
    const store = createStateStore()
    let read = feed(client, store, 0)
    expectSameGuests(store, harness.live.current().state)

    // Ticks change metrics (binary), names and tags (JSON), and add and remove guests.
    for (let tick = 2; tick <= 7; tick++) {
      harness.clock.now += 10_000
      const p = await harness.live.applyCollected(makeCollected(guests, tick))
      await client.waitFor((m) => m.some((x) => x.type === 'delta' && x.seq === p.seq))
      // The binary frame follows its delta.
      if (p.changes?.metrics) await client.waitFor((m) => m.at(-1)!.type === 'binary')
      read = feed(client, store, read)
      expect(store.seq).toBe(p.seq)
      expectSameGuests(store, p.state)
    }
    expect(client.messages.filter((m) => m.type === 'binary').length).toBeGreaterThan(0)
    expect(client.messages.filter((m) => m.type === 'snapshot')).toHaveLength(1)
    client.ws.close()
  })

  it('keeps a client that reads its first load slowly, and catches it up without a new load', async () => {
    harness = await startHubHarness(silentLog, { pingIntervalMs: 40, chunkRows: CHUNK_ROWS })
    const guests = CHUNK_ROWS * 100
    await harness.live.applyCollected(makeCollected(guests, 1, 200))
    const client = await harness.connect('/ws?deltas=2')
    await client.waitFor((m) => m.some((x) => x.type === 'snapshot'))
    // A slow reader: it reads in short bursts, so the load spans many ping intervals.
    const socket = (client.ws as unknown as { _socket: { pause(): void; resume(): void } })._socket
    let paused = false
    const slow = setInterval(() => {
      paused = !paused
      if (paused) socket.pause()
      else socket.resume()
    }, 15)
    for (let tick = 2; tick <= 3; tick++) {
      harness.clock.now += 10_000
      await harness.live.applyCollected(makeCollected(guests, tick, 200))
    }
    await client.waitFor((m) => m.some((x) => x.type === 'snapshotEnd'))
    clearInterval(slow)
    socket.resume()
    const seq = harness.live.current().seq
    // The last delta, then its metrics frame.
    await client.waitFor((m) => {
      const last = m.findIndex((x) => x.type === 'delta' && x.seq === seq)
      return last >= 0 && m.slice(last + 1).some((x) => x.type === 'binary')
    })
    expect(client.messages.filter((m) => m.type === 'snapshot')).toHaveLength(1)
    const store = createStateStore()
    feed(client, store, 0)
    expect(store.seq).toBe(seq)
    expectSameGuests(store, harness.live.current().state)
    expect(harness.hub.clientCount()).toBe(1)
    client.ws.close()
  })
})

/** A poll with `count` PBS backups whose sizes change with `tick` (one comes and goes). */
function withPbsBackups(tick: number, count: number) {
  const collected = makeCollected(30, tick)
  for (let i = 0; i < count; i++) {
    if (i === 3 && tick % 2 === 1) continue
    collected.pbsBackups.push({
      id: `vault-store--vm-${100 + i}-${1_700_000_000 + i}`,
      instance: 'vault',
      datastore: 'store',
      namespace: '',
      backupType: 'vm',
      vmid: String(100 + i),
      backupTime: 1_700_000_000 + i,
      size: 1000 + (i % 5 === 0 ? tick : 0),
      protected: false,
      verified: true,
      encrypted: false,
      files: ['index.json.blob'],
    })
  }
  return collected
}

describe('socket hub, delta mode 2: backups on demand', () => {
  it('leaves the backups out until asked, then sends them as a partial load and in its deltas', async () => {
    harness = await startHubHarness(silentLog, { chunkRows: CHUNK_ROWS })
    await harness.live.applyCollected(withPbsBackups(1, 100))
    const client = await harness.connect('/ws?deltas=2')
    await client.waitFor((m) => m.some((x) => x.type === 'snapshotEnd'))
    const store = createStateStore()
    let read = feed(client, store, 0)
    expect(store.getCollection('pbsBackups')).toHaveLength(0)
    expect(store.holdsBackups()).toBe(false)
    // A tick that changes backups: the client without them gets a delta without them.
    harness.clock.now += 10_000
    const second = await harness.live.applyCollected(withPbsBackups(2, 100))
    expect(second.changes?.delta?.upsert?.pbsBackups?.length).toBeGreaterThan(0)
    await client.waitFor((m) => m.some((x) => x.type === 'delta' && x.seq === second.seq))
    const lean = client.messages.find((m) => m.type === 'delta' && m.seq === second.seq)!
    expect(JSON.stringify(lean.data)).not.toContain('pbsBackups')
    await client.waitFor((m) => m.at(-1)!.type === 'binary')
    read = feed(client, store, read)

    client.ws.send(JSON.stringify({ type: 'want', data: { backups: true } }))
    await client.waitFor((m) => m.filter((x) => x.type === 'snapshotEnd').length === 2)
    const partial = client.messages.filter((m) => m.type === 'snapshot')[1]!
    expect((partial as unknown as { partial?: boolean }).partial).toBe(true)
    read = feed(client, store, read)
    expect(store.holdsBackups()).toBe(true)
    expect(store.seq).toBe(second.seq)
    expect(byId(store.getCollection('pbsBackups'))).toEqual(byId(second.state.pbsBackups))
    // From now on its deltas carry them; the guests it already had were kept.
    harness.clock.now += 10_000
    const third = await harness.live.applyCollected(withPbsBackups(3, 100))
    await client.waitFor((m) => m.some((x) => x.type === 'delta' && x.seq === third.seq))
    await client.waitFor((m) => m.at(-1)!.type === 'binary')
    feed(client, store, read)
    expect(byId(store.getCollection('pbsBackups'))).toEqual(byId(third.state.pbsBackups))
    expectSameGuests(store, third.state)
    client.ws.close()
  })

  it('sends everything in the first load to a client that asks in its URL', async () => {
    harness = await startHubHarness(silentLog, { chunkRows: CHUNK_ROWS })
    const first = await harness.live.applyCollected(withPbsBackups(1, 100))
    const client = await harness.connect('/ws?deltas=2&backups=1')
    await client.waitFor((m) => m.some((x) => x.type === 'snapshotEnd'))
    const store = createStateStore()
    feed(client, store, 0)
    expect(store.holdsBackups()).toBe(true)
    expect(byId(store.getCollection('pbsBackups'))).toEqual(byId(first.state.pbsBackups))
    client.ws.close()
  })
})
