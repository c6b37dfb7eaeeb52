// GET /api/state: the live state in one answer. By default in the plain /ws dialect's shapes, so a
// script or widget written for the reference reads what it expects (spec 000 §3, reference/
// wire-protocol.md §2.1: pveBackups {backupTasks, storageBackups, guestSnapshots}, RFC 3339 times);
// `?format=internal` gives our own state, as the delta dialects carry it. Registered by the single
// process (app.ts) and by a web node (roles/web.ts), which first asks the collector's guard.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { z } from 'zod'
import { STATE_FORMATS } from '../../shared/model/messages.ts'
import type { Hub } from '../hub/hub.ts'
import { parseBody } from '../parse-body.ts'

const querySchema = z.object({
  format: z
    .enum(STATE_FORMATS, { error: `must be ${STATE_FORMATS.map((f) => `"${f}"`).join(' or ')}` })
    .default('plain'),
})

export interface StateRouteDeps {
  hub: Hub
  /**
   * Runs first, as the guard would; true when it has answered itself (a web node whose collector refused these credentials). Throws to refuse.
   */
  admit?: (request: FastifyRequest, reply: FastifyReply) => Promise<boolean>
}

/** Register GET /api/state. */
export function registerStateRoute(app: FastifyInstance, deps: StateRouteDeps): void {
  app.get('/api/state', async (request, reply) => {
    if (deps.admit && (await deps.admit(request, reply))) return reply
    const { format } = parseBody(querySchema, request.query)
    const { seq, body } = await deps.hub.stateJson(format)
    // The sequence number lets a delta client compare its merge with this exact snapshot.
    reply.header('X-State-Seq', String(seq))
    reply.header('Cache-Control', 'no-store')
    return reply.type('application/json').send(body)
  })
}
