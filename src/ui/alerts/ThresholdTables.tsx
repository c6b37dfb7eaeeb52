import { useVirtualizer } from '@tanstack/react-virtual'
import { useCallback, useEffect, useRef, useState } from 'react'
import { useSnapshot } from 'valtio'
import type { AlertMetric } from '../../shared/model/alerts.ts'
import {
  SECTION_COLUMNS,
  type AlertThresholdsViewModel,
  type ThresholdSection,
} from '../../shared/views/alert-thresholds-types.ts'
import type { ViewWindow } from '../../shared/views/guest-view-types.ts'
import { FOCUS_RING } from '../components/button-classes.ts'
import { useView } from '../hooks/useView.ts'
import { useViewWindow } from '../hooks/useViewWindow.ts'
import { thresholdEditState, type ThresholdEdit } from './threshold-edit-state.ts'
import { METRIC_LABELS } from './threshold-labels.ts'
import {
  THRESHOLD_ROW_HEIGHT,
  ThresholdGroupRow,
  ThresholdRowView,
  gridTemplate,
  type RowToggles,
} from './ThresholdRow.tsx'

/** Nodes, PBS servers and storage come whole (hundreds, at most a few thousand rows). */
const SMALL_WINDOW: ViewWindow = { start: 0, count: 10_000 }
const FIRST_GUEST_WINDOW: ViewWindow = { start: 0, count: 40 }

/** Spec 001 §2 tables, with the toggles §4 gives each. */
export const SECTION_INFO: Readonly<
  Record<ThresholdSection, { title: string; empty: string; toggles: RowToggles }>
> = {
  nodes: {
    title: 'Proxmox Nodes',
    empty: 'No nodes',
    toggles: { disable: false, connectivity: true, backups: null },
  },
  pbs: {
    title: 'PBS Servers',
    empty: 'No PBS servers',
    toggles: { disable: true, connectivity: true, backups: 'pbs' },
  },
  guests: {
    title: 'VMs & Containers',
    empty: 'No guests',
    toggles: { disable: true, connectivity: true, backups: 'guest' },
  },
  storage: {
    title: 'Storage Devices',
    empty: 'No storage',
    toggles: { disable: true, connectivity: false, backups: null },
  },
}

function TableHeader({ columns }: { columns: readonly AlertMetric[] }) {
  const cell = 'text-xs font-semibold text-gray-600 dark:text-gray-300'
  return (
    <div role="rowgroup" className="sticky top-0 z-10 bg-gray-50 dark:bg-gray-800">
      <div
        role="row"
        aria-rowindex={1}
        style={gridTemplate(columns.length)}
        className="grid h-9 items-center gap-x-2 border-b border-gray-200 px-3 dark:border-gray-700"
      >
        <div role="columnheader" className={cell}>
          Resource
        </div>
        <div role="columnheader" className={cell}>
          Type
        </div>
        <div role="columnheader" className={cell}>
          Status
        </div>
        {columns.map((metric) => (
          <div role="columnheader" key={metric} className={`${cell} text-right`}>
            {METRIC_LABELS[metric]}
          </div>
        ))}
        <div role="columnheader" className={`${cell} text-right`}>
          Alerts
        </div>
        <div role="columnheader" className={`${cell} text-right`}>
          Actions
        </div>
      </div>
    </div>
  )
}

function TableFrame({
  section,
  model,
  children,
}: {
  section: ThresholdSection
  model: AlertThresholdsViewModel | null
  children: React.ReactNode
}) {
  const info = SECTION_INFO[section]
  const counts = model
    ? model.matched === model.total
      ? `${model.total}`
      : `${model.matched} of ${model.total}`
    : ''
  return (
    <section aria-label={info.title} className="min-w-0">
      <h2 className="mb-1.5 text-sm font-semibold text-gray-900 dark:text-gray-100">
        {info.title}
        <span className="ml-2 text-xs font-normal text-gray-500 tabular-nums">{counts}</span>
      </h2>
      {children}
    </section>
  )
}

