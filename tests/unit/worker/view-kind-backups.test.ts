// The backups view kind through the subscriptions, over a real state store (full states and
// deltas as the socket applies them).
import { describe, expect, it } from 'vitest'
import { VIEW_KINDS } from '../../../src/worker/view-kinds.ts'
import { createViewSubscriptions } from '../../../src/worker/view-subscriptions.ts'
import { createStateStore } from '../../../src/worker/store.ts'
import type { BackupsViewModel } from '../../../src/shared/views/backups-types.ts'
import { makeGuest, makeNode } from '../shared/views/guest-fixtures.ts'
import {
  at,
  makeBackupsRequest,
  makePbsBackup,
  makePbsInstance,
  makeStorageBackup,
} from '../shared/views/backups-fixtures.ts'

const t = at(2024, 3, 2, 9)
const now = at(2024, 3, 2, 18) * 1000

function setup() {
  const store = createStateStore()
  store.applyFull({
    nodes: [makeNode('pve1')],
    vms: [makeGuest(101, { name: 'web' })],
    pbs: [makePbsInstance('pbs1', [2])],
    pbsBackups: [makePbsBackup('101', t)],
    guestSnapshots: [],
    storageBackups: [makeStorageBackup(102, t)],
  })
  const models: BackupsViewModel[] = []
  const subs = createViewSubscriptions(VIEW_KINDS, { store, now: () => now }, (onModel, model) =>
    onModel(model),
  )
  return { store, models, subs, onModel: (model: BackupsViewModel) => models.push(model) }
}

describe('backups subscriptions', () => {
  it('sends a first model at once and a new one only when backup data changed', () => {
    const { store, models, subs, onModel } = setup()
    subs.add(1, makeBackupsRequest(), onModel)
    expect(models).toHaveLength(1)
    expect(models[0]).toMatchObject({ sources: 2, loaded: true, dedupText: '2.0x' })
    expect(models[0]!.totals.records).toBe(2)
    subs.flush()
    expect(models).toHaveLength(1)
    // A full state replaces the collection.
    store.applyFull({
      guestSnapshots: [],
      storageBackups: [makeStorageBackup(102, t), makeStorageBackup(103, t)],
    })
    subs.flush()
    expect(models).toHaveLength(2)
    expect(models[1]!.totals.records).toBe(3)
    expect(models[1]!.version).toBeGreaterThan(models[0]!.version)
  })

  it('reads the PVE backups of a plain full state (grouped as pveBackups) as the collections', () => {
    const store = createStateStore()
    store.applyFull({
      nodes: [makeNode('pve1')],
      vms: [makeGuest(102, { name: 'dns' })],
      pveBackups: {
        backupTasks: [],
        guestSnapshots: [],
        storageBackups: [makeStorageBackup(102, t), makeStorageBackup(103, t)],
      },
    })
    expect(store.getCollection('storageBackups').map((b) => b.vmid)).toEqual([102, 103])
    const models: BackupsViewModel[] = []
    const subs = createViewSubscriptions(VIEW_KINDS, { store, now: () => now }, (onModel, model) =>
      onModel(model),
    )
    subs.add(1, makeBackupsRequest(), (model: BackupsViewModel) => models.push(model))
    expect(models[0]).toMatchObject({ loaded: true, totals: { records: 2 } })
  })

  it('sends one new model when a delta changes one storage backup, none for guest metrics', () => {
    const { store, models, subs, onModel } = setup()
    subs.add(1, makeBackupsRequest(), onModel)
    store.applyFull({}, 0)
    const [backup] = store.getCollection('storageBackups')
    store.applyDelta({ upsert: { vms: [{ id: makeGuest(101).id, cpu: 0.5 }] } }, 1)
    subs.flush()
    expect(models).toHaveLength(1)
    store.applyDelta({ upsert: { storageBackups: [{ id: backup!.id, size: 1 }] } }, 2)
    subs.flush()
    expect(models).toHaveLength(2)
    const row = models[1]!.rows.find((r) => r.kind === 'backup' && r.vmid === '102')
    expect(row).toMatchObject({ size: 1 })
  })

  it('sees PBS backups merged by a delta', () => {
    const { store, models, subs, onModel } = setup()
    subs.add(1, makeBackupsRequest({ viewMode: 'pbs' }), onModel)
    store.applyFull({}, 0)
    const outcome = store.applyDelta(
      { upsert: { pbsBackups: [{ ...makePbsBackup('104', t + 60) }] } },
      1,
    )
    expect(outcome.outcome).toBe('applied')
    subs.flush()
    expect(models.at(-1)!.totals.matched).toBe(2)
  })

  it('answers a request change at once and stops after removal', () => {
    const { store, models, subs, onModel } = setup()
    subs.add(3, makeBackupsRequest(), onModel)
    subs.update(3, makeBackupsRequest({ viewMode: 'pve' }))
    expect(models).toHaveLength(2)
    expect(models[1]!.totals.matched).toBe(1)
    expect(subs.remove(3)).toBe(onModel)
    store.applyFull({ pbsBackups: [] })
    subs.flush()
    expect(models).toHaveLength(2)
  })

  it('reports backup data as not loaded before the server sent any', () => {
    const store = createStateStore()
    store.applyFull({ nodes: [makeNode('pve1')] })
    const models: BackupsViewModel[] = []
    createViewSubscriptions(VIEW_KINDS, { store, now: () => now }, (onModel, model) =>
      onModel(model),
    ).add(1, makeBackupsRequest(), (model) => models.push(model))
    expect(models[0]).toMatchObject({ loaded: false, sources: 1, rowCount: 0 })
  })
})
