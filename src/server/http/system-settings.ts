// System settings routes (spec 001 §3 System settings): discovery, the /ws allowed origins and the
// embedding policy, stored in SQLite, plus which settings the environment fixes. Keys the UI sends
// along for other panels (update channel, auto-update) are ignored here; keys fixed by the
// environment are ignored too, since the UI sends the whole form back.
import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import type { SystemSettings } from '../../shared/model/node-config.ts'
import { requireAdmin } from '../auth/guard.ts'
import type { DiscoveryService } from '../discovery/discovery-service.ts'
import { parseBody } from '../parse-body.ts'
import { parseOrigins, type WebPolicy } from '../system/web-policy.ts'

/** A comma-separated origin list, validated and normalised ('*' only where `star`). */
const originList = (star: boolean) =>
  z
    .string({ error: 'must be a comma-separated list of origins' })
    .max(4096)
    .transform((text, ctx) => {
      const parsed = parseOrigins(text, star)
      if ('origins' in parsed) return parsed.origins
      ctx.addIssue({ code: 'custom', message: parsed.problem })
      return z.NEVER
    })

const updateSchema = z.object({
  discoveryEnabled: z.boolean({ error: 'must be true or false' }).optional(),
  // As in the reference, an empty subnet is ignored rather than clearing the setting.
  discoverySubnet: z
    .string({ error: 'must be "auto" or a CIDR subnet' })
    .trim()
    .max(64)
    .optional()
    .transform((v) => (v ? v : undefined)),
  allowedOrigins: originList(true).optional(),
  allowEmbedding: z.boolean({ error: 'must be true or false' }).optional(),
  allowedEmbedOrigins: originList(false).optional(),
})

export interface SystemSettingsDeps {
  discovery: DiscoveryService
  /** Allowed origins and embedding, applied at once by the guard and the header hook. */
  webPolicy: WebPolicy
}

/** Register GET /api/system/settings and POST /api/system/settings/update. */
export function registerSystemSettingsRoutes(app: FastifyInstance, deps: SystemSettingsDeps): void {
  const answer = (): SystemSettings => ({
    ...deps.discovery.settings(),
    ...deps.webPolicy.settings(),
  })
  app.get('/api/system/settings', async () => answer())
  app.post('/api/system/settings/update', async (request) => {
    requireAdmin(request)
    const { discoveryEnabled, discoverySubnet, ...web } = parseBody(updateSchema, request.body)
    // Discovery validates the subnet before storing anything; the web policy cannot fail, so a
    // refused request changes nothing.
    deps.discovery.configure({ discoveryEnabled, discoverySubnet })
    deps.webPolicy.configure(web)
    return answer()
  })
}
