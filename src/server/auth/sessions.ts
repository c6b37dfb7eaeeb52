// Browser sessions: an opaque id and a CSRF token handed out as cookies, stored only as SHA-256.
// Sliding lifetime: a session used after `refreshMs` gets its expiry pushed out again. Last seen
// (time and address) is written at most once a minute, for the session list (issue 29 item 5);
// ending a session closes the sockets it opened.
import { randomBytes } from 'node:crypto'
import type { Role } from '../../shared/model/roles.ts'
import {
  describeDevice,
  SESSION_SEEN_RESOLUTION_MS,
  SESSIONS_LIST_MAX,
  type SessionsAnswer,
  type SessionView,
} from '../../shared/model/sessions.ts'
import type {
  ListedSession,
  SessionMethod,
  SessionRecord,
  SessionRepo,
} from '../store/session-repo.ts'
import { generateOpaqueId, matchesDigest, sha256Hex } from './secrets.ts'
import type { SocketRegistry } from './socket-registry.ts'

export const SESSION_TTL_MS = 7 * 24 * 3600_000
export const SESSION_REFRESH_MS = 3600_000

export interface IssuedSession {
  /** The raw id (cookie value); the store keeps only its digest. */
  id: string
  csrf: string
  idHash: string
  expiresAt: number
}

/** The browser a session is opened from (User-Agent is cut to USER_AGENT_MAX). */
export interface SessionClientInfo {
  userAgent: string
  ip: string
}

export const USER_AGENT_MAX = 300

export interface SessionService {
  readonly ttlMs: number
  /**
   * A new session; `method` defaults to 'password'; `role` is a single sign-on's decided role;
   * `client` the browser it is opened from.
   */
  create(
    username: string,
    method?: SessionMethod,
    role?: Role,
    client?: SessionClientInfo,
  ): IssuedSession
  /** The live session for a raw cookie value, or null. */
  find(id: string): SessionRecord | null
  /**
   * Note the session as seen (from `ip`) and extend the expiry when due; true when the cookies
   * should be sent again.
   */
  refresh(session: SessionRecord, ip?: string): boolean
  /** The live sessions of `username`, or everyone's (null); `current` is the caller's digest. */
  list(username: string | null, current?: string): SessionsAnswer
  /** The live session named by its public reference, or null. */
  byRef(ref: string): ListedSession | null
  /** Constant-time check of an X-CSRF-Token header against the session. */
  checkCsrf(session: SessionRecord, token: string | undefined): boolean
  /** Milliseconds until the session expires (the cookie's Max-Age). */
  remainingMs(session: SessionRecord): number
  /** Issue a fresh CSRF token for a session (its cookie was lost). */
  rotateCsrf(session: SessionRecord): string
  /** End the session and close its sockets (`reason` is their close reason). */
  revoke(idHash: string, reason?: string): void
  /** Revoke every session; returns how many were live. */
  revokeAll(): number
  /** Revoke the password sessions of one user; returns how many were live. */
  revokeUser(username: string): number
  /** End every single sign-on session but `keep` (the caller's own); returns how many. */
  revokeSingleSignOn(keep: string | undefined, reason: string): number
  /** End every session of `username` but `keep` (the caller's own); returns how many. */
  revokeOthers(username: string, keep: string): number
}

const iso = (ms: number) => new Date(ms).toISOString()

export interface SessionOptions {
  repo: SessionRepo
  now: () => number
  ttlMs?: number
  refreshMs?: number
  /** Where sessions' sockets are: ending a session closes them. */
  sockets?: SocketRegistry
}

