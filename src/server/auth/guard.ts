// The request guard: one onRequest hook authenticates every request under /api and /ws and refuses
// protected ones before any body is read or any socket is upgraded. Everything else (the SPA and
// its assets) is public. Order (contract): disabled, reverse proxy (secret + user header, CSRF
// double-submit), X-API-Token, session cookie (+ CSRF), Basic.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { AppError } from '../../shared/model/errors.ts'
import type { SessionMethod, SessionRecord } from '../store/session-repo.ts'
import type { AuthService } from './auth-service.ts'
import { CSRF_COOKIE, CSRF_HEADER, SESSION_COOKIE, setSessionCookies } from './cookies.ts'
import { authenticateProxy, type ProxyAuthConfig } from './proxy-auth.ts'
import { generateOpaqueId, safeEqual } from './secrets.ts'
import { hasRole, type Role } from '../../shared/model/roles.ts'
import { ROUTE_ROLES, routeAccess } from './route-roles.ts'
import { createProxyTrust, DEFAULT_TRUSTED_PROXIES, forwardedHost } from './proxy-trust.ts'

export type AuthMethod = 'session' | 'token' | 'basic' | 'proxy' | 'disabled' | 'open-read'

export interface RequestAuth {
  username: string
  method: AuthMethod
  /** What the caller may do (issue 29, route-roles.ts). */
  role: Role
  /** role === 'admin': may administer Pulse (export/import, credentials, users). */
  isAdmin: boolean
  /** Digest of the session id, for logout. */
  sessionIdHash?: string
  /** How the session (method 'session') was opened: password or single sign-on. */
  sessionMethod?: SessionMethod
  /** The API token's id (method 'token'): its sockets close when it is revoked. */
  tokenId?: string
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The authenticated caller, or null (public route without credentials). */
    auth: RequestAuth | null
  }
}

/**
 * Routes anyone may call, as 'METHOD /path' (HEAD counts as GET): the 'public' ones of the role
 * table (route-roles.ts). Every other route under /api and /ws requires authentication; paths
 * outside them (the SPA) are public.
 */
export const PUBLIC_ROUTES: readonly string[] = Object.entries(ROUTE_ROLES)
  .filter(([, access]) => access === 'public')
  .map(([route]) => route)

/**
 * API-token-only mode (an `API_TOKEN` and no other way in): these reads stay open without the
 * token, as in the reference, so the live tabs work for anyone who can reach the instance and
 * only changes need the token. Everything else answers 'API token required'.
 */
export const TOKEN_ONLY_OPEN_READS: readonly string[] = [
  'GET /api/state',
  'GET /api/config/nodes',
  'GET /api/config/system',
  'GET /api/settings',
  'GET /api/guests/metadata',
  'GET /api/guests/metadata/*',
  'GET /ws',
]

export const SOCKET_PATH = '/ws'
const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

/** True for a route anyone may call. */
export function isPublicRoute(method: string, url: string): boolean {
  return routeAccess(method, url) === 'public'
}

/** An authenticated caller with `role`. */
function caller(username: string, method: AuthMethod, role: Role): RequestAuth {
  return { username, method, role, isAdmin: role === 'admin' }
}

/**
 * A session's role: single sign-on's is the one decided at sign-in (admin for a session from
 * before roles); a password session's is its user's current one, so a demotion applies at once.
 * A disabled or deleted user's session ends.
 */
function sessionRole(auth: AuthService, session: SessionRecord): Role | null {
  if (session.method === 'oidc') return session.role ?? 'admin'
  const role = auth.users.roleOf(session.username)
  if (role === null) auth.sessions.revoke(session.idHash)
  return role
}

/** True for paths the guard covers: /api and /ws and everything below them. */
export function isGuardedPath(path: string): boolean {
  return /^\/(api|ws)(\/|$)/.test(path)
}

/** True for methods that never change state (no CSRF token needed). */
export function isReadMethod(method: string): boolean {
  return READ_METHODS.has(method)
}

export interface GuardOptions {
  auth: AuthService
  /** Extra acceptable Origins for /ws; '*' accepts any. A getter is read on every upgrade. */
  allowedOrigins: readonly string[] | (() => readonly string[])
  /** TRUSTED_PROXIES entries: peers whose forwarded host counts as the host (default loopback). */
  trustedProxies?: readonly string[]
  /** PULSE_PUBLIC_URL's origin: always an acceptable Origin for /ws. */
  publicUrl?: string | null
  /** Reverse-proxy authentication (PROXY_AUTH_*), or null/absent when off. */
  proxyAuth?: ProxyAuthConfig | null
  /** Whether single sign-on is enabled and usable: its sessions protect the instance too. */
  ssoReady?: () => boolean
}

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name]
  return Array.isArray(value) ? value[0] : value
}

