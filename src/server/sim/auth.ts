// Authentication as pveproxy does it: an API token header checked on every request, or a ticket
// cookie from POST /access/ticket that expires after 2 hours; non-GET under a ticket needs CSRF.

import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import type { IncomingHttpHeaders } from 'node:http'

const TICKET_LIFETIME_SEC = 2 * 3600
// PVE tolerates a little clock skew between cluster members when checking ticket age.
const CLOCK_SKEW_SEC = 300

/** Credentials the simulated cluster accepts. */
export interface AuthConfig {
  tokenId: string
  tokenSecret: string
  username: string
  password: string
}

/** Outcome of checking a request: accepted, or rejected with the 401 reason phrase. */
export type AuthResult = { ok: true } | { ok: false; reason: string }

/** Checks requests and issues tickets for one simulator. */
export interface Authenticator {
  /** Checks the token header or ticket cookie of a request (and CSRF for non-GET under a ticket). */
  check(headers: IncomingHttpHeaders, method: string): AuthResult
  /** Issues a ticket for good credentials, or undefined. */
  login(username: string, password: string): { ticket: string; csrf: string } | undefined
}

/** Creates the authenticator; `clockMs` is the simulator clock so tests can age tickets. */
export function createAuthenticator(config: AuthConfig, clockMs: () => number): Authenticator {
  // Per process, like the cluster's authkey: tickets from a previous run are invalid.
  const key = randomBytes(32)
  const sign = (text: string): string => createHmac('sha256', key).update(text).digest('base64')
  const nowSec = (): number => Math.floor(clockMs() / 1000)

  const checkTicket = (
    ticket: string,
    method: string,
    headers: IncomingHttpHeaders,
  ): AuthResult => {
    const match = /^PVE:([^:]+):([0-9A-F]{8})::(.+)$/.exec(ticket)
    if (match === null) return { ok: false, reason: 'permission denied - invalid PVE ticket' }
    const [, user = '', stamp = '', sig = ''] = match
    if (!safeEqual(sig, sign(`PVE:${user}:${stamp}`))) {
      return { ok: false, reason: 'permission denied - invalid PVE ticket' }
    }
    const age = nowSec() - parseInt(stamp, 16)
    if (age > TICKET_LIFETIME_SEC || age < -CLOCK_SKEW_SEC) {
      return { ok: false, reason: 'permission denied - invalid PVE ticket' }
    }
    if (method !== 'GET' && method !== 'HEAD') {
      const csrf = headers['csrfpreventiontoken']
      if (typeof csrf !== 'string' || !safeEqual(csrf, `${stamp}:${sign(`${stamp}:${user}`)}`)) {
        return { ok: false, reason: 'Permission denied - invalid csrf token' }
      }
    }
    return { ok: true }
  }

  return {
    check(headers, method) {
      const authorization = headers.authorization
      if (typeof authorization === 'string' && authorization.startsWith('PVEAPIToken=')) {
        return checkToken(config, authorization.slice('PVEAPIToken='.length))
      }
      const ticket = readCookie(headers.cookie, 'PVEAuthCookie')
      if (ticket !== undefined) return checkTicket(ticket, method, headers)
      return { ok: false, reason: 'No ticket' }
    },
    login(username, password) {
      if (username !== config.username || !safeEqual(password, config.password)) return undefined
      const stamp = nowSec().toString(16).toUpperCase().padStart(8, '0')
      return {
        ticket: `PVE:${username}:${stamp}::${sign(`PVE:${username}:${stamp}`)}`,
        csrf: `${stamp}:${sign(`${stamp}:${username}`)}`,
      }
    },
  }
}

function checkToken(config: AuthConfig, value: string): AuthResult {
  // The token id (user@realm!name) never contains '=', so the first '=' starts the secret.
  const split = value.indexOf('=')
  if (split < 0) return { ok: false, reason: 'invalid token value' }
  const id = value.slice(0, split).trim()
  const secret = value.slice(split + 1).trim()
  if (id !== config.tokenId) {
    const [user = '', name = ''] = id.split('!')
    return { ok: false, reason: `no such token '${name}' for user '${user}'` }
  }
  if (!safeEqual(secret, config.tokenSecret)) return { ok: false, reason: 'invalid token value' }
  return { ok: true }
}

/** A cookie's value from a Cookie header, URL-decoded when it was encoded. */
export function readCookie(header: string | undefined, name: string): string | undefined {
  if (header === undefined) return undefined
  for (const part of header.split(';')) {
    const eq = part.indexOf('=')
    if (eq < 0 || part.slice(0, eq).trim() !== name) continue
    const raw = part.slice(eq + 1).trim()
    // Clients often URL-encode the ticket (':' and '@'); pveproxy decodes it.
    try {
      return decodeURIComponent(raw)
    } catch {
      return raw
    }
  }
  return undefined
}

/** Constant-time string equality. */
export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a)
  const y = Buffer.from(b)
  return x.length === y.length && timingSafeEqual(x, y)
}
