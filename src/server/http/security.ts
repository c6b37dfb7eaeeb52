// Security routes (issue 4): status, first-run quick setup (and forced rotation), change password,
// API token regeneration, audit log, the login account's lockout and its unlock. Only quick-setup's and regenerate-token's answers hold
// secrets, once, with Cache-Control: no-store.
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { z } from 'zod'
import { DEFAULT_TOKEN_NAME } from '../../shared/model/api-tokens.ts'
import { AppError } from '../../shared/model/errors.ts'
import type { AccountLock, SecurityStatus } from '../../shared/model/security.ts'
import type { AuthService } from '../auth/auth-service.ts'
import { clearSessionCookies, sessionClient, setSessionCookies } from '../auth/cookies.ts'
import { requireAdmin } from '../auth/guard.ts'
import { isPrivateAddress } from '../auth/network.ts'
import type { ProxyAuthConfig } from '../auth/proxy-auth.ts'
import { parseBody } from '../parse-body.ts'

const MAX_SECRET = 1024
export const AUDIT_DEFAULT_LIMIT = 100
export const AUDIT_MAX_LIMIT = 1000
const SKIPPED = {
  success: false,
  skipped: true,
  message:
    'Security is already configured. Please remove existing security first if you want to reconfigure.',
}

const optionalText = (min: number, max: number, pattern?: RegExp, problem?: string) => {
  let schema = z
    .string({ error: 'must be a string' })
    .min(min, `must be at least ${min} characters`)
    .max(max, `must be at most ${max} characters`)
  if (pattern) schema = schema.regex(pattern, problem)
  // The UI sends '' for "not given".
  return z.preprocess((v) => (v === '' || v === null ? undefined : v), schema.optional())
}

export const quickSetupSchema = z.object({
  username: optionalText(
    1,
    64,
    /^[A-Za-z0-9._@-]+$/,
    'may contain letters, digits, ".", "_", "@" and "-" only',
  ),
  // The 8-character minimum is checked by the service (PASSWORD_TOO_SHORT, the UI's message).
  password: optionalText(0, MAX_SECRET),
  apiToken: optionalText(16, 512, /^\S+$/, 'must not contain spaces'),
  force: z.boolean({ error: 'must be true or false' }).optional(),
})

const text = () =>
  z
    .string({ error: 'is required' })
    .min(1, 'is required')
    .max(MAX_SECRET, `must be at most ${MAX_SECRET} characters`)

export const changePasswordSchema = z.object({ currentPassword: text(), newPassword: text() })

export const auditQuerySchema = z.object({
  limit: z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .max(AUDIT_MAX_LIMIT, `must be at most ${AUDIT_MAX_LIMIT}`)
    .optional(),
})

export const unlockSchema = z.object({
  username: z
    .string({ error: 'is required' })
    .min(1, 'is required')
    .max(200, 'must be at most 200 characters'),
})

/** The caller, or AUTH_REQUIRED (routes behind the guard always have one). */
function callerOf(request: FastifyRequest) {
  if (!request.auth) throw new AppError('AUTH_REQUIRED')
  return request.auth
}

export interface SecurityRouteOptions {
  /** Reverse-proxy authentication (PROXY_AUTH_*), or null/absent when off. */
  proxyAuth?: ProxyAuthConfig | null
  /** Single sign-on: whether it is usable and its provider logout URL. */
  oidc?: { ready(): boolean; logoutUrl(): string }
}

