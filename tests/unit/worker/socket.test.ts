// Lifecycle tests over a fake socket and vitest's fake timers (see fake-socket.ts for why).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createLiveSocket, type LiveSocket } from '../../../src/worker/socket.ts'
import { createStateStore, type StateStore, type StoreChange } from '../../../src/worker/store.ts'
import { createFakeDeps, type FakeSocket } from './fake-socket.ts'

const URL_WS = 'ws://127.0.0.1:7655/ws'

let sockets: FakeSocket[]
let warn: ReturnType<typeof vi.fn>
let store: StateStore
let live: LiveSocket
let onData: ReturnType<typeof vi.fn<(changed: ReadonlySet<StoreChange>) => void>>

const last = () => sockets[sockets.length - 1]!

beforeEach(() => {
  vi.useFakeTimers({ now: 1_000_000 })
  const fake = createFakeDeps()
  sockets = fake.sockets
  warn = fake.warn
  store = createStateStore()
  onData = vi.fn<(changed: ReadonlySet<StoreChange>) => void>()
  live = createLiveSocket(store, { onData }, fake.deps)
})

afterEach(() => {
  vi.useRealTimers()
})

describe('live socket connection', () => {
  it('connects as connecting, then connected on open with the attempt counter reset', () => {
    live.connect({ url: URL_WS, deltas: false })
    expect(live.getState().status).toBe('connecting')
    expect(last().url).toBe(URL_WS)
    last().open()
    expect(live.getState()).toMatchObject({ status: 'connected', attempt: 0 })
  })

  it('negotiates delta mode with the deltas query parameter', () => {
    live.connect({ url: URL_WS, deltas: true })
    expect(new URL(last().url).searchParams.get('deltas')).toBe('2')
  })

  it('sends a ping every 25 seconds while open and stops after close', () => {
    live.connect({ url: URL_WS, deltas: false })
    const socket = last()
    socket.open()
    vi.advanceTimersByTime(24_999)
    expect(socket.sent).toEqual([])
    vi.advanceTimersByTime(1)
    expect(socket.sent).toEqual([{ type: 'ping', data: { timestamp: 1_025_000 } }])
    vi.advanceTimersByTime(25_000)
    expect(socket.sent).toHaveLength(2)
    socket.drop()
    vi.advanceTimersByTime(25_000)
    expect(socket.sent).toHaveLength(2)
  })

  it('answers a server ping with a pong carrying the time in ms', () => {
    live.connect({ url: URL_WS, deltas: false })
    last().open()
    last().receive({ type: 'ping', data: { timestamp: 5 } })
    expect(last().sent).toEqual([{ type: 'pong', data: { timestamp: 1_000_000 } }])
  })

  it('backs off 1s, 2s, 4s … up to 30s, each followed by the extra delay as reconnecting', () => {
    live.connect({ url: URL_WS, deltas: false })
    last().open()
    const backoffs = [1000, 2000, 4000, 8000, 16_000, 30_000, 30_000]
    backoffs.forEach((backoff, n) => {
      const attempt = n + 1
      const extra = Math.min(100 * attempt, 1000)
      const count = sockets.length
      last().drop()
      expect(live.getState()).toMatchObject({ status: 'disconnected', attempt })
      expect(live.getState().nextRetryAt).toBe(Date.now() + backoff + extra)
      vi.advanceTimersByTime(backoff - 1)
      expect(live.getState().status).toBe('disconnected')
      vi.advanceTimersByTime(1)
      expect(live.getState().status).toBe('reconnecting')
      vi.advanceTimersByTime(extra - 1)
      expect(sockets).toHaveLength(count)
      vi.advanceTimersByTime(1)
      expect(sockets).toHaveLength(count + 1)
      expect(live.getState().status).toBe('reconnecting')
    })
    last().open()
    expect(live.getState()).toMatchObject({ status: 'connected', attempt: 0, nextRetryAt: null })
  })

  it('reconnects without backoff after a close 1000 with reason Reconnecting', () => {
    live.connect({ url: URL_WS, deltas: false })
    last().open()
    last().drop(1000, 'Reconnecting')
    expect(live.getState().status).toBe('reconnecting')
    vi.advanceTimersByTime(0)
    expect(sockets).toHaveLength(2)
  })

  it('skips the wait on reconnectNow', () => {
    live.connect({ url: URL_WS, deltas: false })
    last().open()
    last().drop()
    expect(live.getState().status).toBe('disconnected')
    live.reconnectNow()
    expect(sockets).toHaveLength(2)
    expect(live.getState().status).toBe('reconnecting')
    vi.advanceTimersByTime(60_000)
    expect(sockets).toHaveLength(2)
  })

  it('stops reconnecting after disconnect', () => {
    live.connect({ url: URL_WS, deltas: false })
    last().open()
    live.disconnect()
    expect(last().closedWith).toEqual({ code: 1000, reason: 'Client disconnect' })
    vi.advanceTimersByTime(120_000)
    expect(sockets).toHaveLength(1)
    expect(live.getState().status).toBe('disconnected')
  })
})

