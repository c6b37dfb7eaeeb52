import { Loader2, PackageCheck, RefreshCw } from 'lucide-react'
import { useSnapshot } from 'valtio'
import {
  AUTO_UPDATE_INTERVALS,
  type DeploymentType,
  type UpdateInfo,
} from '../../../shared/model/updates.ts'
import { BUTTON, FOCUS_RING } from '../../components/button-classes.ts'
import { Card } from '../../components/Card.tsx'
import { Switch } from '../../components/Switch.tsx'
import { showToast } from '../../components/toast-store.ts'
import { toChannel } from '../../updates/updates-api.ts'
import { checkForUpdates, updateState } from '../../updates/update-store.ts'
import type { CardProps } from './SystemCards.tsx'
import { UpdateInstall } from './UpdateInstall.tsx'

/** Spec 001 §8. */
export const LATEST_TEXT = 'You are running the latest version'
export const CHECK_FAILED_TEXT = 'Failed to check for updates'

export const DEPLOYMENT_LABELS: Record<DeploymentType, string> = {
  proxmoxve: 'Proxmox VE LXC',
  docker: 'Docker',
  systemd: 'systemd service',
  manual: 'Manual install',
  development: 'Development build',
}

const INTERVAL_LABELS: Record<number, string> = {
  6: 'Every 6 hours',
  12: 'Every 12 hours',
  24: 'Every 24 hours (daily)',
  168: 'Every 168 hours (weekly)',
}

const SELECT = `w-full rounded-md border border-gray-300 bg-white px-2 py-1.5 text-sm text-gray-900 disabled:cursor-not-allowed disabled:opacity-60 dark:border-gray-600 dark:bg-gray-800 dark:text-gray-100 ${FOCUS_RING}`
const LABEL = 'mb-1 block text-sm font-medium text-gray-800 dark:text-gray-200'

function releaseDay(iso: string): string {
  const time = Date.parse(iso)
  return Number.isNaN(time) ? '' : new Date(time).toLocaleDateString()
}

/** Spec 001 §2 System tab: the version panel, its update settings part of the System form. */
export function VersionCard({ form, set, fixed, locked }: CardProps) {
  const { version, cache, checking } = useSnapshot(updateState)
  const info = cache.updateInfo as UpdateInfo | null

  const check = async () => {
    const outcome = await checkForUpdates({ force: true, channel: form.updateChannel })
    const found = updateState.cache.updateInfo
    // A failure is shown (and announced) in the panel already: no toast repeating it.
    if (outcome !== 'error' && found && !found.available) showToast(LATEST_TEXT, 'success')
  }

  return (
    <Card
      title="Version and updates"
      icon={<PackageCheck className="size-4" aria-hidden />}
      description="The running version, update checks and how this installation is updated."
      className="xl:col-span-2"
      actions={
        <button
          type="button"
          className={`${BUTTON.secondary} disabled:opacity-60`}
          disabled={checking || !version}
          onClick={() => void check()}
        >
          {checking ? (
            <Loader2 className="size-4 animate-spin" aria-hidden />
          ) : (
            <RefreshCw className="size-4" aria-hidden />
          )}
          {checking ? 'Checking...' : 'Check for Updates'}
        </button>
      }
    >
      <div className="flex flex-col gap-4">
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
          <dt className="text-gray-600 dark:text-gray-400">Current version</dt>
          <dd
            className="font-medium text-gray-900 dark:text-gray-100"
            data-testid="current-version"
          >
            {version ? `v${version.version}` : 'Loading...'}
          </dd>
          <dt className="text-gray-600 dark:text-gray-400">Deployment</dt>
          <dd className="text-gray-900 dark:text-gray-100">
            {version ? DEPLOYMENT_LABELS[version.deploymentType] : '—'}
          </dd>
        </dl>
        <CheckResult info={info} error={cache.lastError} lastCheck={cache.lastCheck} />
        <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
          <div>
            <label htmlFor="system-update-channel" className={LABEL}>
              Update channel
            </label>
            <select
              id="system-update-channel"
              className={SELECT}
              value={form.updateChannel}
              disabled={locked || fixed.has('updateChannel')}
              onChange={(event) => set({ updateChannel: toChannel(event.target.value) })}
            >
              <option value="stable">Stable</option>
              <option value="rc">Release candidate (rc)</option>
            </select>
          </div>
          <div className="flex items-center justify-between gap-3 sm:pt-6">
            <label
              htmlFor="system-auto-update"
              className="text-sm text-gray-800 dark:text-gray-200"
            >
              Check for updates automatically
            </label>
            <Switch
              id="system-auto-update"
              checked={form.autoUpdateEnabled}
              disabled={locked || fixed.has('autoUpdateEnabled')}
              onChange={(autoUpdateEnabled) => set({ autoUpdateEnabled })}
            />
          </div>
          <div>
            <label htmlFor="system-update-interval" className={LABEL}>
              Check interval
            </label>
            <select
              id="system-update-interval"
              className={SELECT}
              value={form.autoUpdateCheckInterval}
              disabled={locked || !form.autoUpdateEnabled}
              onChange={(event) => set({ autoUpdateCheckInterval: Number(event.target.value) })}
            >
              {AUTO_UPDATE_INTERVALS.map((hours) => (
                <option key={hours} value={hours}>
                  {INTERVAL_LABELS[hours]}
                </option>
              ))}
            </select>
          </div>
          <div>
            <label htmlFor="system-update-time" className={LABEL}>
              Check time
            </label>
            <input
              id="system-update-time"
              type="time"
              className={SELECT}
              value={form.autoUpdateTime}
              disabled={locked || !form.autoUpdateEnabled}
              onChange={(event) => set({ autoUpdateTime: event.target.value })}
            />
          </div>
        </div>
        <UpdateInstall info={info?.available ? info : null} />
      </div>
    </Card>
  )
}

