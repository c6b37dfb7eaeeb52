import { BellOff, Plus } from 'lucide-react'
import { useCallback, useEffect, useState } from 'react'
import { WEEKDAYS } from '../../shared/model/alerts.ts'
import type { SilenceView, SilenceWindow } from '../../shared/model/silences.ts'
import { formatLeft, formatSince } from '../../shared/views/alerts-overview.ts'
import { SHORT_DAY } from '../../shared/views/schedule-summary.ts'
import { describeTarget, listedSilences } from '../../shared/views/silence-form.ts'
import { apiJson } from '../api/http.ts'
import { useRole } from '../auth/useRole.ts'
import { BUTTON } from '../components/button-classes.ts'
import { BADGE, PILL } from '../components/colours.ts'
import { showToast } from '../components/toast-store.ts'
import { SilenceDialog } from './SilenceDialog.tsx'

/** How often the list is read again (time left, silences others made). */
const REFRESH_MS = 30_000

/** Read the silences; `reload` after a change. */
export function useSilences(): { silences: SilenceView[] | null; reload: () => void } {
  const [silences, setSilences] = useState<SilenceView[] | null>(null)
  const [tick, setTick] = useState(0)
  const reload = useCallback(() => setTick((n) => n + 1), [])
  useEffect(() => {
    let live = true
    apiJson<SilenceView[]>('/api/alerts/silences').then(
      (list) => live && setSilences(list ?? []),
      () => live && setSilences((prev) => prev ?? []),
    )
    const timer = setTimeout(() => setTick((n) => n + 1), REFRESH_MS)
    return () => {
      live = false
      clearTimeout(timer)
    }
  }, [tick])
  return { silences, reload }
}

/** 'Sun 02:00–04:00 Europe/Berlin', 'Mon–Fri 22:00–06:00 UTC'. */
function windowText(w: SilenceWindow): string {
  const on = WEEKDAYS.filter((d) => w.days[d])
  const days =
    on.length === 7
      ? 'Daily'
      : on.join() === 'monday,tuesday,wednesday,thursday,friday'
        ? 'Mon–Fri'
        : on.map((d) => SHORT_DAY[d]).join(', ')
  return `${days} ${w.start}–${w.end} ${w.timezone}`
}

function when(s: SilenceView, now: number): string {
  if (s.state === 'active')
    return s.activeUntil ? formatLeft(Date.parse(s.activeUntil), now) : 'until ended'
  if (!s.nextStart) return ''
  const start = Date.parse(s.nextStart)
  return `starts ${new Date(start).toLocaleString()}`
}

/**
 * Overview's silences (issue 28): active and upcoming, each can be ended early; a new one. A viewer
 * sees the list only (issue 29 item 6).
 */
export function SilencesSection({
  silences,
  reload,
}: {
  silences: SilenceView[] | null
  reload: () => void
}) {
  const operate = useRole().can('operator')
  const [creating, setCreating] = useState(false)
  const [ending, setEnding] = useState<string | null>(null)
  const listed = silences ? listedSilences(silences) : []
  const now = Date.now()

  const end = (s: SilenceView) => {
    setEnding(s.id)
    apiJson(`/api/alerts/silences/${encodeURIComponent(s.id)}`, { method: 'DELETE' }).then(
      () => {
        showToast('Silence ended', 'success')
        setEnding(null)
        reload()
      },
      (err: unknown) => {
        setEnding(null)
        showToast(err instanceof Error ? err.message : 'Ending the silence failed', 'error')
      },
    )
  }

  return (
    <section aria-labelledby="silences-title" className="flex flex-col gap-2">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="silences-title" className="text-sm font-semibold text-gray-900 dark:text-gray-100">
          Silences
        </h2>
        {operate && (
          <button
            type="button"
            onClick={() => setCreating(true)}
            className={`${BUTTON.secondary} px-2 py-1 text-xs`}
          >
            <Plus className="size-3.5" aria-hidden />
            New silence
          </button>
        )}
      </div>
      {silences === null ? (
        <p className="text-xs text-gray-500 dark:text-gray-400">Loading silences...</p>
      ) : listed.length === 0 ? (
        <p className="text-xs text-gray-500 dark:text-gray-400">
          No active or upcoming silences.
          {/* How to make one only for those who may (operator and above). */}
          {operate &&
            ' Silence an alert from its row, or a node, guest, tag or search for a maintenance.'}
        </p>
      ) : (
        <ul
          aria-label="Active and upcoming silences"
          className="divide-y divide-gray-100 rounded-md border border-gray-200 bg-white dark:divide-gray-800 dark:border-gray-800 dark:bg-gray-900"
        >
          {listed.map((s) => (
            <li
              key={s.id}
              data-silence-id={s.id}
              className="flex flex-wrap items-center gap-x-3 gap-y-1 px-3 py-2 text-sm"
            >
              <span className={`${PILL} ${s.state === 'active' ? BADGE.yellow : BADGE.grey}`}>
                {s.state === 'active' ? 'Silenced' : 'Upcoming'}
              </span>
              <span className="min-w-[12rem] flex-1 font-medium break-words text-gray-900 dark:text-gray-100">
                {describeTarget(s.target, s.label ? { resource: s.label } : {})}
                {s.window && (
                  <span className="font-normal text-gray-500 dark:text-gray-400">
                    {' '}
                    · {windowText(s.window)}
                  </span>
                )}
              </span>
              <span className="text-xs text-gray-600 tabular-nums dark:text-gray-400">
                {when(s, now)}
              </span>
              <span
                className="w-full text-xs text-gray-600 sm:w-auto dark:text-gray-400"
                title={s.createdAt}
              >
                {s.comment ? `“${s.comment}” — ` : ''}
                {s.author}, {formatSince(Date.parse(s.createdAt), now)}
              </span>
              {operate && (
                <button
                  type="button"
                  disabled={ending === s.id}
                  onClick={() => end(s)}
                  aria-label={`End the silence of ${describeTarget(s.target)}`}
                  className={`${BUTTON.secondary} px-2 py-1 text-xs disabled:opacity-60`}
                >
                  <BellOff className="size-3.5" aria-hidden />
                  {s.state === 'active' ? 'End now' : 'Cancel'}
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      {creating && <SilenceDialog onClose={() => setCreating(false)} onCreated={reload} />}
    </section>
  )
}
