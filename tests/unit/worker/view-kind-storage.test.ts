// The storage view kind through the subscriptions, over a real state store.
import { describe, expect, it } from 'vitest'
import type {
  StorageViewModel,
  StorageViewRequest,
} from '../../../src/shared/views/storage-types.ts'
import { VIEW_KINDS } from '../../../src/worker/view-kinds.ts'
import { createViewSubscriptions } from '../../../src/worker/view-subscriptions.ts'
import { createStateStore } from '../../../src/worker/store.ts'
import { makeGuest, makeNode } from '../shared/views/guest-fixtures.ts'

const REQUEST: StorageViewRequest = {
  kind: 'storage',
  viewMode: 'node',
  search: '',
  diskSearch: '',
  sort: { key: 'name', direction: 'asc' },
  selectedNode: null,
}

function entry(node: string, name: string, total = 1000) {
  return {
    id: `lab-${node}-${name}`,
    name,
    node,
    instance: 'lab',
    type: 'dir',
    content: 'images',
    status: 'available',
    shared: false,
    enabled: true,
    active: true,
    total,
    used: total / 2,
    free: total / 2,
    usage: 50,
  }
}

function setup() {
  const store = createStateStore()
  store.applyFull({
    nodes: [makeNode('pve1'), makeNode('pve2')],
    storage: [entry('pve1', 'local'), entry('pve2', 'local')],
  })
  const models: StorageViewModel[] = []
  const subs = createViewSubscriptions(VIEW_KINDS, { store, now: Date.now }, (onModel, model) =>
    onModel(model),
  )
  return { store, models, subs, onModel: (model: StorageViewModel) => models.push(model) }
}

describe('storage subscriptions', () => {
  it('sends a first model at once and a new one only when storage data changed', () => {
    const { store, models, subs, onModel } = setup()
    subs.add(1, REQUEST, onModel)
    expect(models).toHaveLength(1)
    expect(models[0]?.poolCount).toBe(2)
    // Guests changing is not the storage tab's business.
    store.applyFull({ vms: [makeGuest(100)] })
    subs.flush()
    expect(models).toHaveLength(1)
    store.applyFull({
      storage: [entry('pve1', 'local'), entry('pve2', 'local'), entry('pve2', 'nfs')],
    })
    subs.flush()
    expect(models).toHaveLength(2)
    expect(models[1]?.poolCount).toBe(3)
    expect(models[1]!.version).toBeGreaterThan(models[0]!.version)
  })

  it('answers a changed request at once and stops after removal', () => {
    const { store, models, subs, onModel } = setup()
    subs.add(4, REQUEST, onModel)
    subs.update(4, { ...REQUEST, selectedNode: 'lab-pve2' })
    expect(models.at(-1)?.poolCount).toBe(1)
    expect(subs.remove(4)).toBe(onModel)
    store.applyFull({ storage: [] })
    subs.flush()
    subs.update(4, REQUEST)
    expect(models).toHaveLength(2)
  })
})
