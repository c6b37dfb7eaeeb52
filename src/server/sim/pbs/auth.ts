// Authentication as proxmox-backup-proxy does it: `Authorization: PBSAPIToken=<id>:<secret>`
// checked on every request, or a `PBSAuthCookie` ticket from POST /access/ticket (2 h lifetime;
// non-GET requests under a ticket also need the CSRFPreventionToken header).

import { createHmac, randomBytes } from 'node:crypto'
import type { IncomingHttpHeaders } from 'node:http'
import { readCookie, safeEqual } from '../auth.ts'

const TICKET_LIFETIME_SEC = 2 * 3600
const CLOCK_SKEW_SEC = 300

/** Credentials one simulated PBS accepts. */
export interface PbsAuthConfig {
  tokenId: string
  tokenSecret: string
  username: string
  password: string
}

/** Accepted, or rejected with the 401 body text. */
export type PbsAuthResult = { ok: true } | { ok: false; reason: string }

/** Checks requests and issues tickets for one simulated PBS. */
export interface PbsAuthenticator {
  check(headers: IncomingHttpHeaders, method: string): PbsAuthResult
  login(username: string, password: string): { ticket: string; csrf: string } | undefined
}

/** Creates the authenticator; `clockMs` is the simulator clock so tests can age tickets. */
export function createPbsAuthenticator(
  config: PbsAuthConfig,
  clockMs: () => number,
): PbsAuthenticator {
  // Per process, like PBS's authkey: tickets from an earlier run are invalid.
  const key = randomBytes(32)
  const sign = (text: string): string => createHmac('sha256', key).update(text).digest('base64')
  const nowSec = (): number => Math.floor(clockMs() / 1000)
  const invalid: PbsAuthResult = { ok: false, reason: 'authentication failed - invalid ticket' }

  const checkTicket = (
    ticket: string,
    method: string,
    headers: IncomingHttpHeaders,
  ): PbsAuthResult => {
    const match = /^PBS:([^:]+):([0-9A-F]{8})::(.+)$/.exec(ticket)
    if (match === null) return invalid
    const [, user = '', stamp = '', sig = ''] = match
    if (!safeEqual(sig, sign(`PBS:${user}:${stamp}`))) return invalid
    const age = nowSec() - parseInt(stamp, 16)
    if (age > TICKET_LIFETIME_SEC || age < -CLOCK_SKEW_SEC) return invalid
    if (method !== 'GET' && method !== 'HEAD') {
      const csrf = headers['csrfpreventiontoken']
      if (typeof csrf !== 'string' || !safeEqual(csrf, `${stamp}:${sign(`${stamp}:${user}`)}`))
        return { ok: false, reason: 'authentication failed - invalid csrf token' }
    }
    return { ok: true }
  }

  return {
    check(headers, method) {
      const authorization = headers.authorization
      if (typeof authorization === 'string' && authorization.startsWith('PBSAPIToken=')) {
        return checkToken(config, authorization.slice('PBSAPIToken='.length))
      }
      const ticket = readCookie(headers.cookie, 'PBSAuthCookie')
      if (ticket !== undefined) return checkTicket(ticket, method, headers)
      return {
        ok: false,
        reason: 'authentication failed - no authentication credentials provided.',
      }
    },
    login(username, password) {
      if (username !== config.username || !safeEqual(password, config.password)) return undefined
      const stamp = nowSec().toString(16).toUpperCase().padStart(8, '0')
      return {
        ticket: `PBS:${username}:${stamp}::${sign(`PBS:${username}:${stamp}`)}`,
        csrf: `${stamp}:${sign(`${stamp}:${username}`)}`,
      }
    },
  }
}

// The token id (user@realm!name) has no ':', so the first ':' starts the secret.
function checkToken(config: PbsAuthConfig, value: string): PbsAuthResult {
  const split = value.indexOf(':')
  if (split < 0) return { ok: false, reason: 'authentication failed - invalid token' }
  const id = value.slice(0, split).trim()
  const secret = value.slice(split + 1).trim()
  if (id !== config.tokenId || !safeEqual(secret, config.tokenSecret)) {
    return { ok: false, reason: 'authentication failed - invalid token' }
  }
  return { ok: true }
}
