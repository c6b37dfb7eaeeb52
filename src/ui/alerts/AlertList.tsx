import { useVirtualizer } from '@tanstack/react-virtual'
import { MessageSquare } from 'lucide-react'
import { notesLabel } from '../../shared/views/alert-notes.ts'
import { memo, useRef } from 'react'
import type {
  AlertsOverviewModel,
  AlertsOverviewRow,
} from '../../shared/views/alerts-overview-types.ts'
import type { ViewWindow } from '../../shared/views/guest-view-types.ts'
import { BADGE, PILL } from '../components/colours.ts'
import { BUTTON, FOCUS_RING } from '../components/button-classes.ts'
import { useListScroller, usePhone } from '../hooks/usePageScroller.ts'
import { useViewWindow } from '../hooks/useViewWindow.ts'
import { useRole } from '../auth/useRole.ts'
import { AckButton } from './AckButton.tsx'
import type { AckPhase } from './useAlertAck.ts'

/** Row heights: one line of columns on wide screens, a small card on phones. */
const ROW_HEIGHT = 52
const CARD_HEIGHT = 96

const COLUMNS = ['Select', 'Level', 'Resource', 'Message', 'Started', 'Action'] as const

interface Props {
  model: AlertsOverviewModel
  viewWindow: ViewWindow
  onWindowChange: (window: ViewWindow) => void
  /** The phase of each clicked button (useAlertAck). */
  busy: ReadonlyMap<string, AckPhase>
  onToggle: (alertId: string, acknowledged: boolean) => void
  /** Open the silence dialog for this alert (issue 28). */
  onSilence: (row: AlertsOverviewRow) => void
  /** Open the notes of this alert (issue 28). */
  onNotes: (row: AlertsOverviewRow) => void
  /** Issue 28 bulk: is this alert selected; pick or drop it; pick all matching or none. */
  isSelected: (id: string) => boolean
  onSelect: (id: string) => void
  allSelected: boolean
  onSelectAll: (all: boolean) => void
}

/** The active alerts, virtualised: only the rows the worker sent are rendered. */
export function AlertList({
  model,
  viewWindow,
  onWindowChange,
  busy,
  onToggle,
  onSilence,
  onNotes,
  isSelected,
  onSelect,
  allSelected,
  onSelectAll,
}: Props) {
  const phone = usePhone()
  // A viewer reads the alerts and their notes; selecting, silencing and acknowledging need an
  // operator (issue 29 item 6).
  const operate = useRole().can('operator')
  const scrollRef = useRef<HTMLDivElement>(null)
  const height = phone ? CARD_HEIGHT : ROW_HEIGHT
  const scroller = useListScroller(scrollRef, phone, phone ? 0 : 32)
  const virtualizer = useVirtualizer({
    count: model.rowCount,
    getScrollElement: scroller.getScrollElement,
    estimateSize: () => height,
    overscan: 8,
    initialRect: { width: 1000, height: 500 },
    scrollMargin: scroller.offset,
  })
  const items = virtualizer.getVirtualItems()
  useViewWindow(items[0]?.index, items.at(-1)?.index, viewWindow, onWindowChange)

  return (
    <div
      ref={scrollRef}
      role="table"
      aria-label="Active alerts"
      aria-rowcount={model.rowCount + 1}
      tabIndex={0}
      className={`${
        scroller.paged ? '' : 'max-h-[65vh] overflow-auto'
      } rounded-md border border-gray-200 bg-white dark:border-gray-800 dark:bg-gray-900 ${FOCUS_RING}`}
    >
      <div
        role="row"
        aria-rowindex={1}
        className={`${phone ? 'sr-only' : 'sticky top-0 z-10 flex h-8'} items-center gap-3 border-b border-gray-200 bg-gray-50 px-3 text-xs font-medium text-gray-600 dark:border-gray-800 dark:bg-gray-800 dark:text-gray-300`}
      >
        {COLUMNS.map((label) => (
          <div key={label} role="columnheader" className={COLUMN_CLASS[label]}>
            {label === 'Select' && !operate ? (
              <span className="sr-only">{label}</span>
            ) : label === 'Select' && !phone ? (
              <input
                type="checkbox"
                className={CHECKBOX}
                aria-label={`Select all ${model.rowCount.toLocaleString('en')} matching alerts`}
                checked={allSelected}
                onChange={(event) => onSelectAll(event.target.checked)}
              />
            ) : (
              label
            )}
          </div>
        ))}
      </div>
      <div role="rowgroup" className="relative" style={{ height: virtualizer.getTotalSize() }}>
        {items.map((item) => {
          const row = model.rows[item.index - model.start]
          const style = { height, transform: `translateY(${item.start - scroller.offset}px)` }
          if (!row) {
            return (
              <div
                key={item.index}
                role="row"
                aria-rowindex={item.index + 2}
                aria-busy
                className="absolute inset-x-0 top-0 border-b border-gray-100 dark:border-gray-800"
                style={style}
              />
            )
          }
          return (
            <AlertRowView
              key={row.id}
              row={row}
              rowIndex={item.index + 2}
              phone={phone}
              style={style}
              busy={busy.get(row.id)}
              onToggle={onToggle}
              onSilence={onSilence}
              onNotes={onNotes}
              selected={isSelected(row.id)}
              onSelect={onSelect}
              operate={operate}
            />
          )
        })}
      </div>
    </div>
  )
}

