import { Lock, ShieldCheck, ShieldAlert } from 'lucide-react'
import { memo } from 'react'
import type {
  BackupRow,
  BackupSortKey,
  BackupsViewModel,
  BackupViewRow,
} from '../../shared/views/backups-types.ts'
import type { SortDirection, ViewWindow } from '../../shared/views/guest-view-types.ts'
import { FOCUS_RING } from '../components/button-classes.ts'
import { HeaderRow, type ListColumn } from '../components/HeaderRow.tsx'
import { TEXT } from '../components/colours.ts'
import { ageClass, formatBackupAge, formatBackupTime } from './backup-time.ts'
import { useWindowedList } from '../hooks/useWindowedList.ts'

/** Windows snap to this many rows so small scrolls do not each cost a worker round trip. */
const ROW_HEIGHT = 32
const CARD_HEIGHT = 92

/** Columns of spec 000 §2.4 with the sort key a header click sets (Details has none). */
const COLUMNS: ListColumn<BackupSortKey>[] = [
  { label: 'VMID', title: 'VMID/Host', key: 'vmid', width: 'w-28' },
  { label: 'Type', key: 'type', width: 'w-16' },
  { label: 'Name', key: 'name', width: 'w-44' },
  { label: 'Node', key: 'node', width: 'w-28' },
  { label: 'Owner', key: 'owner', width: 'w-28' },
  { label: 'Time', key: 'backupTime', width: 'w-36' },
  { label: 'Size', key: 'size', width: 'w-20', right: true },
  { label: 'Backup', key: 'backupType', width: 'w-20' },
  { label: 'Location', key: 'storage', width: 'w-36' },
  { label: 'Verified', key: 'verified', width: 'w-20' },
  { label: 'Details', key: null, width: 'flex-1 min-w-40' },
]

const CLASS_BADGE: Record<BackupRow['backupType'], string> = {
  snapshot: 'bg-yellow-100 text-yellow-800 dark:bg-yellow-900/40 dark:text-yellow-300',
  local: 'bg-orange-100 text-orange-800 dark:bg-orange-900/40 dark:text-orange-300',
  remote: 'bg-violet-100 text-violet-800 dark:bg-violet-900/40 dark:text-violet-300',
}

interface Props {
  model: BackupsViewModel
  /** The filters changed and the worker has not answered yet: the rows are the old ones. */
  updating: boolean
  sort: { key: BackupSortKey; direction: SortDirection }
  onSort: (key: BackupSortKey) => void
  relative: boolean
  viewWindow: ViewWindow
  onWindowChange: (window: ViewWindow) => void
  /** Changes when filters or sort change; scrolls back to the top. */
  resetKey: string
}

/** The backup list: a table on large screens, cards on small ones; only the sent rows render. */
export function BackupsList(props: Props) {
  const { model, updating, sort, onSort, relative, viewWindow, onWindowChange, resetKey } = props
  const { wide, scrollRef, scroller, virtualizer, items } = useWindowedList({
    rowCount: model.rowCount,
    // Group headers are one table row high in both layouts.
    estimateSize: (index, wide) => (isHeaderAt(model, index) || wide ? ROW_HEIGHT : CARD_HEIGHT),
    viewWindow,
    onWindowChange,
    resetKey,
  })
  const now = Date.now()

  return (
    <div
      ref={scrollRef}
      role="table"
      aria-label="Backups"
      aria-rowcount={model.rowCount + 1}
      aria-busy={updating}
      tabIndex={0}
      className={`${scroller.paged ? 'shrink-0' : 'min-h-64 flex-1 overflow-auto'} rounded-md border border-gray-200 bg-white transition-opacity dark:border-gray-800 dark:bg-gray-900 ${FOCUS_RING} ${updating ? 'opacity-50' : ''}`}
    >
      <div className={wide ? 'min-w-[1200px]' : undefined}>
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
            if (row.kind === 'group') return <GroupRow key={item.index} row={row} style={style} />
            return wide ? (
              <TableRow key={item.index} row={row} style={style} relative={relative} now={now} />
            ) : (
              <CardRow key={item.index} row={row} style={style} relative={relative} now={now} />
            )
          })}
        </div>
      </div>
    </div>
  )
}

function isHeaderAt(model: BackupsViewModel, index: number): boolean {
  return model.rows[index - model.start]?.kind === 'group'
}

interface RowProps {
  row: BackupRow
  style: { top: number; height: number }
  relative: boolean
  now: number
}

