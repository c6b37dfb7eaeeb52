// The coverage list (issue 26 item 5): a table on large screens, cards on small ones; only the
// rows the worker sent render, the rest are empty rows of the right height.
import { memo } from 'react'
import type {
  BackupCoverageModel,
  CoverageRow,
  CoverageSortKey,
} from '../../shared/views/backup-coverage-types.ts'
import type { SortDirection, ViewWindow } from '../../shared/views/guest-view-types.ts'
import { FOCUS_RING } from '../components/button-classes.ts'
import { BADGE, PILL, TEXT } from '../components/colours.ts'
import { HeaderRow, type ListColumn } from '../components/HeaderRow.tsx'
import { useWindowedList } from '../hooks/useWindowedList.ts'
import { RunBadge } from './job-state.tsx'

const ROW_HEIGHT = 32
const CARD_HEIGHT = 84

const COLUMNS: ListColumn<CoverageSortKey>[] = [
  { label: 'Name', key: 'name', width: 'w-48' },
  { label: 'VMID', key: 'vmid', width: 'w-20' },
  { label: 'Node', key: 'node', width: 'w-28' },
  { label: 'Newest backup', key: 'newest', width: 'w-36' },
  { label: 'Age', key: null, width: 'w-24' },
  { label: 'Source', key: null, width: 'w-14' },
  { label: 'Location', key: null, width: 'w-40' },
  { label: 'Size', key: 'size', width: 'w-20', right: true },
  { label: 'Last job', key: 'lastJob', width: 'w-24' },
  { label: 'Coverage', key: 'coverage', width: 'flex-1 min-w-32' },
]

const COVERAGE_BADGE: Record<CoverageRow['coverage'], string> = {
  enabled: BADGE.green,
  disabled: BADGE.orange,
  none: BADGE.red,
  unknown: BADGE.grey,
}

interface Props {
  model: BackupCoverageModel
  sort: { key: CoverageSortKey; direction: SortDirection }
  onSort: (key: CoverageSortKey) => void
  viewWindow: ViewWindow
  onWindowChange: (window: ViewWindow) => void
  resetKey: string
}

/** The coverage rows, worst first unless a header sorts them otherwise. */
export function CoverageList({ model, sort, onSort, viewWindow, onWindowChange, resetKey }: Props) {
  const { wide, scrollRef, scroller, virtualizer, items } = useWindowedList({
    rowCount: model.rowCount,
    estimateSize: (_index, wide) => (wide ? ROW_HEIGHT : CARD_HEIGHT),
    viewWindow,
    onWindowChange,
    resetKey,
  })

  return (
    <div
      ref={scrollRef}
      role="table"
      aria-label="Backup coverage"
      aria-rowcount={model.rowCount + 1}
      tabIndex={0}
      className={`${scroller.paged ? 'shrink-0' : 'min-h-64 flex-1 overflow-auto'} rounded-md border border-gray-200 bg-white dark:border-gray-800 dark:bg-gray-900 ${FOCUS_RING}`}
    >
      <div className={wide ? 'min-w-[1100px]' : undefined}>
        {wide && <HeaderRow columns={COLUMNS} sort={sort} onSort={onSort} />}
        <div role="rowgroup" className="relative" style={{ height: virtualizer.getTotalSize() }}>
          {items.map((item) => {
            const row = model.rows[item.index - model.start]
            const style = { top: item.start - scroller.offset, height: item.size }
            if (!row) {
              return (
                <div key={item.index} role="row" className="absolute inset-x-0" style={style} />
              )
            }
            const Row = wide ? TableRow : CardRow
            return <Row key={row.id} row={row} style={style} />
          })}
        </div>
      </div>
    </div>
  )
}

interface RowProps {
  row: CoverageRow
  style: { top: number; height: number }
}

