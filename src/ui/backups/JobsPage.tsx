// Backups → Jobs (issue 26 item 6): PVE backup jobs, PBS sync / verify / prune / GC jobs and the
// recent failed vzdump tasks. A failed run's "Log" button opens its log tail in a dialog.
import { AlertTriangle, CalendarClock, Loader2 } from 'lucide-react'
import { useState, type ReactNode } from 'react'
import { useSnapshot } from 'valtio'
import type { JobRunView } from '../../shared/views/backup-jobs-types.ts'
import { EmptyState } from '../components/EmptyState.tsx'
import { Modal } from '../components/Modal.tsx'
import { Switch } from '../components/Switch.tsx'
import { BADGE, PILL } from '../components/colours.ts'
import { FOCUS_RING } from '../components/button-classes.ts'
import { useMediaQuery } from '../hooks/useMediaQuery.ts'
import { useView } from '../hooks/useView.ts'
import { useAlertConfigLoad, useAlertConfigToWorker } from '../alerts/useAlertConfig.ts'
import { coverageState } from './coverage-state.ts'
import { RunBadge } from './job-state.tsx'

/** A log to show: the dialog's title and lines. */
interface OpenLog {
  title: string
  lines: string[]
}

/** One column of a job table: its header and how a row fills it. */
interface Column<T> {
  label: string
  cell: (row: T) => ReactNode
}

/** The jobs view of the Backups tab. */
export function JobsPage() {
  useAlertConfigLoad()
  useAlertConfigToWorker()
  const { problemsOnly } = useSnapshot(coverageState)
  const model = useView({ kind: 'backupJobs', problemsOnly })
  const [log, setLog] = useState<OpenLog | null>(null)
  if (!model || !model.loaded) {
    return (
      <EmptyState
        live
        icon={<Loader2 className="size-8 animate-spin" aria-hidden />}
        title="Loading backup jobs..."
      />
    )
  }
  const run = (title: string) => (row: { lastRun: JobRunView | null }) => (
    <RunCell run={row.lastRun} onLog={(lines) => setLog({ title, lines })} />
  )
  return (
    <div className="flex flex-col gap-3 p-2 sm:p-3">
      <div className="flex items-center gap-2 text-sm">
        <Switch
          id="jobs-problems-only"
          checked={problemsOnly}
          onChange={(checked) => {
            coverageState.problemsOnly = checked
          }}
        />
        <label htmlFor="jobs-problems-only">Only failed and overdue jobs</label>
      </div>
      <Section title="PVE backup jobs" empty="No PVE backup jobs.">
        <JobTable
          label="PVE backup jobs"
          rows={model.pveJobs}
          columns={[
            { label: 'Instance', cell: (job) => job.instance },
            { label: 'Job', cell: (job) => <Named name={job.jobId} note={job.comment} /> },
            { label: 'Schedule', cell: (job) => job.schedule || '–' },
            { label: 'Storage', cell: (job) => job.storage },
            { label: 'Selection', cell: (job) => job.selection },
            { label: 'Enabled', cell: (job) => <Enabled on={job.enabled} /> },
            { label: 'Last run', cell: (job) => run(`Log of ${job.jobId}`)(job) },
            { label: 'Started', cell: (job) => job.lastRun?.startText ?? '' },
            { label: 'Duration', cell: (job) => job.lastRun?.durationText ?? '' },
            { label: 'Next run', cell: (job) => job.nextRunText },
          ]}
        />
      </Section>
      <Section title="PBS jobs" empty="No PBS jobs.">
        <JobTable
          label="PBS jobs"
          rows={model.pbsJobs}
          columns={[
            { label: 'PBS', cell: (job) => `${job.instance} · ${job.store}` },
            { label: 'Kind', cell: (job) => job.kindLabel },
            { label: 'Job', cell: (job) => <Named name={job.jobId} note={job.remote} /> },
            { label: 'Schedule', cell: (job) => job.schedule || '–' },
            {
              label: 'Last run',
              cell: (job) => run(`Log of ${job.kindLabel.toLowerCase()} job ${job.jobId}`)(job),
            },
            { label: 'Started', cell: (job) => job.lastRun?.startText ?? '' },
            { label: 'Duration', cell: (job) => job.lastRun?.durationText ?? '' },
            {
              label: 'Next run',
              cell: (job) => (
                <span className="inline-flex items-center gap-1">
                  {job.nextRunText}
                  {job.overdue && <span className={`${PILL} ${BADGE.orange}`}>overdue</span>}
                  {!job.enabled && <span className={`${PILL} ${BADGE.grey}`}>disabled</span>}
                </span>
              ),
            },
          ]}
        />
      </Section>
      <Section title="Failed backup tasks" empty="No failed backup task.">
        <JobTable
          label="Failed backup tasks"
          rows={model.failedTasks}
          columns={[
            { label: 'Instance', cell: (task) => `${task.instance} · ${task.node}` },
            { label: 'Guests', cell: (task) => task.guests },
            { label: 'Job', cell: (task) => task.jobId || '–' },
            { label: 'Storage', cell: (task) => task.storage },
            {
              label: 'Result',
              cell: (task) => (
                <RunCell
                  run={task.run}
                  onLog={(lines) => setLog({ title: `Log of the task on ${task.node}`, lines })}
                />
              ),
            },
            { label: 'Started', cell: (task) => task.run.startText },
            { label: 'Error', cell: (task) => <span title={task.error}>{task.error}</span> },
          ]}
        />
      </Section>
      {log && (
        <Modal title={log.title} onClose={() => setLog(null)} size="lg">
          {log.lines.length === 0 ? (
            <p className="text-sm text-gray-600 dark:text-gray-400">No log lines were read.</p>
          ) : (
            <pre
              tabIndex={0}
              className={`max-h-[60vh] overflow-auto rounded bg-gray-100 p-2 text-xs whitespace-pre-wrap dark:bg-gray-950 dark:text-gray-200 ${FOCUS_RING}`}
            >
              {log.lines.join('\n')}
            </pre>
          )}
        </Modal>
      )}
    </div>
  )
}

