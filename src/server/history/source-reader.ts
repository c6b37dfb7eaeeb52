// Reads a resource's Proxmox RRD on demand (ARCHITECTURE.md "Metrics history"): through the
// poller's own client for the endpoint (so history shares the collector's per-endpoint
// connection limit), within the history allowance (budget.ts), coalescing identical reads in
// flight and caching frames (rrd-cache.ts). AVERAGE and MAX are two calls.
import { AppError } from '../../shared/model/errors.ts'
import type { HistoryClient } from '../collect/poller.ts'
import type { HistoryBudget } from './budget.ts'
import type { RrdCache, Timeframe } from './rrd-cache.ts'
import { frameBytes, normaliseRrd, type RrdFrame } from './rrd-normalise.ts'
import type { ResolvedResource } from './resolve.ts'

/** A read of one call may take this long before the chart falls back to our own store. */
export const SOURCE_TIMEOUT_MS = 5_000

export interface SourceReaderDeps {
  /** The poller's client for an instance name (Poller.historyClient). */
  historyClient(instance: string): HistoryClient | undefined
  budget: HistoryBudget
  cache: RrdCache
}

export interface SourceReader {
  /** The resource's RRD frame of `timeframe`; HISTORY_UNAVAILABLE/HISTORY_BUSY when it cannot. */
  read(resource: ResolvedResource, timeframe: Timeframe): Promise<RrdFrame>
  /** True when `read` would answer from the cache (no call to Proxmox). */
  cached(resource: ResolvedResource, timeframe: Timeframe): boolean
  /** True when the endpoint's allowance has this minute's room for a read (2 calls) now. */
  affordable(resource: ResolvedResource): boolean
}

const seg = encodeURIComponent

/** The RRD path of a resource (reference/proxmox-api-backups-history.md §5.1, §5.3). */
export function rrdPath(resource: ResolvedResource): string {
  switch (resource.kind) {
    case 'guest':
      return `/nodes/${seg(resource.node)}/${resource.type}/${resource.vmid}/rrddata`
    case 'node':
      return `/nodes/${seg(resource.node)}/rrddata`
    case 'storage':
      return `/nodes/${seg(resource.node)}/storage/${seg(resource.storage)}/rrddata`
    case 'pbs':
      return '/nodes/localhost/rrd'
    case 'datastore':
      return `/admin/datastore/${seg(resource.store)}/rrd`
  }
}

const keyOf = (resource: ResolvedResource, timeframe: Timeframe) =>
  `${resource.id}\u0000${timeframe}`

function unavailable(resource: ResolvedResource, reason: string, cause?: unknown): AppError {
  return new AppError('HISTORY_UNAVAILABLE', { id: resource.id, reason }, { cause })
}

/** Creates the reader. */
export function createSourceReader(deps: SourceReaderDeps): SourceReader {
  const inflight = new Map<string, Promise<RrdFrame>>()

  async function fetchFrame(resource: ResolvedResource, timeframe: Timeframe): Promise<RrdFrame> {
    const endpoint = deps.historyClient(resource.instance)
    if (!endpoint) {
      throw unavailable(resource, `the endpoint ${resource.instance} is not configured.`)
    }
    if (endpoint.status === 'error') {
      throw unavailable(resource, endpoint.error ?? `${resource.instance} does not answer.`)
    }
    if (resource.nodeDown) {
      const where = 'node' in resource ? `node ${resource.node}` : resource.instance
      throw unavailable(resource, `${where} is offline.`)
    }
    const path = rrdPath(resource)
    const call = (cf: 'AVERAGE' | 'MAX') =>
      deps.budget.run(resource.instance, () =>
        endpoint.client.get(path, { timeframe, cf }, AbortSignal.timeout(SOURCE_TIMEOUT_MS)),
      )
    let average: unknown
    let maximum: unknown
    try {
      ;[average, maximum] = await Promise.all([call('AVERAGE'), call('MAX')])
    } catch (err) {
      if (err instanceof AppError && err.code === 'HISTORY_BUSY') throw err
      const reason = err instanceof AppError ? err.userMessage : 'the read failed.'
      throw unavailable(resource, reason, err)
    }
    const frame = normaliseRrd(resource, average, maximum)
    deps.cache.set(keyOf(resource, timeframe), timeframe, frame, frameBytes(frame))
    return frame
  }

  return {
    read(resource, timeframe) {
      const key = keyOf(resource, timeframe)
      const hit = deps.cache.get(key)
      if (hit) return Promise.resolve(hit)
      let pending = inflight.get(key)
      if (!pending) {
        pending = fetchFrame(resource, timeframe).finally(() => inflight.delete(key))
        inflight.set(key, pending)
      }
      return pending
    },
    cached(resource, timeframe) {
      return deps.cache.get(keyOf(resource, timeframe)) !== undefined
    },
    affordable: (resource) => deps.budget.remaining(resource.instance) >= 2,
  }
}
