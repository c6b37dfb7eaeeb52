import { useSnapshot } from 'valtio'
import { useConnection } from '../hooks/useConnection.ts'
import { clockTime } from '../lib/time.ts'
import { updateState } from '../updates/update-store.ts'

/**
 * App footer (spec 001 §2 Shell): the server version with a Development or Docker suffix, an RC
 * badge on the release-candidate channel, and the time of the last data refresh.
 */
export function Footer() {
  const { version: info } = useSnapshot(updateState)
  const { lastUpdate, serverVersion } = useConnection()
  const shown = (info?.version || serverVersion).replace(/^v/, '')
  const suffix = info?.isDevelopment ? ' (Development)' : info?.isDocker ? ' (Docker)' : ''
  return (
    <footer className="flex flex-wrap items-center justify-between gap-2 border-t border-gray-200 bg-white px-3 py-1.5 text-xs text-gray-500 sm:px-4 dark:border-gray-800 dark:bg-gray-900 dark:text-gray-400">
      <span className="flex items-center gap-1.5">
        <span>{shown ? `Pulse v${shown}${suffix}` : 'Pulse'}</span>
        {info?.channel === 'rc' && (
          <span
            title="Release candidate channel"
            className="rounded bg-amber-100 px-1 py-px text-[10px] font-semibold text-amber-800 dark:bg-amber-900 dark:text-amber-200"
          >
            RC
          </span>
        )}
      </span>
      <span className="tabular-nums">
        Last refresh: <time>{lastUpdate > 0 ? clockTime(lastUpdate) : '—'}</time>
      </span>
    </footer>
  )
}
