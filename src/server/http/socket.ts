// The /ws upgrade: delta mode 1 or 2 when the client asks for it with ?deltas=1 or ?deltas=2
// (mode 2 with the backups at once: &backups=1). A plain GET (no upgrade) answers only a web
// node's admission replay (bus/ws-admission.ts), after the same hooks an upgrade passes.
import type { FastifyInstance } from 'fastify'
import { BACKUPS_QUERY_PARAM, DELTA_QUERY_PARAM } from '../../shared/model/messages.ts'
import { toDialect, type Hub } from '../hub/hub.ts'
import { answerAdmission } from '../bus/ws-admission.ts'
import type { ApiTokenService } from '../auth/api-tokens.ts'
import type { UserService } from '../auth/users.ts'

/**
 * Register the /ws route (the @fastify/websocket plugin must be registered first). A socket
 * opened with an API token is handed to `tokens`, which closes it when the token is revoked.
 */
export function registerSocketRoute(
  app: FastifyInstance,
  hub: Hub,
  tokens?: Pick<ApiTokenService, 'trackSocket'>,
  users?: Pick<UserService, 'trackSocket'>,
): void {
  app.route({
    method: 'GET',
    url: '/ws',
    handler: answerAdmission,
    wsHandler: (socket, request) => {
      const query = request.query as Record<string, string | undefined>
      const tokenId = request.auth?.tokenId
      if (tokenId !== undefined) tokens?.trackSocket(tokenId, socket)
      // A local user's socket closes when they are disabled, deleted or change role.
      const auth = request.auth
      const local =
        auth?.method === 'basic' ||
        (auth?.method === 'session' && auth.sessionMethod === 'password')
      if (auth && local) users?.trackSocket(auth.username, socket)
      hub.attach(socket, {
        dialect: toDialect(query[DELTA_QUERY_PARAM]),
        backups: query[BACKUPS_QUERY_PARAM] === '1',
      })
    },
  })
}
