// The /metrics exposition (issue 28 item 5): the resources of the published state (resource-
// metrics.ts) and Pulse's own figures (process-metrics.ts). The resource text costs most (one line
// per guest and family: ~100 MB at 100,000 guests), so it is built once per published state, in
// slices of the event loop (run-sliced.ts), and shared by scrapes of the same state (two
// Prometheus servers, or a retry). When the next state is published the build is retired: its
// chunks go back to the pool (chunk-pool.ts) once the last answer writing them has finished, so
// the next build reuses them instead of allocating 100 MB again. The pulse_ part is built on
// every scrape.
import type { State } from '../../shared/model/state.ts'
import type { EndpointPolls, MonitoredEndpoint, Poller } from '../collect/poller.ts'
import type { LiveState } from '../live/live-state.ts'
import { runSliced } from '../live/run-sliced.ts'
import type { OutboxCounts } from '../store/outbox-counts.ts'
import { createChunkPool, type ChunkLease, type ChunkPool } from './chunk-pool.ts'
import { processMetricParts } from './process-metrics.ts'
import { resourceMetricSteps } from './resource-metrics.ts'

export interface MetricsDeps {
  live: Pick<LiveState, 'current' | 'subscribe'>
  version: string
  socketClients: () => number
  outbox: OutboxCounts
  endpoints: () => ReadonlyArray<Pick<MonitoredEndpoint, 'id' | 'name' | 'type'>>
  poller: Pick<Poller, 'endpointStatus'> & { endpointPolls(id: string): EndpointPolls | undefined }
}

/** One scrape's text; `done` (once the answer is written or abandoned) lets its chunks be reused. */
export interface Scrape {
  parts: Buffer[]
  done(): void
}

export interface MetricsService {
  /** The exposition text, as buffers to write one after another; call `done` when written. */
  scrape(): Promise<Scrape>
  /** The chunk pool (tests and the bench look at it). */
  readonly pool: ChunkPool
}

interface Build {
  state: State
  parts: Promise<Buffer[]>
  lease: ChunkLease
  /** Answers writing (or about to write) its chunks. */
  readers: number
  /** Still the build of the published state. */
  current: boolean
}

/** Create the service; it follows the live state's publications to retire a stale build. */
export function createMetricsService(deps: MetricsDeps): MetricsService {
  const pool = createChunkPool()
  let cached: Build | null = null

  const releaseIfUnused = (build: Build) => {
    if (build.current || build.readers > 0) return
    // After the generator has finished: a build still running keeps writing into its chunks.
    const release = () => build.lease.release()
    build.parts.then(release, release)
  }
  const retire = (build: Build) => {
    build.current = false
    releaseIfUnused(build)
  }
  deps.live.subscribe(() => {
    if (cached) retire(cached)
    cached = null
  })

  const buildFor = (state: State): Build => {
    if (cached?.state === state) return cached
    if (cached) retire(cached)
    const lease = pool.lease()
    const build: Build = {
      state,
      parts: runSliced(resourceMetricSteps(state, lease)),
      lease,
      readers: 0,
      current: true,
    }
    cached = build
    // A failed build is not kept: the next scrape tries again.
    build.parts.catch(() => {
      if (cached !== build) return
      cached = null
      retire(build)
    })
    return build
  }

  const endpointFigures = () =>
    deps.endpoints().map((endpoint) => {
      const polls = deps.poller.endpointPolls(endpoint.id)
      return {
        name: endpoint.name,
        type: endpoint.type,
        status: deps.poller.endpointStatus(endpoint.id),
        ...(polls ? { polls } : {}),
      }
    })

  return {
    async scrape() {
      const state = deps.live.current().state
      const build = buildFor(state)
      build.readers++
      let finished = false
      const done = () => {
        if (finished) return
        finished = true
        build.readers--
        releaseIfUnused(build)
      }
      try {
        const parts = await build.parts
        const own = processMetricParts({
          state,
          version: deps.version,
          socketClients: deps.socketClients(),
          queued: deps.outbox.queued(),
          dead: deps.outbox.dead(),
          endpoints: endpointFigures(),
        })
        return { parts: own.concat(parts), done }
      } catch (err) {
        done()
        throw err
      }
    },
    pool,
  }
}
