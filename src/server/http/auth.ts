// Login and logout (issue 4). Answers never carry a password. Failures answer the catalogue's
// { code, message } (INVALID_CREDENTIALS with the attempts left, ACCOUNT_LOCKED with the minutes
// left; spec 001 §7 also reads success, remaining, remainingMinutes and locked); the login rate
// limit answers RATE_LIMITED with Retry-After.
import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import { AppError } from '../../shared/model/errors.ts'
import type { AuthService } from '../auth/auth-service.ts'
import { clearSessionCookies, sessionClient, setSessionCookies } from '../auth/cookies.ts'
import type { RouteRateLimit } from '../auth/rate-limits.ts'
import { parseBody } from '../parse-body.ts'

const MAX_FIELD = 1024

const required = (max: number) =>
  z
    .string({ error: 'is required' })
    .min(1, 'is required')
    .max(max, `must be at most ${max} characters`)

export const loginInputSchema = z.object({
  username: required(200),
  password: required(MAX_FIELD),
})

export interface AuthRouteDeps {
  auth: AuthService
  /** The per-address login limit (an onRequest hook). */
  loginLimit: RouteRateLimit
  /** Single sign-on: a logout of an OIDC session answers the provider's logout URL. */
  oidc?: { logoutUrl(): string }
}

/** Register POST /api/login and POST /api/logout. */
export function registerAuthRoutes(app: FastifyInstance, deps: AuthRouteDeps): void {
  const { auth } = deps

  app.post('/api/login', { onRequest: deps.loginLimit }, async (request, reply) => {
    reply.header('Cache-Control', 'no-store')
    const { username, password } = parseBody(loginInputSchema, request.body)
    if (!auth.settings()) throw new AppError('AUTH_NOT_CONFIGURED')
    const result = await auth.checkCredentials(username, password, request.ip, 'login')
    if (result.ok) {
      const session = auth.sessions.create(
        result.username,
        'password',
        undefined,
        sessionClient(request),
      )
      setSessionCookies(request, reply, {
        id: session.id,
        csrf: session.csrf,
        maxAgeMs: auth.sessions.ttlMs,
      })
      auth.audit.record({ type: 'login_success', username: result.username, ip: request.ip })
      return { success: true, username: result.username, role: result.role }
    }
    if (result.locked) {
      const minutes = result.remainingMinutes
      const err = new AppError('ACCOUNT_LOCKED', { minutes })
      return reply
        .status(err.status)
        .send({ ...err.toJSON(), success: false, locked: true, remainingMinutes: minutes })
    }
    const err = new AppError('INVALID_CREDENTIALS')
    return reply
      .status(err.status)
      .send({ ...err.toJSON(), success: false, remaining: result.remaining })
  })

  app.post('/api/logout', async (request, reply) => {
    // The guard has already required the CSRF token when a live session cookie came along.
    const caller = request.auth
    if (caller?.method === 'session' && caller.sessionIdHash) {
      auth.sessions.revoke(caller.sessionIdHash)
      auth.audit.record({ type: 'logout', username: caller.username, ip: request.ip })
    }
    clearSessionCookies(request, reply)
    // The UI navigates to the provider's logout URL, which ends the provider's session too.
    const logoutUrl = caller?.sessionMethod === 'oidc' ? (deps.oidc?.logoutUrl() ?? '') : ''
    return logoutUrl ? { success: true, logoutUrl } : { success: true }
  })
}
