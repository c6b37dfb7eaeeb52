import { Minimize2 } from 'lucide-react'
import { useLocation } from 'wouter'
import { FOCUS_RING } from '../components/button-classes.ts'
import { useConnection } from '../hooks/useConnection.ts'
import { useNow } from '../hooks/useNow.ts'
import { clockTime } from '../lib/time.ts'
import { ConnectionPill } from '../shell/ConnectionPill.tsx'

/** Connected, but no completed poll for this long: the figures on the wall are old. */
export const WALL_STALE_AFTER_MS = 120_000

/**
 * The wall view's one strip (it has no header or footer): the connection, the time of the last
 * refresh (amber once it is old, with how old), and a dim "Exit wall view" that lights up on
 * hover or keyboard focus.
 */
export function WallStatus() {
  const { status, lastUpdate, hadData } = useConnection()
  const [path, navigate] = useLocation()
  const now = useNow(10_000)
  const age = lastUpdate > 0 ? now - lastUpdate : 0
  const stale = status === 'connected' && age > WALL_STALE_AFTER_MS
  const lost = status !== 'connected' && hadData
  return (
    <div
      data-wall-status
      className="flex flex-wrap items-center gap-x-3 gap-y-1 border-t border-gray-200 bg-white px-3 py-1 text-xs text-gray-600 sm:px-4 dark:border-gray-800 dark:bg-gray-900 dark:text-gray-400"
    >
      <ConnectionPill status={status} />
      <span
        className={`tabular-nums ${stale ? 'font-medium text-amber-700 dark:text-amber-300' : ''}`}
      >
        Last refresh: <time>{lastUpdate > 0 ? clockTime(lastUpdate) : '—'}</time>
        {stale && ` (${Math.floor(age / 60_000)} min ago: no new data)`}
      </span>
      {lost && (
        <span className="font-medium text-red-700 dark:text-red-300">
          Not live: reconnecting by itself
        </span>
      )}
      <button
        type="button"
        onClick={() => navigate(path)}
        className={`ml-auto inline-flex items-center gap-1 rounded px-1.5 py-0.5 opacity-40 transition-opacity hover:bg-gray-100 hover:opacity-100 focus-visible:opacity-100 dark:hover:bg-gray-800 ${FOCUS_RING}`}
      >
        <Minimize2 className="size-3.5" aria-hidden />
        Exit wall view
      </button>
    </div>
  )
}
