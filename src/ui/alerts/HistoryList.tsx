import { notesLabel } from '../../shared/views/alert-notes.ts'
import { memo, type KeyboardEvent } from 'react'
import type {
  AlertHistoryModel,
  HistoryAlertRow,
  HistoryDayRow,
} from '../../shared/views/alert-history-types.ts'
import type { ViewWindow } from '../../shared/views/guest-view-types.ts'
import { FOCUS_RING } from '../components/button-classes.ts'
import { useWindowedList } from '../hooks/useWindowedList.ts'

const ROW_HEIGHT = 32
const CARD_HEIGHT = 84

/** Spec 001 §2 history columns. */
const COLUMNS = [
  { label: 'Timestamp', width: 'w-24' },
  { label: 'Resource', width: 'w-40' },
  { label: 'Type', width: 'w-20' },
  { label: 'Severity', width: 'w-20' },
  { label: 'Message', width: 'min-w-60 flex-1' },
  { label: 'Duration', width: 'w-20 text-right' },
  { label: 'Status', width: 'w-48' },
  { label: 'Node', width: 'w-28' },
] as const

const SEVERITY_BADGE: Record<HistoryAlertRow['level'], string> = {
  critical: 'bg-red-100 text-red-800 dark:bg-red-900/40 dark:text-red-300',
  warning: 'bg-amber-100 text-amber-800 dark:bg-amber-900/40 dark:text-amber-300',
}
const STATUS_TEXT: Record<HistoryAlertRow['status'], string> = {
  active: 'text-red-700 dark:text-red-400',
  acknowledged: 'text-blue-700 dark:text-blue-400',
  resolved: 'text-emerald-700 dark:text-emerald-400',
}

interface Props {
  model: AlertHistoryModel
  viewWindow: ViewWindow
  onWindowChange: (window: ViewWindow) => void
  /** Changes with the filters; scrolls back to the top. */
  resetKey: string
  /** The occurrence whose chart is shown (issue 25), by row key. */
  selectedKey: string | null
  /** A click, Enter or Space on an occurrence picks it (again: unpicks it). */
  onSelect: (row: HistoryAlertRow) => void
}

/** The history grouped by day: a table on large screens, cards on phones; only sent rows render. */
export function HistoryList({
  model,
  viewWindow,
  onWindowChange,
  resetKey,
  selectedKey,
  onSelect,
}: Props) {
  const { wide, scrollRef, scroller, virtualizer, items } = useWindowedList({
    rowCount: model.rowCount,
    estimateSize: (index, wide) =>
      wide || model.rows[index - model.start]?.kind === 'day' ? ROW_HEIGHT : CARD_HEIGHT,
    viewWindow,
    onWindowChange,
    resetKey,
  })

  return (
    <div
      ref={scrollRef}
      role="table"
      aria-label="Alert history"
      aria-rowcount={model.rowCount + 1}
      aria-busy={model.loading}
      tabIndex={0}
      className={`${scroller.paged ? 'shrink-0' : 'max-h-[calc(100dvh-18rem)] min-h-64 overflow-auto'} rounded-md border border-gray-200 bg-white transition-opacity dark:border-gray-800 dark:bg-gray-900 ${FOCUS_RING} ${model.loading ? 'opacity-50' : ''}`}
    >
      <div className={wide ? 'min-w-[1000px]' : undefined}>
        {wide && (
          <div
            role="row"
            className="sticky top-0 z-10 flex h-8 items-center border-b border-gray-200 bg-gray-50 text-xs font-medium text-gray-600 dark:border-gray-800 dark:bg-gray-800 dark:text-gray-300"
          >
            {COLUMNS.map((column) => (
              <div
                key={column.label}
                role="columnheader"
                className={`${column.width} shrink-0 px-2`}
              >
                {column.label}
              </div>
            ))}
          </div>
        )}
        <div role="rowgroup" className="relative" style={{ height: virtualizer.getTotalSize() }}>
          {items.map((item) => {
            const row = model.rows[item.index - model.start]
            const style = { top: item.start - scroller.offset, height: item.size }
            if (!row) {
              return (
                <div key={item.index} role="row" className="absolute inset-x-0" style={style} />
              )
            }
            if (row.kind === 'day') return <DayRow key={row.key} row={row} style={style} />
            const Row = wide ? TableRow : CardRow
            return (
              <Row
                key={row.key}
                row={row}
                style={style}
                selected={row.key === selectedKey}
                onSelect={onSelect}
              />
            )
          })}
        </div>
      </div>
    </div>
  )
}

interface RowProps<R> {
  row: R
  style: { top: number; height: number }
}

interface AlertRowProps extends RowProps<HistoryAlertRow> {
  selected: boolean
  onSelect: (row: HistoryAlertRow) => void
}