const GroupRow = memo(function GroupRow(props: {
  row: Extract<BackupViewRow, { kind: 'group' }>
  style: { top: number; height: number }
}) {
  return (
    <div
      role="row"
      data-kind="group"
      className="absolute inset-x-0 flex items-center gap-2 border-b border-gray-200 bg-gray-100/80 px-2 text-xs font-semibold text-gray-700 dark:border-gray-800 dark:bg-gray-800/60 dark:text-gray-200"
      style={props.style}
    >
      <span role="cell">{props.row.label}</span>
      <span className="font-normal text-gray-500 tabular-nums dark:text-gray-400">
        {props.row.count}
      </span>
    </div>
  )
})

function TimeText({ row, relative, now }: Omit<RowProps, 'style'>) {
  return (
    <span className={ageClass(row.backupTime, now)} title={formatBackupTime(row.backupTime)}>
      {relative ? formatBackupAge(row.backupTime, now) : formatBackupTime(row.backupTime)}
    </span>
  )
}

function Flags({ row }: { row: BackupRow }) {
  return (
    <span className="inline-flex items-center gap-1">
      {row.verified ? (
        <ShieldCheck className="size-4 text-emerald-600" aria-label="Verified" />
      ) : (
        <ShieldAlert className="size-4 text-gray-400" aria-label="Not verified" />
      )}
      {row.protected && <Lock className="size-3.5 text-blue-600" aria-label="Protected" />}
      {row.encrypted && (
        <span className="text-[10px] font-semibold text-violet-600" aria-label="Encrypted">
          ENC
        </span>
      )}
    </span>
  )
}

const TableRow = memo(function TableRow({ row, style, relative, now }: RowProps) {
  const cell = 'shrink-0 truncate px-2'
  return (
    <div
      role="row"
      data-kind="backup"
      data-vmid={row.vmid}
      data-class={row.backupType}
      className="absolute inset-x-0 flex items-center border-b border-gray-100 text-xs text-gray-800 hover:bg-gray-50 dark:border-gray-800 dark:text-gray-100 dark:hover:bg-gray-800/50"
      style={style}
    >
      <span role="cell" className={`${cell} w-28 tabular-nums`}>
        {row.vmid}
      </span>
      <span role="cell" className={`${cell} w-16`}>
        {row.type}
      </span>
      <span role="cell" className={`${cell} w-44`} title={row.name}>
        {row.name || '-'}
      </span>
      <span role="cell" className={`${cell} w-28`}>
        {row.node}
      </span>
      <span role="cell" className={`${cell} w-28`}>
        {row.owner || '-'}
      </span>
      <span role="cell" className={`${cell} w-36 tabular-nums`}>
        <TimeText row={row} relative={relative} now={now} />
      </span>
      <span role="cell" className={`${cell} w-20 text-right tabular-nums ${TEXT[row.sizeColour]}`}>
        {row.sizeText}
      </span>
      <span role="cell" className={`${cell} w-20`}>
        <span
          className={`rounded px-1.5 py-px text-[10px] font-medium ${CLASS_BADGE[row.backupType]}`}
        >
          {row.classLabel}
        </span>
      </span>
      <span role="cell" className={`${cell} w-36`} title={row.location}>
        {row.location || '-'}
      </span>
      <span role="cell" className={`${cell} w-20`}>
        <Flags row={row} />
      </span>
      <span
        role="cell"
        className="min-w-40 flex-1 truncate px-2"
        title={row.detailsFull || row.backupNameFull}
      >
        {row.details || row.backupName}
      </span>
    </div>
  )
})

const CardRow = memo(function CardRow({ row, style, relative, now }: RowProps) {
  return (
    <div
      role="row"
      data-kind="backup"
      data-vmid={row.vmid}
      data-class={row.backupType}
      className="absolute inset-x-0 border-b border-gray-100 px-3 py-2 text-xs dark:border-gray-800"
      style={style}
    >
      <div role="cell" className="flex items-center gap-2">
        <span
          className={`rounded px-1.5 py-px text-[10px] font-medium ${CLASS_BADGE[row.backupType]}`}
        >
          {row.classLabel}
        </span>
        <span className="font-medium text-gray-900 tabular-nums dark:text-gray-100">
          {row.type} {row.vmid}
        </span>
        <span className="truncate text-gray-700 dark:text-gray-300">{row.name}</span>
        <span className="ml-auto">
          <Flags row={row} />
        </span>
      </div>
      <div role="cell" className="mt-1 flex items-center gap-2 text-gray-600 dark:text-gray-400">
        <TimeText row={row} relative={relative} now={now} />
        <span className={`tabular-nums ${TEXT[row.sizeColour]}`}>{row.sizeText}</span>
        <span className="truncate">
          {row.node} · {row.location}
        </span>
      </div>
      <div
        role="cell"
        className="mt-1 truncate text-gray-500 dark:text-gray-400"
        title={row.detailsFull}
      >
        {row.details || row.backupName}
      </div>
    </div>
  )
})
