import { Loader2, Lock, LockOpen } from 'lucide-react'
import { useCallback, useEffect, useState } from 'react'
import type { AccountLock } from '../../../shared/model/security.ts'
import { ErrorPanel } from '../../auth/AuthCard.tsx'
import { BUTTON } from '../../components/button-classes.ts'
import { Card } from '../../components/Card.tsx'
import { showToast } from '../../components/toast-store.ts'
import { noteAuditedAction } from './audit-refresh.ts'
import { loadLockout, unlockAccount } from './security-api.ts'

type Load =
  | { kind: 'loading' }
  | { kind: 'error'; message: string }
  | { kind: 'loaded'; accounts: AccountLock[] }

function AccountRow({ account, onUnlocked }: { account: AccountLock; onUnlocked: () => void }) {
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState('')
  const unlock = async () => {
    setBusy(true)
    setError('')
    try {
      await unlockAccount(account.username)
      showToast(`Account ${account.username} unlocked`, 'success')
      onUnlocked()
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err))
    } finally {
      setBusy(false)
    }
  }
  if (!account.locked) {
    const tries = account.failures
    return (
      <p data-account={account.username} className="text-sm text-gray-700 dark:text-gray-300">
        <strong className="font-medium">{account.username}</strong> is not locked
        {tries > 0 && ` (${tries} failed ${tries === 1 ? 'attempt' : 'attempts'} recently)`}.
      </p>
    )
  }
  return (
    <div data-account={account.username} className="flex flex-col gap-2">
      <div className="flex flex-wrap items-center gap-2 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-800 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-200">
        <Lock className="size-4 shrink-0" aria-hidden />
        <p className="min-w-0 flex-1">
          <strong className="font-semibold">{account.username}</strong> is locked after{' '}
          {account.failures} failed sign-ins; it unlocks by itself in {account.remainingMinutes}{' '}
          minute(s).
        </p>
        <button
          type="button"
          onClick={() => void unlock()}
          disabled={busy}
          className={`${BUTTON.secondary} disabled:opacity-60`}
        >
          {busy ? (
            <Loader2 className="size-4 animate-spin" aria-hidden />
          ) : (
            <LockOpen className="size-4" aria-hidden />
          )}
          Unlock
        </button>
      </div>
      {error && <ErrorPanel>{error}</ErrorPanel>}
    </div>
  )
}

/**
 * The login account's lockout (GET /api/security/lockout): five failed sign-ins from anywhere
 * lock it for 15 minutes; an admin lifts the lock here.
 */
export function LockoutCard() {
  const [load, setLoad] = useState<Load>({ kind: 'loading' })
  const fetchLock = useCallback(() => {
    loadLockout()
      .then((accounts) => setLoad({ kind: 'loaded', accounts }))
      .catch((error: unknown) =>
        setLoad({ kind: 'error', message: error instanceof Error ? error.message : String(error) }),
      )
  }, [])
  useEffect(fetchLock, [fetchLock])

  const unlocked = () => {
    fetchLock()
    noteAuditedAction()
  }
  return (
    <Card
      title="Account lockout"
      icon={<Lock className="size-4" aria-hidden />}
      description="Five failed sign-ins within 15 minutes, from any address, lock the account for 15 minutes."
    >
      {load.kind === 'loading' && (
        <p
          role="status"
          className="flex items-center gap-2 text-sm text-gray-600 dark:text-gray-400"
        >
          <Loader2 className="size-4 animate-spin" aria-hidden />
          Loading the lockout state...
        </p>
      )}
      {load.kind === 'error' && (
        <ErrorPanel>Failed to load the lockout state: {load.message}</ErrorPanel>
      )}
      {load.kind === 'loaded' &&
        load.accounts.map((account) => (
          <AccountRow key={account.username} account={account} onUnlocked={unlocked} />
        ))}
    </Card>
  )
}
