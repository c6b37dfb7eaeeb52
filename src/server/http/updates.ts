// Update routes (spec 001 §7; reference/wire-protocol.md §3.8): check the release feed when asked,
// the per-deployment plan, the apply progress, and apply (admin; CSRF-checked like every write).
import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import { AppError } from '../../shared/model/errors.ts'
import { UPDATE_CHANNELS, type UpdateChannel } from '../../shared/model/updates.ts'
import { requireAdmin } from '../auth/guard.ts'
import { parseBody } from '../parse-body.ts'
import type { Updater } from '../updates/updater.ts'

const applySchema = z.object({
  downloadUrl: z.string({ error: 'must be the download URL from the update check' }).min(1, {
    error: 'must be the download URL from the update check',
  }),
})

export interface UpdateRouteDeps {
  updater: Updater
  /** The channel saved in the system settings (the default of a check). */
  savedChannel: () => UpdateChannel
}

/** Register GET /api/updates/check, /plan, /status and POST /api/updates/apply. */
export function registerUpdateRoutes(app: FastifyInstance, deps: UpdateRouteDeps): void {
  app.get('/api/updates/check', async (request) => {
    const raw = (request.query as Record<string, unknown>).channel
    let channel = deps.savedChannel()
    if (raw !== undefined && raw !== '') {
      if (typeof raw !== 'string' || !(UPDATE_CHANNELS as readonly string[]).includes(raw)) {
        throw new AppError('FIELD_INVALID', {
          field: 'channel',
          problem: 'must be "stable" or "rc"',
        })
      }
      channel = raw as UpdateChannel
    }
    return deps.updater.check(channel)
  })
  app.get('/api/updates/plan', async () => deps.updater.plan())
  app.get('/api/updates/status', async (_request, reply) => {
    reply.header('Cache-Control', 'no-store')
    return deps.updater.status()
  })
  app.post('/api/updates/apply', async (request) => {
    requireAdmin(request)
    const { downloadUrl } = parseBody(applySchema, request.body)
    return deps.updater.apply(downloadUrl)
  })
}