function CheckResult({
  info,
  error,
  lastCheck,
}: {
  info: UpdateInfo | null
  error: string
  lastCheck: number
}) {
  if (error) {
    return (
      <p role="alert" className="text-sm text-red-700 dark:text-red-300">
        {error.startsWith(CHECK_FAILED_TEXT) ? error : `${CHECK_FAILED_TEXT}: ${error}`}
      </p>
    )
  }
  if (!info) return null
  const checked = lastCheck > 0 ? ` Last checked ${new Date(lastCheck).toLocaleString()}.` : ''
  if (!info.available) {
    return (
      <p className="text-sm text-gray-700 dark:text-gray-300" data-testid="update-result">
        {LATEST_TEXT}
        {info.latestVersion ? ` (latest release v${info.latestVersion.replace(/^v/, '')}).` : '.'}
        {checked}
      </p>
    )
  }
  const date = releaseDay(info.releaseDate)
  return (
    <div
      data-testid="update-result"
      className="flex flex-col gap-2 rounded-md border border-emerald-200 bg-emerald-50 p-3 text-sm text-emerald-900 dark:border-emerald-900 dark:bg-emerald-950 dark:text-emerald-100"
    >
      <p className="flex flex-wrap items-center gap-2">
        <span className="font-medium">
          Update available: v{info.latestVersion.replace(/^v/, '')}
        </span>
        {info.isPrerelease && (
          <span className="rounded bg-amber-100 px-1.5 py-px text-xs font-semibold text-amber-800 dark:bg-amber-900 dark:text-amber-200">
            Prerelease
          </span>
        )}
        {date && <span className="text-xs">Released {date}</span>}
      </p>
      {info.warning && <p>{info.warning}</p>}
      {info.releaseNotes.trim() && (
        <details>
          <summary className={`cursor-pointer font-medium ${FOCUS_RING}`}>Release notes</summary>
          <pre className="mt-1 max-h-72 overflow-auto whitespace-pre-wrap break-words font-sans text-xs">
            {info.releaseNotes.trim()}
          </pre>
        </details>
      )}
      <p className="text-xs">{checked.trim()}</p>
    </div>
  )
}
