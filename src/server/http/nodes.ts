// Node configuration routes. Answers never contain secrets (hasToken / hasPassword instead).
// Reads need any caller the guard lets through; changes and connection tests need an admin.
import type { FastifyInstance } from 'fastify'
import { requireAdmin } from '../auth/guard.ts'
import type { NodeService } from '../nodes/node-service.ts'

interface IdParams {
  id: string
}

/** Register /api/config/nodes: list, add, edit, delete and the connection tests. */
export function registerNodeRoutes(app: FastifyInstance, nodes: NodeService): void {
  app.get('/api/config/nodes', async () => nodes.list())
  app.post('/api/config/nodes', async (request, reply) => {
    requireAdmin(request)
    return reply.status(201).send(nodes.add(request.body))
  })
  // Registered before /:id routes for readability; the router prefers the static segment anyway.
  app.post('/api/config/nodes/test-connection', async (request) => {
    requireAdmin(request)
    return nodes.testPayload(request.body)
  })
  app.put<{ Params: IdParams }>('/api/config/nodes/:id', async (request) => {
    requireAdmin(request)
    return nodes.update(request.params.id, request.body)
  })
  app.delete<{ Params: IdParams }>('/api/config/nodes/:id', async (request) => {
    requireAdmin(request)
    nodes.remove(request.params.id)
    return { success: true }
  })
  app.post<{ Params: IdParams }>('/api/config/nodes/:id/test', async (request) => {
    requireAdmin(request)
    return nodes.testStored(request.params.id)
  })
}