/** Session service over the sessions table. */
export function createSessionService(options: SessionOptions): SessionService {
  const { repo, now } = options
  const ttlMs = options.ttlMs ?? SESSION_TTL_MS
  const refreshMs = options.refreshMs ?? SESSION_REFRESH_MS
  const closeSockets = (sessionIdHash: string, reason: string) =>
    options.sockets?.revoke({ kind: 'session', sessionIdHash, reason })
  const view = (session: ListedSession, current: string | undefined): SessionView => ({
    id: session.client.ref,
    username: session.username,
    method: session.method,
    createdAt: iso(session.createdAt),
    lastSeenAt: iso(session.lastSeenAt),
    expiresAt: iso(session.expiresAt),
    address: session.client.ip,
    device: describeDevice(session.client.userAgent),
    userAgent: session.client.userAgent,
    current: session.idHash === current,
    liveConnections: options.sockets?.sessionSockets().get(session.idHash) ?? 0,
  })

  return {
    ttlMs,
    create(username, method = 'password', role, client) {
      const at = now()
      // Revoked rows are kept a day so a late request still finds "revoked", then dropped.
      repo.prune(at, at - 24 * 3600_000)
      const id = generateOpaqueId()
      const csrf = generateOpaqueId()
      const idHash = sha256Hex(id)
      const expiresAt = at + ttlMs
      const stored = client && {
        ref: randomBytes(9).toString('hex'),
        userAgent: client.userAgent.slice(0, USER_AGENT_MAX),
        ip: client.ip,
      }
      repo.insert(
        {
          idHash,
          csrfHash: sha256Hex(csrf),
          username,
          createdAt: at,
          expiresAt,
          lastSeenAt: at,
          revokedAt: null,
          method,
          role: role ?? null,
        },
        stored,
      )
      return { id, csrf, idHash, expiresAt }
    },
    find(id) {
      if (id.length > 200) return null
      return repo.findLive(sha256Hex(id), now())
    },
    refresh(session, ip) {
      const at = now()
      if (at - session.lastSeenAt < Math.min(refreshMs, SESSION_SEEN_RESOLUTION_MS)) return false
      // The expiry slides (and the cookies go again) once per refreshMs; last seen each minute.
      const slide = at - (session.expiresAt - ttlMs) >= refreshMs
      if (slide) session.expiresAt = at + ttlMs
      session.lastSeenAt = at
      repo.extend(session.idHash, session.expiresAt, at, ip)
      return slide
    },
    list(username, current) {
      const rows = repo.listLive(username, now(), SESSIONS_LIST_MAX + 1)
      return {
        sessions: rows.slice(0, SESSIONS_LIST_MAX).map((row) => view(row, current)),
        truncated: rows.length > SESSIONS_LIST_MAX,
      }
    },
    byRef(ref) {
      if (!/^[0-9a-f]{1,64}$/.test(ref)) return null
      return repo.findLiveByRef(ref, now())
    },
    checkCsrf(session, token) {
      return typeof token === 'string' && token !== '' && matchesDigest(token, session.csrfHash)
    },
    remainingMs(session) {
      return Math.max(0, session.expiresAt - now())
    },
    rotateCsrf(session) {
      const csrf = generateOpaqueId()
      session.csrfHash = sha256Hex(csrf)
      repo.setCsrfHash(session.idHash, session.csrfHash)
      return csrf
    },
    revoke(idHash, reason = 'Signed out') {
      repo.revoke(idHash, now())
      closeSockets(idHash, reason)
    },
    revokeAll() {
      const revoked = repo.revokeAll(now())
      options.sockets?.revoke({ kind: 'sessions', reason: 'Every session was ended' })
      return revoked
    },
    revokeUser(username) {
      const revoked = repo.revokeUser(username, now())
      for (const idHash of revoked) closeSockets(idHash, 'Session ended')
      return revoked.length
    },
    revokeSingleSignOn(keep, reason) {
      const revoked = repo.revokeMethod('oidc', keep ?? '', now())
      for (const idHash of revoked) closeSockets(idHash, reason)
      return revoked.length
    },
    revokeOthers(username, keep) {
      const revoked = repo.revokeOthers(username, keep, now())
      for (const idHash of revoked) closeSockets(idHash, 'Session ended')
      return revoked.length
    },
  }
}
