// The /ws upgrade: delta mode 1 or 2 when the client asks for it with ?deltas=1 or ?deltas=2
// (mode 2 with the backups at once: &backups=1). A plain GET (no upgrade) answers only a web
// node's admission replay (bus/ws-admission.ts), after the same hooks an upgrade passes.
import type { FastifyInstance } from 'fastify'
import { BACKUPS_QUERY_PARAM, DELTA_QUERY_PARAM } from '../../shared/model/messages.ts'
import { toDialect, type Hub } from '../hub/hub.ts'
import { answerAdmission } from '../bus/ws-admission.ts'
import { socketOwner, type SocketRegistry } from '../auth/socket-registry.ts'

/**
 * Register the /ws route (the @fastify/websocket plugin must be registered first). Each socket
 * is tracked by the credentials it was let in with, so revoking them closes it.
 */
export function registerSocketRoute(
  app: FastifyInstance,
  hub: Hub,
  sockets?: Pick<SocketRegistry, 'track'>,
): void {
  app.route({
    method: 'GET',
    url: '/ws',
    handler: answerAdmission,
    wsHandler: (socket, request) => {
      const query = request.query as Record<string, string | undefined>
      sockets?.track(socket, socketOwner(request.auth))
      hub.attach(socket, {
        dialect: toDialect(query[DELTA_QUERY_PARAM]),
        backups: query[BACKUPS_QUERY_PARAM] === '1',
      })
    },
  })
}