function NameCell({ row }: { row: CoverageRow }) {
  return (
    <span className="flex min-w-0 items-center gap-1.5">
      <span className="truncate font-medium text-gray-900 dark:text-gray-100" title={row.name}>
        {row.name}
      </span>
      {row.template && <span className={`${PILL} ${BADGE.grey}`}>template</span>}
      {row.orphaned && <span className={`${PILL} ${BADGE.orange}`}>orphaned</span>}
      {row.verifyFailed > 0 && (
        <span className={`${PILL} ${BADGE.red}`}>{row.verifyFailed} verify failed</span>
      )}
    </span>
  )
}

function AgeText({ row }: { row: CoverageRow }) {
  return (
    <span className={`tabular-nums ${TEXT[row.ageColour]}`} data-overdue={row.overdue ?? undefined}>
      {row.ageText}
      {row.overdue && <span className="sr-only"> (overdue: {row.overdue})</span>}
    </span>
  )
}

function LastJob({ row }: { row: CoverageRow }) {
  if (!row.lastJob) return <span className="text-gray-400 dark:text-gray-500">none</span>
  return (
    <span title={[row.lastJob.timeText, row.lastJob.error].filter(Boolean).join(': ')}>
      <RunBadge state={row.lastJob.state} />
    </span>
  )
}

function Coverage({ row }: { row: CoverageRow }) {
  if (!row.coverageLabel) return null
  return <span className={`${PILL} ${COVERAGE_BADGE[row.coverage]}`}>{row.coverageLabel}</span>
}

const TableRow = memo(function TableRow({ row, style }: RowProps) {
  const cell = (index: number) => `${COLUMNS[index]!.width} shrink-0 truncate px-2`
  return (
    <div
      role="row"
      data-id={row.id}
      className="absolute inset-x-0 flex items-center border-b border-gray-100 text-xs dark:border-gray-800"
      style={style}
    >
      <div role="cell" className={cell(0)}>
        <NameCell row={row} />
      </div>
      <div role="cell" className={`${cell(1)} tabular-nums`}>
        {row.typeLabel} {row.vmid}
      </div>
      <div role="cell" className={cell(2)}>
        {row.node}
      </div>
      <div role="cell" className={`${cell(3)} tabular-nums`}>
        {row.newestText}
      </div>
      <div role="cell" className={cell(4)}>
        <AgeText row={row} />
      </div>
      <div role="cell" className={cell(5)}>
        {row.sourceLabel}
      </div>
      <div role="cell" className={cell(6)} title={row.location}>
        {row.location}
      </div>
      <div role="cell" className={`${cell(7)} text-right tabular-nums`}>
        {row.sizeText}
      </div>
      <div role="cell" className={cell(8)}>
        <LastJob row={row} />
      </div>
      <div role="cell" className={cell(9)}>
        <Coverage row={row} />
      </div>
    </div>
  )
})

const CardRow = memo(function CardRow({ row, style }: RowProps) {
  return (
    <div
      role="row"
      data-id={row.id}
      className="absolute inset-x-0 border-b border-gray-100 px-3 py-2 text-xs dark:border-gray-800"
      style={style}
    >
      <div role="cell" className="flex items-center gap-2">
        <span className="shrink-0 text-gray-500 tabular-nums dark:text-gray-400">
          {row.typeLabel} {row.vmid}
        </span>
        <NameCell row={row} />
        <span className="ml-auto shrink-0">
          <AgeText row={row} />
        </span>
      </div>
      <div role="cell" className="mt-1 flex items-center gap-2 text-gray-600 dark:text-gray-400">
        <span className="truncate">
          {[row.node, row.sourceLabel, row.location].filter(Boolean).join(' · ')}
        </span>
        <span className="ml-auto shrink-0 tabular-nums">{row.sizeText}</span>
      </div>
      <div role="cell" className="mt-1 flex items-center gap-2">
        <LastJob row={row} />
        <Coverage row={row} />
        {row.lastJob?.error && (
          <span className="truncate text-red-700 dark:text-red-300">{row.lastJob.error}</span>
        )}
      </div>
    </div>
  )
})
