// Wires authentication into the Fastify instance: cookie parsing, security headers, the request
// guard, and the services the auth and security routes use. Call before any route is registered.
import type { FastifyInstance } from 'fastify'
import fastifyCookie from '@fastify/cookie'
import type { Db } from '../store/db.ts'
import { createApiTokensRepo } from '../store/api-tokens-repo.ts'
import { createAuditRepo } from '../store/audit-repo.ts'
import { createAuthSettingsRepo } from '../store/auth-settings-repo.ts'
import { createLoginFailureRepo } from '../store/login-failure-repo.ts'
import { createSessionRepo } from '../store/session-repo.ts'
import { createUsersRepo } from '../store/users-repo.ts'
import { createApiTokenService } from './api-tokens.ts'
import { createAuditLog } from './audit.ts'
import { createAuthService, type AuthService, type EnvApiToken } from './auth-service.ts'
import { installAuthGuard } from './guard.ts'
import { createLockout } from './lockout.ts'
import type { ProxyAuthConfig } from './proxy-auth.ts'
import { installRateLimits, type RateLimits, type RouteRateLimit } from './rate-limits.ts'
import { installSecurityHeaders, type EmbeddingConfig } from './security-headers.ts'
import { createSessionService } from './sessions.ts'
import { createSocketRegistry } from './socket-registry.ts'
import { createUserService } from './users.ts'

export const LOGIN_RATE_LIMIT = 10
export const LOGIN_RATE_WINDOW_MS = 60_000

export interface AuthSetup {
  auth: AuthService
  /** POST /api/login's own limit per address (loopback included). */
  loginLimit: RouteRateLimit
  /** For the other routes with a limit of their own. */
  rateLimits: RateLimits
}

export interface InstallAuthOptions {
  db: Db
  now: () => number
  disabled: boolean
  /** Extra /ws origins, or a getter read on every upgrade. */
  allowedOrigins: readonly string[] | (() => readonly string[])
  /** TRUSTED_PROXIES entries (default loopback). */
  trustedProxies?: readonly string[]
  /** PULSE_PUBLIC_URL's origin, or null. */
  publicUrl?: string | null
  /** Reverse-proxy authentication (PROXY_AUTH_*), or null when off. */
  proxyAuth?: ProxyAuthConfig | null
  /** Who may frame the app (or a getter read on every answer); refused when absent. */
  embedding?: EmbeddingConfig | (() => EmbeddingConfig)
  /** API_TOKEN from the environment, hashed. */
  envToken?: EnvApiToken | null
  /** Whether single sign-on is enabled and usable. */
  ssoReady?: () => boolean
}

/** Register cookies, headers and the guard; return the services for the routes. */
export async function installAuth(
  app: FastifyInstance,
  options: InstallAuthOptions,
): Promise<AuthSetup> {
  const { db, now } = options
  // Cookies are parsed in an onRequest hook of the plugin's own: it must run before the guard's.
  await app.register(fastifyCookie)
  installSecurityHeaders(app, options.embedding)
  const rateLimits = await installRateLimits(app, now)
  const sockets = createSocketRegistry()
  const sessions = createSessionService({ repo: createSessionRepo(db), now, sockets })
  const auditLog = createAuditLog({ repo: createAuditRepo(db), now, log: app.log })
  const users = createUserService({
    repo: createUsersRepo(db),
    sessions,
    audit: auditLog,
    now,
    sockets,
  })
  const auth = createAuthService({
    disabled: options.disabled,
    envToken: options.envToken ?? null,
    settingsRepo: createAuthSettingsRepo(db),
    tokens: createApiTokenService({ repo: createApiTokensRepo(db), audit: auditLog, now, sockets }),
    sessions,
    users,
    sockets,
    lockout: createLockout(createLoginFailureRepo(db), now),
    audit: auditLog,
    now,
  })
  installAuthGuard(app, {
    auth,
    allowedOrigins: options.allowedOrigins,
    trustedProxies: options.trustedProxies,
    publicUrl: options.publicUrl ?? null,
    proxyAuth: options.proxyAuth ?? null,
    ssoReady: options.ssoReady ?? (() => false),
  })
  if (options.disabled) app.log.warn('authentication is disabled (DISABLE_AUTH=true)')
  return { auth, loginLimit: rateLimits.route(LOGIN_RATE_LIMIT, LOGIN_RATE_WINDOW_MS), rateLimits }
}
