// Optimistic acks through the worker API (spec 000 §4): the guests view and the alerts overview
// see an ack the moment it is set, and a timeout reaches the watchers. Over the fake socket of
// fake-socket.ts (Node has no browser WebSocket) with vitest's fake timers as the clock.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { vi } from 'vitest'
import type { AlertsOverviewModel } from '../../../src/shared/views/alerts-overview-types.ts'
import type { GuestViewModel } from '../../../src/shared/views/guest-view-types.ts'
import type { WorkerApi } from '../../../src/worker/api-types.ts'
import { createWorkerApi } from '../../../src/worker/worker-api.ts'
import { makeRequest } from '../shared/views/guest-fixtures.ts'
import { createFakeDeps, type FakeSocket } from './fake-socket.ts'

let api: WorkerApi
let socket: FakeSocket
let queue: Array<() => void>
const flush = () => queue.splice(0).forEach((run) => run())

const node = { id: 'lab-pve1', name: 'pve1', instance: 'lab', status: 'online', uptime: 10 }
const guest = {
  id: 'lab-pve1-101',
  instance: 'lab',
  node: 'pve1',
  vmid: 101,
  name: 'web',
  type: 'qemu',
  status: 'running',
  uptime: 100,
  cpu: 0.95,
}
const alert = (acknowledged: boolean, level = 'critical') => ({
  id: 'lab-pve1-101-cpu',
  type: 'cpu',
  level,
  resourceId: 'lab-pve1-101',
  resourceName: 'web',
  node: 'pve1',
  instance: 'lab',
  message: 'VM cpu at 95.0%',
  value: 95,
  threshold: 80,
  startTime: new Date(Date.now() - 5 * 60_000).toISOString(),
  acknowledged,
})

beforeEach(() => {
  vi.useFakeTimers()
  // On a whole minute: the overview's 'since' texts count whole minutes.
  vi.setSystemTime(Date.UTC(2025, 0, 1, 12, 0, 0))
  const fake = createFakeDeps()
  queue = []
  api = createWorkerApi({ socket: fake.deps, schedule: (run) => queue.push(run) })
  api.connect({ url: 'ws://127.0.0.1:1/ws', deltas: true })
  socket = fake.sockets[0]!
  socket.open()
  socket.receive({
    type: 'initialState',
    data: { nodes: [node], vms: [guest], activeAlerts: [alert(false)] },
    seq: 1,
  })
  flush()
})
afterEach(() => vi.useRealTimers())

const guestAlert = (model: GuestViewModel | undefined) => {
  const row = model?.rows.find((r) => r.kind === 'guest')
  return row?.kind === 'guest' ? row.alert : undefined
}

describe('optimistic acks in the worker api', () => {
  it('shows the guest as acknowledged right after setAlertAck, before any server state', () => {
    const models: GuestViewModel[] = []
    api.subscribe(makeRequest(), (model) => models.push(model))
    expect(guestAlert(models.at(-1))).toBe('critical')
    api.setAlertAck('lab-pve1-101-cpu', true)
    expect(guestAlert(models.at(-1))).toBe('acknowledged')
    // A server state that still shows it unacknowledged is held off.
    socket.receive({
      type: 'delta',
      data: { upsert: { vms: [{ id: guest.id, cpu: 0.9 }] } },
      seq: 2,
    })
    flush()
    expect(guestAlert(models.at(-1))).toBe('acknowledged')
  })

  it('marks the overview row pending until the server confirms', () => {
    const models: AlertsOverviewModel[] = []
    api.subscribe({ kind: 'alertsOverview', showAcknowledged: true }, (model) => models.push(model))
    expect(models.at(-1)).toMatchObject({ active: 1, acknowledged: 0, rowCount: 1 })
    expect(models.at(-1)?.rows[0]).toMatchObject({ sinceText: '5m ago', pending: false })
    api.setAlertAck('lab-pve1-101-cpu', true)
    expect(models.at(-1)).toMatchObject({ active: 0, acknowledged: 1 })
    expect(models.at(-1)?.rows[0]).toMatchObject({ acknowledged: true, pending: true })
    socket.receive({
      type: 'delta',
      data: { upsert: { activeAlerts: [{ id: 'lab-pve1-101-cpu', acknowledged: true }] } },
      seq: 2,
    })
    flush()
    expect(models.at(-1)?.rows[0]).toMatchObject({ acknowledged: true, pending: false })
  })

  it('tells the watchers after 15 s unconfirmed and shows the server value again', () => {
    const timeouts: string[][] = []
    const models: AlertsOverviewModel[] = []
    api.watchAlertAckTimeouts((ids) => timeouts.push(ids))
    api.subscribe({ kind: 'alertsOverview', showAcknowledged: false }, (model) =>
      models.push(model),
    )
    api.setAlertAck('lab-pve1-101-cpu', true)
    // Hidden while acknowledged and acknowledged ones are hidden.
    expect(models.at(-1)?.rowCount).toBe(0)
    vi.advanceTimersByTime(14_999)
    expect(timeouts).toEqual([])
    vi.advanceTimersByTime(1)
    expect(timeouts).toEqual([['lab-pve1-101-cpu']])
    expect(models.at(-1)).toMatchObject({ active: 1, rowCount: 1 })
  })

  it('stops telling a watcher once unsubscribed', () => {
    const timeouts: string[][] = []
    const id = api.watchAlertAckTimeouts((ids) => timeouts.push(ids))
    api.unsubscribe(id)
    api.setAlertAck('lab-pve1-101-cpu', true)
    vi.advanceTimersByTime(15_000)
    expect(timeouts).toEqual([])
  })

  it('reverts at once when the UI drops the ack (its HTTP call failed)', () => {
    const models: GuestViewModel[] = []
    api.subscribe(makeRequest(), (model) => models.push(model))
    api.setAlertAck('lab-pve1-101-cpu', true)
    api.dropAlertAck('lab-pve1-101-cpu')
    expect(guestAlert(models.at(-1))).toBe('critical')
  })
})