function parseBasic(value: string | undefined): { username: string; password: string } | null {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(value ?? '')
  if (!match) return null
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8')
  const colon = decoded.indexOf(':')
  if (colon < 0) return null
  return { username: decoded.slice(0, colon), password: decoded.slice(colon + 1) }
}

/**
 * Origin rule for /ws: same host as one of `hosts` (the Host header, and a trusted proxy's
 * forwarded host), or listed; a missing Origin is a non-browser. Default ports compare equal.
 */
export function isOriginAllowed(
  origin: string,
  hosts: string | undefined | readonly (string | undefined)[],
  allowed: readonly string[],
): boolean {
  if (allowed.includes('*') || allowed.includes(origin.replace(/\/+$/, ''))) return true
  let url: URL
  try {
    url = new URL(origin)
  } catch {
    return false
  }
  const candidates = Array.isArray(hosts) ? hosts : [hosts]
  return candidates.some((host) => {
    if (!host) return false
    try {
      // Parsed with the Origin's scheme, so 'pulse.example.com:443' equals https://pulse.example.com.
      return new URL(`${url.protocol}//${host}`).host === url.host
    } catch {
      return false
    }
  })
}

/** CSRF double-submit: an X-CSRF-Token header equal to the pulse_csrf cookie (constant time). */
function doubleSubmitOk(request: FastifyRequest): boolean {
  const cookie = request.cookies[CSRF_COOKIE]
  const sent = header(request, CSRF_HEADER)
  return Boolean(cookie && sent && safeEqual(sent, cookie))
}

/** A pulse_csrf cookie for a caller without a session (reverse proxy): lasts the browser session. */
function issueCsrfCookie(request: FastifyRequest, reply: FastifyReply): void {
  reply.setCookie(CSRF_COOKIE, generateOpaqueId(), {
    path: '/',
    sameSite: 'lax',
    secure: request.protocol === 'https',
    httpOnly: false,
  })
}

/** The caller when it may administer Pulse: AUTH_REQUIRED without one, ADMIN_REQUIRED if not. */
export function requireAdmin(request: FastifyRequest): RequestAuth {
  if (!request.auth) throw new AppError('AUTH_REQUIRED')
  if (!request.auth.isAdmin) throw new AppError('ADMIN_REQUIRED')
  return request.auth
}

/** Slide the session and re-send its cookies when due; re-issue a CSRF cookie that went missing. */
function refreshCookies(
  auth: AuthService,
  request: FastifyRequest,
  reply: FastifyReply,
  sessionId: string,
  session: SessionRecord,
): void {
  // The CSRF value known good for this request: the header a write was checked with, or a cookie
  // that matches the session.
  let csrf = isReadMethod(request.method)
    ? request.cookies[CSRF_COOKIE]
    : header(request, CSRF_HEADER)
  if (!auth.sessions.checkCsrf(session, csrf)) csrf = undefined
  const refreshed = auth.sessions.refresh(session, request.ip)
  if (csrf === undefined) csrf = auth.sessions.rotateCsrf(session)
  else if (!refreshed) return
  setSessionCookies(request, reply, {
    id: sessionId,
    csrf,
    maxAgeMs: auth.sessions.remainingMs(session),
  })
}

/**
 * Authenticate a request. `required` false (public routes): missing or wrong credentials give null
 * instead of an error, and Basic is not tried (no argon2 work or lockout on public paths).
 * A valid session on a non-read method without its CSRF token is refused either way.
 */