/** Register the /api/security routes. */
export function registerSecurityRoutes(
  app: FastifyInstance,
  auth: AuthService,
  options: SecurityRouteOptions = {},
): void {
  const proxyAuth = auth.disabled ? null : (options.proxyAuth ?? null)
  /** Whether anything but a login password keeps strangers out (or the password itself). */
  const isProtected = (hasLogin: boolean, ssoOn: boolean) =>
    hasLogin || proxyAuth !== null || ssoOn || auth.envTokenHint !== null
  app.get('/api/security/status', async (request, reply): Promise<SecurityStatus> => {
    reply.header('Cache-Control', 'no-store')
    const settings = auth.settings()
    const oidcOn = !auth.disabled && options.oidc?.ready() === true
    // A proxy secret, single sign-on or an API_TOKEN protects the instance as a password does.
    const configured = !auth.disabled && isProtected(settings !== null, oidcOn)
    const byProxy = request.auth?.method === 'proxy' ? request.auth : null
    // The named tokens (issue 29 item 4): the "default" one's hint, else the first's, else API_TOKEN's.
    const tokens = auth.tokens.list()
    const stored = tokens.find((t) => t.name === DEFAULT_TOKEN_NAME) ?? tokens[0]
    const tokenConfigured = stored !== undefined || auth.envTokenHint !== null
    const tokenHint = stored !== undefined ? stored.hint : auth.envTokenHint
    const privateNetwork = isPrivateAddress(request.ip)
    return {
      hasAuthentication: configured,
      hasPasswordLogin: settings !== null && !auth.disabled,
      requiresAuth: configured,
      disabled: auth.disabled,
      authUsername: request.auth?.username ?? '',
      authenticated: request.auth !== null,
      // The UI hides what the role cannot use (issue 29 item 6); the server still checks each call.
      ...(request.auth ? { role: request.auth.role } : {}),
      credentialsEncrypted: true,
      apiTokenConfigured: tokenConfigured,
      apiTokenHint: tokenHint ?? '',
      oidcEnabled: oidcOn,
      oidcUsername: request.auth?.sessionMethod === 'oidc' ? request.auth.username : '',
      oidcLogoutURL: oidcOn && request.auth ? (options.oidc?.logoutUrl() ?? '') : '',
      hasProxyAuth: proxyAuth !== null,
      proxyAuthUsername: byProxy?.username ?? '',
      proxyAuthIsAdmin: byProxy?.isAdmin ?? false,
      proxyAuthLogoutURL: byProxy ? (proxyAuth?.logoutUrl ?? '') : '',
      exportProtected: configured,
      unprotectedExportAllowed: false,
      hasHTTPS: request.protocol === 'https',
      hasAuditLogging: true,
      publicAccess: !privateNetwork,
      isPrivateNetwork: privateNetwork,
      clientIP: request.ip,
      configuredButPendingRestart: false,
    }
  })

  app.post('/api/security/quick-setup', async (request, reply) => {
    reply.header('Cache-Control', 'no-store')
    const input = parseBody(quickSetupSchema, request.body ?? {})
    const configured = auth.settings() !== null
    const rotate = configured && input.force === true
    if (configured && !rotate) {
      return SKIPPED
    }
    // Rotation replaces the admin's credentials: only the admin may do it. Behind a reverse proxy,
    // single sign-on or an API_TOKEN the first setup too: the instance is already protected.
    const ssoOn = options.oidc?.ready() === true
    if (rotate || isProtected(false, ssoOn)) requireAdmin(request)
    const result = await auth.setup(input, rotate, request.ip)
    if (!result) {
      return SKIPPED
    }
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
    return { success: true, skipped: false, ...result }
  })

  // Each local user changes their own password (issue 29 item 2).
  app.post('/api/security/change-password', async (request, reply) => {
    const caller = callerOf(request)
    const input = parseBody(changePasswordSchema, request.body)
    await auth.changePassword(input.currentPassword, input.newPassword, caller.username, request.ip)
    // Every session of the caller is gone, this one included: the client logs in again.
    clearSessionCookies(request, reply)
    return { success: true }
  })

  app.post('/api/security/regenerate-token', async (request, reply) => {
    const caller = requireAdmin(request)
    reply.header('Cache-Control', 'no-store')
    return { token: auth.regenerateToken(caller.username, request.ip) }
  })

  app.get('/api/security/audit', async (request) => {
    callerOf(request)
    const { limit } = parseBody(auditQuerySchema, request.query)
    return { events: auth.audit.list(limit ?? AUDIT_DEFAULT_LIMIT) }
  })

  // Admin-visible lockout: the login account, whether it is locked and for how long.
  app.get('/api/security/lockout', async (request, reply): Promise<{ accounts: AccountLock[] }> => {
    callerOf(request)
    reply.header('Cache-Control', 'no-store')
    const accounts = auth.accountLocks().map((lock) => ({
      ...lock,
      lockedUntil: lock.lockedUntil === null ? null : new Date(lock.lockedUntil).toISOString(),
    }))
    return { accounts }
  })

  app.post('/api/security/unlock', async (request) => {
    const caller = requireAdmin(request)
    const { username } = parseBody(unlockSchema, request.body)
    // Idempotent: unlocking an account that is not locked clears its failure count.
    return { success: true, unlocked: auth.unlock(username, caller.username, request.ip) }
  })
}
