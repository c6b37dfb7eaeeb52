import { ChevronDown, ChevronRight } from 'lucide-react'
import { Fragment, useState, type KeyboardEvent } from 'react'
import type { StoragePoolRow, StorageViewModel } from '../../shared/views/storage-types.ts'
import { BADGE, PILL } from '../components/colours.ts'
import { CephPanel, cephHealthColour } from './CephPanel.tsx'
import { UsageWithForecast } from '../components/ForecastNote.tsx'
import { resourcePagePath } from '../../shared/model/history.ts'
import type { TrendData } from '../../shared/views/history-types.ts'
import { TrendCell } from '../history/TrendCell.tsx'
import { PageLink } from '../resource/PageLink.tsx'
import { useSnapshot } from 'valtio'
import { uiState } from '../state.ts'
import { useTrends } from '../history/useTrends.ts'
import { HistoryPanel } from '../history/HistoryPanel.tsx'
import { HistoryToggle } from '../history/HistoryToggle.tsx'

const TH =
  'h-8 border-b border-gray-200 bg-gray-50 px-2 text-left text-xs font-semibold whitespace-nowrap text-gray-600 uppercase dark:border-gray-700 dark:bg-gray-900 dark:text-gray-400'
const TD = 'px-2 py-1.5 align-middle'
const NUM = `${TD} text-right tabular-nums whitespace-nowrap`
// Table rows draw no box-shadow, so the row's focus ring is an inset outline.
const ROW_FOCUS =
  'focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-blue-500'

interface Props {
  model: StorageViewModel
  expanded: readonly string[]
  onToggle: (key: string) => void
}

/** The Storage Pools table (spec 000 §2.3): grouped under node rows, or one row per storage. */
export function PoolTable({ model, expanded, onToggle }: Props) {
  // The trend column (issue 25): the table draws every pool, so every pool is on screen.
  const trendsOn = useSnapshot(uiState).trends
  let idsKey = ''
  if (trendsOn)
    idsKey = model.rows.flatMap((r) => (r.kind === 'pool' && r.id ? [r.id] : [])).join('\n')
  const data = useTrends(idsKey, 'usage', trendsOn)
  const trends = trendsOn ? data : null
  const byNode = model.viewMode === 'node'
  const columns = (byNode ? 8 : 7) + (trends ? 1 : 0)
  // Rows whose history is open (issue 25), by row key; not saved, unlike the Ceph panels.
  const [history, setHistory] = useState<ReadonlySet<string>>(new Set())
  const onHistory = (key: string) =>
    setHistory((open) => {
      const next = new Set(open)
      if (!next.delete(key)) next.add(key)
      return next
    })
  return (
    <div className="min-h-60 overflow-auto rounded-md border border-gray-200 bg-white dark:border-gray-800 dark:bg-gray-900">
      <table aria-label="Storage pools" className="w-full min-w-[760px] border-collapse text-sm">
        <thead className="sticky top-0 z-10">
          <tr>
            <th scope="col" className={TH}>
              Storage
            </th>
            <th scope="col" className={TH}>
              Type
            </th>
            <th scope="col" className={TH}>
              Content
            </th>
            <th scope="col" className={TH}>
              Status
            </th>
            {byNode && (
              <th scope="col" className={TH}>
                Shared
              </th>
            )}
            <th scope="col" className={`${TH} w-48`}>
              Usage
            </th>
            <th scope="col" className={`${TH} text-right`}>
              Free
            </th>
            <th scope="col" className={`${TH} text-right`}>
              Total
            </th>
            {trends && (
              <th scope="col" className={`${TH} w-24`} title="Usage over the last hour">
                Trend
              </th>
            )}
          </tr>
        </thead>
        <tbody>
          {model.rows.map((row) =>
            row.kind === 'group' ? (
              <tr key={row.key} data-kind="group" className="bg-gray-100/70 dark:bg-gray-800/60">
                <th
                  scope="colgroup"
                  colSpan={columns}
                  className="px-2 py-1 text-left text-xs font-semibold text-gray-700 dark:text-gray-200"
                >
                  {row.label}
                  <span className="ml-2 font-normal text-gray-500 dark:text-gray-400">
                    {row.count} {row.count === 1 ? 'storage' : 'storages'}
                  </span>
                </th>
              </tr>
            ) : (
              <Fragment key={row.key}>
                <PoolRow
                  row={row}
                  byNode={byNode}
                  open={expanded.includes(row.key)}
                  onToggle={onToggle}
                  trends={trends}
                  historyOpen={history.has(row.key)}
                  onHistory={onHistory}
                />
                {row.ceph && expanded.includes(row.key) && (
                  <tr data-kind="ceph-detail">
                    <td colSpan={columns} className="px-2 pb-2">
                      <CephPanel ceph={row.ceph} />
                    </td>
                  </tr>
                )}
                {history.has(row.key) && (
                  <tr data-kind="storage-history">
                    <td colSpan={columns} className="px-2 pb-2">
                      <HistoryPanel
                        resourceId={row.id}
                        kind="storage"
                        title={poolTitle(row)}
                        compact
                      />
                    </td>
                  </tr>
                )}
              </Fragment>
            ),
          )}
        </tbody>
      </table>
    </div>
  )
}

