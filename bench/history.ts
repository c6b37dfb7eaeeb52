// Benchmark `history` (issue 25): the server's recent store at 1k, 10k and 100k guests (100 per
// node, 4 storages per node). Each poll hands record() freshly parsed objects, as the collector
// does. Sections: `recent` (record one poll, bytes held after a full retention, the trend
// column's 40 series, one guest's chart) and `serve` (history-serve.ts: a chart answered cold,
// with its calls to a simulator process, and warm; the batch from a filled store).
import { benchHistoryServe } from './history-serve.ts'
import { createRecentStore } from '../src/server/history/recent-store.ts'
import type { CollectedState } from '../src/server/collect/collected-state.ts'
import { HISTORY_METRICS } from '../src/shared/model/history.ts'
import { HISTORY_RETENTION_DEFAULT } from '../src/shared/model/history-retention.ts'
import type { State, Storage } from '../src/shared/model/state.ts'
import { createEstate, createRandom } from './fixtures.ts'
import { getIterations, measure, type BenchResult } from './harness.ts'

const POLL_MS = 10_000
const START_MS = 1_760_000_000_000
const STORAGES_PER_NODE = 4
const PULSE_METRICS = ['cpu', 'memory', 'disk', 'netin'] as const

/** What a section reports: timed cases and plain figures (MB, counts). */
export interface HistorySectionResult {
  results: BenchResult[]
  figures: Array<{ name: string; size: number; value: number; unit: string }>
}

/** One named part of the `history` bench, run per estate size. */
export interface HistorySection {
  name: string
  run(size: number): Promise<HistorySectionResult> | HistorySectionResult
}

function storagesOf(state: State): Storage[] {
  const out: Storage[] = []
  for (const node of state.nodes) {
    for (let i = 0; i < STORAGES_PER_NODE; i++) {
      const total = 2 ** 40
      const used = total * ((i + 1) / 8)
      out.push({
        id: `${node.instance}-${node.name}-store${i}`,
        name: `store${i}`,
        node: node.name,
        instance: node.instance,
        type: 'dir',
        content: 'images',
        status: 'available',
        shared: false,
        enabled: true,
        active: true,
        total,
        used,
        free: total - used,
        usage: (used / total) * 100,
      })
    }
  }
  return out
}

/** A poll of the estate as the poller hands it on (only the parts the store reads matter). */
export function historyBenchPoll(size: number): CollectedState {
  const state = createEstate(size)
  const collected = {
    ...state,
    storage: storagesOf(state),
    storageBackups: [],
    guestSnapshots: [],
    backupTasks: [],
    backupsCollected: true,
  } as unknown as CollectedState
  return collected
}

/** Two differently valued parses of the same estate, alternated poll after poll. */
function twoPolls(size: number): [CollectedState, CollectedState] {
  const base = historyBenchPoll(size)
  const random = createRandom(7)
  const second = JSON.parse(JSON.stringify(base)) as CollectedState
  for (const guest of [...second.vms, ...second.containers]) guest.cpu = random() * random()
  return [JSON.parse(JSON.stringify(base)) as CollectedState, second]
}

/** The recent store: record, memory, the trend column's series and one guest's chart. */
export const recentSection: HistorySection = {
  name: 'recent',
  run(size) {
    const polls = twoPolls(size)
    const store = createRecentStore()
    let at = START_MS
    let turn = 0
    const poll = () => {
      store.record(polls[turn++ % 2]!, at)
      at += POLL_MS
    }
    // A full retention of polls, every 10 s, before anything is measured.
    const fill = (HISTORY_RETENTION_DEFAULT * 60_000) / POLL_MS
    for (let i = 0; i < fill; i++) poll()
    const counts = getIterations(size)
    const results: BenchResult[] = [
      measure({ name: 'record() one poll', size, ...counts, run: poll }),
    ]
    // The server runs the same work as recordSteps() between turns of the loop: the longest
    // step (2,048 guests) is what one turn can be held for, beside the 4 ms slice budget.
    const longest: number[] = []
    for (let i = 0; i < counts.iterations; i++) {
      const steps = store.recordSteps(polls[turn++ % 2]!, at)
      at += POLL_MS
      let max = 0
      for (;;) {
        const start = performance.now()
        const done = steps.next().done
        max = Math.max(max, performance.now() - start)
        if (done) break
      }
      longest.push(max)
    }
    longest.sort((a, b) => a - b)
    const stats = store.stats()
    const guests = [...polls[0].vms, ...polls[0].containers]
    const sinceSec = Math.floor(at / 1000) - 3_600
    const trendIds = guests.slice(0, 40).map((g) => g.id)
    const pulseIds = guests.slice(0, 500).map((g) => g.id)
    const since20 = Math.floor(at / 1000) - 20 * 60
    const seriesCounts = { warmup: 20, iterations: 200 }
    results.push(
      measure({
        name: 'series() 40 ids × cpu, 1 h (trend column)',
        size,
        ...seriesCounts,
        run: () => {
          for (const id of trendIds) store.series(id, ['cpu'], sinceSec)
        },
      }),
      measure({
        // Pulse's published budget case: 500 resources × 4 metrics × 20 points.
        name: 'series() 500 ids × 4 metrics × 20 min',
        size,
        ...seriesCounts,
        run: () => {
          for (const id of pulseIds) store.series(id, PULSE_METRICS, since20)
        },
      }),
      measure({
        name: 'series() one guest, all metrics, 1 h',
        size,
        ...seriesCounts,
        run: () => void store.series(guests[0]!.id, HISTORY_METRICS.guest, sinceSec),
      }),
    )
    const mb = stats.bytes / 2 ** 20
    return {
      results,
      figures: [
        {
          name: 'recordSteps() longest step, median over polls',
          size,
          value: longest[Math.floor(longest.length / 2)]!,
          unit: 'ms',
        },
        { name: 'bytes held, default retention', size, value: mb, unit: 'MB' },
        { name: 'resources held', size, value: stats.resources, unit: 'count' },
        {
          name: 'bytes per guest per hour (all resources / guests)',
          size,
          value: (stats.bytes / size) * (60 / stats.retentionMinutes),
          unit: 'B',
        },
      ],
    }
  },
}

/**
 * Answers through the history service against a simulator process of `size` guests: a 24 h chart
 * cold (with its rrddata calls) and warm, and the trend column's batch from a filled recent store.
 */
export const serveSection: HistorySection = {
  name: 'serve',
  run: (size) => benchHistoryServe(size, { recent: createRecentStore() }),
}

/** The sections of `npm run bench -- history`, in order. */
export const HISTORY_SECTIONS: HistorySection[] = [recentSection, serveSection]

/** Run every section at each size. */
export async function benchHistory(sizes: readonly number[]): Promise<HistorySectionResult> {
  const out: HistorySectionResult = { results: [], figures: [] }
  for (const section of HISTORY_SECTIONS) {
    for (const size of sizes) {
      const result = await section.run(size)
      out.results.push(...result.results)
      out.figures.push(...result.figures)
    }
  }
  return out
}

/** Print the plain figures of the history bench. */
export function printHistoryFigures(figures: HistorySectionResult['figures']): void {
  console.log('\nHistory: memory')
  for (const f of figures) {
    const value =
      f.unit === 'count'
        ? f.value.toLocaleString('en-US')
        : f.value.toFixed(f.unit === 'ms' ? 2 : 1)
    console.log(
      `${f.name.padEnd(52)} ${f.size.toLocaleString('en-US').padStart(8)}  ${value} ${f.unit}`,
    )
  }
}
