// Reverse-proxy authentication: a proxy in front of Pulse that authenticates users itself passes
// the user (and roles) in headers, together with a shared secret. The headers count only when the
// secret matches (constant time) and the user header is non-empty; otherwise they are ignored.
// Roles (issue 29 item 3): the admin, operator and viewer role names map to Pulse's roles (the
// highest one present wins); a user with none gets PROXY_AUTH_DEFAULT_ROLE ('none' refuses).
import type { IncomingHttpHeaders } from 'node:http'
import { hasRole, isRole, type Role } from '../../shared/model/roles.ts'
import { safeEqual } from './secrets.ts'

export const PROXY_SECRET_HEADER = 'x-proxy-secret'
export const DEFAULT_PROXY_USER_HEADER = 'X-Remote-User'
export const DEFAULT_PROXY_ROLE_HEADER = 'X-Remote-Roles'
export const DEFAULT_PROXY_ADMIN_ROLE = 'admin'
export const DEFAULT_PROXY_OPERATOR_ROLE = 'operator'
export const DEFAULT_PROXY_VIEWER_ROLE = 'viewer'
/** A user with none of the three role names: operator, as before roles were mapped. */
export const DEFAULT_PROXY_DEFAULT_ROLE: Role = 'operator'
export const DEFAULT_PROXY_ROLE_SEPARATOR = '|'
/** Longest user name accepted from the proxy; a longer one makes the headers count as absent. */
export const MAX_PROXY_USERNAME = 256

export interface ProxyAuthConfig {
  /** PROXY_AUTH_SECRET: the value the proxy sends in X-Proxy-Secret. */
  secret: string
  /** Header names, lower-case (Node lower-cases incoming header names). */
  userHeader: string
  roleHeader: string
  adminRole: string
  operatorRole: string
  viewerRole: string
  /** PROXY_AUTH_DEFAULT_ROLE: the role of a user with no mapped role; null ('none') refuses. */
  defaultRole: Role | null
  /** Role separator; ',' is accepted as well. */
  roleSeparator: string
  /** PROXY_AUTH_LOGOUT_URL, or '' for none. */
  logoutUrl: string
}

export interface ProxyIdentity {
  username: string
  roles: string[]
  isAdmin: boolean
  /** The Pulse role; null = refused (no mapped role and PROXY_AUTH_DEFAULT_ROLE=none). */
  role: Role | null
}

const HEADER_NAME = /^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/

function headerName(env: NodeJS.ProcessEnv, name: string, fallback: string): string {
  const value = (env[name] ?? '').trim() || fallback
  if (!HEADER_NAME.test(value))
    throw new Error(`${name} must be an HTTP header name (got "${value}")`)
  return value.toLowerCase()
}

function defaultRole(env: NodeJS.ProcessEnv): Role | null {
  const raw = (env.PROXY_AUTH_DEFAULT_ROLE ?? '').trim().toLowerCase()
  if (raw === '') return DEFAULT_PROXY_DEFAULT_ROLE
  if (raw === 'none') return null
  if (!isRole(raw)) {
    throw new Error(
      `PROXY_AUTH_DEFAULT_ROLE must be viewer, operator, admin or none (got "${env.PROXY_AUTH_DEFAULT_ROLE}")`,
    )
  }
  return raw
}

/** PROXY_AUTH_* from the environment; null when PROXY_AUTH_SECRET is unset or empty. */
export function readProxyAuthConfig(env: NodeJS.ProcessEnv): ProxyAuthConfig | null {
  const secret = env.PROXY_AUTH_SECRET ?? ''
  if (secret.trim() === '') return null
  const logoutUrl = (env.PROXY_AUTH_LOGOUT_URL ?? '').trim()
  if (logoutUrl !== '' && !/^https?:\/\/[^\s]+$/i.test(logoutUrl)) {
    throw new Error(`PROXY_AUTH_LOGOUT_URL must be an http(s) URL (got "${logoutUrl}")`)
  }
  return {
    secret,
    userHeader: headerName(env, 'PROXY_AUTH_USER_HEADER', DEFAULT_PROXY_USER_HEADER),
    roleHeader: headerName(env, 'PROXY_AUTH_ROLE_HEADER', DEFAULT_PROXY_ROLE_HEADER),
    adminRole: (env.PROXY_AUTH_ADMIN_ROLE ?? '').trim() || DEFAULT_PROXY_ADMIN_ROLE,
    operatorRole: (env.PROXY_AUTH_OPERATOR_ROLE ?? '').trim() || DEFAULT_PROXY_OPERATOR_ROLE,
    viewerRole: (env.PROXY_AUTH_VIEWER_ROLE ?? '').trim() || DEFAULT_PROXY_VIEWER_ROLE,
    defaultRole: defaultRole(env),
    roleSeparator: env.PROXY_AUTH_ROLE_SEPARATOR || DEFAULT_PROXY_ROLE_SEPARATOR,
    logoutUrl,
  }
}

function single(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name]
  return Array.isArray(value) ? value[0] : value
}

/** Split a role header on the configured separator and on ','; blanks dropped. */
export function parseRoles(value: string | undefined, separator: string): string[] {
  if (!value) return []
  return value
    .split(separator)
    .flatMap((part) => part.split(','))
    .map((role) => role.trim())
    .filter((role) => role !== '')
}

/** The highest Pulse role among the proxy's role names, else the default (null = refused). */
export function proxyRole(
  config: Pick<ProxyAuthConfig, 'adminRole' | 'operatorRole' | 'viewerRole' | 'defaultRole'>,
  roles: readonly string[],
): Role | null {
  const names: [string, Role][] = [
    [config.adminRole, 'admin'],
    [config.operatorRole, 'operator'],
    [config.viewerRole, 'viewer'],
  ]
  let best: Role | null = null
  for (const [name, role] of names) {
    if (roles.includes(name) && (best === null || !hasRole(best, role))) best = role
  }
  return best ?? config.defaultRole
}

/**
 * The identity the proxy vouches for, or null: no secret configured, secret header missing or
 * wrong, or no user. Only then are the user and role headers read at all.
 */
export function authenticateProxy(
  config: ProxyAuthConfig | null,
  headers: IncomingHttpHeaders,
): ProxyIdentity | null {
  if (!config) return null
  const secret = single(headers, PROXY_SECRET_HEADER)
  if (secret === undefined || !safeEqual(secret, config.secret)) return null
  const username = (single(headers, config.userHeader) ?? '').trim()
  if (username === '' || username.length > MAX_PROXY_USERNAME) return null
  const roles = parseRoles(single(headers, config.roleHeader), config.roleSeparator)
  const role = proxyRole(config, roles)
  return { username, roles, isAdmin: role === 'admin', role }
}
