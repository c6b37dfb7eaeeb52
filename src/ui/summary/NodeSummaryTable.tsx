import { useVirtualizer } from '@tanstack/react-virtual'
import {
  memo,
  useCallback,
  useRef,
  useState,
  useSyncExternalStore,
  type KeyboardEvent,
  type MouseEvent,
  type ReactNode,
} from 'react'
import { useSnapshot } from 'valtio'
import { nextNodeSummarySort } from '../../shared/views/node-summary.ts'
import type {
  NodeSummaryModel,
  NodeSummaryRow,
  NodeSummarySort,
  NodeSummarySortKey,
} from '../../shared/views/node-summary-types.ts'
import { SortableHeader } from '../components/SortableHeader.tsx'
import { UsageBar } from '../components/UsageBar.tsx'
import { useView } from '../hooks/useView.ts'
import { usePhone } from '../hooks/usePageScroller.ts'
import { TEXT, uptimeClass } from '../components/colours.ts'
import { TrendCell } from '../history/TrendCell.tsx'
import { useTrends } from '../history/useTrends.ts'
import { uiState } from '../state.ts'
import type { ChartSeriesData } from '../../shared/views/history-types.ts'
import {
  getSelectedNode,
  nodeSelection,
  toggleNodeSelection,
  type SummaryTab,
} from './selection.ts'
import { NameCell } from './NodeNameCell.tsx'
import { NodeHistory } from './NodeHistory.tsx'

interface Props {
  tab: SummaryTab
  /** Extra content from the same model (the dashboard's hidden node table). */
  children?: (model: NodeSummaryModel) => ReactNode
  /** More charts in a row's opened history (the Backups tab: a PBS's datastores). */
  historyExtra?: (row: NodeSummaryRow) => ReactNode
}

const NUM = 'px-1 text-right tabular-nums sm:px-2'
// Table rows draw no box-shadow, so the row's focus ring is an inset outline.
const ROW_FOCUS =
  'focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-blue-500'
/** Count columns that are partial while a first load is still bringing guests. */
const GUEST_COUNTS: ReadonlySet<string> = new Set(['vms', 'containers'])
const DASH = <span className="text-gray-400 dark:text-gray-500">-</span>

/** Height of a node row (h-9), for the virtualiser. */
const NODE_ROW_HEIGHT = 36
/** Header row (h-8) plus the box's two border pixels. */
const HEAD_HEIGHT = 34
/** The box shows at most this share of the window, in whole rows, and never fewer than 3 rows. */
const MAX_SHARE = 0.4
const MIN_ROWS = 3
const HIDE_ON_PHONE = 'hidden sm:table-cell'
/** Shorter column labels on a phone, so the summary fits 375 px without scrolling sideways. */
const PHONE_LABELS: Readonly<Record<string, string>> = {
  Memory: 'Mem',
  'Storage / Disk': 'Disk',
  Containers: 'LXCs',
  Storage: 'Pools',
}

/**
 * The node summary at the top of a tab (spec 000 §2.1): one row per node, sortable headers, and a
 * row click that selects the node (filtering the tab's view) and dims the others. Rows scroll
 * inside a capped box with a sticky header, so a thousand nodes never push the tab's own table
 * off screen, and only the rows in view are in the DOM (spacer rows stand for the others): a
 * thousand-row table made every keystroke and scroll step repaint it.
 */
