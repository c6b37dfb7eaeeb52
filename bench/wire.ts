// The wire at every size (issue 13, targets 1, 3, 4 and 8 on the CPU side): a poll in which every
// guest's metrics changed, from the server's diff to the worker's re-viewed dashboard, in delta
// mode 2 (JSON delta + binary metrics frame) against mode 1 (all JSON); and the first load's frames.
import { createGuestSlots, diffStateSteps, runSteps } from '../src/shared/model/delta-steps.ts'
import { applyDelta } from '../src/shared/model/delta.ts'
import { decodeMetricsFrame, encodeMetricsFrame } from '../src/shared/model/guest-metrics.ts'
import type { Guest, State } from '../src/shared/model/state.ts'
import { createGuestViewPipeline } from '../src/shared/views/guest-view.ts'
import { DEFAULT_GUEST_VIEW_REQUEST } from '../src/shared/views/guest-view-types.ts'
import { createSnapshotSource } from '../src/server/hub/hub-frames.ts'
import type { Publication } from '../src/server/live/live-state.ts'
import { parseServerMessage } from '../src/worker/parse-message.ts'
import { createStateStore } from '../src/worker/store.ts'
import { createEstate, createMetricsDelta, createRandom, guestViewInput } from './fixtures.ts'
import { getIterations, measure, type BenchResult } from './harness.ts'

const freshCopy = (guests: Guest[]): Guest[] =>
  guests.map((g) => ({ ...g, memory: { ...g.memory }, disk: { ...g.disk } }))

/** Figures that are sizes or counts, not times. */
export interface WireFacts {
  size: number
  fullStateBytes: number
  mode1DeltaBytes: number
  mode2DeltaBytes: number
  mode2BinaryBytes: number
  /** Mode 2 bytes of a tick in which every guest's metrics changed, in % of the full state. */
  tickPercentOfFull: number
  firstLoadFrames: number
  firstLoadBytes: number
  /** Head plus the first guest chunk: what the dashboard needs for its first rows. */
  bytesBeforeFirstRows: number
  /** Longest run of the sliced diff between two yields, ms (median over iterations). */
  longestDiffSliceMs: number
  longestChunkBuildMs: number
}

/** Polls in which every guest's metrics changed, every object new (as the mappers make them). */
function createPolls(size: number): State[] {
  const random = createRandom(13)
  const polls: State[] = [createEstate(size)]
  for (let i = 1; i < 5; i++) {
    const next = applyDelta(polls[i - 1]!, createMetricsDelta(polls[i - 1]!, 1, random))
    polls.push({ ...next, vms: freshCopy(next.vms), containers: freshCopy(next.containers) })
  }
  return polls
}

const publication = (state: State, seq: number): Publication => ({
  state,
  seq,
  changes: null,
  delta: null,
})

