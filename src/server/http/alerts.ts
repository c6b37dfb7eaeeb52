// Alert routes (wire-protocol.md §3.6): config, active alerts, history with filters and its
// summary, acknowledge / unacknowledge / clear one or many. Errors of these routes answer
// `{ error }` as the reference does (plus code and message, as every other route). Reads need any
// caller the guard lets through; acknowledging needs an authenticated caller (the guard also
// checks CSRF on every write); the config and clearing the history need an admin.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { ALERT_NOTE_MAX, type Alert, type AlertLevel } from '../../shared/model/alerts.ts'
import type { NotesService } from '../alerts/notes-service.ts'
import type { AuditLog } from '../auth/audit.ts'
import { requireAdmin } from '../auth/guard.ts'
import type { AlertService } from '../alerts/service.ts'
import type { HistoryFilter } from '../store/alert-history.ts'
import { allowEmptyJsonBody } from '../parse-body.ts'

export const HISTORY_LIMIT_DEFAULT = 100
export const HISTORY_LIMIT_MAX = 10_000
export const BULK_IDS_MAX = 100_000
const USER_MAX = 100
const QUERY_TEXT_MAX = 200
const RESOURCE_ID_MAX = 500
const SUMMARY_BUCKETS_MAX = 1000
const DAY_MS = 86_400_000
const ALERT_ID = /^[A-Za-z0-9\-_:/.]{1,500}$/
const ACTIONS = new Set(['acknowledge', 'unacknowledge', 'clear', 'notes'])

/** A 400 (or other) that names the problem; answered as `{ error, code, message }`. */
class AlertRouteError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message)
  }
}

const fail = (message: string, status = 400): never => {
  throw new AlertRouteError(status, message)
}

/** True for an alert id the routes accept: 1-500 of [A-Za-z0-9-_:/.] (as the reference). */
export function isAlertId(id: unknown): id is string {
  return typeof id === 'string' && ALERT_ID.test(id)
}

function bodyObject(body: unknown): Record<string, unknown> {
  if (body === null || body === undefined) return {}
  if (typeof body !== 'object' || Array.isArray(body)) return fail('body: must be a JSON object')
  return body as Record<string, unknown>
}

/**
 * Who acknowledges: the signed-in person, else the body's `user`, else the caller as the guard
 * named it ('anonymous' with authentication disabled, the token's name): the same name Security
 * and the audit log show. 'admin' (the reference's fixed name) only when no caller is known.
 */
function ackUser(request: FastifyRequest, body: Record<string, unknown>): string {
  const auth = request.auth
  if (auth && (auth.method === 'session' || auth.method === 'proxy' || auth.method === 'basic'))
    return auth.username
  const user = body.user
  if (user === undefined || user === null || user === '') return auth?.username || 'admin'
  if (typeof user !== 'string' || user.length > USER_MAX)
    return fail(`user: must be a string of at most ${USER_MAX} characters`)
  return user
}

