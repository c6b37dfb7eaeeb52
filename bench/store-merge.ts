// Benchmark (a): merge one poll's delta (~10% of guests changed cpu/mem/io) into the worker's store;
// and the structural tick (a guest added or removed, structural-tick.ts).
import type { StateDelta } from '../src/shared/model/messages.ts'
import { createStateStore, type StateStore } from '../src/worker/store.ts'
import { parseServerMessage } from '../src/worker/parse-message.ts'
import { createEstate, createMetricsDelta, createRandom } from './fixtures.ts'
import { getIterations, measure, type BenchResult } from './harness.ts'
import { benchStructuralTick } from './structural-tick.ts'

/** Run the merge cases at one estate size. */
export function benchStoreMerge(size: number): BenchResult[] {
  const state = createEstate(size)
  const random = createRandom(7)
  const deltas: StateDelta[] = Array.from({ length: 8 }, () =>
    createMetricsDelta(state, 0.1, random),
  )
  const frames = deltas.map((delta, i) => JSON.stringify({ type: 'delta', data: delta, seq: i }))
  const counts = getIterations(size)
  let store: StateStore
  let seq = 0
  let turn = 0
  const reset = () => {
    store = createStateStore()
    store.applyFull(state as unknown as Record<string, unknown>, 0)
    store.getGuests()
    seq = 0
  }
  reset()

  const merge = measure({
    name: 'merge delta (apply + guests array)',
    size,
    ...counts,
    before: () => void turn++,
    run: () => {
      store.applyDelta(deltas[turn % deltas.length]!, ++seq)
      store.getGuests()
    },
  })
  reset()
  const parseMerge = measure({
    name: 'parse + merge delta frame',
    size,
    ...counts,
    before: () => void turn++,
    run: () => {
      const parsed = parseServerMessage(frames[turn % frames.length]!)
      if (!parsed.ok || parsed.message.type !== 'delta') throw new Error('bad frame')
      store.applyDelta(parsed.message.data, ++seq)
      store.getGuests()
    },
  })
  return [merge, parseMerge, ...benchStructuralTick(size)]
}