export function NodeSummaryTable({ tab, children, historyExtra }: Props) {
  const [sort, setSort] = useState<NodeSummarySort>(null)
  // The node whose history is open below the box (one at a time), by id.
  const [historyOf, setHistoryOf] = useState<string | null>(null)
  const onHistory = useCallback(
    (id: string) => setHistoryOf((current) => (current === id ? null : id)),
    [],
  )
  const model = useView({ kind: 'nodeSummary', tab, sort })
  const selected = getSelectedNode(useSnapshot(nodeSelection), tab)
  const scrollRef = useRef<HTMLDivElement>(null)
  const maxRows = useMaxRows()
  const virtualizer = useVirtualizer({
    count: model?.rows.length ?? 0,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => NODE_ROW_HEIGHT,
    overscan: 10,
    // Before the box is measured, render a screenful rather than nothing.
    initialRect: { width: 1200, height: 400 },
  })
  const trendsOn = useSnapshot(uiState).trends
  const items = virtualizer.getVirtualItems()
  // The trend column asks for the nodes on screen only.
  const idsKey =
    trendsOn && model ? items.map((item) => model.rows[item.index]?.id ?? '').join('\n') : ''
  const trends = useTrends(idsKey, 'cpu', trendsOn)
  if (!model) return null
  const historyRow = historyOf ? model.rows.find((row) => row.id === historyOf) : undefined
  const padTop = items[0]?.start ?? 0
  const padBottom = Math.max(0, virtualizer.getTotalSize() - (items.at(-1)?.end ?? 0))
  const columnCount =
    5 + (model.showTemperature ? 1 : 0) + model.countColumns.length + (trendsOn ? 1 : 0)
  // Sized to its rows, up to a cap in whole rows: no row is cut in half at the bottom edge.
  const boxHeight = HEAD_HEIGHT + NODE_ROW_HEIGHT * Math.min(model.rows.length, maxRows)
  const onSort = (key: NodeSummarySortKey) =>
    setSort((current) => nextNodeSummarySort(current, key))
  const header = (
    key: NodeSummarySortKey,
    label: string,
    align: 'left' | 'right' = 'left',
    extra = '',
  ) => (
    <HeaderCell
      key={key}
      column={key}
      label={label}
      align={align}
      sort={sort}
      onSort={onSort}
      extra={extra}
    />
  )
  return (
    <>
      {model.rows.length > 0 && (
        <div
          ref={scrollRef}
          style={{ maxHeight: boxHeight }}
          className="shrink-0 overflow-auto rounded-md border border-gray-200 bg-white [contain:content] dark:border-gray-800 dark:bg-gray-900"
        >
          <table
            aria-label="Nodes"
            aria-rowcount={model.rows.length + 1}
            className="w-full border-collapse text-xs sm:min-w-[760px] sm:text-sm"
          >
            <thead>
              <tr>
                {header('name', model.nameLabel)}
                {header('uptime', 'Uptime', 'right', HIDE_ON_PHONE)}
                {header('cpu', 'CPU')}
                {header('memory', 'Memory')}
                {header('disk', model.diskLabel)}
                {model.showTemperature && header('temperature', 'Temp', 'right', HIDE_ON_PHONE)}
                {model.countColumns.map((column) => header(column.key, column.label, 'right'))}
                {trendsOn && (
                  <th
                    scope="col"
                    title="CPU over the last hour"
                    className={`sticky top-0 z-10 h-8 w-24 border-b border-gray-200 bg-gray-50 px-2 text-left text-xs font-semibold text-gray-600 uppercase dark:border-gray-700 dark:bg-gray-900 dark:text-gray-400 ${HIDE_ON_PHONE}`}
                  >
                    Trend
                  </th>
                )}
              </tr>
            </thead>
            <tbody>
              {padTop > 0 && <SpacerRow height={padTop} columns={columnCount} />}
              {items.map((item) => {
                const row = model.rows[item.index]!
                return (
                  <NodeRow
                    key={row.id}
                    tab={tab}
                    row={row}
                    rowIndex={item.index + 2}
                    model={model}
                    selected={selected === row.id}
                    dimmed={selected !== null && selected !== row.id}
                    trends={trendsOn}
                    trend={trends[row.id]}
                    historyOpen={historyOf === row.id}
                    onHistory={onHistory}
                  />
                )
              })}
              {padBottom > 0 && <SpacerRow height={padBottom} columns={columnCount} />}
            </tbody>
          </table>
        </div>
      )}
      {historyRow && (
        <NodeHistory row={historyRow} onClose={() => setHistoryOf(null)}>
          {historyExtra?.(historyRow)}
        </NodeHistory>
      )}
      {children?.(model)}
    </>
  )
}

interface HeaderProps {
  column: NodeSummarySortKey
  label: string
  align: 'left' | 'right'
  sort: NodeSummarySort
  onSort: (key: NodeSummarySortKey) => void
  /** More classes (columns hidden on a phone). */
  extra: string
}

/** A sticky column header whose button sorts; a shorter label on a phone. */
function HeaderCell({ column, label, align, sort, onSort, extra }: HeaderProps) {
  const short = usePhone() ? PHONE_LABELS[label] : undefined
  return (
    <SortableHeader
      as="th"
      label={label}
      display={short}
      active={sort?.key === column}
      direction={sort?.direction ?? 'desc'}
      onSort={() => onSort(column)}
      align={align}
      className={`sticky top-0 z-10 h-8 border-b border-gray-200 bg-gray-50 px-1 text-xs font-semibold whitespace-nowrap text-gray-600 uppercase sm:px-2 sm:tracking-wide dark:border-gray-700 dark:bg-gray-900 dark:text-gray-400 ${extra}`}
    />
  )
}

/** Stands for the rows scrolled out of view. */
function SpacerRow({ height, columns }: { height: number; columns: number }) {
  return (
    <tr aria-hidden="true" style={{ height }}>
      <td colSpan={columns} className="p-0" />
    </tr>
  )
}

