// Silence routes (issue 28 item 1): GET/POST /api/alerts/silences, DELETE
// /api/alerts/silences/{id}. Creating and ending need a caller the guard let through (as
// acknowledging does; the guard checks CSRF on every write); both are audited. A bad body is a 400
// naming the field, and nothing is stored.
import crypto from 'node:crypto'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { z } from 'zod'
import { WEEKDAYS } from '../../shared/model/alerts.ts'
import { AppError } from '../../shared/model/errors.ts'
import {
  SILENCE_COMMENT_MAX,
  SILENCE_DURATION_MAX_MINUTES,
  SILENCE_LABEL_MAX,
  SILENCE_NAME_MAX,
  SILENCE_QUERY_MAX,
  type Silence,
  type SilenceState,
  type SilenceTarget,
} from '../../shared/model/silences.ts'
import { parseGuestSearch } from '../../shared/search/index.ts'
import { isTimeOfDay } from '../../shared/views/schedule-rules.ts'
import { isKnownTimeZone } from '../../shared/views/weekly-window.ts'
import type { SilenceService } from '../alerts/silence-service.ts'
import type { AuditLog } from '../auth/audit.ts'
import { allowEmptyJsonBody, parseBody } from '../parse-body.ts'
import { isAlertId } from './alerts.ts'

const MINUTE = 60_000
/** How far ahead a silence may start (a year). */
const START_AHEAD_MAX_MS = 366 * 24 * 60 * MINUTE
const STATES: readonly SilenceState[] = ['active', 'upcoming', 'ended']

const name = z.string().trim().min(1, 'must not be empty').max(SILENCE_NAME_MAX)
const target = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('alert'),
    alertId: z.string().refine(isAlertId, 'must be an alert id'),
  }),
  z.object({ kind: z.literal('node'), instance: name, node: name }),
  z.object({ kind: z.literal('guest'), id: name }),
  z.object({ kind: z.literal('storage'), id: name }),
  z.object({ kind: z.literal('pbs'), instance: name }),
  z.object({ kind: z.literal('tag'), tag: z.string().trim().min(1, 'must not be empty').max(100) }),
  z.object({
    kind: z.literal('search'),
    query: z
      .string()
      .trim()
      .max(SILENCE_QUERY_MAX)
      .refine(
        (q) => parseGuestSearch(q).terms.length > 0,
        'must be a search that matches by something',
      ),
  }),
])
/** Epoch ms or an ISO 8601 time. */
const time = z.union([z.number().int().nonnegative(), z.string().max(40)]).transform((v, ctx) => {
  const t = typeof v === 'number' ? v : Date.parse(v)
  if (!Number.isFinite(t)) {
    ctx.addIssue({ code: 'custom', message: 'must be epoch milliseconds or an ISO 8601 time' })
    return z.NEVER
  }
  return t
})
const window = z
  .object({
    days: z
      .object(
        Object.fromEntries(WEEKDAYS.map((d) => [d, z.boolean()])) as Record<
          (typeof WEEKDAYS)[number],
          z.ZodBoolean
        >,
      )
      .strict()
      .refine((days) => Object.values(days).some(Boolean), 'must have at least one day on'),
    start: z.string().refine(isTimeOfDay, 'must be HH:MM'),
    end: z.string().refine(isTimeOfDay, 'must be HH:MM'),
    timezone: z.string().refine(isKnownTimeZone, 'must be an IANA time zone'),
  })
  .strict()
  .refine((w) => w.start !== w.end, { message: 'must differ from start', path: ['end'] })

const createBody = z
  .object({
    target,
    label: z.string().trim().max(SILENCE_LABEL_MAX).optional(),
    comment: z.string().max(SILENCE_COMMENT_MAX).default(''),
    startsAt: time.optional(),
    endsAt: time.optional(),
    durationMinutes: z.number().int().min(1).max(SILENCE_DURATION_MAX_MINUTES).optional(),
    window: window.optional(),
  })
  .strict()

