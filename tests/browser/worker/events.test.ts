// The worker's event channel in real Chromium against the real `ws` test server
// (tests/browser/global-setup.ts): what reaches the UI, in what order, and what does not.
import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest'
import { proxy, wrap } from 'comlink'
import type { ConnectionSnapshot, WorkerApi } from '../../../src/worker/api-types.ts'
import type { LiveEvent } from '../../../src/shared/model/live-events.ts'
import type { WorkerPort } from '../../../src/ui/worker-port.ts'
import { openControl, type Control } from './control.ts'

const port = inject('wsPort')
const url = `ws://127.0.0.1:${port}/ws`

let worker: Worker
let api: WorkerPort
let control: Control
let snapshots: ConnectionSnapshot[]

const frame = (type: string, data?: unknown) => JSON.stringify({ type, data })
const MARKER = frame('nodes_changed')

async function watch(into: LiveEvent[]): Promise<number> {
  return api.watchEvents(proxy((event: LiveEvent) => void into.push(event)))
}

beforeEach(async () => {
  control = await openControl(port)
  await control.reset()
  snapshots = []
  worker = new Worker(new URL('../../../src/worker/worker.ts', import.meta.url), { type: 'module' })
  api = wrap<WorkerApi>(worker)
  await api.watchConnection(proxy((snapshot: ConnectionSnapshot) => void snapshots.push(snapshot)))
})

afterEach(async () => {
  await api.disconnect()
  worker.terminate()
  control.close()
})

async function connect() {
  await api.connect({ url, deltas: true })
  await expect.poll(() => snapshots[snapshots.length - 1]?.initialDataReceived).toBe(true)
}

describe('worker event channel', () => {
  it('delivers node, discovery, settings and update events in arrival order', async () => {
    const events: LiveEvent[] = []
    await watch(events)
    await connect()
    await control.send([
      frame('node_auto_registered', {
        type: 'pbs',
        host: 'https://127.0.0.1:8007',
        name: 'backup1',
        tokenId: 'pulse@pbs!t',
        hasToken: true,
      }),
      frame('node_deleted', { id: 'n1', nodeType: 'pve' }),
      frame('discovery_started', { scanning: true, subnet: '127.0.0.1/32', timestamp: 1700000000 }),
      frame('discovery_update', { servers: [], errors: [], scanning: false }),
      frame('discovery_complete', { scanning: false, timestamp: 1700000000123 }),
      frame('settingsUpdate', { theme: 'dark' }),
      frame('update:progress', { status: 'downloading', progress: 40, message: 'Downloading' }),
      MARKER,
    ])
    await expect.poll(() => events.length).toBe(8)
    expect(events).toEqual([
      {
        type: 'node_auto_registered',
        data: { type: 'pbs', name: 'backup1', host: 'https://127.0.0.1:8007' },
      },
      { type: 'node_deleted', data: { id: 'n1', nodeType: 'pve' } },
      // The reference's seconds become ms.
      { type: 'discovery_started', data: { subnet: '127.0.0.1/32', timestamp: 1700000000000 } },
      { type: 'discovery_update', data: { servers: [], errors: [], scanning: false } },
      { type: 'discovery_complete', data: { timestamp: 1700000000123 } },
      { type: 'settingsUpdate', data: { theme: 'dark' } },
      {
        type: 'update:progress',
        data: { status: 'downloading', progress: 40, message: 'Downloading' },
      },
      { type: 'nodes_changed', data: {} },
    ])
  })

  it('accepts the reference names and its wrapped custom discovery messages', async () => {
    const events: LiveEvent[] = []
    await watch(events)
    await connect()
    await control.send([
      frame('discovery_updated', { servers: [], errors: [], immediate: true }),
      frame('refresh_nodes'),
      frame('custom', { type: 'discovery_started', data: { subnet: '127.0.0.0/30' } }),
    ])
    await expect
      .poll(() => events.map((e) => e.type))
      .toEqual(['discovery_update', 'nodes_changed', 'discovery_started'])
  })

  it('ignores malformed messages and keeps the connection and the good events', async () => {
    const events: LiveEvent[] = []
    await watch(events)
    await connect()
    const opened = (await control.stats()).connectionsTotal
    await control.send([
      '{not json',
      JSON.stringify({ data: { theme: 'dark' } }),
      frame('settingsUpdate', { theme: 'blue' }),
      frame('settingsUpdate', 'dark'),
      frame('node_auto_registered', { type: 'vmware', host: 'x' }),
      frame('node_auto_registered', { type: 'pve' }),
      frame('discovery_update', { servers: 'none' }),
      frame('alert', { id: 'a1' }),
      frame('settingsUpdate', { theme: 'light' }),
      MARKER,
    ])
    await expect.poll(() => events.length).toBe(2)
    expect(events).toEqual([
      { type: 'settingsUpdate', data: { theme: 'light' } },
      { type: 'nodes_changed', data: {} },
    ])
    // Still the same socket, and it still takes data.
    expect(snapshots[snapshots.length - 1]?.status).toBe('connected')
    expect((await control.stats()).connectionsTotal).toBe(opened)
  })

  it('stops delivering to a watcher once unsubscribed, and keeps the others', async () => {
    const first: LiveEvent[] = []
    const second: LiveEvent[] = []
    const firstId = await watch(first)
    await watch(second)
    await connect()
    await control.send([frame('settingsUpdate', { theme: 'dark' })])
    await expect.poll(() => first.length).toBe(1)
    await api.unsubscribe(firstId)
    await control.send([frame('settingsUpdate', { theme: 'light' }), MARKER])
    // The marker came after the theme: once the second watcher has it, the first would have too.
    await expect.poll(() => second.length).toBe(3)
    expect(first).toHaveLength(1)
  })
})
