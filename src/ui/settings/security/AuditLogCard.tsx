import { Loader2, RefreshCw, ScrollText } from 'lucide-react'
import { useCallback, useEffect, useState } from 'react'
import { useSnapshot } from 'valtio'
import { ErrorPanel } from '../../auth/AuthCard.tsx'
import { BUTTON } from '../../components/button-classes.ts'
import { Card } from '../../components/Card.tsx'
import { auditRefresh } from './audit-refresh.ts'
import { AUDIT_LIMIT, loadAudit, type AuditEvent } from './security-api.ts'

/** Readable names of the audit event types (slices 1 and 2). */
export const AUDIT_LABELS: Record<string, string> = {
  login_success: 'Login',
  login_failure: 'Failed login',
  lockout: 'Account locked',
  logout: 'Logout',
  password_changed: 'Password changed',
  token_regenerated: 'API token regenerated',
  token_created: 'API token created',
  token_revoked: 'API token revoked',
  setup: 'Security set up',
  setup_rotated: 'Credentials rotated',
  oidc_login: 'Single sign-on login',
  oidc_failure: 'Single sign-on failure',
  config_export: 'Configuration exported',
  config_import: 'Configuration imported',
  config_import_failed: 'Configuration import failed',
  oidc_config_changed: 'Single sign-on settings changed',
  account_unlocked: 'Account unlocked',
  user_created: 'User added',
  user_updated: 'User changed',
  user_deleted: 'User deleted',
  password_reset: 'Password reset',
  session_ended: 'Session ended',
}

const FAILURES = new Set(['login_failure', 'lockout', 'oidc_failure'])

export function auditLabel(type: string): string {
  return AUDIT_LABELS[type] ?? type
}

const pad = (n: number) => String(n).padStart(2, '0')

/** Local date and time as YYYY-MM-DD HH:MM:SS; the raw text when it is not a date. */
export function auditTime(iso: string): string {
  const date = new Date(iso)
  if (Number.isNaN(date.getTime())) return iso
  return (
    `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ` +
    `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`
  )
}

type Load =
  | { kind: 'loading' }
  | { kind: 'error'; message: string }
  | { kind: 'loaded'; events: AuditEvent[] }

/**
 * The newest security events (GET /api/security/audit?limit=50): type, user, IP, time. Reloads
 * on Refresh and whenever the tab notes an audited action (noteAuditedAction).
 */
export function AuditLogCard() {
  const [load, setLoad] = useState<Load>({ kind: 'loading' })
  const [refreshing, setRefreshing] = useState(false)
  const { revision } = useSnapshot(auditRefresh)

  const fetchEvents = useCallback(() => {
    setRefreshing(true)
    loadAudit()
      .then((events) => setLoad({ kind: 'loaded', events }))
      .catch((error: unknown) =>
        setLoad({
          kind: 'error',
          message: error instanceof Error ? error.message : String(error),
        }),
      )
      .finally(() => setRefreshing(false))
  }, [])
  useEffect(fetchEvents, [fetchEvents, revision])

  return (
    <Card
      title="Audit log"
      icon={<ScrollText className="size-4" aria-hidden />}
      description={`The ${AUDIT_LIMIT} newest security events, newest first.`}
      actions={
        <button
          type="button"
          onClick={fetchEvents}
          disabled={refreshing}
          className={`${BUTTON.secondary} disabled:opacity-60`}
        >
          <RefreshCw className={`size-4 ${refreshing ? 'animate-spin' : ''}`} aria-hidden />
          Refresh
        </button>
      }
    >
      {load.kind === 'loading' && (
        <p
          role="status"
          className="flex items-center gap-2 text-sm text-gray-600 dark:text-gray-400"
        >
          <Loader2 className="size-4 animate-spin" aria-hidden />
          Loading the audit log...
        </p>
      )}
      {load.kind === 'error' && (
        <ErrorPanel>Failed to load the audit log: {load.message}</ErrorPanel>
      )}
      {load.kind === 'loaded' &&
        (load.events.length === 0 ? (
          <p className="text-sm text-gray-600 dark:text-gray-400">No security events yet.</p>
        ) : (
          <ul
            aria-label="Security events"
            className="divide-y divide-gray-100 dark:divide-gray-800"
          >
            {load.events.map((event) => (
              <li
                key={event.id}
                data-audit-type={event.type}
                className="flex flex-wrap items-baseline gap-x-3 gap-y-0.5 py-2 text-sm"
              >
                <span
                  className={`font-medium ${
                    FAILURES.has(event.type)
                      ? 'text-red-700 dark:text-red-400'
                      : 'text-gray-900 dark:text-gray-100'
                  }`}
                >
                  {auditLabel(event.type)}
                </span>
                <span className="text-gray-700 dark:text-gray-300">
                  {event.username || 'unknown user'}
                </span>
                <span className="font-mono text-xs text-gray-600 dark:text-gray-400">
                  {event.ip}
                </span>
                {event.detail && (
                  <span className="min-w-0 text-xs break-words text-gray-600 dark:text-gray-400">
                    {event.detail}
                  </span>
                )}
                <time
                  dateTime={event.time}
                  className="ml-auto text-xs text-gray-500 tabular-nums dark:text-gray-400"
                >
                  {auditTime(event.time)}
                </time>
              </li>
            ))}
          </ul>
        ))}
    </Card>
  )
}
