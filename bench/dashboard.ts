// The dashboard benchmark of issue 3: for each search of SEARCH_SET at 1k/10k/100k guests it
// measures compile time, filter throughput, the full guest view (filter + group + sort + window)
// in the worker's code, the same view from cold caches, one live update of every guest's metrics
// merged and re-viewed, and a straightforward baseline. Writes bench/results/latest.json.
import type { StateDelta } from '../src/shared/model/messages.ts'
import { compileGuestSearch } from '../src/shared/search/index.ts'
import {
  DEFAULT_GUEST_VIEW_REQUEST,
  type GuestViewRequest,
} from '../src/shared/views/guest-view-types.ts'
import { createGuestViewPipeline, type GuestViewInput } from '../src/shared/views/guest-view.ts'
import { createStateStore } from '../src/worker/store.ts'
import { parseServerMessage } from '../src/worker/parse-message.ts'
import { computeBaselineView } from './baseline.ts'
import { createEstate, createMetricsDelta, createRandom, guestViewInput } from './fixtures.ts'
import { measure, type BenchResult } from './harness.ts'
import { SEARCH_SET, type SearchCase } from './search-set.ts'

/** Figures of one search at one estate size (all times are medians). */
export interface DashboardCaseResult {
  size: number
  nodes: number
  id: string
  search: string
  sort: string
  compileUs: number
  /** The compiled per-guest predicate over every guest object. */
  filterGuestsPerSec: number
  /** Guests through the full view per second (size / viewMs): the column path the view uses. */
  viewGuestsPerSec: number
  viewMs: number
  coldViewMs: number
  liveUpdateMs: number
  baselineMs: number
}

/** Extra cases at one size: scrolling and the JSON parse that precedes a merge. */
export interface DashboardSizeResult {
  cases: DashboardCaseResult[]
  extra: BenchResult[]
}

const WINDOW = { start: 0, count: 60 }
/** The search shown before each timed view, so the timed one really filters again. */
const PREVIOUS_SEARCH = 'no-such-guest'

function counts(size: number, heavy = false) {
  if (size >= 100_000) return heavy ? { warmup: 2, iterations: 9 } : { warmup: 3, iterations: 21 }
  if (size >= 10_000) return heavy ? { warmup: 3, iterations: 21 } : { warmup: 5, iterations: 41 }
  return { warmup: 10, iterations: 101 }
}

/** Run every search of the set at one estate size. */
export function benchDashboard(size: number): DashboardSizeResult {
  const state = createEstate(size)
  const store = createStateStore()
  store.applyFull(JSON.parse(JSON.stringify(state)) as Record<string, unknown>, 0)
  const input = (): GuestViewInput => guestViewInput(store)
  // Every guest's metrics change in each of these (the worst poll), as our server sends them and
  // as the worker holds them after JSON.parse (the parse is measured separately below).
  const random = createRandom(5)
  const deltas = Array.from(
    { length: 3 },
    () => JSON.parse(JSON.stringify(createMetricsDelta(state, 1, random))) as StateDelta,
  )
  let seq = 0
  const request = (item: SearchCase): GuestViewRequest => ({
    ...DEFAULT_GUEST_VIEW_REQUEST,
    search: item.search,
    sort: item.sort,
    window: WINDOW,
  })

  const cases: DashboardCaseResult[] = []
  // One long-lived pipeline, as the worker keeps one per subscription.
  const pipeline = createGuestViewPipeline()
  for (const item of SEARCH_SET) {
    const req = request(item)
    const name = (what: string) => `${what} [${item.id}]`
    const COMPILES = 200
    const compile = measure({
      name: name('compile x200'),
      size,
      ...counts(size),
      run: () => {
        for (let i = 0; i < COMPILES; i++) compileGuestSearch(`${item.search}${i % 2 ? ' ' : ''}`)
      },
    })
    const predicate = compileGuestSearch(item.search)
    let sink = 0
    const filter = measure({
      name: name('filter'),
      size,
      ...counts(size),
      run: () => {
        const guests = store.getGuests()
        for (let i = 0; i < guests.length; i++) if (predicate(guests[i]!)) sink++
      },
    })
    // A keystroke: the previous search was another one, data and sort caches are warm.
    const view = measure({
      name: name('view'),
      size,
      ...counts(size),
      before: () => void pipeline.compute(input(), { ...req, search: PREVIOUS_SEARCH }),
      run: () => void pipeline.compute(input(), req),
    })
    let cold = createGuestViewPipeline()
    const coldView = measure({
      name: name('cold view'),
      size,
      ...counts(size, true),
      before: () => void (cold = createGuestViewPipeline()),
      run: () => void cold.compute(input(), req),
    })
    const live = createGuestViewPipeline()
    live.compute(input(), req)
    let turn = 0
    const liveUpdate = measure({
      name: name('live update'),
      size,
      ...counts(size),
      run: () => {
        store.applyDelta(deltas[turn++ % deltas.length]!, ++seq)
        live.compute(input(), req)
      },
    })
    const baseline = measure({
      name: name('baseline'),
      size,
      ...counts(size, true),
      run: () => void computeBaselineView(store.getGuests(), store.getNodes(), req),
    })
    if (sink < 0) throw new Error('unreachable')
    cases.push({
      size,
      nodes: state.nodes.length,
      id: item.id,
      search: item.search,
      sort: `${item.sort.key} ${item.sort.direction}`,
      compileUs: (compile.medianMs * 1000) / COMPILES,
      filterGuestsPerSec: size / (filter.medianMs / 1000),
      viewGuestsPerSec: size / (view.medianMs / 1000),
      viewMs: view.medianMs,
      coldViewMs: coldView.medianMs,
      liveUpdateMs: liveUpdate.medianMs,
      baselineMs: baseline.medianMs,
    })
  }

  // Scrolling: only the window moves.
  const scrollReq = request(SEARCH_SET[0]!)
  pipeline.compute(input(), scrollReq)
  const rows = pipeline.compute(input(), scrollReq).rowCount
  let turn = 0
  const scroll = measure({
    name: 'scroll (window only)',
    size,
    ...counts(size),
    before: () => void turn++,
    run: () => {
      const start = (turn * 997) % Math.max(1, rows - 60)
      pipeline.compute(input(), { ...scrollReq, window: { start, count: 60 } })
    },
  })
  // The JSON parse of that update's frame, which the live-update figure does not include.
  const frame = JSON.stringify({ type: 'delta', data: deltas[0], seq: 1 })
  const parse = measure({
    name: 'parse a delta frame of every guest',
    size,
    ...counts(size),
    run: () => {
      if (!parseServerMessage(frame).ok) throw new Error('bad frame')
    },
  })
  return { cases, extra: [scroll, parse] }
}
