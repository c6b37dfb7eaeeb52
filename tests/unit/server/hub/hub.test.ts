import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import WebSocket, { WebSocketServer } from 'ws'
import { applyDelta } from '../../../../src/shared/model/delta.ts'
import type { State } from '../../../../src/shared/model/state.ts'
import { createHub, type Hub } from '../../../../src/server/hub/hub.ts'
import { createLiveState, type LiveState } from '../../../../src/server/live/live-state.ts'
import { makeCollected } from '../collected-fixture.ts'

interface Msg {
  type: string
  data?: unknown
  seq?: number
}

const silentLog = { warn: () => {} }
let wss: WebSocketServer
let live: LiveState
let hub: Hub
let port: number
let clock = 1_700_000_000_000

async function startHub(options: { highWaterBytes?: number; stallLimitMs?: number } = {}) {
  live = createLiveState({
    now: () => clock,
    version: 't',
    clientCount: () => hub?.clientCount() ?? 0,
  })
  hub = createHub({ live, now: () => clock, version: 't', log: silentLog, ...options })
  wss = new WebSocketServer({ host: '127.0.0.1', port: 0 })
  wss.on('connection', (socket, req) =>
    hub.attach(socket, { deltas: req.url?.includes('deltas=1') ?? false }),
  )
  await new Promise<void>((resolve) => wss.once('listening', resolve))
  port = (wss.address() as { port: number }).port
}

/** A real client that records every message. */
async function connect(path = '/ws') {
  const ws = new WebSocket(`ws://127.0.0.1:${port}${path}`)
  const messages: Msg[] = []
  const waiters: Array<() => void> = []
  ws.on('message', (data) => {
    messages.push(JSON.parse(String(data)) as Msg)
    waiters.splice(0).forEach((w) => w())
  })
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve())
    ws.once('error', reject)
  })
  const waitFor = async (pred: (m: Msg[]) => boolean) => {
    while (!pred(messages)) await new Promise<void>((resolve) => waiters.push(resolve))
  }
  return { ws, messages, waitFor }
}

beforeEach(async () => {
  clock = 1_700_000_000_000
  await startHub()
})
afterEach(async () => {
  hub.close()
  await new Promise<void>((resolve) => wss.close(() => resolve()))
})

describe('socket hub', () => {
  it('greets a plain client with welcome and initialState, then full rawData', async () => {
    live.applyCollected(makeCollected(20, 1))
    const client = await connect()
    await client.waitFor((m) => m.length >= 2)
    expect(client.messages.map((m) => m.type)).toEqual(['welcome', 'initialState'])
    const initial = client.messages[1]!.data as State
    expect(initial.nodes).toHaveLength(2)
    expect(initial.vms.length + initial.containers.length).toBeGreaterThan(0)
    live.applyCollected(makeCollected(20, 2))
    await client.waitFor((m) => m.length >= 3)
    expect(client.messages[2]!.type).toBe('rawData')
    expect((client.messages[2]!.data as State).stats.pollingCycles).toBe(2)
    client.ws.close()
  })

  it('sends sequence-numbered deltas whose merge equals the published state', async () => {
    live.applyCollected(makeCollected(50, 1))
    const client = await connect('/ws?deltas=1')
    await client.waitFor((m) => m.length >= 2)
    expect((client.messages[0]!.data as { deltas?: number }).deltas).toBe(1)
    const initial = client.messages[1]!
    expect(initial.type).toBe('initialState')
    let merged = initial.data as State
    let seq = initial.seq!
    for (let tick = 2; tick <= 9; tick++) {
      clock += 10_000
      live.applyCollected(makeCollected(50, tick))
    }
    await client.waitFor((m) => m.filter((x) => x.type === 'delta').length >= 8)
    for (const msg of client.messages.filter((m) => m.type === 'delta')) {
      expect(msg.seq).toBe(seq + 1)
      seq = msg.seq!
      merged = applyDelta(merged, msg.data as never)
    }
    const published = live.current()
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
    live.applyCollected(makeCollected(5, 1))
    const client = await connect('/ws?deltas=1')
    await client.waitFor((m) => m.length >= 2)
    client.ws.send('{not json')
    client.ws.send(JSON.stringify({ noType: true }))
    client.ws.send(JSON.stringify({ type: 'ping', data: { timestamp: 1 } }))
    await client.waitFor((m) => m.some((x) => x.type === 'pong'))
    client.ws.send(JSON.stringify({ type: 'resync' }))
    await client.waitFor((m) => m.filter((x) => x.type === 'initialState').length === 2)
    expect(client.ws.readyState).toBe(WebSocket.OPEN)
    expect(client.messages.at(-1)!.seq).toBe(live.current().seq)
    client.ws.close()
  })

  it('skips a stalled client without holding up the others, then drops it', async () => {
    hub.close()
    await new Promise<void>((resolve) => wss.close(() => resolve()))
    await startHub({ highWaterBytes: 256 * 1024, stallLimitMs: 30_000 })
    live.applyCollected(makeCollected(200, 1, 400))
    const slow = await connect('/ws?deltas=1')
    const fast = await connect('/ws?deltas=1')
    await slow.waitFor((m) => m.length >= 2)
    // Stop reading on the slow client's TCP socket: the server's send queue for it grows.
    ;(slow.ws as unknown as { _socket: { pause(): void } })._socket.pause()
    let maxQueued = 0
    for (let tick = 2; tick < 120; tick++) {
      clock += 100
      live.applyCollected(makeCollected(200, tick, 400))
      await new Promise((resolve) => setImmediate(resolve))
      for (const s of hub.clientStats()) maxQueued = Math.max(maxQueued, s.bufferedAmount)
    }
    await fast.waitFor((m) => m.filter((x) => x.type === 'delta').length >= 118)
    // Bounded: at most the high-water mark plus one full frame (~200 guests x ~1 KB).
    expect(maxQueued).toBeLessThan(256 * 1024 + 1024 * 1024)
    expect(maxQueued).toBeGreaterThan(256 * 1024)
    expect(hub.clientStats().filter((s) => s.needsFull)).toHaveLength(1)
    clock += 31_000
    live.applyCollected(makeCollected(200, 99, 400))
    expect(hub.clientCount()).toBe(1)
    fast.ws.close()
    slow.ws.terminate()
  })
})
