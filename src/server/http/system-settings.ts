// System settings routes (spec 001 §3 System settings): the discovery settings stored in SQLite,
// plus which settings the environment fixes. Other keys the UI sends along are ignored here.
import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import type { SystemSettings } from '../../shared/model/node-config.ts'
import { requireAdmin } from '../auth/guard.ts'
import type { DiscoveryService } from '../discovery/discovery-service.ts'
import { parseBody } from '../parse-body.ts'

const updateSchema = z.object({
  discoveryEnabled: z.boolean({ error: 'must be true or false' }).optional(),
  // As in the reference, an empty subnet is ignored rather than clearing the setting.
  discoverySubnet: z
    .string({ error: 'must be "auto" or a CIDR subnet' })
    .trim()
    .max(64)
    .optional()
    .transform((v) => (v ? v : undefined)),
})

export interface SystemSettingsDeps {
  discovery: DiscoveryService
  /** ALLOWED_ORIGINS from the environment (read-only here). */
  allowedOrigins: readonly string[]
}

/** Register GET /api/system/settings and POST /api/system/settings/update. */
export function registerSystemSettingsRoutes(app: FastifyInstance, deps: SystemSettingsDeps): void {
  const answer = (): SystemSettings => {
    const envOverrides: Record<string, boolean> = {}
    if (deps.allowedOrigins.length > 0) envOverrides.allowedOrigins = true
    return {
      ...deps.discovery.settings(),
      envOverrides,
      allowedOrigins: deps.allowedOrigins.join(','),
    }
  }
  app.get('/api/system/settings', async () => answer())
  app.post('/api/system/settings/update', async (request) => {
    requireAdmin(request)
    const patch = parseBody(updateSchema, request.body)
    deps.discovery.configure(patch)
    return answer()
  })
}
