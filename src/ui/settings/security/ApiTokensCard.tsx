import { KeyRound, Plus, Trash2, TriangleAlert } from 'lucide-react'
import { useRef, useState, type FormEvent } from 'react'
import {
  API_TOKEN_NAME_MAX,
  type ApiTokenInfo,
  type CreatedApiToken,
} from '../../../shared/model/api-tokens.ts'
import type { Role } from '../../../shared/model/roles.ts'
import { CopyRow } from '../../auth/CredentialsPanel.tsx'
import { BUTTON } from '../../components/button-classes.ts'
import { Card } from '../../components/Card.tsx'
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx'
import { Modal } from '../../components/Modal.tsx'
import { TextField } from '../../components/TextField.tsx'
import { showToast } from '../../components/toast-store.ts'
import { noteAuditedAction } from './audit-refresh.ts'
import { auditTime } from './AuditLogCard.tsx'
import { Notice } from './fields.tsx'
import { FormModal, RoleSelect } from './FormModal.tsx'
import { createToken, listTokens, revokeToken } from './tokens-api.ts'
import { LoadStatus, useLoaded } from './use-loaded.tsx'

/** What each role lets a token do, for the role select's hint. */
const ROLE_HINTS: Record<Role, string> = {
  viewer: 'reads: live tabs, alerts, history, /metrics',
  operator: 'also acknowledges and silences alerts, tests notifications',
  admin: 'everything, settings and security included',
}

/**
 * API tokens (issue 29 item 4): the named tokens with role, hint, creation and last use; New
 * token (name and role) shows the value once with Copy; Revoke asks first.
 */
export function ApiTokensCard() {
  const { load, reload: fetchTokens } = useLoaded(listTokens)
  const [creating, setCreating] = useState(false)
  const [revoking, setRevoking] = useState<ApiTokenInfo | null>(null)
  const newButton = useRef<HTMLButtonElement>(null)

  const revoke = async (token: ApiTokenInfo) => {
    try {
      await revokeToken(token.id)
      showToast(`Token "${token.name}" revoked`, 'success')
      noteAuditedAction()
      setRevoking(null)
      fetchTokens()
      requestAnimationFrame(() => newButton.current?.focus())
    } catch (error) {
      showToast(
        `Failed to revoke the token: ${error instanceof Error ? error.message : String(error)}`,
        'error',
      )
    }
  }

  return (
    <Card
      title="API tokens"
      icon={<KeyRound className="size-4" aria-hidden />}
      description="Named tokens for scripts and integrations, each with a role; sent in the X-API-Token header."
      actions={
        <button
          ref={newButton}
          type="button"
          onClick={() => setCreating(true)}
          className={BUTTON.secondary}
        >
          <Plus className="size-4" aria-hidden />
          New token
        </button>
      }
    >
      <LoadStatus load={load} what="API tokens" />
      {load.kind === 'loaded' &&
        (load.value.length === 0 ? (
          <p className="text-sm text-gray-600 dark:text-gray-400">No API tokens.</p>
        ) : (
          <ul aria-label="API tokens" className="divide-y divide-gray-100 dark:divide-gray-800">
            {load.value.map((token) => (
              <TokenRow key={token.id} token={token} onRevoke={() => setRevoking(token)} />
            ))}
          </ul>
        ))}
      {creating && (
        <NewTokenModal
          onCreated={fetchTokens}
          onClose={() => {
            setCreating(false)
            requestAnimationFrame(() => newButton.current?.focus())
          }}
        />
      )}
      {revoking && (
        <ConfirmDialog
          title={`Revoke the token "${revoking.name}"?`}
          describedBy="revoke-token-text"
          confirmLabel="Revoke token"
          busyLabel="Revoking..."
          tone="danger"
          icon={<Trash2 className="size-4" aria-hidden />}
          onConfirm={() => revoke(revoking)}
          onClose={() => setRevoking(null)}
        >
          <p id="revoke-token-text" className="text-sm text-gray-700 dark:text-gray-300">
            It stops working at once, and live connections opened with it close: scripts and
            integrations using it must be given another token.
          </p>
        </ConfirmDialog>
      )}
    </Card>
  )
}

