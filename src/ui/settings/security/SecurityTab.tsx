import {
  Archive,
  ExternalLink,
  FileDown,
  FileUp,
  KeyRound,
  Loader2,
  RotateCcw,
  ServerCog,
  ShieldOff,
  UserRound,
  Users,
} from 'lucide-react'
import { useCallback, useEffect, useState } from 'react'
import { useSnapshot } from 'valtio'
import { ErrorPanel } from '../../auth/AuthCard.tsx'
import { roleReason, useRole } from '../../auth/useRole.ts'
import {
  refreshSecurityStatus,
  securityStatusState,
  hasPasswordLogin,
  type SecurityStatusInfo,
} from '../../auth/security-status.ts'
import { BUTTON } from '../../components/button-classes.ts'
import { Card } from '../../components/Card.tsx'
import { ApiTokenPanel } from './ApiTokenPanel.tsx'
import { ApiTokensCard } from './ApiTokensCard.tsx'
import { AuditLogCard } from './AuditLogCard.tsx'
import { ChangePasswordModal } from './ChangePasswordModal.tsx'
import { ExportModal } from './ExportModal.tsx'
import { Notice } from './fields.tsx'
import { ImportModal } from './ImportModal.tsx'
import { LockoutCard } from './LockoutCard.tsx'
import { SessionsCard } from './SessionsCard.tsx'
import { UsersCard } from './UsersCard.tsx'
import { OidcPanel } from './OidcPanel.tsx'
import { PostureCard } from './PostureCard.tsx'
import { QuickSetupModal } from './QuickSetupModal.tsx'

type Dialog = 'password' | 'rotate' | 'setup' | 'export' | 'import' | null

type Status = Readonly<SecurityStatusInfo>

const passwordLogin = hasPasswordLogin

/** What the status card says about authentication. */
function authSummary(status: Status): string {
  if (status.disabled) return 'Disabled (DISABLE_AUTH)'
  const methods = [
    passwordLogin(status) && 'password',
    status.oidcEnabled && 'single sign-on',
    status.hasProxyAuth && 'proxy',
  ].filter((method): method is string => typeof method === 'string')
  return methods.length > 0 ? `Enabled: ${methods.join(', ')}` : 'Not configured'
}

/** Who the caller is, and how. */
function signedInAs(status: Status): string {
  if (status.proxyAuthUsername) return `${status.proxyAuthUsername} (reverse proxy)`
  if (status.oidcUsername) return `${status.oidcUsername} (single sign-on)`
  if (status.authUsername) return status.authUsername
  return status.disabled ? 'anonymous' : '—'
}

function networkOf(status: Status): string {
  const ip = status.clientIP ?? ''
  const where = status.isPrivateNetwork
    ? 'private network'
    : status.publicAccess
      ? 'public network'
      : ''
  if (ip && where) return `${ip} (${where})`
  return ip || where || '—'
}

function StatusCard({
  status,
  onOpen,
  admin,
}: {
  status: Status
  onOpen: (dialog: Dialog) => void
  /** Rotating the credentials and setting up a login need an admin; anyone changes their password. */
  admin: boolean
}) {
  const rows: [string, string][] = [
    ['Authentication', authSummary(status)],
    ['Signed in as', signedInAs(status)],
    ['Your address', networkOf(status)],
    ['Stored secrets', status.credentialsEncrypted ? 'Encrypted at rest' : 'Not encrypted'],
  ]
  return (
    <Card title="Authentication" icon={<UserRound className="size-4" aria-hidden />}>
      <div className="flex flex-col gap-3">
        <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-1.5 text-sm">
          {rows.map(([term, value]) => (
            <div key={term} className="contents">
              <dt className="text-gray-600 dark:text-gray-400">{term}</dt>
              <dd className="min-w-0 font-medium break-words" data-status={term}>
                {value}
              </dd>
            </div>
          ))}
        </dl>
        <div className="flex flex-wrap gap-2">
          {passwordLogin(status) ? (
            <>
              <button type="button" className={BUTTON.secondary} onClick={() => onOpen('password')}>
                <KeyRound className="size-4" aria-hidden />
                Change password
              </button>
              {admin && (
                <button type="button" className={BUTTON.secondary} onClick={() => onOpen('rotate')}>
                  <RotateCcw className="size-4" aria-hidden />
                  Rotate credentials
                </button>
              )}
            </>
          ) : (
            !status.disabled &&
            admin && (
              <button type="button" className={BUTTON.primary} onClick={() => onOpen('setup')}>
                <KeyRound className="size-4" aria-hidden />
                Set up password login
              </button>
            )
          )}
        </div>
      </div>
    </Card>
  )
}

function ProxyBanner({ status }: { status: Status }) {
  return (
    <Notice
      tone="info"
      icon={<Users className="size-4" aria-hidden />}
      label="Proxy authentication detected"
    >
      <p>
        Signed in through your reverse proxy as{' '}
        <strong className="font-semibold">{status.proxyAuthUsername}</strong>.{' '}
        {status.proxyAuthIsAdmin ? 'Admin confirmed.' : 'Admin role not confirmed.'}
      </p>
      {status.proxyAuthLogoutURL && (
        <a
          href={status.proxyAuthLogoutURL}
          className="mt-1 inline-flex items-center gap-1 font-medium underline"
        >
          Proxy logout
          <ExternalLink className="size-3.5" aria-hidden />
        </a>
      )}
    </Notice>
  )
}

