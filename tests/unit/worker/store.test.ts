import { describe, expect, it } from 'vitest'
import { createStateStore, type StoreSnapshot } from '../../../src/worker/store.ts'
import { buildStateColumns } from '../../../src/shared/views/guest-live-columns.ts'
import { diffState } from '../../../src/shared/model/delta.ts'
import {
  ENTITY_COLLECTIONS,
  SCALAR_KEYS,
  createEmptyState,
  type State,
} from '../../../src/shared/model/state.ts'
import { generateStates } from './random-state.ts'

const byId = (rows: readonly { id: string }[]) =>
  [...rows].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))

function expectSameState(actual: StoreSnapshot, expected: State) {
  for (const key of ENTITY_COLLECTIONS) expect(byId(actual[key]), key).toEqual(byId(expected[key]))
  for (const key of SCALAR_KEYS) expect(actual[key], key).toEqual(expected[key])
}

describe('state store full states', () => {
  it('replaces only the keys present and keeps the others', () => {
    const store = createStateStore()
    store.applyFull({ nodes: [{ id: 'n1', name: 'pve1' }], vms: [{ id: 'v1', vmid: 1 }] })
    const nodes = store.getNodes()
    const changed = store.applyFull({ vms: [{ id: 'v2', vmid: 2 }], lastUpdate: 5 })
    expect([...changed].sort()).toEqual(['scalars', 'vms'])
    expect(store.getNodes()).toBe(nodes)
    expect(store.getGuests().map((guest) => guest.id)).toEqual(['v2'])
    expect(store.getLastUpdate()).toBe(5)
  })

  it('gives guests without an id their identity key and normalises tags to arrays', () => {
    const store = createStateStore()
    store.applyFull({
      vms: [{ instance: 'lab', node: 'pve1', vmid: 101, tags: 'prod, web ;; db' }],
      containers: [{ instance: 'pve2', node: 'pve2', vmid: 201, tags: ['a', ' b '] }],
    })
    const guests = store.getGuests()
    expect(guests.map((guest) => guest.id)).toEqual(['lab-pve1-101', 'pve2-201'])
    expect(guests.map((guest) => guest.tags)).toEqual([
      ['prod', 'web', 'db'],
      ['a', 'b'],
    ])
  })

  it('treats a null collection as empty and parses an ISO lastUpdate', () => {
    const store = createStateStore()
    store.applyFull({ vms: [{ id: 'v1' }] })
    store.applyFull({ vms: null, lastUpdate: '2025-10-11T21:14:03.51+02:00' })
    expect(store.getGuests()).toEqual([])
    expect(store.getLastUpdate()).toBe(Date.parse('2025-10-11T19:14:03.510Z'))
  })

  it('keeps array identity until the collection changes', () => {
    const store = createStateStore()
    store.applyFull({ nodes: [{ id: 'n1' }], vms: [{ id: 'v1' }] }, 1)
    const guests = store.getGuests()
    const nodes = store.getNodes()
    store.applyDelta({ upsert: { nodes: [{ id: 'n1', cpu: 0.5 }] } }, 2)
    expect(store.getGuests()).toBe(guests)
    expect(store.getNodes()).not.toBe(nodes)
  })
})

