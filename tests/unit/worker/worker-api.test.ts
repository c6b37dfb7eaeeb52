// The API over a fake socket (see fake-socket.ts) and a manual flush queue, so batching is observable.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createWorkerApi } from '../../../src/worker/worker-api.ts'
import type { ConnectionSnapshot, WorkerApi } from '../../../src/worker/api-types.ts'
import type { GuestViewModel } from '../../../src/shared/views/guest-view-types.ts'
import type { NodeSummaryModel } from '../../../src/shared/views/node-summary-types.ts'
import { createFakeDeps, type FakeSocket } from './fake-socket.ts'
import { makeRequest } from '../shared/views/guest-fixtures.ts'

let api: WorkerApi
let sockets: FakeSocket[]
let queue: Array<() => void>
const flush = () => queue.splice(0).forEach((run) => run())
const last = () => sockets[sockets.length - 1]!

const guest = (vmid: number, cpu = 0.1) => ({
  id: `pve1-${vmid}`,
  instance: 'pve1',
  node: 'pve1',
  vmid,
  name: `g${vmid}`,
  type: 'qemu',
  status: 'running',
  uptime: 100,
  cpu,
  memory: { usage: 1, used: 1, total: 2 },
  disk: { usage: 1, used: 1, total: 2 },
})
const node = { id: 'pve1-pve1', name: 'pve1', instance: 'pve1', status: 'online', uptime: 10 }

beforeEach(() => {
  vi.useFakeTimers()
  const fake = createFakeDeps()
  sockets = fake.sockets
  queue = []
  api = createWorkerApi({ socket: fake.deps, schedule: (run) => queue.push(run) })
})

afterEach(() => vi.useRealTimers())

describe('worker api', () => {
  it('pushes connection snapshots on change, with counts from the data', () => {
    const snapshots: ConnectionSnapshot[] = []
    api.watchConnection((snapshot) => snapshots.push(snapshot))
    expect(snapshots.map((s) => s.status)).toEqual(['disconnected'])
    api.connect({ url: 'ws://127.0.0.1:1/ws', deltas: true })
    last().open()
    last().receive({
      type: 'initialState',
      data: { nodes: [node], vms: [guest(1), guest(2)], stats: { version: '9.9' }, lastUpdate: 77 },
      seq: 1,
    })
    flush()
    // The first full state changes initialDataReceived and the counts in one snapshot.
    expect(snapshots.map((s) => s.status)).toEqual([
      'disconnected',
      'connecting',
      'connected',
      'connected',
    ])
    expect(snapshots.at(-1)).toMatchObject({
      initialDataReceived: true,
      nodeCount: 1,
      guestCount: 2,
      serverVersion: '9.9',
      lastUpdate: 77,
    })
  })

  it('sends a model at once, then one recompute per batch of deltas, with increasing versions', () => {
    const models: GuestViewModel[] = []
    api.connect({ url: 'ws://127.0.0.1:1/ws', deltas: true })
    last().open()
    api.subscribe(makeRequest(), (model) => models.push(model))
    expect(models).toHaveLength(1)
    expect(models[0]?.rowCount).toBe(0)
    last().receive({ type: 'initialState', data: { nodes: [node], vms: [guest(1)] }, seq: 1 })
    last().receive({ type: 'delta', data: { upsert: { vms: [guest(2)] } }, seq: 2 })
    last().receive({
      type: 'delta',
      data: { upsert: { vms: [{ id: 'pve1-1', cpu: 0.5 }] } },
      seq: 3,
    })
    expect(models).toHaveLength(1)
    flush()
    expect(models).toHaveLength(2)
    expect(models[1]?.rows.map((row) => (row.kind === 'guest' ? row.cpuText : ''))).toEqual([
      '50%',
      '10%',
    ])
    expect(models[1]!.version).toBeGreaterThan(models[0]!.version)
  })

  it('recomputes when the request changes and stops after unsubscribe', () => {
    const models: GuestViewModel[] = []
    api.connect({ url: 'ws://127.0.0.1:1/ws', deltas: false })
    last().open()
    last().receive({ type: 'rawData', data: { nodes: [node], vms: [guest(1), guest(2)] } })
    const id = api.subscribe(makeRequest(), (model) => models.push(model))
    api.update(id, makeRequest({ window: { start: 1, count: 1 } }))
    expect(models.at(-1)?.rows.map((row) => row.kind === 'guest' && row.vmid)).toEqual([2])
    api.unsubscribe(id)
    last().receive({ type: 'rawData', data: { vms: [guest(3)] } })
    flush()
    expect(models).toHaveLength(2)
  })

  it('skips a push when the data changed nothing the view shows', () => {
    const models: GuestViewModel[] = []
    api.connect({ url: 'ws://127.0.0.1:1/ws', deltas: true })
    last().open()
    last().receive({ type: 'initialState', data: { nodes: [node], vms: [guest(1)] }, seq: 1 })
    api.subscribe(makeRequest(), (model) => models.push(model))
    last().receive({ type: 'delta', data: { scalars: { metrics: [] } }, seq: 2 })
    flush()
    expect(models).toHaveLength(1)
  })

  it('while a first load streams in, the connection counts are those of the views, and guest counts read as loading', () => {
    const snapshots: ConnectionSnapshot[] = []
    const models: GuestViewModel[] = []
    const summaries: NodeSummaryModel[] = []
    api.watchConnection((snapshot) => snapshots.push(snapshot))
    api.subscribe(makeRequest(), (model) => models.push(model))
    api.subscribe({ kind: 'nodeSummary', tab: 'dashboard', sort: null }, (model) =>
      summaries.push(model),
    )
    api.connect({ url: 'ws://127.0.0.1:1/ws', deltas: true })
    last().open()
    const ct = { ...guest(3), id: 'pve1-3', type: 'lxc' }
    last().receive({
      type: 'snapshot',
      seq: 1,
      data: { nodes: [node] },
      counts: { vms: 2, containers: 1 },
    })
    flush()
    last().receive({ type: 'snapshotChunk', seq: 1, key: 'vms', rows: [guest(1), guest(2)] })
    // The containers arrive before the next (throttled) recompute of the views.
    last().receive({ type: 'snapshotChunk', seq: 1, key: 'containers', rows: [ct] })
    const agree = () => {
      const shown = models.at(-1)!.totals.guests
      expect(snapshots.at(-1)!.guestCount).toBe(shown)
    }
    agree()
    expect(snapshots.at(-1)).toMatchObject({ loading: true, guestsExpected: 3 })
    expect(summaries.at(-1)!.guestsLoading).toBe(true)
    flush()
    agree()
    last().receive({ type: 'snapshotEnd', seq: 1 })
    flush()
    agree()
    expect(models.at(-1)!.totals.guests).toBe(3)
    expect(snapshots.at(-1)).toMatchObject({ loading: false, guestCount: 3 })
    expect(summaries.at(-1)!.guestsLoading).toBe(false)
    expect(summaries.at(-1)!.rows[0]!.counts).toMatchObject({ vms: 2, containers: 1 })
  })
})