const CHECKBOX = `size-4 rounded border-gray-300 accent-blue-600 ${FOCUS_RING}`

const COLUMN_CLASS: Record<(typeof COLUMNS)[number], string> = {
  Select: 'w-5 shrink-0 flex items-center',
  Level: 'w-20 shrink-0',
  Resource: 'w-48 shrink-0 min-w-0',
  Message: 'min-w-0 flex-1',
  Started: 'w-36 shrink-0',
  Action: 'w-60 shrink-0 flex justify-end gap-1.5',
}

const LEVEL_BADGE = { critical: BADGE.red, warning: BADGE.yellow } as const

interface RowProps {
  row: AlertsOverviewRow
  rowIndex: number
  phone: boolean
  style: { height: number; transform: string }
  busy: AckPhase | undefined
  onToggle: (alertId: string, acknowledged: boolean) => void
  onSilence: (row: AlertsOverviewRow) => void
  onNotes: (row: AlertsOverviewRow) => void
  selected: boolean
  onSelect: (id: string) => void
  /** The user may select, silence and acknowledge (operator). */
  operate: boolean
}

const AlertRowView = memo(function AlertRowView({
  row,
  rowIndex,
  phone,
  style,
  busy,
  onToggle,
  onSilence,
  onNotes,
  selected,
  onSelect,
  operate,
}: RowProps) {
  const noteCount = row.notes.length
  const last = row.notes.at(-1)
  const notes = (
    <button
      type="button"
      aria-label={`Notes on ${row.resourceName}: ${row.message}${noteCount ? ` (${notesLabel(noteCount)})` : ''}`}
      title={last ? `${last.author}: ${last.text}` : operate ? 'Add a note' : 'Notes'}
      onClick={() => onNotes(row)}
      className={`${BUTTON.secondary} px-1.5 py-1 text-xs`}
    >
      <MessageSquare className="size-3.5" aria-hidden />
      {noteCount > 0 && <span className="tabular-nums">{noteCount}</span>}
    </button>
  )
  const select = operate && (
    <input
      type="checkbox"
      className={CHECKBOX}
      aria-label={`Select ${row.resourceName}: ${row.message}`}
      checked={selected}
      onChange={() => onSelect(row.id)}
    />
  )
  const level = <span className={`${PILL} ${LEVEL_BADGE[row.level]} uppercase`}>{row.level}</span>
  const markers = (
    <>
      {row.acknowledged && (
        <span className={`${PILL} ${BADGE.grey}`} title={ackTitle(row)}>
          Ack
        </span>
      )}
      {row.stale && (
        <span className={`${PILL} ${BADGE.orange}`} title="The source stopped answering">
          Stale
        </span>
      )}
      {row.flapping && (
        <span className={`${PILL} ${BADGE.orange}`} title="Changing state too often">
          Flapping
        </span>
      )}
      {row.silenceId && (
        <span
          className={`${PILL} ${BADGE.yellow}`}
          title="A silence covers this alert: no notification goes out for it"
        >
          Silenced · {row.silencedText}
        </span>
      )}
    </>
  )
  const resource = (
    <>
      <span className="truncate font-medium text-gray-900 dark:text-gray-100">
        {row.resourceName}
      </span>
      <span className="truncate text-xs text-gray-500 dark:text-gray-400">{row.node}</span>
    </>
  )
  const started = (
    <span title={row.startTime} className="text-xs text-gray-600 tabular-nums dark:text-gray-400">
      {row.sinceText}
    </span>
  )
  const button = <AckButton row={row} busy={busy} onToggle={onToggle} />
  const silence = operate && (
    <button
      type="button"
      aria-label={`Silence ${row.resourceName}: ${row.message}`}
      onClick={() => onSilence(row)}
      className={`${BUTTON.secondary} px-2 py-1 text-xs`}
    >
      Silence
    </button>
  )
  const tint = row.acknowledged
    ? 'opacity-70'
    : row.level === 'critical'
      ? 'bg-red-50/60 dark:bg-red-950/30'
      : 'bg-amber-50/60 dark:bg-amber-950/20'
  const base = `absolute inset-x-0 top-0 border-b border-gray-100 px-3 text-sm dark:border-gray-800 ${selected ? 'bg-blue-50 dark:bg-blue-950/60' : tint}`

  if (phone) {
    return (
      <div
        role="row"
        aria-rowindex={rowIndex}
        data-alert-id={row.id}
        className={`${base} flex flex-col justify-center gap-1 py-2`}
        style={style}
      >
        <div role="cell" className="flex items-center gap-2">
          {select}
          {level}
          {markers}
          <span className="ml-auto">{started}</span>
        </div>
        <div role="cell" className="flex min-w-0 items-baseline gap-2">
          {resource}
        </div>
        <div role="cell" className="flex min-w-0 items-center gap-2">
          <span className="min-w-0 flex-1 truncate text-xs">{row.message}</span>
          {notes}
          {silence}
          {button}
        </div>
      </div>
    )
  }
  return (
    <div
      role="row"
      aria-rowindex={rowIndex}
      data-alert-id={row.id}
      className={`${base} flex items-center gap-3`}
      style={style}
    >
      <div role="cell" className={COLUMN_CLASS.Select}>
        {select}
      </div>
      <div role="cell" className={`${COLUMN_CLASS.Level} flex flex-col items-start gap-0.5`}>
        {level}
      </div>
      <div role="cell" className={`${COLUMN_CLASS.Resource} flex flex-col`}>
        {resource}
      </div>
      <div role="cell" className={`${COLUMN_CLASS.Message} flex items-center gap-2`}>
        <span className="truncate" title={row.message}>
          {row.message}
        </span>
        {markers}
      </div>
      <div role="cell" className={COLUMN_CLASS.Started}>
        {started}
      </div>
      <div role="cell" className={COLUMN_CLASS.Action}>
        {notes}
        {silence}
        {button}
      </div>
    </div>
  )
})

function ackTitle(row: AlertsOverviewRow): string {
  if (row.pending) return 'Acknowledging…'
  const by = row.ackUser ? ` by ${row.ackUser}` : ''
  return row.ackTime ? `Acknowledged${by} at ${row.ackTime}` : `Acknowledged${by}`
}
