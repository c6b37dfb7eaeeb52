// Benchmarks (b) and (c): the guest view pipeline at a 60-row window.
import {
  DEFAULT_GUEST_VIEW_REQUEST,
  type GuestViewRequest,
} from '../src/shared/views/guest-view-types.ts'
import { createGuestViewPipeline, type GuestViewInput } from '../src/shared/views/guest-view.ts'
import { createStateStore } from '../src/worker/store.ts'
import { createEstate, createMetricsDelta, createRandom } from './fixtures.ts'
import { getIterations, measure, type BenchResult } from './harness.ts'

const BASE: GuestViewRequest = { ...DEFAULT_GUEST_VIEW_REQUEST }

// Alternating requests, so every iteration changes the search and the sort.
const CHANGES: GuestViewRequest[] = [
  { ...BASE, search: 'web', sort: { key: 'cpu', direction: 'desc' } },
  { ...BASE, search: 'prod', sort: { key: 'name', direction: 'asc' } },
  { ...BASE, search: '', sort: { key: 'memory', direction: 'desc' } },
]

/** Run the view cases at one estate size. */
export function benchGuestView(size: number): BenchResult[] {
  const state = createEstate(size)
  const store = createStateStore()
  store.applyFull(state as unknown as Record<string, unknown>, 0)
  const input = (): GuestViewInput => ({
    guests: store.getGuests(),
    nodes: store.getNodes(),
    lastUpdate: store.getLastUpdate(),
  })
  const counts = getIterations(size)
  const pipeline = createGuestViewPipeline()
  let turn = 0

  const searchSort = measure({
    name: 'view: search + sort change',
    size,
    ...counts,
    before: () => void turn++,
    run: () => void pipeline.compute(input(), CHANGES[turn % CHANGES.length]!),
  })

  const scrolled = createGuestViewPipeline()
  const scrollBase = { ...BASE, sort: { key: 'cpu', direction: 'desc' } } as GuestViewRequest
  scrolled.compute(input(), scrollBase)
  const rows = scrolled.compute(input(), scrollBase).rowCount
  const window = measure({
    name: 'view: window only (scroll)',
    size,
    ...counts,
    before: () => void turn++,
    run: () => {
      const start = (turn * 997) % Math.max(1, rows - 60)
      scrolled.compute(input(), { ...scrollBase, window: { start, count: 60 } })
    },
  })

  // A poll's delta merged, then the same view recomputed on the new data.
  const random = createRandom(3)
  const deltas = Array.from({ length: 4 }, () => createMetricsDelta(state, 0.1, random))
  let seq = 0
  const live = createGuestViewPipeline()
  live.compute(input(), scrollBase)
  const afterMerge = measure({
    name: 'view: recompute after a merge',
    size,
    ...counts,
    before: () => void store.applyDelta(deltas[++turn % deltas.length]!, ++seq),
    run: () => void live.compute(input(), scrollBase),
  })
  return [searchSort, window, afterMerge]
}
