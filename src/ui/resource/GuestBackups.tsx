// A guest page's backups (issue 25): the Backups view asked for this guest's vmid and name (both
// must match), newest first; the full list with its filters stays on the Backups tab.
import { Link } from 'wouter'
import { DEFAULT_BACKUPS_VIEW_REQUEST } from '../../shared/views/backups-types.ts'
import type { GuestRow } from '../../shared/views/guest-view-types.ts'
import { BADGE, PILL } from '../components/colours.ts'
import { useView } from '../hooks/useView.ts'
import { formatBackupTime } from '../backups/backup-time.ts'

/** Backups listed at most. */
const ROWS = 20

/** The search that finds this guest's backups: its vmid and, when it has one, its name. */
export function guestBackupSearch(guest: Pick<GuestRow, 'vmid' | 'name'>): string {
  const name = guest.name.trim()
  if (!name) return String(guest.vmid)
  return `${guest.vmid} ${/\s/.test(name) ? `"${name}"` : name}`
}

/** The latest backups of `guest`. */
export function GuestBackups({ guest }: { guest: GuestRow }) {
  const search = guestBackupSearch(guest)
  const model = useView({
    ...DEFAULT_BACKUPS_VIEW_REQUEST,
    search,
    grouping: 'guest',
    range: 30,
    window: { start: 0, count: ROWS },
  })
  const rows = (model?.rows ?? []).flatMap((row) =>
    row.kind === 'backup' && row.vmid === String(guest.vmid) ? [row] : [],
  )
  return (
    <section
      aria-label="Backups"
      className="rounded-md border border-gray-200 bg-white p-3 text-sm dark:border-gray-800 dark:bg-gray-900"
    >
      <h2 className="mb-1 flex items-center gap-2 text-xs font-semibold text-gray-500 uppercase dark:text-gray-400">
        Backups
        <Link
          href="/backups"
          className="ml-auto font-normal text-blue-700 normal-case hover:underline dark:text-blue-300"
        >
          All backups
        </Link>
      </h2>
      {!model ? (
        <p className="text-gray-500 dark:text-gray-400">Loading…</p>
      ) : rows.length === 0 ? (
        <p className="text-gray-500 dark:text-gray-400">No backups of this guest.</p>
      ) : (
        <ul className="divide-y divide-gray-100 dark:divide-gray-800">
          {rows.map((row) => (
            <li key={row.key} className="flex flex-wrap items-baseline gap-x-2 gap-y-0.5 py-1.5">
              <span className="w-40 shrink-0 text-xs text-gray-500 tabular-nums dark:text-gray-400">
                {formatBackupTime(row.backupTime)}
              </span>
              <span className={`${PILL} ${BADGE.grey}`}>{row.classLabel}</span>
              <span className="min-w-0 flex-1 truncate" title={row.location}>
                {row.location}
              </span>
              <span className="text-xs tabular-nums">{row.sizeText}</span>
              {row.verified && <span className={`${PILL} ${BADGE.green}`}>verified</span>}
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}
