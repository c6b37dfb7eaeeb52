// The two auth cookies: pulse_session (HttpOnly) and pulse_csrf (readable by the SPA, which echoes
// it in X-CSRF-Token). Both SameSite=Lax, Path=/, Secure on HTTPS.
import type { FastifyReply, FastifyRequest } from 'fastify'

export const SESSION_COOKIE = 'pulse_session'
export const CSRF_COOKIE = 'pulse_csrf'
export const CSRF_HEADER = 'x-csrf-token'

/** Set both cookies with a Max-Age of the session lifetime. */
export function setSessionCookies(
  request: FastifyRequest,
  reply: FastifyReply,
  values: { id: string; csrf: string; maxAgeMs: number },
): void {
  const common = {
    path: '/',
    sameSite: 'lax' as const,
    secure: request.protocol === 'https',
    maxAge: Math.floor(values.maxAgeMs / 1000),
  }
  reply.setCookie(SESSION_COOKIE, values.id, { ...common, httpOnly: true })
  reply.setCookie(CSRF_COOKIE, values.csrf, { ...common, httpOnly: false })
}

/** Expire both cookies. */
export function clearSessionCookies(request: FastifyRequest, reply: FastifyReply): void {
  const common = { path: '/', sameSite: 'lax' as const, secure: request.protocol === 'https' }
  reply.clearCookie(SESSION_COOKIE, { ...common, httpOnly: true })
  reply.clearCookie(CSRF_COOKIE, common)
}

/** The browser a new session is opened from, for the session list. */
export function sessionClient(request: FastifyRequest): { userAgent: string; ip: string } {
  const agent = request.headers['user-agent']
  return { userAgent: typeof agent === 'string' ? agent : '', ip: request.ip }
}