function Section(props: { title: string; empty: string; children: ReactNode }) {
  return (
    <section aria-label={props.title} className="flex flex-col gap-1">
      <h2 className="text-xs font-semibold text-gray-500 uppercase dark:text-gray-400">
        {props.title}
      </h2>
      {props.children}
    </section>
  )
}

function Named({ name, note }: { name: string; note: string }) {
  return (
    <span className="flex min-w-0 flex-col">
      <span className="truncate font-medium">{name}</span>
      {note && <span className="truncate text-gray-500 dark:text-gray-400">{note}</span>}
    </span>
  )
}

function Enabled({ on }: { on: boolean }) {
  return <span className={`${PILL} ${on ? BADGE.green : BADGE.grey}`}>{on ? 'yes' : 'no'}</span>
}

/** A run's badge, and for a failed (or warning) run with a log, the button that opens it. */
function RunCell(props: { run: JobRunView | null; onLog: (lines: string[]) => void }) {
  const { run, onLog } = props
  if (!run) return <span className="text-gray-400 dark:text-gray-500">never</span>
  const showLog = run.state === 'failed' || run.logTail.length > 0
  return (
    <span className="inline-flex items-center gap-1.5" title={run.status}>
      <RunBadge state={run.state} />
      {showLog && (
        <button
          type="button"
          onClick={() => onLog(run.logTail)}
          className={`inline-flex items-center gap-0.5 rounded text-xs text-blue-700 underline dark:text-blue-300 ${FOCUS_RING}`}
        >
          <AlertTriangle className="size-3" aria-hidden />
          Log
        </button>
      )}
    </span>
  )
}

/** A table on wide screens, a list of cards on phones. */
function JobTable<T extends { id: string }>(props: {
  label: string
  rows: readonly T[]
  columns: readonly Column<T>[]
}) {
  const { label, rows, columns } = props
  const wide = useMediaQuery('(min-width: 1024px)')
  if (rows.length === 0) {
    return (
      <p className="flex items-center gap-2 rounded-md border border-gray-200 bg-white p-3 text-sm text-gray-600 dark:border-gray-800 dark:bg-gray-900 dark:text-gray-400">
        <CalendarClock className="size-4" aria-hidden />
        None.
      </p>
    )
  }
  if (!wide) {
    return (
      <ul aria-label={label} className="flex flex-col gap-2">
        {rows.map((row) => (
          <li
            key={row.id}
            className="rounded-md border border-gray-200 bg-white p-2 text-xs dark:border-gray-800 dark:bg-gray-900"
          >
            <dl className="grid grid-cols-[7rem_1fr] gap-x-2 gap-y-0.5">
              {columns.map((column) => (
                <div key={column.label} className="contents">
                  <dt className="text-gray-500 dark:text-gray-400">{column.label}</dt>
                  <dd className="min-w-0 truncate">{column.cell(row)}</dd>
                </div>
              ))}
            </dl>
          </li>
        ))}
      </ul>
    )
  }
  return (
    <div className="overflow-x-auto rounded-md border border-gray-200 bg-white dark:border-gray-800 dark:bg-gray-900">
      <table aria-label={label} className="w-full text-left text-xs">
        <thead className="bg-gray-50 text-gray-600 dark:bg-gray-800 dark:text-gray-300">
          <tr>
            {columns.map((column) => (
              <th key={column.label} scope="col" className="px-2 py-1.5 font-medium">
                {column.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.id} className="border-t border-gray-100 dark:border-gray-800">
              {columns.map((column) => (
                <td key={column.label} className="max-w-64 truncate px-2 py-1.5">
                  {column.cell(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}
