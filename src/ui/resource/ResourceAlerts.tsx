// A resource page's alerts (issue 25): the active ones (from the resource view) and the
// occurrences of the last 30 days (the worker's alert history view, filtered by resource id on
// the server), which the charts also draw as bands.
import { useMemo } from 'react'
import type { AlertHistoryModel, HistoryViewRow } from '../../shared/views/alert-history-types.ts'
import type { AlertsOverviewRow } from '../../shared/views/alerts-overview-types.ts'
import type { ChartBand } from '../components/Chart.tsx'
import { BADGE, PILL } from '../components/colours.ts'
import { useView } from '../hooks/useView.ts'
import { AckButton } from '../alerts/AckButton.tsx'
import { useAlertAck } from '../alerts/useAlertAck.ts'

/** Occurrences listed (and drawn as bands) at most. */
const HISTORY_ROWS = 200

/** The resource's alert history of the last 30 days and its occurrences as chart bands. */
export function useResourceAlertHistory(resourceId: string): {
  model: AlertHistoryModel | null
  bands: ChartBand[]
} {
  const model = useView({
    kind: 'alertHistory',
    range: '30d',
    severity: 'all',
    search: '',
    bucket: null,
    window: { start: 0, count: HISTORY_ROWS },
    reload: 0,
    resourceId,
  })
  const bands = useMemo(
    () => resourceAlertBands(model?.rows ?? [], Math.floor(Date.now() / 1000)),
    [model],
  )
  return { model, bands }
}

/** Every occurrence among `rows` as a chart band (unix s); one still active ends at `nowSec`. */
export function resourceAlertBands(rows: readonly HistoryViewRow[], nowSec: number): ChartBand[] {
  const out: ChartBand[] = []
  for (const row of rows) {
    if (row.kind !== 'alert' || row.startSec === null) continue
    out.push({
      start: row.startSec,
      end: row.endSec ?? nowSec,
      label: `${row.severityText}: ${row.message}`,
      level: row.level,
    })
  }
  return out
}

const LEVEL_BADGE = { critical: BADGE.red, warning: BADGE.yellow } as const

/** The active alerts of the resource, each with Acknowledge / Unacknowledge (issue 28). */
export function ActiveAlerts({ rows }: { rows: readonly AlertsOverviewRow[] }) {
  const { busy, toggle } = useAlertAck()
  return (
    <Section title="Active alerts" count={rows.length}>
      {rows.length === 0 ? (
        <Empty text="No active alerts." />
      ) : (
        <ul className="divide-y divide-gray-100 dark:divide-gray-800">
          {rows.map((row) => (
            <li key={row.id} className="flex flex-wrap items-baseline gap-x-2 gap-y-0.5 py-1.5">
              <span className={`${PILL} ${LEVEL_BADGE[row.level]}`}>{row.level}</span>
              <span className="min-w-0 flex-1">{row.message}</span>
              {row.valueText && (
                <span className="text-xs text-gray-500 tabular-nums dark:text-gray-400">
                  {row.valueText} / {row.thresholdText}
                </span>
              )}
              <span className="text-xs text-gray-500 dark:text-gray-400" title={row.startTime}>
                {row.sinceText}
              </span>
              {row.acknowledged && <span className={`${PILL} ${BADGE.grey}`}>Ack</span>}
              <AckButton row={row} busy={busy.get(row.id)} onToggle={toggle} />
            </li>
          ))}
        </ul>
      )}
    </Section>
  )
}

/** The resource's alert occurrences of the last 30 days, newest first. */
export function AlertHistory({ model }: { model: AlertHistoryModel | null }) {
  const rows = (model?.rows ?? []).filter((row) => row.kind === 'alert')
  return (
    <Section title="Alert history (30 days)" count={model?.loaded ? model.total : undefined}>
      {!model?.loaded ? (
        <Empty text={model?.error ?? 'Loading…'} />
      ) : rows.length === 0 ? (
        <Empty text="No alerts in the last 30 days." />
      ) : (
        <ul className="divide-y divide-gray-100 dark:divide-gray-800">
          {rows.map((row) => (
            <li key={row.key} className="flex flex-wrap items-baseline gap-x-2 gap-y-0.5 py-1.5">
              <span className="w-40 shrink-0 text-xs text-gray-500 tabular-nums dark:text-gray-400">
                {row.timestampTitle}
              </span>
              <span className={`${PILL} ${LEVEL_BADGE[row.level]}`}>{row.severityText}</span>
              <span className="min-w-0 flex-1">{row.message}</span>
              <span className="text-xs text-gray-500 tabular-nums dark:text-gray-400">
                {row.durationText} · {row.statusText}
              </span>
            </li>
          ))}
        </ul>
      )}
    </Section>
  )
}

function Section(props: { title: string; count?: number; children: React.ReactNode }) {
  return (
    <section
      aria-label={props.title}
      className="rounded-md border border-gray-200 bg-white p-3 text-sm dark:border-gray-800 dark:bg-gray-900"
    >
      <h2 className="mb-1 text-xs font-semibold text-gray-500 uppercase dark:text-gray-400">
        {props.title}
        {props.count !== undefined && <span className="ml-1.5 tabular-nums">{props.count}</span>}
      </h2>
      {props.children}
    </section>
  )
}

function Empty({ text }: { text: string }) {
  return <p className="text-gray-500 dark:text-gray-400">{text}</p>
}