function DisabledBanner({ onSetup }: { onSetup: () => void }) {
  return (
    <Notice
      tone="danger"
      icon={<ShieldOff className="size-4" aria-hidden />}
      label="Authentication disabled"
    >
      <div className="flex flex-wrap items-center gap-2">
        <p className="min-w-0 flex-1">
          Authentication is disabled (DISABLE_AUTH): anyone who can reach this address can see and
          change everything. Set up a login, then remove DISABLE_AUTH and restart Pulse.
        </p>
        <button type="button" className={BUTTON.primary} onClick={onSetup}>
          Setup
        </button>
      </div>
    </Notice>
  )
}

function PendingRestartNotice() {
  return (
    <Notice
      tone="warning"
      icon={<ServerCog className="size-4" aria-hidden />}
      label="Restart required"
    >
      <p className="font-medium">Security is configured but takes effect after a restart.</p>
      <ul className="mt-1 list-disc pl-5 text-xs">
        <li>
          Docker: <code>docker restart pulse</code>
        </li>
        <li>
          systemd: <code>sudo systemctl restart pulse</code>
        </li>
        <li>Development: stop the server and start it again.</li>
      </ul>
    </Notice>
  )
}

function BackupCard({ onOpen }: { onOpen: (dialog: Dialog) => void }) {
  return (
    <Card
      title="Backup & restore"
      icon={<Archive className="size-4" aria-hidden />}
      description="Every setting in one encrypted file, node credentials included."
    >
      <div className="flex flex-wrap gap-2">
        <button type="button" className={BUTTON.secondary} onClick={() => onOpen('export')}>
          <FileDown className="size-4" aria-hidden />
          Export configuration
        </button>
        <button type="button" className={BUTTON.secondary} onClick={() => onOpen('import')}>
          <FileUp className="size-4" aria-hidden />
          Restore configuration
        </button>
      </div>
    </Card>
  )
}

/**
 * Settings > Security (spec 001 §2 Security tab): status and posture, proxy-auth and
 * auth-disabled banners, password and credentials, API token, single sign-on, backup and
 * restore, the audit log. The status is read afresh on open.
 */
export function SecurityTab() {
  const { status } = useSnapshot(securityStatusState)
  const [loadError, setLoadError] = useState('')
  const [dialog, setDialog] = useState<Dialog>(null)
  // Issue 29 item 6: below admin only the status, the posture and the own password.
  const admin = useRole().can('admin')

  const reload = useCallback(() => {
    setLoadError('')
    refreshSecurityStatus().catch((error: unknown) =>
      setLoadError(error instanceof Error ? error.message : String(error)),
    )
  }, [])
  useEffect(reload, [reload])

  if (!status) {
    return (
      <div>
        {loadError ? (
          <div className="flex flex-col items-start gap-2">
            <ErrorPanel>Failed to load the security status: {loadError}</ErrorPanel>
            <button type="button" className={BUTTON.secondary} onClick={reload}>
              Try again
            </button>
          </div>
        ) : (
          <p
            role="status"
            className="flex items-center gap-2 text-sm text-gray-600 dark:text-gray-400"
          >
            <Loader2 className="size-4 animate-spin" aria-hidden />
            Loading security settings...
          </p>
        )}
      </div>
    )
  }

  const close = () => setDialog(null)
  return (
    <div className="flex flex-col gap-4">
      {status.hasProxyAuth && status.proxyAuthUsername && <ProxyBanner status={status} />}
      {status.disabled && <DisabledBanner onSetup={() => setDialog('setup')} />}
      {status.configuredButPendingRestart && <PendingRestartNotice />}
      <div className="grid gap-4 lg:grid-cols-2">
        <StatusCard status={status} onOpen={setDialog} admin={admin} />
        <PostureCard status={status} />
      </div>
      {!status.disabled && <SessionsCard admin={admin} />}
      {admin ? (
        <>
          {passwordLogin(status) && <UsersCard />}
          {passwordLogin(status) && <LockoutCard />}
          <ApiTokenPanel status={status} />
          {!status.disabled && <ApiTokensCard />}
          <OidcPanel />
          <BackupCard onOpen={setDialog} />
          <AuditLogCard />
        </>
      ) : (
        <p className="text-sm text-gray-600 dark:text-gray-400" data-testid="role-read-only">
          Users, API tokens, single sign-on, backup and the audit log: {roleReason('admin')}.
        </p>
      )}

      {dialog === 'password' && <ChangePasswordModal onClose={close} />}
      {(dialog === 'rotate' || dialog === 'setup') && (
        <QuickSetupModal
          rotate={dialog === 'rotate'}
          defaultUsername={dialog === 'rotate' ? (status.authUsername ?? '') : 'admin'}
          onClose={close}
          onSkipped={reload}
        />
      )}
      {dialog === 'export' && <ExportModal hasLogin={passwordLogin(status)} onClose={close} />}
      {dialog === 'import' && <ImportModal onClose={close} />}
    </div>
  )
}
