// Node configuration routes. Answers never contain secrets (hasToken / hasPassword instead).
import type { FastifyInstance } from 'fastify'
import type { NodeService } from '../nodes/node-service.ts'

/** Register GET/POST /api/config/nodes. */
export function registerNodeRoutes(app: FastifyInstance, nodes: NodeService): void {
  app.get('/api/config/nodes', async () => nodes.list())
  app.post('/api/config/nodes', async (request, reply) => {
    const view = nodes.add(request.body)
    return reply.status(201).send(view)
  })
}