/** Nodes, PBS servers or storage: a whole table (spec 001 §2). */
export function SectionTable({
  section,
  search,
}: {
  section: Exclude<ThresholdSection, 'guests'>
  search: string
}) {
  const model = useView({ kind: 'alertThresholds', section, search, window: SMALL_WINDOW })
  const { edit } = useSnapshot(thresholdEditState)
  const columns = SECTION_COLUMNS[section]
  const info = SECTION_INFO[section]
  return (
    <TableFrame section={section} model={model}>
      <div className="overflow-x-auto rounded-md border border-gray-200 bg-white dark:border-gray-800 dark:bg-gray-900">
        <div
          role="table"
          aria-label={info.title}
          aria-rowcount={(model?.rowCount ?? 0) + 1}
          className="min-w-[900px]"
        >
          <TableHeader columns={columns} />
          <div role="rowgroup">
            {model?.rows.map((row, i) =>
              row.kind === 'resource' ? (
                <ThresholdRowView
                  key={row.key}
                  row={row}
                  columns={columns}
                  toggles={info.toggles}
                  edit={edit?.id === row.id ? (edit as ThresholdEdit) : null}
                  rowIndex={i + 2}
                />
              ) : null,
            )}
          </div>
          {model && model.rows.length === 0 && (
            <p className="px-3 py-4 text-sm text-gray-500 dark:text-gray-400">
              {model.total === 0 ? info.empty : 'No matches'}
            </p>
          )}
        </div>
      </div>
    </TableFrame>
  )
}

/** VMs & containers grouped by node: virtualised over the worker's window (100k guests). */
export function GuestThresholdTable({ search }: { search: string }) {
  const [viewWindow, setViewWindow] = useState(FIRST_GUEST_WINDOW)
  const model = useView({ kind: 'alertThresholds', section: 'guests', search, window: viewWindow })
  const { edit } = useSnapshot(thresholdEditState)
  const scrollRef = useRef<HTMLDivElement>(null)
  const columns = SECTION_COLUMNS.guests
  const info = SECTION_INFO.guests
  const virtualizer = useVirtualizer({
    count: model?.rowCount ?? 0,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => THRESHOLD_ROW_HEIGHT,
    overscan: 10,
  })
  const items = virtualizer.getVirtualItems()
  const onWindowChange = useCallback((next: ViewWindow) => setViewWindow(next), [])
  useViewWindow(items[0]?.index, items[items.length - 1]?.index, viewWindow, onWindowChange)
  useEffect(() => {
    scrollRef.current?.scrollTo({ top: 0 })
  }, [search])

  return (
    <TableFrame section="guests" model={model}>
      <div
        ref={scrollRef}
        role="table"
        aria-label={info.title}
        aria-rowcount={(model?.rowCount ?? 0) + 1}
        tabIndex={0}
        className={`max-h-[60vh] min-h-32 overflow-auto rounded-md border border-gray-200 bg-white dark:border-gray-800 dark:bg-gray-900 ${FOCUS_RING}`}
      >
        <div className="min-w-[1100px]">
          <TableHeader columns={columns} />
          <div role="rowgroup" className="relative" style={{ height: virtualizer.getTotalSize() }}>
            {model &&
              items.map((item) => {
                const row = model.rows[item.index - model.start]
                const style = {
                  position: 'absolute' as const,
                  top: item.start,
                  left: 0,
                  right: 0,
                }
                if (!row) {
                  return (
                    <div
                      key={item.index}
                      role="row"
                      aria-rowindex={item.index + 2}
                      style={{ ...style, height: THRESHOLD_ROW_HEIGHT }}
                    />
                  )
                }
                return row.kind === 'group' ? (
                  <ThresholdGroupRow
                    key={item.index}
                    row={row}
                    rowIndex={item.index + 2}
                    style={style}
                  />
                ) : (
                  <ThresholdRowView
                    key={item.index}
                    row={row}
                    columns={columns}
                    toggles={info.toggles}
                    edit={edit?.id === row.id ? (edit as ThresholdEdit) : null}
                    rowIndex={item.index + 2}
                    style={style}
                  />
                )
              })}
          </div>
          {model && model.rowCount === 0 && (
            <p className="px-3 py-4 text-sm text-gray-500 dark:text-gray-400">
              {model.total === 0 ? info.empty : 'No matches'}
            </p>
          )}
        </div>
      </div>
    </TableFrame>
  )
}