describe('state store deltas', () => {
  it('applies upserts, removals and scalars in sequence', () => {
    const store = createStateStore()
    store.applyFull({ vms: [{ id: 'v1', cpu: 0.1, lock: 'backup' }, { id: 'v2' }] }, 7)
    const result = store.applyDelta(
      {
        upsert: {
          vms: [
            { id: 'v1', cpu: 0.9, lock: null },
            { id: 'v3', tags: 'x,y' },
          ],
        },
        remove: { vms: ['v2'] },
        scalars: { lastUpdate: 42 },
      },
      8,
    )
    expect(result.outcome).toBe('applied')
    expect(store.seq).toBe(8)
    expect(store.getGuests()).toEqual([
      { id: 'v1', cpu: 0.9 },
      { id: 'v3', tags: ['x', 'y'] },
    ])
    expect(store.getLastUpdate()).toBe(42)
  })

  it('reports a gap and ignores deltas until the next full state with a seq', () => {
    const store = createStateStore()
    store.applyFull({ vms: [{ id: 'v1', cpu: 0 }] }, 1)
    expect(store.applyDelta({ upsert: { vms: [{ id: 'v1', cpu: 1 }] } }, 3).outcome).toBe('gap')
    expect(store.applyDelta({ upsert: { vms: [{ id: 'v1', cpu: 2 }] } }, 4).outcome).toBe('ignored')
    expect(store.getGuests()[0]?.cpu).toBe(0)
    store.applyFull({ vms: [{ id: 'v1', cpu: 3 }] }, 10)
    expect(store.applyDelta({ upsert: { vms: [{ id: 'v1', cpu: 4 }] } }, 11).outcome).toBe(
      'applied',
    )
    expect(store.getGuests()[0]?.cpu).toBe(4)
  })

  it('ignores deltas before any full state and after invalidation', () => {
    const store = createStateStore()
    expect(store.applyDelta({ remove: { vms: ['x'] } }, 1).outcome).toBe('ignored')
    store.applyFull({}, 1)
    store.invalidate()
    expect(store.applyDelta({ remove: { vms: ['x'] } }, 2).outcome).toBe('ignored')
  })

  it('treats a repeated sequence number as a gap', () => {
    const store = createStateStore()
    store.applyFull({}, 5)
    expect(store.applyDelta({}, 5).outcome).toBe('gap')
  })

  it('merges initialState and diffState deltas into the target state, over random sequences', () => {
    for (const seed of [1, 2, 3, 42, 1234]) {
      const states = generateStates(seed, 40)
      const store = createStateStore()
      let seq = 100
      store.applyFull(states[0] as unknown as Record<string, unknown>, seq)
      for (let i = 1; i < states.length; i++) {
        const delta = diffState(states[i - 1]!, states[i]!)
        if (!delta) continue
        // Through JSON, as on the wire: nulls mark removed fields.
        const wire = JSON.parse(JSON.stringify(delta)) as typeof delta
        expect(store.applyDelta(wire, ++seq).outcome).toBe('applied')
      }
      expectSameState(store.toState(), states[states.length - 1]!)
    }
  })

  it('starts from an empty state with nothing in it', () => {
    const store = createStateStore()
    store.applyFull(createEmptyState(0, 'x') as unknown as Record<string, unknown>, 0)
    expect(store.getGuests()).toHaveLength(0)
    expect(store.getServerVersion()).toBe('x')
  })
})

describe('state store guest stamps', () => {
  const setup = () => {
    const store = createStateStore()
    store.applyFull(
      {
        vms: [{ id: 'v1', vmid: 101, name: 'web', node: 'pve1', cpu: 0.1, lock: 'backup' }],
        containers: [{ id: 'c1', vmid: 201, name: 'db', node: 'pve1', cpu: 0.2 }],
      },
      0,
    )
    return { store, base: store.getGuestStamp() }
  }

  it('moves only the data counter for a metrics update, merged into the same guest', () => {
    const { store, base } = setup()
    const guests = store.getGuests()
    store.applyDelta({ upsert: { vms: [{ id: 'v1', cpu: 0.9, lock: null }] } }, 1)
    const stamp = store.getGuestStamp()
    expect(stamp).toEqual({ ...base, data: base.data + 1 })
    // Same array: membership and order did not change, the guest was updated in place.
    expect(store.getGuests()).toBe(guests)
    expect(store.getGuests()[0]).toMatchObject({ id: 'v1', cpu: 0.9, name: 'web' })
    expect(store.getGuests()[0]).not.toHaveProperty('lock')
  })

  it('moves identity for a rename, placement for a migration, structure for add and remove', () => {
    const { store, base } = setup()
    const guests = store.getGuests()
    store.applyDelta({ upsert: { vms: [{ id: 'v1', name: 'web-2' }] } }, 1)
    expect(store.getGuestStamp().identity).toBe(base.identity + 1)
    expect(store.getGuests()).not.toBe(guests)
    store.applyDelta({ upsert: { containers: [{ id: 'c1', node: 'pve2' }] } }, 2)
    expect(store.getGuestStamp().placement).toBe(base.placement + 1)
    expect(store.getGuestStamp().structure).toBe(base.structure)
    store.applyDelta({ upsert: { vms: [{ id: 'v2', vmid: 102, name: 'new', node: 'pve1' }] } }, 3)
    expect(store.getGuestStamp().structure).toBe(base.structure + 1)
    store.applyDelta({ remove: { vms: ['v1'] } }, 4)
    expect(store.getGuestStamp().structure).toBe(base.structure + 2)
    expect(store.getGuests().map((guest) => guest.id)).toEqual(['v2', 'c1'])
  })

  it('leaves the guest stamp alone when only other collections change', () => {
    const { store, base } = setup()
    store.applyDelta(
      { upsert: { nodes: [{ id: 'n1', name: 'pve1' }] }, scalars: { lastUpdate: 9 } },
      1,
    )
    expect(store.getGuestStamp()).toEqual(base)
  })
})

