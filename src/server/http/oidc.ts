// Single sign-on routes: the OIDC configuration (GET/PUT /api/security/oidc, never the secret),
// the login start (POST /api/oidc/login → authorizationUrl) and the provider's callback, which
// opens a session like the password login or redirects to /?oidc_error=<code>.
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { z } from 'zod'
import { AppError } from '../../shared/model/errors.ts'
import type { AuthService } from '../auth/auth-service.ts'
import { sessionClient, setSessionCookies } from '../auth/cookies.ts'
import { requireAdmin } from '../auth/guard.ts'
import type { Oidc } from '../auth/oidc.ts'
import type { OidcErrorCode } from '../auth/oidc-claims.ts'
import { OIDC_STATE_TTL_MS } from '../auth/oidc-flow.ts'
import type { RateLimits } from '../auth/rate-limits.ts'
import { parseBody } from '../parse-body.ts'

export const OIDC_CALLBACK_PATH = '/api/oidc/callback'
/** The browser binding of a pending login (HttpOnly, sent only to the callback). */
export const OIDC_COOKIE = 'pulse_oidc'
export const OIDC_LOGIN_RATE_LIMIT = 20
export const OIDC_LOGIN_RATE_WINDOW_MS = 60_000

// returnTo is made safe by the flow (anything else becomes '/'), so any string is accepted here.
const loginSchema = z.object({
  returnTo: z.string({ error: 'must be a string' }).max(4096).nullable().optional(),
})

export interface OidcRouteDeps {
  auth: AuthService
  oidc: Oidc
  now: () => number
  rateLimits: RateLimits
}

/** `<request origin>/api/oidc/callback`: the redirect URL when none is configured. */
export function defaultRedirectUrl(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}${OIDC_CALLBACK_PATH}`
}

/** Register the single sign-on routes. */
export function registerOidcRoutes(app: FastifyInstance, deps: OidcRouteDeps): void {
  const { auth, oidc } = deps
  const loginLimit = deps.rateLimits.route(OIDC_LOGIN_RATE_LIMIT, OIDC_LOGIN_RATE_WINDOW_MS)

  app.get('/api/security/oidc', async (request, reply) => {
    requireAdmin(request)
    reply.header('Cache-Control', 'no-store')
    return oidc.config.view(defaultRedirectUrl(request))
  })

  app.put('/api/security/oidc', async (request, reply) => {
    const caller = requireAdmin(request)
    reply.header('Cache-Control', 'no-store')
    const before = oidc.config.settings()
    const saved = oidc.config.update(request.body)
    // A single sign-on session carries the role decided when it was opened: a changed mapping
    // ends them (the caller's own aside), so each user signs in again under the new mapping.
    const roles = (s: typeof saved) => JSON.stringify([s.roleMapping, s.defaultRole])
    const ended =
      roles(before) === roles(saved)
        ? 0
        : auth.sessions.revokeSingleSignOn(caller.sessionIdHash, 'Single sign-on roles changed')
    auth.audit.record({
      type: 'oidc_config_changed',
      username: caller.username,
      ip: request.ip,
      detail: `single sign-on ${saved.enabled ? 'enabled' : 'disabled'}${
        roles(before) === roles(saved)
          ? ''
          : `; roles changed, ${ended} single sign-on session(s) ended`
      }`,
    })
    return oidc.config.view(defaultRedirectUrl(request))
  })

  app.post('/api/oidc/login', { onRequest: loginLimit }, async (request, reply) => {
    reply.header('Cache-Control', 'no-store')
    const { returnTo } = parseBody(loginSchema, request.body ?? {})
    // Enabled single sign-on protects the instance on its own: the guard honours its sessions
    // with or without a login password.
    if (!oidc.ready()) throw new AppError('OIDC_DISABLED')
    const started = await oidc.flow.start({
      returnTo: returnTo ?? '/',
      defaultRedirect: defaultRedirectUrl(request),
    })
    // Binds the login to this browser: the provider's redirect back (a top-level GET, so Lax
    // cookies go along) must come with it.
    reply.setCookie(OIDC_COOKIE, started.binding, {
      path: OIDC_CALLBACK_PATH,
      httpOnly: true,
      sameSite: 'lax',
      secure: request.protocol === 'https',
      maxAge: Math.floor(OIDC_STATE_TTL_MS / 1000),
    })
    return { authorizationUrl: started.authorizationUrl }
  })

  app.get(OIDC_CALLBACK_PATH, async (request, reply) => {
    reply.header('Cache-Control', 'no-store')
    const fail = (code: OidcErrorCode, detail: string, username = '') => {
      auth.audit.record({
        type: 'oidc_failure',
        username,
        ip: request.ip,
        detail: `${code}: ${detail}`,
      })
      return reply.redirect(`/?oidc_error=${encodeURIComponent(code)}`, 302)
    }
    const query = request.url.includes('?') ? request.url.slice(request.url.indexOf('?') + 1) : ''
    const binding = request.cookies[OIDC_COOKIE]
    reply.clearCookie(OIDC_COOKIE, { path: OIDC_CALLBACK_PATH })
    const outcome = await oidc.flow.finish(query, binding)
    if (!outcome.ok) return fail(outcome.code, outcome.detail, outcome.username)
    const { identity } = outcome
    if (!oidc.ready()) {
      return fail('session_failed', 'single sign-on was turned off', identity.username)
    }
    let session
    try {
      session = auth.sessions.create(
        identity.username,
        'oidc',
        outcome.role,
        sessionClient(request),
      )
    } catch (err) {
      request.log.error({ err }, 'single sign-on: session could not be created')
      return fail('session_failed', 'session could not be created', identity.username)
    }
    setSessionCookies(request, reply, {
      id: session.id,
      csrf: session.csrf,
      maxAgeMs: auth.sessions.ttlMs,
    })
    auth.audit.record({
      type: 'oidc_login',
      username: identity.username,
      ip: request.ip,
      detail: [identity.email ? `email ${identity.email}` : '', `role ${outcome.role}`]
        .filter(Boolean)
        .join(', '),
    })
    return reply.redirect(outcome.returnTo, 302)
  })
}
