import { ChevronRight } from 'lucide-react'
import { memo } from 'react'
import { resourcePagePath } from '../../shared/model/history.ts'
import type { GuestGroupRow, GuestRow } from '../../shared/views/guest-view-types.ts'
import { FOCUS_RING } from '../components/button-classes.ts'
import { UsageBar } from '../components/UsageBar.tsx'
import { ioClass, uptimeClass } from '../components/colours.ts'
import { GRID_CLASS, PHONE_ORDER } from './columns.ts'
import { GuestDetailPanel } from './GuestDetailPanel.tsx'
import { TagDots } from './TagDots.tsx'
import type { ChartSeriesData } from '../../shared/views/history-types.ts'
import { TrendCell } from '../history/TrendCell.tsx'

const ROW = `absolute top-0 left-0 ${GRID_CLASS} grid h-9 w-full items-center gap-x-2 px-3 text-sm`

/** Vertical position of a virtual row. */
const place = (top: number) => ({ transform: `translateY(${top}px)` })
const NUM = 'text-right tabular-nums'
const DASH = <span className="text-gray-400 dark:text-gray-500">-</span>

/** A node header row in grouped mode. */
export const GroupRowView = memo(function GroupRowView({
  row,
  rowIndex,
  top,
}: {
  row: GuestGroupRow
  rowIndex: number
  top: number
}) {
  return (
    <div
      role="row"
      aria-rowindex={rowIndex}
      data-kind="group"
      className={`${ROW} border-b border-gray-200 bg-gray-100 dark:border-gray-800 dark:bg-gray-800/70`}
      style={place(top)}
    >
      <div role="cell" aria-colspan={11} className="col-span-full flex items-center gap-2">
        <span
          className={`size-2 rounded-full ${row.online ? 'bg-emerald-500' : 'bg-red-500'}`}
          aria-label={row.online ? 'online' : 'offline'}
          role="img"
        />
        <span className={`font-semibold ${row.online ? '' : 'opacity-60'}`}>{row.label}</span>
        {row.sublabel && (
          <span className="text-xs text-gray-500 dark:text-gray-400">{row.sublabel}</span>
        )}
        <span className="ml-auto text-xs text-gray-500 tabular-nums dark:text-gray-400">
          {row.guestCount} {row.guestCount === 1 ? 'guest' : 'guests'}
        </span>
      </div>
    </div>
  )
})

const GUEST_ROW = `${GRID_CLASS} grid h-9 w-full items-center gap-x-2 border-b border-gray-100 px-3 text-sm dark:border-gray-800/70`

/** Row tints of spec 000 §4 alert row styling: a background plus an inset left bar. */
const ALERT_CLASS = {
  critical:
    'bg-red-50 shadow-[inset_3px_0_0_0_var(--color-red-500)] hover:bg-red-100 dark:bg-red-950/50 dark:hover:bg-red-900/50',
  warning:
    'bg-amber-50 shadow-[inset_3px_0_0_0_var(--color-amber-400)] hover:bg-amber-100 dark:bg-amber-950/40 dark:hover:bg-amber-900/40',
  none: 'hover:bg-blue-50/60 dark:hover:bg-gray-800/60',
} as const

/** Clicks on these never toggle the row (spec 000 §2.2: not a link, button or tag). */
const NO_TOGGLE = 'a, button, input, select, textarea, [data-no-expand]'

export interface GuestRowProps {
  row: GuestRow
  /** aria-rowindex (the header is row 1). */
  rowIndex: number
  /** The virtualiser's index, read back by its `measureElement`. */
  index: number
  top: number
  expanded: boolean
  /** An http(s) URL from the guest's metadata; the name links to it. */
  customUrl: string | undefined
  onToggle: (key: string) => void
  onTag: (tag: string) => void
  /** The virtualiser's measuring ref; attached only while expanded, collapsed rows use the estimate. */
  measure: (element: HTMLElement | null) => void
  /** The trend column is on (issue 25); `trend` is the row's last hour of CPU, when loaded. */
  trends?: boolean
  trend?: ChartSeriesData
}

