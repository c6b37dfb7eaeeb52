import { ArrowDown, ArrowUp } from 'lucide-react'
import { useVirtualizer } from '@tanstack/react-virtual'
import { memo, useRef, useState, type KeyboardEvent, type MouseEvent, type ReactNode } from 'react'
import { useSnapshot } from 'valtio'
import type { Colour } from '../../shared/format/thresholds.ts'
import { nextNodeSummarySort } from '../../shared/views/node-summary.ts'
import type {
  NodeSummaryModel,
  NodeSummaryRow,
  NodeSummarySort,
  NodeSummarySortKey,
} from '../../shared/views/node-summary-types.ts'
import { FOCUS_RING } from '../components/button-classes.ts'
import { MetricBar } from '../components/MetricBar.tsx'
import { useView } from '../hooks/useView.ts'
import { uptimeClass } from '../lib/colours.ts'
import {
  getSelectedNode,
  nodeSelection,
  toggleNodeSelection,
  type SummaryTab,
} from './selection.ts'

interface Props {
  tab: SummaryTab
  /** Extra content from the same model (the dashboard's hidden node table). */
  children?: (model: NodeSummaryModel) => ReactNode
}

/** Spec 000 §9 node temperature colours; literal classes so Tailwind finds them. */
const TEMPERATURE_CLASS: Record<Colour, string> = {
  grey: 'text-gray-500 dark:text-gray-400',
  green: 'text-emerald-600 dark:text-emerald-400',
  yellow: 'text-amber-600 dark:text-amber-400',
  orange: 'text-orange-600 dark:text-orange-400',
  red: 'text-red-600 dark:text-red-400',
}

const PILL =
  'inline-flex shrink-0 items-center rounded px-1.5 py-px text-[10px] leading-4 font-medium'
const NUM = 'px-2 text-right tabular-nums'
// Table rows draw no box-shadow, so the row's focus ring is an inset outline.
const ROW_FOCUS =
  'focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-blue-500'
const DASH = <span className="text-gray-400 dark:text-gray-500">-</span>

/** Height of a node row (h-9), for the virtualiser. */
const NODE_ROW_HEIGHT = 36

/**
 * The node summary at the top of a tab (spec 000 §2.1): one row per node, sortable headers, and a
 * row click that selects the node (filtering the tab's view) and dims the others. Rows scroll
 * inside a capped box with a sticky header, so a thousand nodes never push the tab's own table
 * off screen, and only the rows in view are in the DOM (spacer rows stand for the others): a
 * thousand-row table made every keystroke and scroll step repaint it.
 */
export function NodeSummaryTable({ tab, children }: Props) {
  const [sort, setSort] = useState<NodeSummarySort>(null)
  const model = useView({ kind: 'nodeSummary', tab, sort })
  const selected = getSelectedNode(useSnapshot(nodeSelection), tab)
  const scrollRef = useRef<HTMLDivElement>(null)
  const virtualizer = useVirtualizer({
    count: model?.rows.length ?? 0,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => NODE_ROW_HEIGHT,
    overscan: 10,
    // Before the box is measured, render a screenful rather than nothing.
    initialRect: { width: 1200, height: 400 },
  })
  if (!model) return null
  const items = virtualizer.getVirtualItems()
  const padTop = items[0]?.start ?? 0
  const padBottom = Math.max(0, virtualizer.getTotalSize() - (items.at(-1)?.end ?? 0))
  const columnCount = 5 + (model.showTemperature ? 1 : 0) + model.countColumns.length
  const onSort = (key: NodeSummarySortKey) =>
    setSort((current) => nextNodeSummarySort(current, key))
  const header = (key: NodeSummarySortKey, label: string, align: 'left' | 'right' = 'left') => (
    <HeaderCell key={key} column={key} label={label} align={align} sort={sort} onSort={onSort} />
  )
  return (
    <>
      {model.rows.length > 0 && (
        <div
          ref={scrollRef}
          className="max-h-[min(28vh,22rem)] shrink-0 overflow-auto rounded-md border border-gray-200 bg-white [contain:content] dark:border-gray-800 dark:bg-gray-900"
        >
          <table
            aria-label="Nodes"
            aria-rowcount={model.rows.length + 1}
            className="w-full min-w-[760px] border-collapse text-sm"
          >
            <thead>
              <tr>
                {header('name', model.nameLabel)}
                {header('uptime', 'Uptime', 'right')}
                {header('cpu', 'CPU')}
                {header('memory', 'Memory')}
                {header('disk', model.diskLabel)}
                {model.showTemperature && header('temperature', 'Temp', 'right')}
                {model.countColumns.map((column) => header(column.key, column.label, 'right'))}
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
                  />
                )
              })}
              {padBottom > 0 && <SpacerRow height={padBottom} columns={columnCount} />}
            </tbody>
          </table>
        </div>
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
}

