// Delivery log routes (issue 15): GET /api/notifications/deliveries (the outbox rows as
// DeliveryRecords, newest first, filtered by status and destination, X-Total-Count) and GET
// /api/notifications/webhook-history (the reference's compat shape, wire-protocol.md §3.7).
// Reads: any caller the guard lets through. Errors answer `{ error, code, message }`.
import type { FastifyInstance } from 'fastify'
import type { DeliveryStatus } from '../../shared/model/notifications.ts'
import type { DeliveryFilter, OutboxLog } from '../store/outbox-log.ts'
import type { ResolvedDestination } from '../notify/types.ts'

export const DELIVERIES_LIMIT_DEFAULT = 100
export const DELIVERIES_LIMIT_MAX = 1000
export const WEBHOOK_HISTORY_MAX = 100
const DESTINATION_MAX = 200
const STATUSES: readonly DeliveryStatus[] = ['pending', 'sent', 'failed', 'dead', 'suppressed']

class DeliveryRouteError extends Error {}

const fail = (message: string): never => {
  throw new DeliveryRouteError(message)
}

function queryString(query: Record<string, unknown>, key: string): string | undefined {
  const value = query[key]
  if (value === undefined || value === '') return undefined
  if (typeof value !== 'string') return fail(`${key}: must be given once`)
  return value
}

function queryInt(query: Record<string, unknown>, key: string, min: number): number | undefined {
  const text = queryString(query, key)
  if (text === undefined) return undefined
  const n = Number(text)
  if (!Number.isSafeInteger(n) || n < min)
    return fail(`${key}: must be an integer of at least ${min}`)
  return n
}

function deliveryFilter(query: Record<string, unknown>): DeliveryFilter {
  const filter: DeliveryFilter = {}
  const status = queryString(query, 'status')
  if (status !== undefined && status !== 'all') {
    if (!(STATUSES as readonly string[]).includes(status))
      return fail(`status: must be one of ${STATUSES.join(', ')} or all`)
    filter.status = status as DeliveryStatus
  }
  const destination = queryString(query, 'destination')
  if (destination !== undefined) {
    if (destination.length > DESTINATION_MAX)
      return fail(`destination: must be at most ${DESTINATION_MAX} characters`)
    filter.destination = destination
  }
  return filter
}

export interface DeliveryRouteDeps {
  log: OutboxLog
  destinations: () => readonly ResolvedDestination[]
  /** The webhook's URL with its secret parts masked (the webhook part's masking), if known. */
  maskUrl?: (url: string) => string
}

export function registerDeliveryRoutes(app: FastifyInstance, deps: DeliveryRouteDeps): void {
  void app.register(async (scope) => {
    scope.setErrorHandler((err, _request, reply) => {
      if (err instanceof DeliveryRouteError) {
        return reply
          .status(400)
          .send({ error: err.message, code: 'FIELD_INVALID', message: err.message })
      }
      throw err
    })

    scope.get('/api/notifications/deliveries', async (request, reply) => {
      const query = request.query as Record<string, unknown>
      const filter = deliveryFilter(query)
      const limit = Math.min(
        queryInt(query, 'limit', 1) ?? DELIVERIES_LIMIT_DEFAULT,
        DELIVERIES_LIMIT_MAX,
      )
      const offset = queryInt(query, 'offset', 0) ?? 0
      const { rows, total } = deps.log.query(filter, { limit, offset })
      reply.header('X-Total-Count', String(total))
      return rows
    })

    scope.get('/api/notifications/webhook-history', async () => {
      const hooks = new Map<string, { url: string; service: string }>()
      for (const d of deps.destinations()) {
        if (d.kind !== 'webhook') continue
        // Never a URL with its token: masked by the webhook part, else not shown at all.
        const url = deps.maskUrl ? deps.maskUrl(d.webhook.url) : ''
        hooks.set(d.id, { url, service: d.webhook.service })
      }
      return deps.log.webhookHistory(WEBHOOK_HISTORY_MAX, (id) => hooks.get(id))
    })
  })
}
