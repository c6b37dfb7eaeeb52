// Security audit: every event goes to the audit_log table and to the server log (at info). Neither
// ever holds a password, token, session id or CSRF token.
import type { AuditEntry, AuditEventType } from '../../shared/model/security.ts'
import type { AuditRepo } from '../store/audit-repo.ts'

export {
  AUDIT_EVENT_TYPES,
  type AuditEntry,
  type AuditEventType,
} from '../../shared/model/security.ts'

export interface AuditEvent {
  type: AuditEventType
  username: string
  ip: string
  detail?: string
}

export interface AuditLog {
  record(event: AuditEvent): void
  /** Newest first. */
  list(limit: number): AuditEntry[]
}

export interface AuditLogDeps {
  repo: AuditRepo
  now: () => number
  log: { info(obj: object, msg: string): void }
}

/** Audit log writing to SQLite and the logger. */
export function createAuditLog(deps: AuditLogDeps): AuditLog {
  return {
    record(event) {
      const row = {
        time: deps.now(),
        type: event.type,
        username: event.username,
        ip: event.ip,
        detail: event.detail ?? '',
      }
      deps.repo.append(row)
      deps.log.info(
        { security: event.type, username: row.username, ip: row.ip, detail: row.detail },
        `security event: ${event.type}`,
      )
    },
    list(limit) {
      return deps.repo
        .list(limit)
        .map((row) => ({ ...row, time: new Date(row.time).toISOString() }))
    },
  }
}
