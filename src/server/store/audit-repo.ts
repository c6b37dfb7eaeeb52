// Security audit log: append-only rows, newest first on read, capped in size.
import type { Db } from './db.ts'

export interface AuditRow {
  id: number
  time: number
  type: string
  username: string
  ip: string
  detail: string
}

export interface AuditRepo {
  append(event: Omit<AuditRow, 'id'>): void
  /** Newest first. */
  list(limit: number): AuditRow[]
}

/** Rows kept; older ones are dropped as new ones arrive. */
export const AUDIT_MAX_ROWS = 10_000

/** Repository over the audit_log table. */
export function createAuditRepo(db: Db, maxRows = AUDIT_MAX_ROWS): AuditRepo {
  const insert = db.prepare(
    'INSERT INTO audit_log (time, type, username, ip, detail) VALUES (@time, @type, @username, @ip, @detail)',
  )
  const trim = db.prepare('DELETE FROM audit_log WHERE id <= ?')
  const list = db.prepare('SELECT * FROM audit_log ORDER BY id DESC LIMIT ?')
  return {
    append(event) {
      const id = Number(insert.run(event).lastInsertRowid)
      if (id > maxRows) trim.run(id - maxRows)
    },
    list(limit) {
      return list.all(limit) as AuditRow[]
    },
  }
}
