// Discovery routes: the cached scan status, and starting a scan in the background. The scanner
// enforces the network rule ('auto' is loopback only; other ranges only when typed here).
import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import { requireAdmin } from '../auth/guard.ts'
import type { DiscoveryService } from '../discovery/discovery-service.ts'
import { parseBody } from '../parse-body.ts'

const discoverSchema = z.object({
  subnet: z.string({ error: 'must be "auto" or a CIDR subnet' }).max(64).optional(),
})

/**
 * Register GET/POST /api/discover. The app owns the service's lifetime from here: background
 * scans start now (when enabled) and stop when the server closes.
 */
export function registerDiscoveryRoutes(app: FastifyInstance, discovery: DiscoveryService): void {
  app.get('/api/discover', async () => discovery.status())
  app.post('/api/discover', async (request, reply) => {
    requireAdmin(request)
    const body = parseBody(discoverSchema, request.body ?? {})
    return reply.status(202).send(discovery.scan(body.subnet))
  })
  app.addHook('onClose', async () => discovery.close())
  discovery.start()
}
