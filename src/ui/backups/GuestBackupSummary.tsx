// One guest's backup state (issue 26 item 7), in its detail panel (dashboard row, guest page):
// the newest backup with its age colour, source and location; the jobs that select it; its last
// job's result. Asking for it makes the worker ask the server for the backups (on demand).
import { Link } from 'wouter'
import { TEXT } from '../components/colours.ts'
import { useView } from '../hooks/useView.ts'
import { RunBadge } from './job-state.tsx'

/** The backup lines of the guest `guestId`. */
export function GuestBackupSummary({ guestId }: { guestId: string }) {
  const model = useView({ kind: 'guestBackup', guestId })
  if (!model || !model.loaded) {
    return <p className="text-gray-500 dark:text-gray-400">Loading…</p>
  }
  const row = model.row
  if (!row) return <p className="text-gray-500 dark:text-gray-400">No backup information.</p>
  const jobs = model.jobs
  return (
    <div className="space-y-1" data-testid="guest-backup">
      <div className="flex gap-2">
        <span className="text-gray-500 dark:text-gray-400">Newest</span>
        <span className={`ml-auto text-right tabular-nums ${TEXT[row.ageColour]}`}>
          {row.newestText ? `${row.newestText} (${row.ageText})` : 'never backed up'}
          {row.overdue && <span className="sr-only"> (overdue)</span>}
        </span>
      </div>
      {row.location && (
        <div className="flex gap-2">
          <span className="text-gray-500 dark:text-gray-400">Where</span>
          <span className="ml-auto truncate text-right" title={row.location}>
            {[row.sourceLabel, row.location, row.sizeText].filter(Boolean).join(' · ')}
          </span>
        </div>
      )}
      <div className="flex gap-2">
        <span className="text-gray-500 dark:text-gray-400">Coverage</span>
        <span className="ml-auto truncate text-right">
          {jobs.length > 0
            ? jobs.map((job) => `${job.jobId}${job.enabled ? '' : ' (disabled)'}`).join(', ')
            : row.coverageLabel}
        </span>
      </div>
      <div className="flex items-center gap-2">
        <span className="text-gray-500 dark:text-gray-400">Last job</span>
        <span className="ml-auto flex min-w-0 items-center gap-1.5">
          {row.lastJob ? (
            <>
              <RunBadge state={row.lastJob.state} />
              <span className="truncate tabular-nums" title={row.lastJob.error}>
                {row.lastJob.error || row.lastJob.timeText}
              </span>
            </>
          ) : (
            'none'
          )}
        </span>
      </div>
      <Link
        href="/backups/coverage"
        className="block text-right text-blue-700 hover:underline dark:text-blue-300"
      >
        Backup coverage
      </Link>
    </div>
  )
}
