// The answers of /api/history: one resource's chart (Proxmox RRD, then our recent minutes; our
// store alone when the source cannot answer) and the trend column's batch (our store where it
// covers the range, else a few source reads per batch, under the same allowance).
import { AppError } from '../../shared/model/errors.ts'
import {
  HISTORY_METRICS,
  RANGE_SECONDS,
  RANGE_TIMEFRAME,
  type HistoryAnswer,
  type HistoryBatchAnswer,
  type HistoryMetric,
  type HistoryRange,
} from '../../shared/model/history.ts'
import type { State } from '../../shared/model/state.ts'
import { answerStep, mergeRecent } from './merge.ts'
import { resolveResources, type ResolvedResource } from './resolve.ts'
import { cutFrame, sourceMetrics } from './rrd-normalise.ts'
import type { SourceReader } from './source-reader.ts'
import type { RecentStore } from './types.ts'

/** Source reads (not served from the cache) one batch may start; other ids are left out. */
export const BATCH_SOURCE_READS = 3

export interface HistoryServiceDeps {
  state: () => State
  reader: SourceReader
  recent: RecentStore
  now: () => number
}

export interface HistoryService {
  /** One resource's answer; 404 for an unknown id, 400 for a metric its kind lacks. */
  answer(
    id: string,
    range: HistoryRange,
    metrics?: readonly HistoryMetric[],
  ): Promise<HistoryAnswer>
  /** The batch answer: known ids in the order asked, each with the metrics its kind has. */
  batch(
    ids: readonly string[],
    range: HistoryRange,
    metrics: readonly HistoryMetric[],
  ): Promise<HistoryBatchAnswer>
}

function metricsFor(resource: ResolvedResource, asked: readonly HistoryMetric[] | undefined) {
  const own: readonly string[] = HISTORY_METRICS[resource.kind]
  if (!asked) return own as HistoryMetric[]
  const wrong = asked.find((m) => !own.includes(m))
  if (wrong !== undefined) {
    throw new AppError('FIELD_INVALID', {
      field: 'metrics',
      problem: `a ${resource.kind} has no metric "${wrong}"; it has ${own.join(', ')}`,
    })
  }
  return [...asked]
}

/** Creates the service. */
export function createHistoryService(deps: HistoryServiceDeps): HistoryService {
  const sinceOf = (range: HistoryRange) => Math.floor(deps.now() / 1000) - RANGE_SECONDS[range]

  function fromRecent(
    resource: ResolvedResource,
    range: HistoryRange,
    metrics: readonly HistoryMetric[],
  ): HistoryAnswer | undefined {
    const series = deps.recent.series(resource.id, metrics, sinceOf(range))
    if (!series) return undefined
    return {
      resourceId: resource.id,
      range,
      stepSeconds: answerStep(series),
      source: 'pulse',
      series,
    }
  }

  async function fromSource(
    resource: ResolvedResource,
    range: HistoryRange,
    metrics: readonly HistoryMetric[],
  ): Promise<HistoryAnswer> {
    const since = sinceOf(range)
    const frame = await deps.reader.read(resource, RANGE_TIMEFRAME[range])
    const cut = cutFrame(frame, metrics, since)
    const recent = deps.recent.series(resource.id, metrics, since)
    const { series, appended } = mergeRecent(cut.series, cut.stepSeconds, cut.last, recent, metrics)
    return {
      resourceId: resource.id,
      range,
      stepSeconds: answerStep(series),
      source: appended ? 'mixed' : 'proxmox',
      series,
    }
  }

  async function answerResource(
    resource: ResolvedResource,
    range: HistoryRange,
    metrics: readonly HistoryMetric[],
  ): Promise<HistoryAnswer> {
    const fromProxmox = sourceMetrics(resource.kind).some((m) => metrics.includes(m))
    if (!fromProxmox) {
      return fromRecent(resource, range, metrics) ?? emptyAnswer(resource.id, range)
    }
    try {
      return await fromSource(resource, range, metrics)
    } catch (err) {
      // The source cannot answer (down, offline node, over its allowance): our own minutes, if any.
      const own = fromRecent(resource, range, metrics)
      if (own) return own
      throw err
    }
  }

  return {
    async answer(id, range, asked) {
      const resource = resolveResources(deps.state(), [id]).get(id)
      if (!resource) throw new AppError('HISTORY_RESOURCE_UNKNOWN', { id })
      return answerResource(resource, range, metricsFor(resource, asked))
    },

    async batch(ids, range, asked) {
      const resolved = resolveResources(deps.state(), ids)
      const since = sinceOf(range)
      const storeCovers = deps.recent.retentionMinutes * 60 >= RANGE_SECONDS[range]
      const timeframe = RANGE_TIMEFRAME[range]
      let reads = 0
      const items = ids.map(async (id): Promise<HistoryAnswer | undefined> => {
        const resource = resolved.get(id)
        if (!resource) return undefined
        const own: readonly string[] = HISTORY_METRICS[resource.kind]
        const metrics = asked.filter((m) => own.includes(m))
        if (metrics.length === 0) return undefined
        if (storeCovers) {
          const series = deps.recent.series(id, metrics, since)
          if (series) {
            return {
              resourceId: id,
              range,
              stepSeconds: answerStep(series),
              source: 'pulse',
              series,
            }
          }
        }
        // The source: free when cached, else within this batch's few reads, and never waiting
        // for the endpoint's allowance (a trend cell can stay empty until the next refresh).
        if (!deps.reader.cached(resource, timeframe)) {
          if (reads >= BATCH_SOURCE_READS || !deps.reader.affordable(resource)) return undefined
          reads++
        }
        return fromSource(resource, range, metrics).catch(() => undefined)
      })
      const answered = await Promise.all(items)
      return { range, items: answered.filter((item) => item !== undefined) }
    },
  }
}

function emptyAnswer(resourceId: string, range: HistoryRange): HistoryAnswer {
  return { resourceId, range, stepSeconds: 60, source: 'pulse', series: {} }
}
