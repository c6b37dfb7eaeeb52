// The real worker in real Chromium against a real `ws` server (tests/browser/global-setup.ts).
import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest'
import { proxy, wrap } from 'comlink'
import type { ConnectionSnapshot, WorkerApi } from '../../../src/worker/api-types.ts'
import type { WorkerPort } from '../../../src/ui/worker-port.ts'
import {
  DEFAULT_GUEST_VIEW_REQUEST,
  type GuestRow,
  type GuestViewModel,
  type GuestViewRequest,
} from '../../../src/shared/views/guest-view-types.ts'
import { openControl, type Control } from './control.ts'

const port = inject('wsPort')
const url = `ws://127.0.0.1:${port}/ws`

const request: GuestViewRequest = { ...DEFAULT_GUEST_VIEW_REQUEST, window: { start: 0, count: 50 } }

let worker: Worker
let api: WorkerPort
let control: Control
let snapshots: ConnectionSnapshot[]
let model: GuestViewModel | null

const latest = () => snapshots[snapshots.length - 1]
const guestNames = () =>
  (model?.rows ?? []).filter((row): row is GuestRow => row.kind === 'guest').map((row) => row.name)

async function start(deltas: boolean) {
  await api.watchConnection(proxy((snapshot: ConnectionSnapshot) => void snapshots.push(snapshot)))
  await api.subscribe(
    request,
    proxy((next: GuestViewModel) => {
      if (!model || next.version > model.version) model = next
    }),
  )
  await api.connect({ url, deltas })
  await expect.poll(() => latest()?.initialDataReceived).toBe(true)
  await expect.poll(() => guestNames().length).toBe(3)
}

beforeEach(async () => {
  control = await openControl(port)
  await control.reset()
  snapshots = []
  model = null
  worker = new Worker(new URL('../../../src/worker/worker.ts', import.meta.url), { type: 'module' })
  api = wrap<WorkerApi>(worker)
})

afterEach(async () => {
  await api.disconnect()
  worker.terminate()
  control.close()
})

describe('worker over a real socket', () => {
  it('connects, receives the state and serves a grouped guest view', async () => {
    await start(true)
    expect(latest()).toMatchObject({
      status: 'connected',
      nodeCount: 2,
      guestCount: 3,
      serverVersion: 'test-1.0',
    })
    expect(model!.totals).toEqual({ guests: 3, running: 2, stopped: 1, matched: 3 })
    const shape = model!.rows.map((row) => (row.kind === 'group' ? `[${row.label}]` : row.name))
    expect(shape).toEqual(['[pve1]', 'alpha', '[pve2]', 'beta', 'gamma'])
    const alpha = model!.rows.find((row) => row.kind === 'guest' && row.name === 'alpha')
    expect(alpha).toMatchObject({ uptimeText: '1d 1h', cpuText: '25%', diskWriteText: '2 MB/s' })
    const beta = model!.rows.find((row) => row.kind === 'guest' && row.name === 'beta')
    expect(beta).toMatchObject({ active: false, uptimeText: '-' })
  })

  it('applies deltas pushed by the server to the view', async () => {
    await start(true)
    await control.update({ upsert: { vms: [{ id: 'lab-pve1-101', name: 'alpha-renamed' }] } })
    await expect.poll(() => guestNames()).toContain('alpha-renamed')
  })

  it('works with full rawData updates when delta mode is off', async () => {
    await start(false)
    await control.update({ remove: { containers: ['lab-pve2-201'] } })
    await expect.poll(() => guestNames()).toEqual(['alpha', 'beta'])
  })

  it('recovers after the server closes the socket', async () => {
    await start(true)
    const before = snapshots.length
    await control.closeClients(4000, 'test close')
    await expect
      .poll(() => snapshots.slice(before).some((s) => s.status === 'disconnected'))
      .toBe(true)
    await expect.poll(() => latest()?.status, { timeout: 10_000 }).toBe('connected')
    await expect.poll(() => latest()?.initialDataReceived).toBe(true)
    const seen = snapshots.slice(before).map((s) => s.status)
    expect(seen).toContain('reconnecting')
    expect((await control.stats()).connectionsTotal).toBe(2)
  })

  it('reconnects without backoff on close 1000 Reconnecting', async () => {
    await start(true)
    const before = snapshots.length
    await control.closeClients(1000, 'Reconnecting')
    await expect.poll(async () => (await control.stats()).connectionsTotal).toBe(2)
    await expect.poll(() => latest()?.initialDataReceived).toBe(true)
    const seen = snapshots.slice(before).map((s) => s.status)
    expect(seen).toContain('reconnecting')
    expect(seen).not.toContain('disconnected')
  })

  it('asks for a resync after a gap in sequence numbers and catches up', async () => {
    await start(true)
    await control.gap({ upsert: { vms: [{ id: 'lab-pve1-101', name: 'missed' }] } })
    await control.update({ upsert: { containers: [{ id: 'lab-pve2-201', name: 'gamma-2' }] } })
    // Only a full state can bring the missed rename: the delta carrying it was never sent.
    await expect.poll(() => guestNames()).toEqual(['missed', 'beta', 'gamma-2'])
    expect((await control.stats()).resyncs).toBe(1)
  })

  it('ignores malformed messages and keeps the connection', async () => {
    await start(true)
    await control.sendMalformed()
    await control.update({ upsert: { vms: [{ id: 'lab-pve2-102', name: 'beta-2' }] } })
    await expect.poll(() => guestNames()).toContain('beta-2')
    expect(latest()?.status).toBe('connected')
    expect((await control.stats()).connectionsTotal).toBe(1)
  })
})