/** One guest; inactive guests are dimmed with '-' in place of live values (spec 000 §4). */
export const GuestRowView = memo(function GuestRowView({
  row,
  rowIndex,
  index,
  top,
  expanded,
  customUrl,
  onToggle,
  onTag,
  measure,
  trends = false,
  trend,
}: GuestRowProps) {
  const on = row.active
  const expandable = row.detail !== null
  const open = expandable && expanded
  const panelId = `guest-detail-${index}`
  const tint =
    row.alert === 'critical' || row.alert === 'warning' ? ALERT_CLASS[row.alert] : ALERT_CLASS.none
  return (
    <div
      data-index={index}
      ref={open ? measure : undefined}
      className="absolute top-0 left-0 w-full"
      style={{ transform: `translateY(${top}px)` }}
    >
      <div
        role="row"
        aria-rowindex={rowIndex}
        aria-expanded={expandable ? open : undefined}
        aria-controls={open ? panelId : undefined}
        tabIndex={expandable ? 0 : undefined}
        data-kind="guest"
        data-key={row.key}
        data-active={on}
        data-alert={row.alert ?? undefined}
        className={`${GUEST_ROW} ${tint} ${expandable ? 'cursor-pointer' : ''} ${on ? '' : 'opacity-50'} ${FOCUS_RING}`}
        onClick={
          expandable
            ? (event) => {
                if ((event.target as Element).closest(NO_TOGGLE)) return
                onToggle(row.key)
              }
            : undefined
        }
        onKeyDown={
          expandable
            ? (event) => {
                if (event.target !== event.currentTarget) return
                if (event.key !== 'Enter' && event.key !== ' ') return
                event.preventDefault()
                onToggle(row.key)
              }
            : undefined
        }
      >
        <NameCell row={row} open={open} customUrl={customUrl} onTag={onTag} />
        <div role="cell" className={PHONE_ORDER.type}>
          <span
            className={`rounded px-1.5 py-0.5 text-[11px] font-medium ${
              row.typeLabel === 'VM'
                ? 'bg-blue-100 text-blue-700 dark:bg-blue-500/15 dark:text-blue-300'
                : 'bg-green-100 text-green-700 dark:bg-green-500/15 dark:text-green-300'
            }`}
          >
            {row.typeLabel}
          </span>
        </div>
        <div role="cell" className={`${NUM} ${PHONE_ORDER.vmid}`}>
          {row.vmid}
        </div>
        <div
          role="cell"
          className={`${NUM} ${PHONE_ORDER.uptime} ${on ? uptimeClass(row.uptimeShort) : ''}`}
        >
          {on ? row.uptimeText : DASH}
        </div>
        <div role="cell" data-column="cpu" className={`text-center ${PHONE_ORDER.cpu}`}>
          {on ? <UsageBar kind="cpu" percent={row.cpuPercent} text={row.cpuText} /> : DASH}
        </div>
        <div role="cell" className={`text-center ${PHONE_ORDER.memory}`}>
          {on ? <UsageBar kind="memory" percent={row.memoryPercent} text={row.memoryText} /> : DASH}
        </div>
        <div
          role="cell"
          data-column="disk"
          className={`text-center ${PHONE_ORDER.disk}`}
          title={
            on && row.diskPercent < 0 ? (row.diskReason ?? 'Disk stats unavailable') : undefined
          }
        >
          {on && row.diskPercent >= 0 ? (
            <UsageBar kind="disk" percent={row.diskPercent} text={row.diskText} />
          ) : (
            DASH
          )}
        </div>
        <IoCell on={on} value={row.diskRead} text={row.diskReadText} order={PHONE_ORDER.diskRead} />
        <IoCell
          on={on}
          value={row.diskWrite}
          text={row.diskWriteText}
          order={PHONE_ORDER.diskWrite}
        />
        <IoCell
          on={on}
          value={row.networkIn}
          text={row.networkInText}
          order={PHONE_ORDER.networkIn}
        />
        <IoCell
          on={on}
          value={row.networkOut}
          text={row.networkOutText}
          order={PHONE_ORDER.networkOut}
        />
        {trends && (
          <div role="cell" data-column="trend" className={`min-w-0 ${PHONE_ORDER.disk}`}>
            <TrendCell
              id={row.id}
              name={row.name}
              series={on ? trend : undefined}
              metricLabel="CPU"
            />
          </div>
        )}
      </div>
      {open && row.detail && (
        <div
          role="row"
          data-kind="guest-detail"
          className="border-b border-gray-200 bg-gray-50 dark:border-gray-800 dark:bg-gray-950/60"
        >
          <div role="cell" aria-colspan={11}>
            <GuestDetailPanel
              id={panelId}
              resourceId={row.id}
              name={row.name}
              detail={row.detail}
              active={on}
              pageHref={resourcePagePath('guest', row.id)}
            />
          </div>
        </div>
      )}
    </div>
  )
})

function NameCell({
  row,
  open,
  customUrl,
  onTag,
}: {
  row: GuestRow
  open: boolean
  customUrl: string | undefined
  onTag: (tag: string) => void
}) {
  return (
    <div role="cell" className="flex min-w-0 items-center gap-1.5">
      {row.detail ? (
        <ChevronRight
          aria-hidden
          className={`size-3 shrink-0 text-gray-400 transition-transform ${open ? 'rotate-90' : ''}`}
        />
      ) : (
        <span className="w-3 shrink-0" />
      )}
      {customUrl ? (
        <a
          href={customUrl}
          target="_blank"
          rel="noopener noreferrer"
          title={`${row.name} (${customUrl})`}
          className={`truncate font-medium text-blue-700 hover:underline dark:text-blue-300 ${FOCUS_RING}`}
        >
          {row.name}
        </a>
      ) : (
        <span className="truncate font-medium" title={row.name}>
          {row.name}
        </span>
      )}
      <TagDots tags={row.tags} onTag={onTag} />
      {row.alert === 'acknowledged' && (
        <span
          title="All alerts acknowledged"
          className="shrink-0 rounded-full bg-gray-200 px-1.5 text-[10px] leading-4 font-medium text-gray-700 dark:bg-gray-700 dark:text-gray-200"
        >
          Ack
        </span>
      )}
    </div>
  )
}

function IoCell({
  on,
  value,
  text,
  order,
}: {
  on: boolean
  value: number
  text: string
  /** Position on a phone (PHONE_ORDER). */
  order: string
}) {
  return (
    <div role="cell" className={`${NUM} ${order} text-xs ${on ? ioClass(value) : ''}`}>
      {on ? text : DASH}
    </div>
  )
}

/** Stand-in while the worker has not yet sent the rows of a newly scrolled-to window. */
export function PendingRow({ rowIndex, top }: { rowIndex: number; top: number }) {
  return (
    <div role="row" aria-rowindex={rowIndex} aria-busy="true" className={ROW} style={place(top)}>
      <div role="cell" className="col-span-full">
        <div className="h-3 w-1/3 animate-pulse rounded bg-gray-200 dark:bg-gray-800" />
      </div>
    </div>
  )
}
