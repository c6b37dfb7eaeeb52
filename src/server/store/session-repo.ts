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

/** Where a session was opened from: its public reference, browser and the address last seen. */
export interface SessionClient {
  ref: string
  userAgent: string
  ip: string
}

/** A live session as the session list shows it. */
export interface ListedSession extends SessionRecord {
  client: SessionClient
}

export type SessionMethod = 'password' | 'oidc'

export interface SessionRepo {
  insert(session: SessionRecord, client?: SessionClient): void
  /** A session that is neither revoked nor expired at `now`. */
  findLive(idHash: string, now: number): SessionRecord | null
  /** Slide the expiry and the last-seen time (and address, when given). */
  extend(idHash: string, expiresAt: number, now: number, ip?: string): void
  setCsrfHash(idHash: string, csrfHash: string): void
  revoke(idHash: string, now: number): void
  /** Revoke every live session; returns how many. */
  revokeAll(now: number): number
  /** Revoke the live password sessions of `username` (ignoring case); returns their digests. */
  revokeUser(username: string, now: number): string[]
  /**
   * The live sessions, most recently seen first, of `username` (ignoring case) or of everyone
   * (null); at most `limit`. Sessions from before the list get their reference here.
   */
  listLive(username: string | null, now: number, limit: number): ListedSession[]
  /** Revoke every live session opened by `method` but `keep`; returns their digests. */
  revokeMethod(method: SessionMethod, keep: string, now: number): string[]
  /** Revoke every live session of `username` (ignoring case) but `keep`; returns their digests. */
  revokeOthers(username: string, keep: string, now: number): string[]
  /** The live session with public reference `ref`, or null. */
  findLiveByRef(ref: string, now: number): ListedSession | null
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

interface ListedRow extends Row {
  ref: string
  user_agent: string
  ip: string
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
  const insertClient = db.prepare(
    `INSERT OR REPLACE INTO session_clients (session_id_hash, ref, user_agent, ip)
     VALUES (?, ?, ?, ?)`,
  )
  const setIp = db.prepare('UPDATE session_clients SET ip = ? WHERE session_id_hash = ?')
  const LISTED = `SELECT s.*, r.role, c.ref, c.user_agent, c.ip FROM sessions s
       JOIN session_clients c ON c.session_id_hash = s.id_hash
       LEFT JOIN session_roles r ON r.session_id_hash = s.id_hash
     WHERE s.revoked_at IS NULL AND s.expires_at > ?`
  const giveRefs = db.prepare(
    `INSERT INTO session_clients (session_id_hash, ref)
       SELECT id_hash, lower(hex(randomblob(9))) FROM sessions s
       WHERE revoked_at IS NULL AND expires_at > ?
         AND NOT EXISTS (SELECT 1 FROM session_clients c WHERE c.session_id_hash = s.id_hash)`,
  )
  const listAll = db.prepare(`${LISTED} ORDER BY s.last_seen_at DESC LIMIT ?`)
  const listUser = db.prepare(
    `${LISTED} AND s.username = ? COLLATE NOCASE ORDER BY s.last_seen_at DESC LIMIT ?`,
  )
  const revokeOthers = db.prepare(
    `UPDATE sessions SET revoked_at = ?
     WHERE username = ? COLLATE NOCASE AND id_hash <> ? AND revoked_at IS NULL
     RETURNING id_hash`,
  )
  const revokeMethod = db.prepare(
    `UPDATE sessions SET revoked_at = ?
     WHERE method = ? AND id_hash <> ? AND revoked_at IS NULL
     RETURNING id_hash`,
  )
  const byRef = db.prepare(`${LISTED} AND c.ref = ?`)
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
     WHERE username = ? COLLATE NOCASE AND method = 'password' AND revoked_at IS NULL
     RETURNING id_hash`,
  )
  const prune = db.prepare(
    'DELETE FROM sessions WHERE expires_at <= ? OR (revoked_at IS NOT NULL AND revoked_at < ?)',
  )
  const pruneRoles = db.prepare(
    'DELETE FROM session_roles WHERE session_id_hash NOT IN (SELECT id_hash FROM sessions)',
  )
  const pruneClients = db.prepare(
    'DELETE FROM session_clients WHERE session_id_hash NOT IN (SELECT id_hash FROM sessions)',
  )
  const record = (row: Row): SessionRecord => ({
    idHash: row.id_hash,
    csrfHash: row.csrf_hash,
    username: row.username,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    lastSeenAt: row.last_seen_at,
    revokedAt: row.revoked_at,
    method: row.method === 'oidc' ? 'oidc' : 'password',
    role: isRole(row.role) ? row.role : null,
  })
  const listed = (row: ListedRow): ListedSession => ({
    ...record(row),
    client: { ref: row.ref, userAgent: row.user_agent, ip: row.ip },
  })
  return {
    insert(session, client) {
      const { role, ...row } = session
      db.transaction(() => {
        insert.run(row)
        if (role) insertRole.run(session.idHash, role)
        if (client) insertClient.run(session.idHash, client.ref, client.userAgent, client.ip)
      })()
    },
    findLive(idHash, now) {
      const row = findLive.get(idHash, now) as Row | undefined
      return row ? record(row) : null
    },
    extend(idHash, expiresAt, now, ip) {
      db.transaction(() => {
        extend.run(expiresAt, now, idHash)
        if (ip !== undefined) setIp.run(ip, idHash)
      })()
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
      return (revokeUser.all(now, username) as { id_hash: string }[]).map((row) => row.id_hash)
    },
    listLive(username, now, limit) {
      return db.transaction(() => {
        giveRefs.run(now)
        const rows = (
          username === null ? listAll.all(now, limit) : listUser.all(now, username, limit)
        ) as ListedRow[]
        return rows.map(listed)
      })()
    },
    revokeMethod(method, keep, now) {
      const rows = revokeMethod.all(now, method, keep) as { id_hash: string }[]
      return rows.map((row) => row.id_hash)
    },
    revokeOthers(username, keep, now) {
      const rows = revokeOthers.all(now, username, keep) as { id_hash: string }[]
      return rows.map((row) => row.id_hash)
    },
    findLiveByRef(ref, now) {
      const row = byRef.get(now, ref) as ListedRow | undefined
      return row ? listed(row) : null
    },
    prune(now, revokedBefore) {
      prune.run(now, revokedBefore)
      pruneRoles.run()
      pruneClients.run()
    },
  }
}
