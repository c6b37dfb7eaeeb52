import { KeyRound, Loader2, TriangleAlert } from 'lucide-react'
import { useEffect, useRef, useState } from 'react'
import { CopyRow } from '../../auth/CredentialsPanel.tsx'
import {
  patchSecurityStatus,
  refreshSecurityStatus,
  type SecurityStatusInfo,
} from '../../auth/security-status.ts'
import { BUTTON } from '../../components/button-classes.ts'
import { Card } from '../../components/Card.tsx'
import { Modal } from '../../components/Modal.tsx'
import { showToast } from '../../components/toast-store.ts'
import { Notice } from './fields.tsx'
import { tokenHint } from './posture.ts'
import { noteAuditedAction } from './audit-refresh.ts'
import { regenerateToken } from './security-api.ts'

export const TOKEN_GENERATED_TEXT =
  "New API token generated! Save it now - it won't be shown again."

type Phase = 'hint' | 'confirm' | 'generating' | 'shown'

/**
 * API token (spec 001 §2, §4 API token): the hint, Generate New Token, a confirm dialog, then the
 * new token once with Copy and Done; Done returns to the hint.
 */
export function ApiTokenPanel({ status }: { status: Readonly<SecurityStatusInfo> }) {
  const [phase, setPhase] = useState<Phase>('hint')
  const [token, setToken] = useState('')
  const generateButton = useRef<HTMLButtonElement>(null)
  const shownBox = useRef<HTMLDivElement>(null)
  // The new token takes the focus, so a screen reader reads the one-time warning.
  useEffect(() => {
    if (phase === 'shown') shownBox.current?.focus()
  }, [phase])

  const generate = async () => {
    setPhase('generating')
    try {
      const fresh = await regenerateToken()
      setToken(fresh)
      setPhase('shown')
      patchSecurityStatus({ apiTokenConfigured: true, apiTokenHint: tokenHint(fresh) })
      showToast(TOKEN_GENERATED_TEXT, 'success')
      noteAuditedAction()
    } catch (error) {
      setPhase('hint')
      const reason = error instanceof Error ? error.message : String(error)
      showToast(`Failed to generate token: ${reason}`, 'error')
    }
  }

  const done = () => {
    setToken('')
    setPhase('hint')
    // The hint shown next is the server's; a failed read keeps the one computed here.
    refreshSecurityStatus().catch(() => {})
    requestAnimationFrame(() => generateButton.current?.focus())
  }

  return (
    <Card
      title="API token"
      icon={<KeyRound className="size-4" aria-hidden />}
      description="For scripts and integrations: send it in the X-API-Token header."
    >
      {phase === 'shown' ? (
        <div ref={shownBox} tabIndex={-1} className="flex flex-col gap-3 outline-none">
          <Notice tone="warning" icon={<TriangleAlert className="size-4" aria-hidden />}>
            Copy the new token now: it is shown only this once. The previous token no longer works.
          </Notice>
          <CopyRow label="New API token" value={token} />
          <div className="flex justify-end">
            <button type="button" onClick={done} className={`${BUTTON.primary} justify-center`}>
              Done
            </button>
          </div>
        </div>
      ) : (
        <div className="flex flex-wrap items-center gap-3">
          <p className="min-w-0 flex-1 text-sm" data-testid="api-token-hint">
            {status.apiTokenConfigured ? (
              <>
                Current token:{' '}
                <code className="rounded bg-gray-100 px-1.5 py-0.5 font-mono text-xs dark:bg-gray-800">
                  {status.apiTokenHint || 'configured'}
                </code>
              </>
            ) : (
              <span className="text-gray-600 dark:text-gray-400">No API token configured.</span>
            )}
          </p>
          <button
            ref={generateButton}
            type="button"
            onClick={() => setPhase('confirm')}
            disabled={phase === 'generating'}
            className={`${BUTTON.secondary} justify-center disabled:opacity-60`}
          >
            {phase === 'generating' && <Loader2 className="size-4 animate-spin" aria-hidden />}
            {phase === 'generating' ? 'Generating...' : 'Generate New Token'}
          </button>
        </div>
      )}
      {phase === 'confirm' && (
        <ConfirmGenerate
          replacing={status.apiTokenConfigured === true}
          onCancel={() => setPhase('hint')}
          onConfirm={() => void generate()}
        />
      )}
    </Card>
  )
}

function ConfirmGenerate({
  replacing,
  onCancel,
  onConfirm,
}: {
  replacing: boolean
  onCancel: () => void
  onConfirm: () => void
}) {
  const cancel = useRef<HTMLButtonElement>(null)
  return (
    <Modal
      role="alertdialog"
      size="sm"
      title="Generate a new API token?"
      describedBy="confirm-token-text"
      onClose={onCancel}
      initialFocus={cancel}
      footer={
        <>
          <button
            ref={cancel}
            type="button"
            onClick={onCancel}
            className={`${BUTTON.secondary} justify-center`}
          >
            Cancel
          </button>
          <button type="button" onClick={onConfirm} className={`${BUTTON.primary} justify-center`}>
            Generate token
          </button>
        </>
      }
    >
      <p id="confirm-token-text" className="text-sm text-gray-700 dark:text-gray-300">
        {replacing
          ? 'The current token stops working at once: scripts and integrations using it must be given the new one.'
          : 'The new token is shown only once: copy it before you close the panel.'}
      </p>
    </Modal>
  )
}