async function authenticate(
  auth: AuthService,
  request: FastifyRequest,
  reply: FastifyReply,
  required: boolean,
  proxyAuth: ProxyAuthConfig | null,
  ssoReady: () => boolean,
): Promise<RequestAuth | null> {
  if (auth.disabled) return caller('anonymous', 'disabled', 'admin')
  const read = isReadMethod(request.method)

  // Proxy headers count only with the right secret; without it they are not even read.
  const proxied = authenticateProxy(proxyAuth, request.headers)
  if (proxied) {
    if (!read && !doubleSubmitOk(request)) throw new AppError('CSRF_INVALID')
    if (read && !request.cookies[CSRF_COOKIE] && request.routeOptions.url !== SOCKET_PATH) {
      issueCsrfCookie(request, reply)
    }
    // The role headers mapped (issue 29 item 3); no mapped role with a default of none: refused.
    if (proxied.role === null) throw new AppError('PROXY_ROLE_NONE')
    return caller(proxied.username, 'proxy', proxied.role)
  }

  const settings = auth.settings()
  const sso = ssoReady()
  const token = header(request, 'x-api-token')
  if (token !== undefined && token !== '') {
    const identity = auth.verifyToken(token)
    // The token's name is the caller's name (the audit log shows it) and its role is the role.
    if (identity) return { ...caller(identity.name, 'token', identity.role), tokenId: identity.id }
    if (required) throw new AppError('API_TOKEN_INVALID')
    return null
  }
  if (!settings && !sso) {
    if (auth.tokenOnly()) {
      // API-token-only mode: a few reads are open, everything else needs the token.
      const route = `${read ? 'GET' : request.method} ${request.routeOptions.url ?? ''}`
      if (read && TOKEN_ONLY_OPEN_READS.includes(route)) {
        return caller('', 'open-read', 'viewer')
      }
      if (!required) return null
      reply.header('WWW-Authenticate', 'Bearer realm="API Token Required"')
      throw new AppError('API_TOKEN_REQUIRED')
    }
    // With proxy auth configured the instance is protected: a caller without it is just
    // unauthenticated.
    if (required) throw new AppError(proxyAuth ? 'AUTH_REQUIRED' : 'AUTH_NOT_CONFIGURED')
    return null
  }

  const sessionId = request.cookies[SESSION_COOKIE]
  const session = sessionId ? auth.sessions.find(sessionId) : null
  const role = session ? sessionRole(auth, session) : null
  if (sessionId && session && role) {
    const csrfHeader = header(request, CSRF_HEADER)
    if (!read && !auth.sessions.checkCsrf(session, csrfHeader)) throw new AppError('CSRF_INVALID')
    // An upgrade answer (101) carries no cookies: leave refresh to the next HTTP request.
    if (request.routeOptions.url !== SOCKET_PATH) {
      refreshCookies(auth, request, reply, sessionId, session)
    }
    return {
      ...caller(session.username, 'session', role),
      sessionIdHash: session.idHash,
      sessionMethod: session.method,
    }
  }

  if (!required) return null
  const basic = settings ? parseBasic(header(request, 'authorization')) : null
  if (basic) {
    const result = await auth.checkCredentials(basic.username, basic.password, request.ip, 'basic')
    if (result.ok) {
      if (!read && request.cookies[CSRF_COOKIE] && !doubleSubmitOk(request)) {
        throw new AppError('CSRF_INVALID')
      }
      return caller(result.username, 'basic', result.role)
    }
    if (result.locked) throw new AppError('ACCOUNT_LOCKED', { minutes: result.remainingMinutes })
  }
  throw new AppError('AUTH_REQUIRED')
}

/** Decorate requests with `auth` and add the guard hook; call before any route is registered. */
export function installAuthGuard(app: FastifyInstance, options: GuardOptions): void {
  app.decorateRequest('auth', null)
  const isTrustedProxy = createProxyTrust(options.trustedProxies ?? DEFAULT_TRUSTED_PROXIES)
  const configured = options.allowedOrigins
  const listed = typeof configured === 'function' ? configured : () => configured
  const publicUrl = options.publicUrl
  const allowedOrigins = () => (publicUrl ? [...listed(), publicUrl] : listed())
  app.addHook('onRequest', async (request, reply) => {
    // The matched route decides (the router already resolved encodings); unmatched paths fall
    // back to the raw path so an unknown /api path says 401, not 404, to a stranger.
    const routeUrl = request.routeOptions.url
    const path = routeUrl ?? request.url.split('?')[0] ?? '/'
    if (!isGuardedPath(path)) return
    const access = routeUrl === undefined ? undefined : routeAccess(request.method, routeUrl)
    const isPublic = access === 'public'
    request.auth = await authenticate(
      options.auth,
      request,
      reply,
      !isPublic,
      options.proxyAuth ?? null,
      options.ssoReady ?? (() => false),
    )
    if (routeUrl !== undefined && !isPublic && request.auth) {
      // A matched route missing from the table fails closed (the route-walk test names it).
      if (access === undefined) {
        request.log.error({ route: `${request.method} ${routeUrl}` }, 'route has no declared role')
        throw new AppError('ROUTE_ROLE_MISSING')
      }
      if (!hasRole(request.auth.role, access)) {
        throw new AppError('ROLE_REQUIRED', { role: access, yours: request.auth.role })
      }
    }
    if (routeUrl === SOCKET_PATH && request.auth) {
      const origin = header(request, 'origin')
      // A forwarded host counts only from a trusted proxy: from anyone else it is a claim.
      const hosts = isTrustedProxy(request.socket.remoteAddress)
        ? [request.headers.host, forwardedHost(request.headers)]
        : [request.headers.host]
      const ok =
        origin === undefined
          ? request.auth.method === 'token' || request.auth.method === 'disabled'
          : isOriginAllowed(origin, hosts, allowedOrigins())
      if (!ok) {
        request.log.info({ origin: origin ?? '(none)' }, 'socket upgrade refused: origin')
        throw new AppError('ORIGIN_REJECTED', { origin: origin ?? '(none)' })
      }
    }
  })
}
