// The /ws upgrade: delta mode when the client asks for it with ?deltas=1.
import type { FastifyInstance } from 'fastify'
import { DELTA_QUERY_PARAM } from '../../shared/model/messages.ts'
import type { Hub } from '../hub/hub.ts'

/** Register the /ws route (the @fastify/websocket plugin must be registered first). */
export function registerSocketRoute(app: FastifyInstance, hub: Hub): void {
  app.get('/ws', { websocket: true }, (socket, request) => {
    const query = request.query as Record<string, string | undefined>
    hub.attach(socket, { deltas: query[DELTA_QUERY_PARAM] === '1' })
  })
}
