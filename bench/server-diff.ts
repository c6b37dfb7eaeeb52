// Server fan-out: turn one poll into the delta frame every delta client receives.
// The poller builds fresh guest objects each cycle, so the diff compares every entity by value.
import { applyDelta, diffState } from '../src/shared/model/delta.ts'
import type { Guest, State } from '../src/shared/model/state.ts'
import { createEstate, createMetricsDelta, createRandom } from './fixtures.ts'
import { getIterations, measure, type BenchResult } from './harness.ts'

const freshCopy = (guests: Guest[]): Guest[] =>
  guests.map((g) => ({ ...g, memory: { ...g.memory }, disk: { ...g.disk } }))

/** Run the server-side cases at one estate size. */
export function benchServerDiff(size: number): BenchResult[] {
  const base = createEstate(size)
  const random = createRandom(11)
  // Successive polls: ~10% of guests changed, every object new, as the mappers produce them.
  const polls: State[] = [base]
  for (let i = 1; i < 6; i++) {
    const next = applyDelta(polls[i - 1]!, createMetricsDelta(polls[i - 1]!, 0.1, random))
    polls.push({ ...next, vms: freshCopy(next.vms), containers: freshCopy(next.containers) })
  }
  const counts = getIterations(size)
  let turn = 0
  const pair = () => [polls[turn % 5]!, polls[(turn % 5) + 1]!] as const
  const diff = measure({
    name: 'diff two polls',
    size,
    ...counts,
    before: () => void turn++,
    run: () => {
      const [prev, next] = pair()
      diffState(prev, next)
    },
  })
  const frame = measure({
    name: 'diff + serialise delta frame',
    size,
    ...counts,
    before: () => void turn++,
    run: () => {
      const [prev, next] = pair()
      JSON.stringify({ type: 'delta', data: diffState(prev, next), seq: turn })
    },
  })
  const full = measure({
    name: 'serialise full state (rawData)',
    size,
    ...counts,
    run: () => void JSON.stringify({ type: 'rawData', data: base }),
  })
  return [diff, frame, full]
}