interface RowProps {
  tab: SummaryTab
  row: NodeSummaryRow
  /** Position in the whole table (header = 1), for assistive technology. */
  rowIndex: number
  model: NodeSummaryModel
  selected: boolean
  dimmed: boolean
  /** The trend column is on; `trend` is the node's last hour of CPU, when loaded. */
  trends: boolean
  trend: ChartSeriesData | undefined
  historyOpen: boolean
  onHistory: (id: string) => void
}

/** One node; offline rows are dimmed and show '-' (spec 000 §4 node health). */
const NodeRow = memo(function NodeRow({
  tab,
  row,
  rowIndex,
  model,
  selected,
  dimmed,
  trends,
  trend,
  historyOpen,
  onHistory,
}: RowProps) {
  const toggle = () => toggleNodeSelection(tab, row.id)
  const onClick = (event: MouseEvent<HTMLTableRowElement>) => {
    // The external-link icon opens the node's web UI; it must not select the row too.
    if ((event.target as HTMLElement).closest('a, button')) return
    toggle()
  }
  const onKeyDown = (event: KeyboardEvent<HTMLTableRowElement>) => {
    if (event.target !== event.currentTarget) return
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault()
      toggle()
    }
  }
  const fade = dimmed ? 'opacity-40' : row.online ? '' : 'opacity-60'
  return (
    <tr
      tabIndex={0}
      aria-rowindex={rowIndex}
      aria-selected={selected}
      data-node-id={row.id}
      data-online={row.online}
      onClick={onClick}
      onKeyDown={onKeyDown}
      className={`h-9 cursor-pointer border-b border-gray-100 transition-opacity last:border-b-0 dark:border-gray-800/70 ${ROW_FOCUS} ${
        selected
          ? 'bg-blue-50 dark:bg-blue-500/15'
          : 'hover:bg-blue-50/60 dark:hover:bg-gray-800/60'
      } ${fade}`}
    >
      {/* On a phone the name takes what the numbers leave and truncates. */}
      <td className="px-2 max-sm:w-full max-sm:max-w-0">
        <NameCell row={row} selected={selected} historyOpen={historyOpen} onHistory={onHistory} />
      </td>
      <td className={`${NUM} whitespace-nowrap ${HIDE_ON_PHONE} ${uptimeClass(row.uptimeShort)}`}>
        {row.online ? row.uptimeText : DASH}
      </td>
      <MetricCell kind="cpu" percent={row.cpuPercent} text={row.cpuText} />
      <MetricCell
        kind="memory"
        percent={row.memoryPercent}
        text={row.memoryText}
        title={row.memoryDetail}
      />
      <MetricCell
        kind="disk"
        percent={row.diskPercent}
        text={row.diskText}
        title={row.diskDetail}
      />
      {model.showTemperature && (
        <td className={`${NUM} ${HIDE_ON_PHONE}`}>
          {row.temperatureColour ? (
            <span className={`font-medium ${TEXT[row.temperatureColour]}`}>
              {row.temperatureText}
            </span>
          ) : (
            DASH
          )}
        </td>
      )}
      {model.countColumns.map((column) =>
        model.guestsLoading && GUEST_COUNTS.has(column.key) ? (
          <td key={column.key} className={`${NUM} text-gray-400`} title="Guests still loading">
            …
          </td>
        ) : (
          <td key={column.key} className={NUM}>
            {row.counts[column.key] ?? 0}
          </td>
        ),
      )}
      {trends && (
        <td data-column="trend" className={`w-24 px-2 ${HIDE_ON_PHONE}`}>
          <TrendCell
            id={row.id}
            name={row.name}
            series={row.online ? trend : undefined}
            metricLabel="CPU"
          />
        </td>
      )}
    </tr>
  )
})

function MetricCell({
  kind,
  percent,
  text,
  title,
}: {
  kind: 'cpu' | 'memory' | 'disk'
  percent: number
  text: string
  title?: string
}) {
  return (
    <td
      className="min-w-12 px-1 text-center sm:w-32 sm:min-w-28 sm:px-2"
      title={title || undefined}
    >
      {percent >= 0 ? <UsageBar kind={kind} percent={percent} text={text} /> : DASH}
    </td>
  )
}

/** Rows the box may show: MAX_SHARE of the window's height in whole rows, at least MIN_ROWS. */
function useMaxRows(): number {
  const height = useSyncExternalStore(
    (onChange) => {
      window.addEventListener('resize', onChange)
      return () => window.removeEventListener('resize', onChange)
    },
    () => window.innerHeight,
    () => 800,
  )
  return Math.max(MIN_ROWS, Math.floor((height * MAX_SHARE - HEAD_HEIGHT) / NODE_ROW_HEIGHT))
}
