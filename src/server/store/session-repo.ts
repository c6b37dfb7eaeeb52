// Sessions by SHA-256 of their id; the CSRF token is kept as a digest too.
// A single sign-on session's role sits in session_roles (decided at sign-in, issue 29 item 3).
import { isRole, type Role } from '../../shared/model/roles.ts'
import type { Db } from './db.ts'

export interface SessionRecord {
  idHash: string
  csrfHash: string
  username: string
  createdAt: number
  expiresAt: number
  lastSeenAt: number
  revokedAt: number | null
  /** How the session was opened: 'password' (login form, setup) or 'oidc' (single sign-on). */
  method: SessionMethod
  /** The role decided at single sign-on; absent (or null) for a session from before roles. */
  role?: Role | null
}

export type SessionMethod = 'password' | 'oidc'

export interface SessionRepo {
  insert(session: SessionRecord): void
  /** A session that is neither revoked nor expired at `now`. */
  findLive(idHash: string, now: number): SessionRecord | null
  /** Slide the expiry (and the last-seen time). */
  extend(idHash: string, expiresAt: number, now: number): void
  setCsrfHash(idHash: string, csrfHash: string): void
  revoke(idHash: string, now: number): void
  /** Revoke every live session; returns how many. */
  revokeAll(now: number): number
  /** Revoke the live password sessions of `username` (ignoring case); returns how many. */
  revokeUser(username: string, now: number): number
  /** Delete expired rows and rows revoked before `revokedBefore`. */
  prune(now: number, revokedBefore: number): void
}

interface Row {
  id_hash: string
  csrf_hash: string
  username: string
  created_at: number
  expires_at: number
  last_seen_at: number
  revoked_at: number | null
  method: string
  role: string | null
}

/** Repository over the sessions table. */
export function createSessionRepo(db: Db): SessionRepo {
  const insert = db.prepare(
    `INSERT INTO sessions
       (id_hash, csrf_hash, username, created_at, expires_at, last_seen_at, method)
     VALUES (@idHash, @csrfHash, @username, @createdAt, @expiresAt, @lastSeenAt, @method)`,
  )
  const insertRole = db.prepare(
    'INSERT OR REPLACE INTO session_roles (session_id_hash, role) VALUES (?, ?)',
  )
  const findLive = db.prepare(
    `SELECT s.*, r.role FROM sessions s
       LEFT JOIN session_roles r ON r.session_id_hash = s.id_hash
     WHERE s.id_hash = ? AND s.revoked_at IS NULL AND s.expires_at > ?`,
  )
  const extend = db.prepare(
    'UPDATE sessions SET expires_at = ?, last_seen_at = ? WHERE id_hash = ? AND revoked_at IS NULL',
  )
  const setCsrf = db.prepare('UPDATE sessions SET csrf_hash = ? WHERE id_hash = ?')
  const revoke = db.prepare(
    'UPDATE sessions SET revoked_at = ? WHERE id_hash = ? AND revoked_at IS NULL',
  )
  const revokeAll = db.prepare('UPDATE sessions SET revoked_at = ? WHERE revoked_at IS NULL')
  const revokeUser = db.prepare(
    `UPDATE sessions SET revoked_at = ?
     WHERE username = ? COLLATE NOCASE AND method = 'password' AND revoked_at IS NULL`,
  )
  const prune = db.prepare(
    'DELETE FROM sessions WHERE expires_at <= ? OR (revoked_at IS NOT NULL AND revoked_at < ?)',
  )
  const pruneRoles = db.prepare(
    'DELETE FROM session_roles WHERE session_id_hash NOT IN (SELECT id_hash FROM sessions)',
  )
  return {
    insert(session) {
      const { role, ...row } = session
      db.transaction(() => {
        insert.run(row)
        if (role) insertRole.run(session.idHash, role)
      })()
    },
    findLive(idHash, now) {
      const row = findLive.get(idHash, now) as Row | undefined
      if (!row) return null
      return {
        idHash: row.id_hash,
        csrfHash: row.csrf_hash,
        username: row.username,
        createdAt: row.created_at,
        expiresAt: row.expires_at,
        lastSeenAt: row.last_seen_at,
        revokedAt: row.revoked_at,
        method: row.method === 'oidc' ? 'oidc' : 'password',
        role: isRole(row.role) ? row.role : null,
      }
    },
    extend(idHash, expiresAt, now) {
      extend.run(expiresAt, now, idHash)
    },
    setCsrfHash(idHash, csrfHash) {
      setCsrf.run(csrfHash, idHash)
    },
    revoke(idHash, now) {
      revoke.run(now, idHash)
    },
    revokeAll(now) {
      return revokeAll.run(now).changes
    },
    revokeUser(username, now) {
      return revokeUser.run(now, username).changes
    },
    prune(now, revokedBefore) {
      prune.run(now, revokedBefore)
      pruneRoles.run()
    },
  }
}