function alertIds(body: Record<string, unknown>): string[] {
  const ids = body.alertIds
  if (ids === undefined || ids === null || (Array.isArray(ids) && ids.length === 0))
    return fail('No alert IDs provided')
  if (!Array.isArray(ids)) return fail('alertIds: must be a list of alert IDs')
  if (ids.length > BULK_IDS_MAX) return fail(`alertIds: must have at most ${BULK_IDS_MAX} entries`)
  ids.forEach((id, i) => {
    if (!isAlertId(id)) fail(`alertIds.${i}: Invalid alert ID`)
  })
  return ids as string[]
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

/** Epoch ms or ISO 8601. */
function queryTime(query: Record<string, unknown>, key: string): number | undefined {
  const text = queryString(query, key)
  if (text === undefined) return undefined
  const n = /^\d+$/.test(text) ? Number(text) : Date.parse(text)
  if (!Number.isSafeInteger(n))
    return fail(`${key}: must be epoch milliseconds or an ISO 8601 time`)
  return n
}

function historyFilter(query: Record<string, unknown>): HistoryFilter {
  const filter: HistoryFilter = {}
  const since = queryTime(query, 'since')
  const until = queryTime(query, 'until')
  if (since !== undefined) filter.since = since
  if (until !== undefined) filter.until = until
  const severity = queryString(query, 'severity')
  if (severity !== undefined && severity !== 'all') {
    if (severity !== 'warning' && severity !== 'critical')
      return fail('severity: must be warning, critical or all')
    filter.severity = severity satisfies AlertLevel
  }
  const q = queryString(query, 'q')?.trim()
  if (q) {
    if (q.length > QUERY_TEXT_MAX) return fail(`q: must be at most ${QUERY_TEXT_MAX} characters`)
    filter.q = q.toLowerCase()
  }
  const resourceId = queryString(query, 'resourceId')
  if (resourceId !== undefined) {
    if (resourceId.length > RESOURCE_ID_MAX)
      return fail(`resourceId: must be at most ${RESOURCE_ID_MAX} characters`)
    filter.resourceId = resourceId
  }
  return filter
}

export interface AlertRouteDeps {
  alerts: AlertService
  audit: AuditLog
  now: () => number
  /** The active alerts with the silences' marks (silence-service.ts mark). */
  marked?: (alerts: Alert[]) => Alert[]
  /** Issue 28: notes on alerts (POST /api/alerts/{id}/notes). */
  notes?: NotesService
}

/** A note's text: 1 to ALERT_NOTE_MAX characters once trimmed. */
function noteText(body: Record<string, unknown>): string {
  const value = body.text
  if (typeof value !== 'string') return fail('text: must be a string')
  const text = value.trim()
  if (text === '') return fail('text: must not be empty')
  if (text.length > ALERT_NOTE_MAX)
    return fail(`text: must be at most ${ALERT_NOTE_MAX} characters (${text.length})`)
  return text
}

/** Register every /api/alerts route. */
export function registerAlertRoutes(app: FastifyInstance, deps: AlertRouteDeps): void {
  const { alerts } = deps
  void app.register(async (scope) => {
    // The client's JSON helper sends Content-Type JSON on body-less POSTs and DELETEs.
    allowEmptyJsonBody(scope)
    scope.setErrorHandler((err, request, reply) => {
      if (err instanceof AlertRouteError) {
        return reply
          .status(err.status)
          .send({ error: err.message, code: 'FIELD_INVALID', message: err.message })
      }
      // Everything else (guard refusals, bad JSON) as the root handler answers it.
      throw err
    })

    scope.get('/api/alerts/config', async () => alerts.config())
    scope.put('/api/alerts/config', async (request) => {
      requireAdmin(request)
      const saved = alerts.saveConfig(request.body)
      if (!saved.ok) fail(`${saved.field}: ${saved.message}`)
      return { status: 'success' }
    })
    // With the marks of the silences covering them (issue 28), as the live state shows them.
    scope.get('/api/alerts/active', async () => deps.marked?.(alerts.active()) ?? alerts.active())

    scope.get('/api/alerts/history', async (request, reply) => {
      const query = request.query as Record<string, unknown>
      const filter = historyFilter(query)
      const limit = Math.min(
        queryInt(query, 'limit', 1) ?? HISTORY_LIMIT_DEFAULT,
        HISTORY_LIMIT_MAX,
      )
      const offset = queryInt(query, 'offset', 0) ?? 0
      const { rows, total } = alerts.history(filter, { limit, offset })
      reply.header('X-Total-Count', String(total))
      return rows
    })
    scope.get('/api/alerts/history/summary', async (request) => {
      const query = request.query as Record<string, unknown>
      const filter = historyFilter(query)
      const until = filter.until ?? deps.now()
      const since = filter.since ?? until - 7 * DAY_MS
      if (since >= until) fail('since: must be before until')
      const bucketMs = queryInt(query, 'bucketMs', 60_000) ?? Math.ceil((until - since) / 30)
      if (Math.ceil((until - since) / bucketMs) > SUMMARY_BUCKETS_MAX)
        fail(`bucketMs: must give at most ${SUMMARY_BUCKETS_MAX} buckets`)
      return alerts.summary({ ...filter, since, until }, bucketMs)
    })
    scope.delete('/api/alerts/history', async (request) => {
      const caller = requireAdmin(request)
      const deleted = alerts.clearHistory()
      deps.audit.record({
        type: 'alert_history_cleared',
        username: caller.username,
        ip: request.ip,
        detail: `${deleted} history rows deleted`,
      })
      return { status: 'success', message: 'Alert history cleared' }
    })

    // Bulk routes are bigger than the default body limit at 100,000 ids.
    const bulk = { bodyLimit: 16 * 1024 * 1024 }
    scope.post('/api/alerts/bulk/acknowledge', bulk, async (request) => {
      const body = bodyObject(request.body)
      const ids = alertIds(body)
      return { results: alerts.acknowledge(ids, ackUser(request, body)) }
    })
    // Issue 28: the Overview's bulk Unacknowledge.
    scope.post('/api/alerts/bulk/unacknowledge', bulk, async (request) => {
      return { results: alerts.unacknowledge(alertIds(bodyObject(request.body))) }
    })
    scope.post('/api/alerts/bulk/clear', bulk, async (request) => {
      return { results: alerts.clear(alertIds(bodyObject(request.body))) }
    })

    // A wildcard, not ':id': ids hold '/' (disk paths) and run to 500 characters, beyond the
    // router's 100-character parameters. The action is the last segment.
    scope.post('/api/alerts/*', async (request, reply) => singleAction(request, reply))
  })

  const singleAction = (request: FastifyRequest, reply: FastifyReply) => {
    const tail = (request.params as Record<string, string>)['*'] ?? ''
    const cut = tail.lastIndexOf('/')
    const action = tail.slice(cut + 1)
    if (cut < 0 || !ACTIONS.has(action)) return fail(`Not found: ${request.url}`, 404)
    let id = tail.slice(0, cut)
    try {
      id = decodeURIComponent(id)
    } catch {
      return fail('Invalid alert ID')
    }
    if (!isAlertId(id)) return fail('Invalid alert ID')
    const body = bodyObject(request.body)
    if (action === 'notes') {
      if (!deps.notes) return fail(`Not found: ${request.url}`, 404)
      for (const key of Object.keys(body))
        if (key !== 'text') fail(`${key}: not a field of a note (text)`)
      // The author is who is calling, never a body field.
      const author = request.auth?.username || 'admin'
      const added = deps.notes.add(id, author, noteText(body))
      if (!added.ok) return fail(added.message, added.status)
      return reply.status(201).send({ note: added.note, notes: added.notes })
    }
    if (action === 'clear') {
      // Clearing is idempotent (as the reference): an alert already gone is cleared.
      alerts.clear([id])
      return reply.send({ success: true })
    }
    const results =
      action === 'acknowledge'
        ? alerts.acknowledge([id], ackUser(request, body))
        : alerts.unacknowledge([id])
    if (!results[0]?.success) return fail(`alert not found: ${id}`, 404)
    return reply.send({ success: true })
  }
}
