// The node summary view kind through the subscriptions, over a real state store.
import { describe, expect, it } from 'vitest'
import { VIEW_KINDS } from '../../../src/worker/view-kinds.ts'
import { createViewSubscriptions } from '../../../src/worker/view-subscriptions.ts'
import { createStateStore } from '../../../src/worker/store.ts'
import type { NodeSummaryModel } from '../../../src/shared/views/node-summary-types.ts'
import { makeGuest, makeNode } from '../shared/views/guest-fixtures.ts'

function setup() {
  const store = createStateStore()
  store.applyFull({ nodes: [makeNode('pve1'), makeNode('pve2')], vms: [makeGuest(100)] })
  const models: NodeSummaryModel[] = []
  const subs = createViewSubscriptions(VIEW_KINDS, { store, now: Date.now }, (onModel, model) =>
    onModel(model),
  )
  return { store, models, subs, onModel: (model: NodeSummaryModel) => models.push(model) }
}

describe('node summary subscriptions', () => {
  it('sends a first model at once and a new one only when the data it reads changed', () => {
    const { store, models, subs, onModel } = setup()
    subs.add(1, { kind: 'nodeSummary', tab: 'dashboard', sort: null }, onModel)
    expect(models).toHaveLength(1)
    expect(models[0]?.rows.map((row) => [row.name, row.counts])).toEqual([
      ['pve1', { vms: 1, containers: 0 }],
      ['pve2', { vms: 0, containers: 0 }],
    ])
    subs.flush()
    expect(models).toHaveLength(1)
    store.applyFull({ vms: [makeGuest(100), makeGuest(101, { node: 'pve2' })] })
    subs.flush()
    expect(models).toHaveLength(2)
    expect(models[1]?.rows[1]?.counts).toEqual({ vms: 1, containers: 0 })
    expect(models[1]!.version).toBeGreaterThan(models[0]!.version)
  })

  it('answers a new sort at once and stops after removal', () => {
    const { store, models, subs, onModel } = setup()
    subs.add(7, { kind: 'nodeSummary', tab: 'dashboard', sort: null }, onModel)
    subs.update(7, {
      kind: 'nodeSummary',
      tab: 'dashboard',
      sort: { key: 'name', direction: 'desc' },
    })
    expect(models.at(-1)?.rows.map((row) => row.name)).toEqual(['pve2', 'pve1'])
    expect(subs.remove(7)).toBe(onModel)
    expect(subs.remove(7)).toBeUndefined()
    store.applyFull({ nodes: [makeNode('pve3')] })
    subs.flush()
    subs.update(7, { kind: 'nodeSummary', tab: 'dashboard', sort: null })
    expect(models).toHaveLength(2)
  })
})
