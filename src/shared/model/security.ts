// Wire types of the security API (GET /api/security/status, /audit, /lockout). The server builds
// them and the UI reads them; neither redeclares them.
import type { Role } from './roles.ts'

/** Every audit event type, in the order they were introduced. */
export const AUDIT_EVENT_TYPES = [
  'login_success',
  'login_failure',
  'lockout',
  'logout',
  'password_changed',
  'token_regenerated',
  'token_created',
  'token_revoked',
  'setup',
  'setup_rotated',
  'config_export',
  'config_import',
  'config_import_failed',
  'oidc_login',
  'oidc_failure',
  'oidc_config_changed',
  'account_unlocked',
  'alert_history_cleared',
  'webhook_changed',
  'email_config_changed',
  'silence_created',
  'silence_ended',
  'user_created',
  'user_updated',
  'user_deleted',
  'password_reset',
  'session_ended',
] as const
export type AuditEventType = (typeof AUDIT_EVENT_TYPES)[number]

/** One audit log entry (GET /api/security/audit → { events }), newest first. */
export interface AuditEntry {
  id: number
  /** ISO 8601. */
  time: string
  /** An AuditEventType; older servers may send others, shown as they are. */
  type: string
  username: string
  ip: string
  detail: string
}

/** The login account's lockout (GET /api/security/lockout → { accounts }). */
export interface AccountLock {
  username: string
  locked: boolean
  /** Failed attempts counted in the current window. */
  failures: number
  /** ISO 8601 end of the lock, or null when not locked. */
  lockedUntil: string | null
  /** Whole minutes left while locked, else 0. */
  remainingMinutes: number
}

/** GET /api/security/status (spec 001 §3 Security status, plus this server's extras). */
export interface SecurityStatus {
  hasAuthentication: boolean
  /** A login password exists (single sign-on, a proxy or an API_TOKEN may protect without one). */
  hasPasswordLogin: boolean
  requiresAuth: boolean
  disabled: boolean
  authUsername: string
  authenticated: boolean
  /** The caller's role (issue 29); absent when the caller is not signed in. */
  role?: Role
  credentialsEncrypted: boolean
  apiTokenConfigured: boolean
  apiTokenHint: string
  oidcEnabled: boolean
  oidcUsername: string
  oidcLogoutURL: string
  hasProxyAuth: boolean
  proxyAuthUsername: string
  proxyAuthIsAdmin: boolean
  proxyAuthLogoutURL: string
  exportProtected: boolean
  unprotectedExportAllowed: boolean
  hasHTTPS: boolean
  hasAuditLogging: boolean
  publicAccess: boolean
  isPrivateNetwork: boolean
  clientIP: string
  configuredButPendingRestart: boolean
}
