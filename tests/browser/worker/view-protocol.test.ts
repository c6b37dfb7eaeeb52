// The one view protocol (subscribe / update / unsubscribe) on the real worker in real Chromium,
// through Comlink, against the real `ws` server of tests/browser/global-setup.ts.
import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest'
import { finalizer, proxy, wrap } from 'comlink'
import type { ViewKind, ViewModel, WorkerApi } from '../../../src/worker/api-types.ts'
import type { WorkerPort } from '../../../src/ui/worker-port.ts'
import { DEFAULT_GUEST_VIEW_REQUEST } from '../../../src/shared/views/guest-view-types.ts'
import { makeBackupsRequest, makePbsBackup } from '../../unit/shared/views/backups-fixtures.ts'
import { openControl, type Control } from './control.ts'

const port = inject('wsPort')
const url = `ws://127.0.0.1:${port}/ws`

const GUESTS = { ...DEFAULT_GUEST_VIEW_REQUEST, window: { start: 0, count: 50 } }
const STORAGE = {
  kind: 'storage',
  viewMode: 'node',
  search: '',
  diskSearch: '',
  sort: { key: 'name', direction: 'asc' },
  selectedNode: null,
} as const
const pool = (name: string) => ({
  id: `lab-pve1-${name}`,
  name,
  node: 'pve1',
  instance: 'lab',
  type: 'dir',
  content: 'images',
  status: 'available',
  shared: false,
  enabled: true,
  active: true,
  total: 1000,
  used: 500,
  free: 500,
  usage: 50,
})

let worker: Worker
let api: WorkerPort
let control: Control

/** The latest model of one subscription, by its version, and how many arrived. */
function collect<K extends ViewKind>() {
  const seen = { latest: null as ViewModel<K> | null, count: 0, released: false }
  const onModel = Object.assign(
    (next: ViewModel<K>) => {
      seen.count++
      if (!seen.latest || next.version > seen.latest.version) seen.latest = next
    },
    // Called on this side when the worker releases its proxy of the callback.
    { [finalizer]: () => void (seen.released = true) },
  )
  return { seen, onModel: proxy(onModel) }
}

async function connected() {
  const ready = { done: false }
  await api.watchConnection(
    proxy((snapshot) => {
      if (snapshot.initialDataReceived) ready.done = true
    }),
  )
  await api.connect({ url, deltas: true })
  await expect.poll(() => ready.done).toBe(true)
}

beforeEach(async () => {
  control = await openControl(port)
  await control.reset()
  worker = new Worker(new URL('../../../src/worker/worker.ts', import.meta.url), { type: 'module' })
  api = wrap<WorkerApi>(worker)
  await connected()
})

afterEach(async () => {
  await api.disconnect()
  worker.terminate()
  control.close()
})

describe('the view protocol on the real worker', () => {
  it('serves a guest view, a node summary, a storage view and a backups view', async () => {
    const guests = collect<'guests'>()
    const summary = collect<'nodeSummary'>()
    const storage = collect<'storage'>()
    const backups = collect<'backups'>()
    await api.subscribe(GUESTS, guests.onModel)
    await api.subscribe({ kind: 'nodeSummary', tab: 'dashboard', sort: null }, summary.onModel)
    await api.subscribe(STORAGE, storage.onModel)
    await api.subscribe(makeBackupsRequest(), backups.onModel)
    await expect.poll(() => guests.seen.latest?.totals.guests).toBe(3)
    expect(summary.seen.latest?.rows.map((row) => row.name)).toEqual(['pve1', 'pve2'])
    expect(storage.seen.latest?.poolCount).toBe(0)
    expect(backups.seen.latest).toMatchObject({ kind: 'backups', sources: 2 })
    await control.update({
      upsert: {
        storage: [pool('local')],
        pbsBackups: [{ ...makePbsBackup('101', 1_700_000_000) }],
      },
    })
    await expect.poll(() => storage.seen.latest?.poolCount).toBe(1)
    await expect.poll(() => backups.seen.latest?.totals.records).toBe(1)
  })

  it('answers an update, and after unsubscribe pushes nothing and releases the callback', async () => {
    const storage = collect<'storage'>()
    const guests = collect<'guests'>()
    const id = await api.subscribe(STORAGE, storage.onModel)
    await api.subscribe(GUESTS, guests.onModel)
    await api.update(id, { ...STORAGE, search: 'nothing-matches' })
    await expect.poll(() => storage.seen.count).toBe(2)
    await api.unsubscribe(id)
    await expect.poll(() => storage.seen.released).toBe(true)
    // The guest subscription still receives this delta: once it has, the storage one saw it too.
    await control.update({
      upsert: { storage: [pool('nfs')], vms: [{ id: 'lab-pve1-101', name: 'alpha-2' }] },
    })
    await expect
      .poll(() =>
        guests.seen.latest?.rows.some((row) => row.kind === 'guest' && row.name === 'alpha-2'),
      )
      .toBe(true)
    await api.update(id, STORAGE)
    expect(storage.seen.count).toBe(2)
    expect(guests.seen.released).toBe(false)
  })

  it('refuses an unknown view kind with an error naming it', async () => {
    const { onModel } = collect<'guests'>()
    // @ts-expect-error: 'alerts' is not a view kind yet.
    await expect(api.subscribe({ kind: 'alerts' }, onModel)).rejects.toThrow(
      "kind: unknown view kind 'alerts' (known: guests, nodeSummary, storage, backups, alertsOverview, alertThresholds, alertHistory, guestUrls, resource, backupCoverage, backupJobs, guestBackup, rulePreview).",
    )
  })
})
