import { Download } from 'lucide-react'
import { useEffect, useState } from 'react'
import {
  UPDATE_RUNNING_STATUSES,
  type UpdateInfo,
  type UpdatePlan,
  type UpdateProgress,
} from '../../../shared/model/updates.ts'
import { BUTTON } from '../../components/button-classes.ts'
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx'
import { useLiveEvent } from '../../live/live-events.ts'
import {
  applyUpdate,
  fetchUpdatePlan,
  fetchUpdateStatus,
  toUpdateProgress,
} from '../../updates/updates-api.ts'

const reason = (error: unknown) => (error instanceof Error ? error.message : String(error))

/**
 * Spec 001 §2 System tab: how this deployment is updated (GET /api/updates/plan) and, where the
 * server may apply it itself, Install update with a confirmation, then the progress the server
 * reports (GET /api/updates/status, then `update:progress` events).
 */
export function UpdateInstall({ info }: { info: UpdateInfo | null }) {
  const [plan, setPlan] = useState<UpdatePlan | null>(null)
  const [planError, setPlanError] = useState('')
  const [progress, setProgress] = useState<UpdateProgress | null>(null)
  const [confirming, setConfirming] = useState(false)
  const [applyError, setApplyError] = useState('')

  useEffect(() => {
    let live = true
    fetchUpdatePlan()
      .then((answer) => live && setPlan(answer))
      .catch((error: unknown) => live && setPlanError(reason(error)))
    fetchUpdateStatus()
      // An event may already have arrived; it is newer than this answer.
      .then((answer) => live && setProgress((old) => old ?? answer))
      .catch(() => {
        // Without a status the events still fill it in.
      })
    return () => {
      live = false
    }
  }, [])
  useLiveEvent(['update:progress'], (event) => setProgress(toUpdateProgress(event.data)))

  const running = progress !== null && UPDATE_RUNNING_STATUSES.has(progress.status)
  const canInstall = plan?.canAutoUpdate === true && info !== null && info.downloadUrl !== ''

  return (
    <div className="flex flex-col gap-3 border-t border-gray-200 pt-3 dark:border-gray-800">
      <h3 className="text-sm font-semibold text-gray-900 dark:text-gray-100">How to update</h3>
      {planError && (
        <p className="text-sm text-red-700 dark:text-red-300">
          Could not read the update instructions: {planError}
        </p>
      )}
      {!plan && !planError && (
        <p className="text-sm text-gray-600 dark:text-gray-400">Loading instructions...</p>
      )}
      {plan && plan.instructions.length > 0 && (
        <ol
          aria-label="Update instructions"
          className="list-decimal space-y-1 pl-5 text-sm break-words text-gray-700 dark:text-gray-300"
        >
          {plan.instructions.map((line, index) => (
            <li key={index}>{line}</li>
          ))}
        </ol>
      )}
      {canInstall && !running && progress?.status !== 'completed' && (
        <div>
          <button type="button" className={BUTTON.primary} onClick={() => setConfirming(true)}>
            <Download className="size-4" aria-hidden />
            Install update
          </button>
        </div>
      )}
      {applyError && (
        <p role="alert" className="text-sm text-red-700 dark:text-red-300">
          The update could not be started: {applyError}
        </p>
      )}
      {progress && <ProgressView progress={progress} running={running} />}
      {confirming && info && (
        <ConfirmInstall
          info={info}
          onClose={() => setConfirming(false)}
          onStarted={() => {
            setConfirming(false)
            setApplyError('')
          }}
          onFailed={(message) => {
            setConfirming(false)
            setApplyError(message)
          }}
        />
      )}
    </div>
  )
}

function ProgressView({ progress, running }: { progress: UpdateProgress; running: boolean }) {
  if (progress.status === 'error') {
    return (
      <p role="alert" className="text-sm text-red-700 dark:text-red-300">
        Update failed: {progress.error || progress.message || 'unknown error'}
      </p>
    )
  }
  if (progress.status === 'completed') {
    return (
      <p role="status" className="text-sm font-medium text-emerald-800 dark:text-emerald-200">
        {progress.message || 'Update installed.'}
      </p>
    )
  }
  if (!running) return null
  return (
    <div className="flex flex-col gap-1" role="status">
      <p className="text-sm text-gray-800 dark:text-gray-200">
        {progress.message || progress.status}
      </p>
      <div
        role="progressbar"
        aria-label="Update progress"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={progress.progress}
        className="h-2 overflow-hidden rounded-full bg-gray-200 dark:bg-gray-700"
      >
        <div
          className="h-full rounded-full bg-blue-600 transition-[width] dark:bg-blue-500"
          style={{ width: `${progress.progress}%` }}
        />
      </div>
    </div>
  )
}

function ConfirmInstall({
  info,
  onClose,
  onStarted,
  onFailed,
}: {
  info: UpdateInfo
  onClose: () => void
  onStarted: () => void
  onFailed: (message: string) => void
}) {
  const confirm = async () => {
    try {
      await applyUpdate(info.downloadUrl)
    } catch (error) {
      onFailed(reason(error))
      return
    }
    onStarted()
  }
  return (
    <ConfirmDialog
      title="Install update"
      describedBy="install-update-text"
      confirmLabel="Install"
      busyLabel="Starting..."
      tone="primary"
      onConfirm={confirm}
      onClose={onClose}
    >
      <p id="install-update-text" className="text-sm">
        Download Pulse v{info.latestVersion.replace(/^v/, '')}? It is checked against its published
        checksum before anything is staged. Pulse does not restart by itself: when the update is
        staged, this panel shows how to restart into it.
      </p>
    </ConfirmDialog>
  )
}