/** Run the wire cases at one estate size. */
export function benchWire(size: number): { results: BenchResult[]; facts: WireFacts } {
  const polls = createPolls(size)
  const counts = getIterations(size)
  const slots = createGuestSlots()
  // Assign every guest its slot, as the live state has by then.
  runSteps(diffStateSteps({ ...polls[0]!, vms: [], containers: [] }, polls[0]!, slots))
  let turn = 0
  const pair = () => [polls[turn % 4]!, polls[(turn % 4) + 1]!] as const

  const serverMode2 = measure({
    name: 'server: diff + mode-2 frames (every guest changed)',
    size,
    ...counts,
    before: () => void turn++,
    run: () => {
      const [prev, next] = pair()
      const { delta, metrics } = runSteps(diffStateSteps(prev, next, slots))
      JSON.stringify({ type: 'delta', data: delta, seq: turn, metrics: 1 })
      if (metrics) encodeMetricsFrame(turn, metrics)
    },
  })
  // The longest slice between two yields of the same diff: what the event loop waits at most.
  const slices: number[] = []
  for (let i = 0; i < 7; i++) {
    turn++
    const [prev, next] = pair()
    const steps = diffStateSteps(prev, next, slots)
    let longest = 0
    for (;;) {
      const started = performance.now()
      const step = steps.next()
      longest = Math.max(longest, performance.now() - started)
      if (step.done) break
    }
    slices.push(longest)
  }

  // Frames of one tick, for the worker side and the byte counts.
  const [prev, next] = [polls[0]!, polls[1]!]
  const tickSlots = createGuestSlots()
  runSteps(diffStateSteps({ ...prev, vms: [], containers: [] }, prev, tickSlots))
  const changes = runSteps(diffStateSteps(prev, next, tickSlots))
  const jsonFrame = JSON.stringify({ type: 'delta', data: changes.delta ?? {}, seq: 1, metrics: 1 })
  const binaryFrame = encodeMetricsFrame(1, changes.metrics!)
  const mode1Frame = JSON.stringify({
    type: 'delta',
    data: createMetricsDelta(prev, 1, createRandom(3)),
    seq: 1,
  })
  const fullBytes = JSON.stringify({ type: 'initialState', data: next, seq: 1 }).length

  // The worker: a store loaded with `prev` and a dashboard view in use.
  const store = createStateStore()
  store.applyFull(JSON.parse(JSON.stringify(prev)) as Record<string, unknown>, 0)
  store.applyDelta({ guestSlots: Object.fromEntries(tickSlots.of) }, 1)
  const pipeline = createGuestViewPipeline()
  const request = { ...DEFAULT_GUEST_VIEW_REQUEST, window: { start: 0, count: 60 } }
  const input = () => guestViewInput(store)
  pipeline.compute(input(), request)
  const workerMode2 = measure({
    name: 'worker: mode-2 tick of every guest (parse + merge + re-view)',
    size,
    ...counts,
    run: () => {
      const seq = store.seq! + 1
      const text = parseServerMessage(jsonFrame)
      if (!text.ok || text.message.type !== 'delta') throw new Error('bad frame')
      store.applyDelta(text.message.data, seq, true)
      const binary = binaryFrame.slice(0)
      new DataView(binary).setFloat64(16, seq, true)
      const frame = decodeMetricsFrame(binary)
      if (!frame.ok) throw new Error(frame.reason)
      store.applyMetrics(frame.frame)
      pipeline.compute(input(), request)
    },
  })
  // A structural tick: one guest replaced by a new one (and back, alternately), every other
  // guest's metrics changed. Positions move, so columns and view caches are rebuilt.
  const swapped = (state: State, i: number): State => {
    const vms = [...state.vms]
    const old = vms[Math.floor(vms.length / 2)]!
    vms[Math.floor(vms.length / 2)] = { ...old, id: `${old.id}-new${i}`, vmid: old.vmid + 1e6 }
    return { ...state, vms }
  }
  const structuralSlots = createGuestSlots()
  runSteps(diffStateSteps({ ...prev, vms: [], containers: [] }, prev, structuralSlots))
  const states = [prev]
  for (let i = 1; i <= 8; i++) {
    const poll = polls[(i % 4) + 1]!
    states.push(i % 2 ? swapped(poll, i) : poll)
  }
  const structuralFrames: Array<{ text: string; binary: ArrayBuffer }> = []
  for (let i = 1; i < states.length; i++) {
    const c = runSteps(diffStateSteps(states[i - 1]!, states[i]!, structuralSlots))
    structuralFrames.push({
      text: JSON.stringify({ type: 'delta', data: c.delta ?? {}, seq: 0, metrics: 1 }),
      binary: encodeMetricsFrame(0, c.metrics!),
    })
  }
  const structuralStore = createStateStore()
  structuralStore.applyFull(JSON.parse(JSON.stringify(prev)) as Record<string, unknown>, 0)
  structuralStore.applyDelta({ guestSlots: Object.fromEntries(structuralSlots.of) }, 1)
  const structuralPipeline = createGuestViewPipeline()
  const structuralInput = () => guestViewInput(structuralStore)
  structuralPipeline.compute(structuralInput(), request)
  let step = 0
  const workerStructural = measure({
    name: 'worker: mode-2 tick with a guest added and one removed',
    size,
    // Eight transitions (the slot table moves on with them): one pass over them.
    warmup: 0,
    iterations: 8,
    run: () => {
      const { text, binary } = structuralFrames[step++]!
      const seq = structuralStore.seq! + 1
      const parsed = parseServerMessage(text)
      if (!parsed.ok || parsed.message.type !== 'delta') throw new Error('bad frame')
      structuralStore.applyDelta(parsed.message.data, seq, true)
      const copy = binary.slice(0)
      new DataView(copy).setFloat64(16, seq, true)
      const frame = decodeMetricsFrame(copy)
      if (!frame.ok) throw new Error(frame.reason)
      structuralStore.applyMetrics(frame.frame)
      structuralPipeline.compute(structuralInput(), request)
    },
  })
  const workerMode1 = measure({
    name: 'worker: mode-1 tick of every guest (parse + merge + re-view)',
    size,
    ...counts,
    run: () => {
      const parsed = parseServerMessage(mode1Frame)
      if (!parsed.ok || parsed.message.type !== 'delta') throw new Error('bad frame')
      store.applyDelta(parsed.message.data, store.seq! + 1)
      pipeline.compute(input(), request)
    },
  })

  // The first load of mode 2: built chunk by chunk, shared by every client loading it.
  const source = createSnapshotSource(publication(next, 1), (id) => tickSlots.of.get(id))
  let firstLoadBytes = 0
  let bytesBeforeFirstRows = 0
  let longestChunk = 0
  for (let i = 0; i < source.length; i++) {
    const started = performance.now()
    const frame = source.frame(i)
    longestChunk = Math.max(longestChunk, performance.now() - started)
    firstLoadBytes += frame.length
    if (i <= 1) bytesBeforeFirstRows += frame.length
  }
  const firstLoad = measure({
    name: 'server: build a whole first load (head + chunks)',
    size,
    ...counts,
    run: () => {
      const fresh = createSnapshotSource(publication(next, 1), (id) => tickSlots.of.get(id))
      for (let i = 0; i < fresh.length; i++) fresh.frame(i)
    },
  })
  const mode2Bytes = jsonFrame.length + binaryFrame.byteLength
  slices.sort((a, b) => a - b)
  return {
    results: [serverMode2, workerMode2, workerStructural, workerMode1, firstLoad],
    facts: {
      size,
      fullStateBytes: fullBytes,
      mode1DeltaBytes: mode1Frame.length,
      mode2DeltaBytes: jsonFrame.length,
      mode2BinaryBytes: binaryFrame.byteLength,
      tickPercentOfFull: Math.round((mode2Bytes / fullBytes) * 1000) / 10,
      firstLoadFrames: source.length,
      firstLoadBytes,
      bytesBeforeFirstRows,
      longestDiffSliceMs: slices[slices.length >> 1]!,
      longestChunkBuildMs: longestChunk,
    },
  }
}

/** Print the byte and slice figures. */
export function printWireFacts(facts: readonly WireFacts[]): void {
  const mb = (bytes: number) => `${(bytes / 1e6).toFixed(2)} MB`
  console.log('\nWire: bytes and slices')
  for (const f of facts) {
    console.log(
      `  ${f.size.toLocaleString('en-US')} guests: full state ${mb(f.fullStateBytes)}; ` +
        `tick of every guest: mode 1 ${mb(f.mode1DeltaBytes)}, mode 2 ${mb(f.mode2DeltaBytes)} JSON + ` +
        `${mb(f.mode2BinaryBytes)} binary (${f.tickPercentOfFull} % of the full state); ` +
        `first load ${f.firstLoadFrames} frames, ${mb(f.firstLoadBytes)}, ` +
        `${mb(f.bytesBeforeFirstRows)} before the first rows; longest diff slice ` +
        `${f.longestDiffSliceMs.toFixed(1)} ms, longest chunk build ${f.longestChunkBuildMs.toFixed(1)} ms`,
    )
  }
}
