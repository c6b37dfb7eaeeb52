// Benchmark (issue 27, target 4): a structural tick in the worker: one poll in which a guest was
// added and another removed (the demo's churn), every other guest's metrics changed, as delta
// mode 2 sends it (JSON delta with the new guest's slot + binary metrics frame). Timed: the store
// (applyDelta + applyMetrics, columns kept current) and the guest view re-computed after it.
import { createGuestSlots, diffStateSteps, runSteps } from '../src/shared/model/delta-steps.ts'
import { applyDelta } from '../src/shared/model/delta.ts'
import { decodeMetricsFrame, encodeMetricsFrame } from '../src/shared/model/guest-metrics.ts'
import type { Guest, State } from '../src/shared/model/state.ts'
import { createGuestViewPipeline } from '../src/shared/views/guest-view.ts'
import { DEFAULT_GUEST_VIEW_REQUEST } from '../src/shared/views/guest-view-types.ts'
import { parseServerMessage } from '../src/worker/parse-message.ts'
import { createStateStore } from '../src/worker/store.ts'
import { createEstate, createMetricsDelta, createRandom, guestViewInput } from './fixtures.ts'
import type { BenchResult } from './harness.ts'

const TICKS = 24

/** Polls that alternately add a guest and remove one, each with every guest's metrics changed. */
function createStructuralPolls(size: number): State[] {
  const random = createRandom(17)
  const polls: State[] = [createEstate(size)]
  let added = 0
  for (let i = 1; i <= TICKS; i++) {
    const prev = polls[i - 1]!
    const next = applyDelta(prev, createMetricsDelta(prev, 1, random))
    const vms = next.vms.map((g) => ({ ...g, memory: { ...g.memory }, disk: { ...g.disk } }))
    const containers = next.containers.map((g) => ({ ...g }))
    if (i % 2) {
      // A new VM (in the middle of its node's list, as a collector lists them) …
      const at = Math.floor(random() * vms.length)
      const model = vms[at]!
      const guest: Guest = { ...model, id: `${model.id}-new${++added}`, vmid: 900_000 + added }
      vms.splice(at, 0, guest)
    } else {
      // … and another guest destroyed.
      const list = random() < 0.6 ? vms : containers
      list.splice(Math.floor(random() * list.length), 1)
    }
    polls.push({ ...next, vms, containers })
  }
  return polls
}

interface Tick {
  text: string
  binary: ArrayBuffer | null
}

function median(times: number[]): {
  medianMs: number
  p95Ms: number
  meanMs: number
  minMs: number
} {
  const sorted = [...times].sort((a, b) => a - b)
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!
  return {
    medianMs: at(0.5),
    p95Ms: at(0.95),
    meanMs: times.reduce((a, b) => a + b, 0) / times.length,
    minMs: sorted[0]!,
  }
}

/** The structural tick at one estate size: store, view, and both. */
export function benchStructuralTick(size: number): BenchResult[] {
  const polls = createStructuralPolls(size)
  const slots = createGuestSlots()
  runSteps(diffStateSteps({ ...polls[0]!, vms: [], containers: [] }, polls[0]!, slots))
  const ticks: Tick[] = []
  for (let i = 1; i < polls.length; i++) {
    const c = runSteps(diffStateSteps(polls[i - 1]!, polls[i]!, slots))
    ticks.push({
      text: JSON.stringify({ type: 'delta', data: c.delta ?? {}, seq: 0, metrics: 1 }),
      binary: c.metrics ? encodeMetricsFrame(0, c.metrics) : null,
    })
  }
  const store = createStateStore()
  store.applyFull(JSON.parse(JSON.stringify(polls[0])) as Record<string, unknown>, 0)
  const first = createGuestSlots()
  runSteps(diffStateSteps({ ...polls[0]!, vms: [], containers: [] }, polls[0]!, first))
  store.applyDelta({ guestSlots: Object.fromEntries(first.of) }, 1)
  const pipeline = createGuestViewPipeline()
  const request = { ...DEFAULT_GUEST_VIEW_REQUEST, window: { start: 0, count: 60 } }
  pipeline.compute(guestViewInput(store), request)
  const storeTimes: number[] = []
  const viewTimes: number[] = []
  const allTimes: number[] = []
  // The first ticks warm the code up; every tick moves the slot table on, so each runs once.
  const warmup = 4
  ticks.forEach((tick, i) => {
    const parsed = parseServerMessage(tick.text)
    if (!parsed.ok || parsed.message.type !== 'delta') throw new Error('bad frame')
    const seq = store.seq! + 1
    let frame = null
    if (tick.binary) {
      const copy = tick.binary.slice(0)
      new DataView(copy).setFloat64(16, seq, true)
      const decoded = decodeMetricsFrame(copy)
      if (!decoded.ok) throw new Error(decoded.reason)
      frame = decoded.frame
    }
    const started = performance.now()
    store.applyDelta(parsed.message.data, seq, frame !== null)
    if (frame) store.applyMetrics(frame)
    const merged = performance.now()
    pipeline.compute(guestViewInput(store), request)
    const viewed = performance.now()
    if (i < warmup) return
    storeTimes.push(merged - started)
    viewTimes.push(viewed - merged)
    allTimes.push(viewed - started)
  })
  const result = (name: string, times: number[]): BenchResult => ({
    name,
    size,
    iterations: times.length,
    ...median(times),
  })
  return [
    result('structural tick: merge (delta + metrics frame)', storeTimes),
    result('structural tick: guest view re-computed', viewTimes),
    result('structural tick: merge + view (a guest added or removed)', allTimes),
  ]
}
