// Metrics history (issue 25; README "Metrics history"): GET /api/history/:resourceId for one
// resource's chart, GET /api/history?id=…&id=… for the trend column. Reads: any caller the guard
// lets through (viewer), no CSRF (GETs), the default request-rate class like the other reads.
import type { FastifyInstance } from 'fastify'
import { AppError } from '../../shared/model/errors.ts'
import {
  ALL_HISTORY_METRICS,
  HISTORY_BATCH_MAX,
  HISTORY_RANGES,
  isHistoryRange,
  type HistoryMetric,
  type HistoryRange,
} from '../../shared/model/history.ts'
import type { HistoryService } from '../history/service.ts'

const RESOURCE_ID_MAX = 500

const invalid = (field: string, problem: string): AppError =>
  new AppError('FIELD_INVALID', { field, problem })

/** The values of a query key given once, repeated, or as a comma list. */
function listOf(value: unknown, field: string): string[] {
  const raw = value === undefined ? [] : Array.isArray(value) ? value : [value]
  const out: string[] = []
  for (const item of raw) {
    if (typeof item !== 'string') throw invalid(field, 'must be text')
    for (const part of item.split(',')) if (part !== '') out.push(part)
  }
  return out
}

function parseRange(value: unknown, fallback?: HistoryRange): HistoryRange {
  if (value === undefined && fallback) return fallback
  if (isHistoryRange(value)) return value
  throw invalid('range', `must be one of ${HISTORY_RANGES.join(', ')}`)
}

function parseMetrics(value: unknown): HistoryMetric[] | undefined {
  const names = listOf(value, 'metrics')
  if (names.length === 0) return undefined
  const known: readonly string[] = ALL_HISTORY_METRICS
  const wrong = names.find((m) => !known.includes(m))
  if (wrong !== undefined) {
    throw invalid('metrics', `"${wrong}" is not a metric; known: ${known.join(', ')}`)
  }
  return [...new Set(names)] as HistoryMetric[]
}

/** Registers the history routes. */
export function registerHistoryRoutes(app: FastifyInstance, history: HistoryService): void {
  app.get<{ Params: { resourceId: string }; Querystring: Record<string, unknown> }>(
    '/api/history/:resourceId',
    async (request, reply) => {
      const id = request.params.resourceId
      if (!id || id.length > RESOURCE_ID_MAX) {
        throw invalid('resourceId', `must be 1-${RESOURCE_ID_MAX} characters`)
      }
      const range = parseRange(request.query.range)
      const metrics = parseMetrics(request.query.metrics)
      reply.header('Cache-Control', 'no-store')
      return history.answer(id, range, metrics)
    },
  )

  app.get<{ Querystring: Record<string, unknown> }>('/api/history', async (request, reply) => {
    const ids = [...new Set(listOf(request.query.id, 'id'))]
    if (ids.length === 0) throw invalid('id', 'give at least one resource id')
    if (ids.length > HISTORY_BATCH_MAX) {
      throw invalid('id', `at most ${HISTORY_BATCH_MAX} resource ids per request`)
    }
    if (ids.some((id) => id.length > RESOURCE_ID_MAX)) {
      throw invalid('id', `each must be 1-${RESOURCE_ID_MAX} characters`)
    }
    const range = parseRange(request.query.range, '1h')
    const metrics = parseMetrics(request.query.metrics) ?? ['cpu', 'usage']
    reply.header('Cache-Control', 'no-store')
    return history.batch(ids, range, metrics)
  })
}