describe('state store guest merge lookups', () => {
  it('finds every guest whatever order the patches come in, and re-adds one removed in the delta', () => {
    const store = createStateStore()
    const vms = Array.from({ length: 50 }, (_, i) => ({ id: `v${i}`, vmid: 100 + i, cpu: 0 }))
    store.applyFull({ vms }, 0)
    const shuffled = vms.map((vm, i) => ({ id: vm.id, cpu: i / 100 })).reverse()
    shuffled.splice(10, 0, ...shuffled.splice(30, 5))
    store.applyDelta({ upsert: { vms: shuffled } }, 1)
    expect(store.getGuests().map((guest) => guest.cpu)).toEqual(vms.map((_, i) => i / 100))
    store.applyDelta(
      { remove: { vms: ['v3'] }, upsert: { vms: [{ id: 'v3', vmid: 103, cpu: 1 }] } },
      2,
    )
    expect(store.getGuests().find((guest) => guest.id === 'v3')).toEqual({
      id: 'v3',
      vmid: 103,
      cpu: 1,
    })
    expect(store.getGuests()).toHaveLength(50)
  })
})

describe('state store live columns', () => {
  it('keeps the columns patched in place equal to columns rebuilt from the merged guests', () => {
    const store = createStateStore()
    const vm = (i: number) => ({
      id: `v${i}`,
      vmid: 100 + i,
      type: 'qemu',
      status: 'running',
      uptime: 100 * i,
      cpu: i / 10,
      memory: { usage: i, used: 1, total: 2 },
      disk: { usage: i, used: 1, total: 2 },
      diskRead: i,
    })
    store.applyFull(
      { vms: [vm(1), vm(2), vm(3)], containers: [{ ...vm(4), id: 'c4', type: 'lxc' }] },
      0,
    )
    const columns = store.getGuestColumns()
    store.applyDelta(
      {
        upsert: {
          vms: [
            { id: 'v1', status: 'stopped', cpu: 0 },
            { id: 'v3', disk: { usage: -1, used: 0, total: 0 }, memory: null, diskRead: 7 },
          ],
          containers: [{ id: 'c4', uptime: 5, networkIn: 9 }],
        },
      },
      1,
    )
    // Patched in place (the same object), with the values a rebuild gives.
    expect(store.getGuestColumns()).toBe(columns)
    const rebuilt = buildStateColumns(store.getGuests())
    const { status, statuses, statusValues: _values, ...rest } = store.getGuestColumns()
    const {
      status: rebuiltStatus,
      statuses: rebuiltStatuses,
      statusValues: _v,
      ...rebuiltRest
    } = rebuilt
    expect(rest).toEqual(rebuiltRest)
    // Status codes are numbered in order of discovery; the texts they stand for must agree.
    expect([...status].map((code) => statuses[code])).toEqual(
      [...rebuiltStatus].map((code) => rebuiltStatuses[code]),
    )
    expect(columns.running[0]).toBe(0)
    expect(columns.sort.disk[2]).toBeNaN()
    expect(columns.metric.uptime[3]).toBe(5)
  })

  it('rebuilds the columns after guests are added or found off the merge cursor', () => {
    const store = createStateStore()
    store.applyFull(
      {
        vms: [
          { id: 'v1', vmid: 1, cpu: 0.1 },
          { id: 'v2', vmid: 2, cpu: 0.2 },
        ],
      },
      0,
    )
    const before = store.getGuestColumns()
    store.applyDelta({ upsert: { vms: [{ id: 'v3', vmid: 3, cpu: 0.3 }] } }, 1)
    const after = store.getGuestColumns()
    expect(after).not.toBe(before)
    expect([...after.sort.cpu]).toEqual([0.1, 0.2, 0.3])
  })
})
