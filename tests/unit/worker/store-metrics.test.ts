// Delta mode 2 in the store: JSON deltas with guest slots, then binary metrics frames. Random
// state sequences merge to the same state and the same live columns as a full state would give.
import { describe, expect, it } from 'vitest'
import {
  createGuestSlots,
  diffStateSteps,
  runSteps,
} from '../../../src/shared/model/delta-steps.ts'
import {
  createMetricChanges,
  decodeMetricsFrame,
  encodeMetricsFrame,
  type MetricsFrame,
} from '../../../src/shared/model/guest-metrics.ts'
import {
  buildStateColumns,
  type StateColumns,
} from '../../../src/shared/views/guest-live-columns.ts'
import { ENTITY_COLLECTIONS, SCALAR_KEYS, type State } from '../../../src/shared/model/state.ts'
import { createStateStore } from '../../../src/worker/store.ts'
import { generateStates } from './random-state.ts'

const byId = (rows: readonly { id: string }[]) =>
  [...rows].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))

// Status codes are interned in the order statuses were first met, which differs between columns
// kept current through adds and removes and columns built at once: compare the statuses.
function comparable(columns: StateColumns) {
  const { status, statuses: _lower, statusValues, ...rest } = columns
  return { ...rest, status: [...status].map((code) => statusValues[code]) }
}

function frame(seq: number, slots: number[], masks: number[], values: number[]): MetricsFrame {
  const changes = { ...createMetricChanges(), slots, masks, values }
  const decoded = decodeMetricsFrame(encodeMetricsFrame(seq, changes))
  if (!decoded.ok) throw new Error(decoded.reason)
  return decoded.frame
}

describe('state store, delta mode 2', () => {
  it('merges random sequences of deltas and metrics frames into the state and its live columns', () => {
    for (const seed of [1, 2, 3]) {
      const states = generateStates(seed, 30)
      const slots = createGuestSlots()
      const store = createStateStore()
      // The first state arrives as a delta from the empty one, as a load would give it.
      let seq = 0
      store.applyFull({ ...states[0], vms: [], containers: [] }, seq)
      let previous: State = { ...states[0]!, vms: [], containers: [] }
      let frames = 0
      for (const state of states) {
        const { delta, metrics } = runSteps(diffStateSteps(previous, state, slots))
        previous = state
        if (!delta && !metrics) continue
        const wire = JSON.parse(JSON.stringify(delta ?? {})) as NonNullable<typeof delta>
        expect(store.applyDelta(wire, ++seq, metrics !== null).outcome).toBe('applied')
        // Columns in use, so the merge must keep them current.
        store.getGuestColumns()
        if (metrics) {
          frames++
          const decoded = decodeMetricsFrame(encodeMetricsFrame(seq, metrics))
          if (!decoded.ok) throw new Error(decoded.reason)
          expect(store.applyMetrics(decoded.frame).outcome).toBe('applied')
        }
        const held = store.toState()
        for (const key of ENTITY_COLLECTIONS) expect(byId(held[key]), key).toEqual(byId(state[key]))
        for (const key of SCALAR_KEYS) expect(held[key], key).toEqual(state[key])
        expect(comparable(store.getGuestColumns())).toEqual(
          comparable(buildStateColumns(store.getGuests())),
        )
      }
      expect(frames).toBeGreaterThan(10)
    }
  })

  it('treats a metrics frame of another seq, or a delta while one is due, as a gap', () => {
    const store = createStateStore()
    store.applyFull({ vms: [{ id: 'v1', cpu: 0.1 }] }, 1)
    expect(store.applyDelta({ guestSlots: { v1: 0 } }, 2, true).outcome).toBe('applied')
    expect(store.applyMetrics(frame(3, [0], [1], [0.5])).outcome).toBe('gap')
    expect(store.seq).toBeNull()

    store.applyFull({ vms: [{ id: 'v1', cpu: 0.1 }] }, 1)
    expect(store.applyDelta({ guestSlots: { v1: 0 } }, 2, true).outcome).toBe('applied')
    expect(store.applyDelta({}, 3).outcome).toBe('gap')
  })

  it('skips slots it does not know and updates the guests it does', () => {
    const store = createStateStore()
    store.applyFull({ vms: [{ id: 'v1', cpu: 0.1, memory: { used: 1, usage: 50, total: 2 } }] }, 1)
    store.applyDelta({ guestSlots: { v1: 4 } }, 2, true)
    // Slot 9 is unknown (its cpu value is skipped); slot 4 gets cpu and memory.used.
    const result = store.applyMetrics(frame(2, [9, 4], [0b1, 0b1000001], [0.9, 0.7, 2]))
    expect(result.outcome).toBe('applied')
    expect(store.getGuests()[0]).toMatchObject({ cpu: 0.7, memory: { used: 2, usage: 50 } })
  })
})

describe('state store: a first load with small backups in its head', () => {
  it('keeps the backups of the head (they are not chunked when few)', () => {
    const store = createStateStore()
    store.beginLoad(3, { pbsBackups: [{ id: 'b1' }], nodes: [] }, { vms: 0, containers: 0 })
    expect(store.endLoad(3)).toBe(true)
    expect(store.getCollection('pbsBackups').map((b) => b.id)).toEqual(['b1'])
    expect(store.holdsBackups()).toBe(true)
  })
})
