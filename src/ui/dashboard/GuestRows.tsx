import { memo } from 'react'
import type { GuestGroupRow, GuestRow } from '../../shared/views/guest-view-types.ts'
import { MetricBar } from '../components/MetricBar.tsx'
import { ioClass, uptimeClass } from '../lib/colours.ts'
import { GRID_COLUMNS } from './columns.ts'

const ROW = 'absolute top-0 left-0 grid h-9 w-full items-center gap-x-2 px-3 text-sm'

/** Grid tracks and vertical position of a virtual row. */
const place = (top: number) => ({
  gridTemplateColumns: GRID_COLUMNS,
  transform: `translateY(${top}px)`,
})
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

/** One guest; inactive guests are dimmed with '-' in place of live values (spec 000 §4). */
export const GuestRowView = memo(function GuestRowView({
  row,
  rowIndex,
  top,
}: {
  row: GuestRow
  rowIndex: number
  top: number
}) {
  const on = row.active
  return (
    <div
      role="row"
      aria-rowindex={rowIndex}
      data-kind="guest"
      data-active={on}
      className={`${ROW} border-b border-gray-100 hover:bg-blue-50/60 dark:border-gray-800/70 dark:hover:bg-gray-800/60 ${on ? '' : 'opacity-50'}`}
      style={place(top)}
    >
      <div role="cell" className="truncate font-medium" title={row.name}>
        {row.name}
      </div>
      <div role="cell">
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
      <div role="cell" className={NUM}>
        {row.vmid}
      </div>
      <div role="cell" className={`${NUM} ${on ? uptimeClass(row.uptimeShort) : ''}`}>
        {on ? row.uptimeText : DASH}
      </div>
      <div role="cell" data-column="cpu" className="text-center">
        {on ? <MetricBar kind="cpu" percent={row.cpuPercent} text={row.cpuText} /> : DASH}
      </div>
      <div role="cell" className="text-center">
        {on ? <MetricBar kind="memory" percent={row.memoryPercent} text={row.memoryText} /> : DASH}
      </div>
      <div
        role="cell"
        className="text-center"
        title={on && row.diskPercent < 0 ? 'Disk stats unavailable' : undefined}
      >
        {on && row.diskPercent >= 0 ? (
          <MetricBar kind="disk" percent={row.diskPercent} text={row.diskText} />
        ) : (
          DASH
        )}
      </div>
      <IoCell on={on} value={row.diskRead} text={row.diskReadText} />
      <IoCell on={on} value={row.diskWrite} text={row.diskWriteText} />
      <IoCell on={on} value={row.networkIn} text={row.networkInText} />
      <IoCell on={on} value={row.networkOut} text={row.networkOutText} />
    </div>
  )
})

function IoCell({ on, value, text }: { on: boolean; value: number; text: string }) {
  return (
    <div role="cell" className={`${NUM} text-xs ${on ? ioClass(value) : ''}`}>
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