/** A sticky column header whose button sorts (click, Enter or Space). */
function HeaderCell({ column, label, align, sort, onSort }: HeaderProps) {
  const active = sort?.key === column
  const Arrow = sort?.direction === 'asc' ? ArrowUp : ArrowDown
  return (
    <th
      scope="col"
      aria-sort={active ? (sort.direction === 'asc' ? 'ascending' : 'descending') : 'none'}
      className={`sticky top-0 z-10 h-8 border-b border-gray-200 bg-gray-50 px-2 text-xs font-semibold whitespace-nowrap text-gray-600 uppercase dark:border-gray-700 dark:bg-gray-900 dark:text-gray-400 ${
        align === 'right' ? 'text-right' : 'text-left'
      }`}
    >
      <button
        type="button"
        onClick={() => onSort(column)}
        className={`inline-flex items-center gap-0.5 rounded px-0.5 tracking-wide uppercase hover:text-gray-900 dark:hover:text-gray-100 ${FOCUS_RING} ${
          active ? 'text-blue-700 dark:text-blue-300' : ''
        }`}
      >
        {label}
        {active && <Arrow className="size-3" aria-hidden />}
      </button>
    </th>
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
}

/** One node; offline rows are dimmed and show '-' (spec 000 §4 node health). */
const NodeRow = memo(function NodeRow({ tab, row, rowIndex, model, selected, dimmed }: RowProps) {
  const toggle = () => toggleNodeSelection(tab, row.id)
  const onClick = (event: MouseEvent<HTMLTableRowElement>) => {
    // The name link opens the node's web UI; it must not select the row too.
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
      <td className="px-2">
        <NameCell row={row} />
      </td>
      <td className={`${NUM} whitespace-nowrap ${uptimeClass(row.uptimeShort)}`}>
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
        <td className={NUM}>
          {row.temperatureColour ? (
            <span className={`font-medium ${TEMPERATURE_CLASS[row.temperatureColour]}`}>
              {row.temperatureText}
            </span>
          ) : (
            DASH
          )}
        </td>
      )}
      {model.countColumns.map((column) => (
        <td key={column.key} className={NUM}>
          {row.counts[column.key] ?? 0}
        </td>
      ))}
    </tr>
  )
})

/** Status dot, the name linking to the node's web UI, and the badges. */
function NameCell({ row }: { row: NodeSummaryRow }) {
  const { badges } = row
  return (
    <div className="flex min-w-0 items-center gap-1.5">
      <span
        role="img"
        aria-label={row.online ? 'online' : 'offline'}
        className={`size-2 shrink-0 rounded-full ${row.online ? 'bg-emerald-500' : 'bg-red-500'}`}
      />
      <a
        href={row.href}
        target="_blank"
        rel="noopener noreferrer"
        title={`Open ${row.name} web interface`}
        className={`truncate rounded font-medium text-gray-900 hover:text-blue-700 hover:underline dark:text-gray-100 dark:hover:text-blue-300 ${FOCUS_RING}`}
      >
        {row.name}
      </a>
      <span
        className={`${PILL} ${
          badges.type === 'PVE'
            ? 'bg-blue-100 text-blue-700 dark:bg-blue-500/15 dark:text-blue-300'
            : 'bg-violet-100 text-violet-700 dark:bg-violet-500/15 dark:text-violet-300'
        }`}
      >
        {badges.type}
      </span>
      {badges.version && (
        <span className={`${PILL} bg-gray-100 text-gray-600 dark:bg-gray-800 dark:text-gray-300`}>
          v{badges.version}
        </span>
      )}
      {badges.cluster && (
        <span
          className={`${PILL} bg-indigo-50 text-indigo-700 dark:bg-indigo-500/15 dark:text-indigo-300`}
        >
          {badges.cluster}
        </span>
      )}
      {badges.displayName && (
        <span
          className={`${PILL} truncate bg-gray-100 text-gray-500 italic dark:bg-gray-800 dark:text-gray-400`}
          title="Display name"
        >
          {badges.displayName}
        </span>
      )}
    </div>
  )
}

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
    <td className="w-32 min-w-28 px-2 text-center" title={title || undefined}>
      {percent >= 0 ? <MetricBar kind={kind} percent={percent} text={text} /> : DASH}
    </td>
  )
}
