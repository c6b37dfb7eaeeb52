// Browser sessions: an opaque id and a CSRF token handed out as cookies, stored only as SHA-256.
// Sliding lifetime: a session used after `refreshMs` gets its expiry pushed out again.
import type { Role } from '../../shared/model/roles.ts'
import type { SessionMethod, SessionRecord, SessionRepo } from '../store/session-repo.ts'
import { generateOpaqueId, matchesDigest, sha256Hex } from './secrets.ts'

export const SESSION_TTL_MS = 7 * 24 * 3600_000
export const SESSION_REFRESH_MS = 3600_000

export interface IssuedSession {
  /** The raw id (cookie value); the store keeps only its digest. */
  id: string
  csrf: string
  idHash: string
  expiresAt: number
}

export interface SessionService {
  readonly ttlMs: number
  /** A new session; `method` defaults to 'password'; `role` is a single sign-on's decided role. */
  create(username: string, method?: SessionMethod, role?: Role): IssuedSession
  /** The live session for a raw cookie value, or null. */
  find(id: string): SessionRecord | null
  /** Extend the expiry when due; true when the cookies should be sent again. */
  refresh(session: SessionRecord): boolean
  /** Constant-time check of an X-CSRF-Token header against the session. */
  checkCsrf(session: SessionRecord, token: string | undefined): boolean
  /** Milliseconds until the session expires (the cookie's Max-Age). */
  remainingMs(session: SessionRecord): number
  /** Issue a fresh CSRF token for a session (its cookie was lost). */
  rotateCsrf(session: SessionRecord): string
  revoke(idHash: string): void
  /** Revoke every session; returns how many were live. */
  revokeAll(): number
  /** Revoke the password sessions of one user; returns how many were live. */
  revokeUser(username: string): number
}

export interface SessionOptions {
  repo: SessionRepo
  now: () => number
  ttlMs?: number
  refreshMs?: number
}

/** Session service over the sessions table. */
export function createSessionService(options: SessionOptions): SessionService {
  const { repo, now } = options
  const ttlMs = options.ttlMs ?? SESSION_TTL_MS
  const refreshMs = options.refreshMs ?? SESSION_REFRESH_MS

  return {
    ttlMs,
    create(username, method = 'password', role) {
      const at = now()
      // Revoked rows are kept a day so a late request still finds "revoked", then dropped.
      repo.prune(at, at - 24 * 3600_000)
      const id = generateOpaqueId()
      const csrf = generateOpaqueId()
      const idHash = sha256Hex(id)
      const expiresAt = at + ttlMs
      repo.insert({
        idHash,
        csrfHash: sha256Hex(csrf),
        username,
        createdAt: at,
        expiresAt,
        lastSeenAt: at,
        revokedAt: null,
        method,
        role: role ?? null,
      })
      return { id, csrf, idHash, expiresAt }
    },
    find(id) {
      if (id.length > 200) return null
      return repo.findLive(sha256Hex(id), now())
    },
    refresh(session) {
      const at = now()
      if (at - session.lastSeenAt < refreshMs) return false
      session.expiresAt = at + ttlMs
      session.lastSeenAt = at
      repo.extend(session.idHash, session.expiresAt, at)
      return true
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
    revoke(idHash) {
      repo.revoke(idHash, now())
    },
    revokeAll() {
      return repo.revokeAll(now())
    },
    revokeUser(username) {
      return repo.revokeUser(username, now())
    },
  }
}
