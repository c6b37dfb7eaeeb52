// Session list routes (issue 29 item 5). Every signed-in user lists and ends their own sessions;
// an admin lists everyone's and ends any. Ending one revokes it and closes its sockets at once.
// A session that is not the caller's is "not found" to a non-admin, so its existence is not told.
//   GET    /api/security/sessions       the caller's own
//   GET    /api/security/sessions/all   everyone's (admin)
//   DELETE /api/security/sessions/{id}  end one (own, or any for an admin)
//   DELETE /api/security/sessions       end the caller's other sessions (not this one)
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { AppError } from '../../shared/model/errors.ts'
import type { SessionsAnswer } from '../../shared/model/sessions.ts'
import type { AuthService } from '../auth/auth-service.ts'
import { clearSessionCookies } from '../auth/cookies.ts'
import { requireAdmin, type RequestAuth } from '../auth/guard.ts'

/** Whose sessions the caller's own are: a token is not a user and owns none. */
function owner(caller: RequestAuth): string | null {
  return caller.method === 'token' ? null : caller.username
}

function signedIn(request: FastifyRequest): RequestAuth {
  if (!request.auth) throw new AppError('AUTH_REQUIRED')
  return request.auth
}

const sameUser = (a: string, b: string) => a.toLowerCase() === b.toLowerCase()

/** Register the session list routes. */
export function registerSessionRoutes(app: FastifyInstance, auth: AuthService): void {
  const { sessions } = auth

  app.get('/api/security/sessions', async (request, reply): Promise<SessionsAnswer> => {
    const caller = signedIn(request)
    reply.header('Cache-Control', 'no-store')
    const username = owner(caller)
    if (username === null) return { sessions: [], truncated: false }
    return sessions.list(username, caller.sessionIdHash)
  })

  app.get('/api/security/sessions/all', async (request, reply): Promise<SessionsAnswer> => {
    const caller = requireAdmin(request)
    reply.header('Cache-Control', 'no-store')
    return sessions.list(null, caller.sessionIdHash)
  })

  app.delete<{ Params: { id: string } }>('/api/security/sessions/:id', async (request, reply) => {
    const caller = signedIn(request)
    const session = sessions.byRef(request.params.id)
    const username = owner(caller)
    const mine = session !== null && username !== null && sameUser(session.username, username)
    if (!session || !(mine || caller.isAdmin)) {
      throw new AppError('NOT_FOUND', { path: `/api/security/sessions/${request.params.id}` })
    }
    const current = session.idHash === caller.sessionIdHash
    sessions.revoke(session.idHash, current ? 'Signed out' : 'Session ended')
    auth.audit.record({
      type: 'session_ended',
      username: caller.username,
      ip: request.ip,
      detail: `${mine ? 'own' : session.username + "'s"} session from ${
        session.client.ip || 'an unknown address'
      }${current ? ' (this one)' : ''}`,
    })
    if (current) clearSessionCookies(request, reply)
    return { success: true, current }
  })

  app.delete('/api/security/sessions', async (request) => {
    const caller = signedIn(request)
    const username = owner(caller)
    if (username === null) return { success: true, ended: 0 }
    // A token or Basic caller has no session of its own to keep: all of them end.
    const ended = sessions.revokeOthers(username, caller.sessionIdHash ?? '')
    if (ended > 0) {
      auth.audit.record({
        type: 'session_ended',
        username: caller.username,
        ip: request.ip,
        detail: `${ended} other session(s) of their own`,
      })
    }
    return { success: true, ended }
  })
}