/** An occurrence row picks itself on click, Enter or Space (its chart shows above the list). */
function pickable({ row, selected, onSelect }: AlertRowProps) {
  return {
    tabIndex: 0,
    'aria-selected': selected,
    onClick: () => onSelect(row),
    onKeyDown: (event: KeyboardEvent<HTMLDivElement>) => {
      if (event.key !== 'Enter' && event.key !== ' ') return
      event.preventDefault()
      onSelect(row)
    },
  }
}

const PICKED = 'bg-blue-50 dark:bg-blue-500/15'
const ROW_FOCUS =
  'cursor-pointer focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-blue-500'

const DayRow = memo(function DayRow({ row, style }: RowProps<HistoryDayRow>) {
  return (
    <div
      role="row"
      data-kind="day"
      className="absolute inset-x-0 flex items-center gap-2 border-b border-gray-200 bg-gray-100/80 px-2 text-xs font-semibold text-gray-700 dark:border-gray-800 dark:bg-gray-800/60 dark:text-gray-200"
      style={style}
    >
      <span role="cell">{row.label}</span>
      <span className="font-normal text-gray-500 tabular-nums dark:text-gray-400">{row.count}</span>
    </div>
  )
})

function Severity({ row }: { row: HistoryAlertRow }) {
  return (
    <span
      className={`rounded px-1.5 py-px text-[10px] font-medium ${SEVERITY_BADGE[row.level]}`}
      title="Highest level this occurrence reached"
    >
      {row.severityText}
    </span>
  )
}

const TableRow = memo(function TableRow(props: AlertRowProps) {
  const { row, style, selected } = props
  const cell = 'shrink-0 truncate px-2'
  return (
    <div
      role="row"
      data-kind="alert"
      {...pickable(props)}
      className={`absolute inset-x-0 flex items-center border-b border-gray-100 text-xs text-gray-800 dark:border-gray-800 dark:text-gray-100 ${ROW_FOCUS} ${selected ? PICKED : 'hover:bg-gray-50 dark:hover:bg-gray-800/50'}`}
      style={style}
    >
      <span role="cell" className={`${cell} w-24 tabular-nums`} title={row.timestampTitle}>
        {row.timestampText}
      </span>
      <span role="cell" className={`${cell} w-40`} title={row.resource}>
        {row.resource}
      </span>
      <span role="cell" className={`${cell} w-20`}>
        {row.resourceTypeText}
      </span>
      <span role="cell" className={`${cell} w-20`}>
        <Severity row={row} />
      </span>
      <span
        role="cell"
        className={`${cell} min-w-60 flex-1`}
        title={`${row.alertType}: ${row.message}`}
      >
        {row.message}
        <NotesPill row={row} />
      </span>
      <span role="cell" className={`${cell} w-20 text-right tabular-nums`}>
        {row.durationText}
      </span>
      <span role="cell" className={`${cell} w-48 ${STATUS_TEXT[row.status]}`}>
        {row.statusText}
      </span>
      <span role="cell" className={`${cell} w-28`}>
        {row.node}
      </span>
    </div>
  )
})

const CardRow = memo(function CardRow(props: AlertRowProps) {
  const { row, style, selected } = props
  return (
    <div
      role="row"
      data-kind="alert"
      {...pickable(props)}
      className={`absolute inset-x-0 flex flex-col gap-0.5 border-b border-gray-100 px-3 py-2 text-xs text-gray-800 dark:border-gray-800 dark:text-gray-100 ${ROW_FOCUS} ${selected ? PICKED : ''}`}
      style={style}
    >
      <div className="flex items-center gap-2">
        <span role="cell" className="min-w-0 flex-1 truncate font-medium">
          {row.resource}
          <span className="ml-1 font-normal text-gray-500 dark:text-gray-400">
            {row.resourceTypeText} · {row.node}
          </span>
        </span>
        <span role="cell">
          <Severity row={row} />
        </span>
      </div>
      <span role="cell" className="truncate" title={row.message}>
        {row.message}
        <NotesPill row={row} />
      </span>
      <div className="flex gap-3 text-gray-500 tabular-nums dark:text-gray-400">
        <span role="cell" title={row.timestampTitle}>
          {row.timestampText}
        </span>
        <span role="cell">{row.durationText}</span>
        <span role="cell" className={STATUS_TEXT[row.status]}>
          {row.statusText}
        </span>
      </div>
    </div>
  )
})

/** How many notes an occurrence has (issue 28); the last one as its tooltip. Picking the row shows them. */
function NotesPill({ row }: { row: HistoryAlertRow }) {
  const last = row.notes.at(-1)
  if (!last) return null
  return (
    <span
      className="ml-2 rounded bg-blue-100 px-1.5 py-0.5 text-[11px] font-medium text-blue-800 dark:bg-blue-950 dark:text-blue-200"
      title={`${last.author}: ${last.text}`}
    >
      {notesLabel(row.notes.length)}
    </span>
  )
}