function TokenRow({ token, onRevoke }: { token: ApiTokenInfo; onRevoke: () => void }) {
  return (
    <li
      data-token={token.name}
      className="flex flex-wrap items-center gap-x-3 gap-y-1 py-2 text-sm"
    >
      <span className="min-w-0 font-medium break-words text-gray-900 dark:text-gray-100">
        {token.name}
      </span>
      <span className="rounded bg-gray-100 px-1.5 py-0.5 text-xs text-gray-700 dark:bg-gray-800 dark:text-gray-300">
        {token.role}
      </span>
      {token.hint && (
        <code className="font-mono text-xs text-gray-600 dark:text-gray-400">{token.hint}</code>
      )}
      <span className="flex flex-wrap gap-x-3 text-xs text-gray-600 tabular-nums dark:text-gray-400">
        <span>
          Created <time dateTime={token.createdAt}>{auditTime(token.createdAt)}</time>
        </span>
        <span>
          {token.lastUsedAt ? (
            <>
              Last used <time dateTime={token.lastUsedAt}>{auditTime(token.lastUsedAt)}</time>
            </>
          ) : (
            'Never used'
          )}
        </span>
      </span>
      <button
        type="button"
        onClick={onRevoke}
        aria-label={`Revoke ${token.name}`}
        className={`${BUTTON.secondary} ml-auto`}
      >
        <Trash2 className="size-4" aria-hidden />
        Revoke
      </button>
    </li>
  )
}

/** Name and role, then the new token once with Copy and Done. */
function NewTokenModal({ onCreated, onClose }: { onCreated: () => void; onClose: () => void }) {
  const [name, setName] = useState('')
  const [role, setRole] = useState<Role>('viewer')
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState('')
  const [created, setCreated] = useState<CreatedApiToken | null>(null)
  // The new token takes the focus, so a screen reader reads the one-time warning.
  const shownBox = useRef<HTMLDivElement>(null)

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    if (!name.trim()) {
      setError('name: is required.')
      return
    }
    setBusy(true)
    setError('')
    try {
      const token = await createToken(name.trim(), role)
      setCreated(token)
      onCreated()
      noteAuditedAction()
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : String(failure))
    } finally {
      setBusy(false)
    }
  }

  if (created) {
    return (
      // A new dialog (key), so the focus moves to the token.
      <Modal
        key="shown"
        title="New API token"
        onClose={onClose}
        dismissible={false}
        initialFocus={shownBox}
        footer={
          <button type="button" onClick={onClose} className={`${BUTTON.primary} justify-center`}>
            Done
          </button>
        }
      >
        <div ref={shownBox} tabIndex={-1} className="flex flex-col gap-3 outline-none">
          <Notice tone="warning" icon={<TriangleAlert className="size-4" aria-hidden />}>
            Copy the token now: it will not be shown again.
          </Notice>
          <CopyRow label={`Token "${created.name}" (${created.role})`} value={created.token} />
        </div>
      </Modal>
    )
  }

  return (
    <FormModal
      key="form"
      title="New API token"
      onClose={onClose}
      onSubmit={submit}
      busy={busy}
      error={error}
      submitLabel="Create token"
      busyLabel="Creating..."
      icon={<Plus className="size-4" aria-hidden />}
    >
      <TextField
        label="Name"
        id="new-token-name"
        data-autofocus
        autoComplete="off"
        maxLength={API_TOKEN_NAME_MAX}
        hint="Who uses it, e.g. grafana or backup-script."
        value={name}
        onChange={(event) => {
          setName(event.target.value)
          setError('')
        }}
      />
      <RoleSelect id="new-token-role" value={role} onChange={setRole} hint={ROLE_HINTS[role]} />
    </FormModal>
  )
}
