// The /ws upgrade: delta mode 1 or 2 when the client asks for it with ?deltas=1 or ?deltas=2
// (mode 2 with the backups at once: &backups=1).
import type { FastifyInstance } from 'fastify'
import { BACKUPS_QUERY_PARAM, DELTA_QUERY_PARAM } from '../../shared/model/messages.ts'
import { toDialect, type Hub } from '../hub/hub.ts'

/** Register the /ws route (the @fastify/websocket plugin must be registered first). */
export function registerSocketRoute(app: FastifyInstance, hub: Hub): void {
  app.get('/ws', { websocket: true }, (socket, request) => {
    const query = request.query as Record<string, string | undefined>
    hub.attach(socket, {
      dialect: toDialect(query[DELTA_QUERY_PARAM]),
      backups: query[BACKUPS_QUERY_PARAM] === '1',
    })
  })
}
