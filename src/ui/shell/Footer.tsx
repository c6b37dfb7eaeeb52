import { useConnection } from '../hooks/useConnection.ts'
import { useApiVersion } from '../hooks/useServerInfo.ts'
import { clockTime } from '../lib/time.ts'

/** App footer: server version and the time of the last data refresh. */
export function Footer() {
  const version = useApiVersion()
  const { lastUpdate, serverVersion } = useConnection()
  const shown = version || serverVersion
  return (
    <footer className="flex flex-wrap items-center justify-between gap-2 border-t border-gray-200 bg-white px-3 py-1.5 text-xs text-gray-500 sm:px-4 dark:border-gray-800 dark:bg-gray-900 dark:text-gray-400">
      <span>{shown ? `Pulse v${shown.replace(/^v/, '')}` : 'Pulse'}</span>
      <span className="tabular-nums">
        Last refresh: <time>{lastUpdate > 0 ? clockTime(lastUpdate) : '—'}</time>
      </span>
    </footer>
  )
}