describe('live socket data', () => {
  it('sets initialDataReceived on the first full state and clears it on close', () => {
    live.connect({ url: URL_WS, deltas: false })
    last().open()
    expect(live.getState().initialDataReceived).toBe(false)
    last().receive({ type: 'initialState', data: { vms: [{ id: 'v1' }] } })
    expect(live.getState().initialDataReceived).toBe(true)
    expect(store.getGuests()).toHaveLength(1)
    expect(onData).toHaveBeenCalledTimes(1)
    last().drop()
    expect(live.getState().initialDataReceived).toBe(false)
  })

  it('applies rawData as a full state', () => {
    live.connect({ url: URL_WS, deltas: false })
    last().open()
    last().receive({ type: 'rawData', data: { nodes: [{ id: 'n1' }] } })
    expect(store.getNodes()).toHaveLength(1)
    expect(live.getState().initialDataReceived).toBe(true)
  })

  it('applies deltas in sequence and asks for a resync after a gap', () => {
    live.connect({ url: URL_WS, deltas: true })
    last().open()
    last().receive({ type: 'initialState', data: { vms: [{ id: 'v1', cpu: 0 }] }, seq: 4 })
    last().receive({ type: 'delta', data: { upsert: { vms: [{ id: 'v1', cpu: 1 }] } }, seq: 5 })
    expect(store.getGuests()[0]?.cpu).toBe(1)
    last().receive({ type: 'delta', data: { upsert: { vms: [{ id: 'v1', cpu: 2 }] } }, seq: 7 })
    expect(last().sent).toEqual([{ type: 'resync' }])
    last().receive({ type: 'delta', data: { upsert: { vms: [{ id: 'v1', cpu: 3 }] } }, seq: 8 })
    expect(store.getGuests()[0]?.cpu).toBe(1)
    last().receive({ type: 'initialState', data: { vms: [{ id: 'v1', cpu: 3 }] }, seq: 8 })
    last().receive({ type: 'delta', data: { upsert: { vms: [{ id: 'v1', cpu: 4 }] } }, seq: 9 })
    expect(store.getGuests()[0]?.cpu).toBe(4)
  })

  it('logs and ignores malformed messages without breaking the connection', () => {
    live.connect({ url: URL_WS, deltas: true })
    last().open()
    last().receive({ type: 'initialState', data: { vms: [{ id: 'v1', cpu: 0 }] }, seq: 1 })
    const frames = [
      '{not json',
      '[1,2]',
      '{"data":{}}',
      '{"type":"initialState","data":[1]}',
      '{"type":"delta","data":{"upsert":{"vms":[{"cpu":1}]}},"seq":2}',
      '{"type":"delta","data":{"remove":{"vms":"v1"}},"seq":2}',
      '{"type":"delta","data":{},"seq":"2"}',
    ]
    for (const frame of frames) last().receive(frame)
    expect(warn).toHaveBeenCalledTimes(frames.length)
    expect(live.getState().status).toBe('connected')
    last().receive({ type: 'delta', data: { upsert: { vms: [{ id: 'v1', cpu: 5 }] } }, seq: 2 })
    expect(store.getGuests()[0]?.cpu).toBe(5)
    expect(last().sent).toEqual([])
  })
})