/** The silence a valid body asks for, or a 400 naming the field. */
export function silenceFromBody(
  body: unknown,
  now: number,
  author: string,
  id = crypto.randomUUID(),
): Silence {
  const input = parseBody(createBody, body)
  const invalid = (field: string, problem: string): never => {
    throw new AppError('FIELD_INVALID', { field, problem })
  }
  const startsAt = input.startsAt ?? now
  if (startsAt > now + START_AHEAD_MAX_MS) invalid('startsAt', 'must be within a year from now')
  if (input.endsAt !== undefined && input.durationMinutes !== undefined)
    invalid('durationMinutes', 'give either endsAt or durationMinutes, not both')
  const endsAt =
    input.durationMinutes !== undefined
      ? startsAt + input.durationMinutes * MINUTE
      : (input.endsAt ?? null)
  if (endsAt === null && !input.window)
    invalid('endsAt', 'a silence without a weekly window needs endsAt or durationMinutes')
  if (endsAt !== null) {
    if (endsAt <= startsAt) invalid('endsAt', 'must be after startsAt')
    if (endsAt <= now) invalid('endsAt', 'must be in the future')
    if (!input.window && endsAt - startsAt > SILENCE_DURATION_MAX_MINUTES * MINUTE)
      invalid('endsAt', 'a silence lasts at most 366 days')
  }
  const silence: Silence = {
    id,
    target: input.target as SilenceTarget,
    comment: input.comment,
    author,
    createdAt: new Date(now).toISOString(),
    startsAt: new Date(startsAt).toISOString(),
    endsAt: endsAt === null ? null : new Date(endsAt).toISOString(),
  }
  if (input.window) silence.window = input.window
  if (input.label) silence.label = input.label
  return silence
}

/** Who acts: the signed-in person or the API token's name, as the audit log names them. */
function callerName(request: FastifyRequest): string {
  return request.auth?.username || 'admin'
}

export interface SilenceRouteDeps {
  silences: SilenceService
  audit: AuditLog
  now: () => number
}

/** Describe a target for the audit log. */
export function describeTarget(t: SilenceTarget): string {
  switch (t.kind) {
    case 'alert':
      return `alert ${t.alertId}`
    case 'node':
      return `node ${t.instance}/${t.node}`
    case 'guest':
      return `guest ${t.id}`
    case 'storage':
      return `storage ${t.id}`
    case 'pbs':
      return `PBS ${t.instance}`
    case 'tag':
      return `tag ${t.tag}`
    case 'search':
      return `search "${t.query}"`
  }
}

export function registerSilenceRoutes(app: FastifyInstance, deps: SilenceRouteDeps): void {
  const { silences } = deps
  void app.register(async (scope) => {
    allowEmptyJsonBody(scope)
    scope.get('/api/alerts/silences', async (request) => {
      const state = (request.query as Record<string, unknown>).state
      if (state === undefined || state === '') return silences.list()
      if (typeof state !== 'string' || !STATES.includes(state as SilenceState))
        throw new AppError('FIELD_INVALID', {
          field: 'state',
          problem: `must be one of ${STATES.join(', ')}`,
        })
      return silences.list().filter((s) => s.state === state)
    })
    scope.post('/api/alerts/silences', async (request, reply) => {
      const author = callerName(request)
      const silence = silenceFromBody(request.body, deps.now(), author)
      const created = silences.create(silence)
      const until = silence.endsAt ?? 'until ended'
      deps.audit.record({
        type: 'silence_created',
        username: author,
        ip: request.ip,
        detail: `${describeTarget(silence.target)} from ${silence.startsAt} to ${until}${
          silence.window ? ' (weekly window)' : ''
        }: ${silence.comment}`.slice(0, 1000),
      })
      return reply.status(201).send(created)
    })
    scope.delete('/api/alerts/silences/:id', async (request) => {
      const { id } = request.params as { id: string }
      const by = callerName(request)
      const ended = silences.end(id, by)
      if (!ended) throw new AppError('NOT_FOUND', { path: `/api/alerts/silences/${id}` })
      deps.audit.record({
        type: 'silence_ended',
        username: by,
        ip: request.ip,
        detail: `${describeTarget(ended.target)} ended early`,
      })
      return ended
    })
  })
}