interface RowProps {
  row: StoragePoolRow
  byNode: boolean
  open: boolean
  onToggle: (key: string) => void
  trends: TrendData | null
  historyOpen: boolean
  onHistory: (key: string) => void
}

/** 'local on pve1': a pool's name with its node(s), for labels. */
function poolTitle(row: StoragePoolRow): string {
  return row.node ? `${row.name} on ${row.node}` : row.name
}

/** One pool; a Ceph row toggles its panel on click, Enter or Space. */
function PoolRow({ row, byNode, open, onToggle, trends, historyOpen, onHistory }: RowProps) {
  const expandable = row.ceph !== null
  const Chevron = open ? ChevronDown : ChevronRight
  const onKeyDown = (event: KeyboardEvent<HTMLTableRowElement>) => {
    if (!expandable || event.target !== event.currentTarget) return
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault()
      onToggle(row.key)
    }
  }
  return (
    <tr
      data-kind="pool"
      data-storage={row.name}
      tabIndex={expandable ? 0 : undefined}
      aria-expanded={expandable ? open : undefined}
      onClick={expandable ? () => onToggle(row.key) : undefined}
      onKeyDown={onKeyDown}
      className={`border-b border-gray-100 dark:border-gray-800 ${ROW_FOCUS} ${
        expandable ? 'cursor-pointer hover:bg-gray-50 dark:hover:bg-gray-800/60' : ''
      } ${row.available ? '' : 'opacity-60'}`}
    >
      <td className={TD}>
        <div className="flex items-center gap-1.5">
          {expandable && <Chevron className="size-3.5 shrink-0 text-gray-400" aria-hidden />}
          <span className="font-medium">{row.name}</span>
          <HistoryToggle
            name={poolTitle(row)}
            open={historyOpen}
            onToggle={() => onHistory(row.key)}
          />
          {row.id && (
            <PageLink
              href={resourcePagePath('storage', row.id)}
              label={`Open the page of ${poolTitle(row)}`}
            />
          )}
          {row.zfsErrors && (
            <span
              className={`${PILL} ${BADGE.red}`}
              title={`${row.zfsErrors.state}: ${row.zfsErrors.readErrors} read, ${row.zfsErrors.writeErrors} write, ${row.zfsErrors.checksumErrors} checksum errors`}
            >
              ERRORS
            </span>
          )}
          {row.ceph?.derived === false && (
            <span className={`${PILL} ${BADGE[cephHealthColour(row.ceph.health)]}`}>
              {row.ceph.health}
            </span>
          )}
        </div>
        {!byNode && <div className="text-xs text-gray-500 dark:text-gray-400">{row.node}</div>}
      </td>
      <td className={`${TD} whitespace-nowrap`}>{row.type}</td>
      <td className={`${TD} text-xs text-gray-600 dark:text-gray-400`}>{row.content || '-'}</td>
      <td className={TD}>
        <span className={`${PILL} ${row.available ? BADGE.green : BADGE.grey}`}>{row.status}</span>
      </td>
      {byNode && <td className={`${TD} text-xs`}>{row.shared ? 'Yes' : 'No'}</td>}
      <td className={TD}>
        {row.total > 0 ? <UsageWithForecast row={row} /> : <span className="text-gray-400">-</span>}
      </td>
      <td className={NUM}>{row.freeText}</td>
      <td className={NUM}>{row.totalText}</td>
      {trends && (
        <td data-column="trend" className={`${TD} w-24`}>
          <TrendCell id={row.id} name={row.name} series={trends[row.id]} metricLabel="Usage" />
        </td>
      )}
    </tr>
  )
}
