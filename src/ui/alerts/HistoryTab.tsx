import { History, Loader2 } from 'lucide-react'
import { useCallback, useEffect, useId, useRef, useState, type RefObject } from 'react'
import { useSnapshot } from 'valtio'
import {
  HISTORY_RANGES,
  HISTORY_SEVERITIES,
  type HistoryRange,
  type HistorySeverity,
} from '../../shared/views/alert-history-types.ts'
import { RANGE_LABELS, SEVERITY_FILTER_LABELS } from '../../shared/views/alert-history.ts'
import type { HistoryAlertRow } from '../../shared/views/alert-history-types.ts'
import type { ViewWindow } from '../../shared/views/guest-view-types.ts'
import { BUTTON, FOCUS_RING } from '../components/button-classes.ts'
import { EmptyState } from '../components/EmptyState.tsx'
import { FilterBar as Bar } from '../components/FilterBar.tsx'
import { ToggleGroup } from '../components/ToggleGroup.tsx'
import { useView } from '../hooks/useView.ts'
import { ClearHistoryButton } from './ClearHistoryButton.tsx'
import { HistoryChart } from './HistoryChart.tsx'
import { HistoryList } from './HistoryList.tsx'
import { AlertContextChart } from './AlertContextChart.tsx'
import { historyState } from './history-state.ts'
import { useHistoryKeys } from './useHistoryKeys.ts'

const INITIAL_WINDOW: ViewWindow = { start: 0, count: 60 }
const RANGE_OPTIONS = HISTORY_RANGES.map((value) => ({ value, label: RANGE_LABELS[value] }))
const COUNT = new Intl.NumberFormat('en-US')

/**
 * The alerts history tab (spec 001 §2): time and severity filters (saved locally), search, the
 * frequency chart whose bars filter the list, and the list grouped by day. The worker fetches
 * and formats; the server filters and limits to 1,000 rows.
 */
export function HistoryTab() {
  const state = useSnapshot(historyState)
  const [viewWindow, setViewWindow] = useState(INITIAL_WINDOW)
  const searchRef = useRef<HTMLInputElement>(null)
  useHistoryKeys(searchRef)
  const resetKey = JSON.stringify([state.range, state.severity, state.search, state.bucket])
  useEffect(() => setViewWindow(INITIAL_WINDOW), [resetKey])
  const model = useView({
    kind: 'alertHistory',
    range: state.range,
    severity: state.severity,
    search: state.search,
    bucket: state.bucket ? { start: state.bucket.start, end: state.bucket.end } : null,
    window: viewWindow,
    reload: state.reload,
  })
  const reload = useCallback(() => void historyState.reload++, [])
  // The occurrence whose chart shows (issue 25); a new filter starts without one.
  const [picked, setPicked] = useState<HistoryAlertRow | null>(null)
  useEffect(() => setPicked(null), [resetKey])
  const onPick = useCallback(
    (row: HistoryAlertRow) => setPicked((current) => (current?.key === row.key ? null : row)),
    [],
  )

  let body
  if (!model || (!model.loaded && !model.error)) {
    body = (
      <EmptyState
        live
        icon={<Loader2 className="size-6 animate-spin" aria-hidden />}
        title="Loading alert history..."
      />
    )
  } else if (model.error && !model.loaded) {
    body = (
      <EmptyState
        live
        title={model.error}
        description="Please check your connection and try again."
        actions={
          <button type="button" className={BUTTON.secondary} onClick={reload}>
            Retry
          </button>
        }
      />
    )
  } else {
    body = (
      <>
        <HistoryChart
          buckets={model.buckets}
          selected={state.bucket}
          onSelect={(bucket) => (historyState.bucket = bucket)}
        />
        {model.error && (
          <p role="alert" className="text-sm text-red-700 dark:text-red-400">
            {model.error}
          </p>
        )}
        {picked && (
          <AlertContextChart row={picked} rows={model.rows} onClose={() => setPicked(null)} />
        )}
        {model.total === 0 && !model.loading ? (
          <EmptyState
            icon={<History className="size-6" aria-hidden />}
            title="No alerts in this period"
            description={
              state.search || state.severity !== 'all' || state.bucket
                ? 'No alerts match these filters. Clear the search or widen the filters.'
                : 'Alerts that fire will be listed here.'
            }
          />
        ) : (
          <HistoryList
            model={model}
            viewWindow={viewWindow}
            onWindowChange={setViewWindow}
            resetKey={resetKey}
            selectedKey={picked?.key ?? null}
            onSelect={onPick}
          />
        )}
      </>
    )
  }

  return (
    <div className="flex min-h-0 flex-1 flex-col gap-2 p-3 sm:p-4">
      <FilterBar searchRef={searchRef} />
      <div className="flex flex-wrap items-center gap-2 text-xs text-gray-600 dark:text-gray-400">
        <span role="status" className="tabular-nums">
          {model?.loaded ? countText(model.shown, model.total) : ''}
        </span>
        <span className="ml-auto">
          <ClearHistoryButton onCleared={reload} />
        </span>
      </div>
      {body}
    </div>
  )
}

/** 'Showing 1,000 of 4,321' when the server holds more than the screen lists. */
function countText(shown: number, total: number): string {
  if (total > shown) return `Showing ${COUNT.format(shown)} of ${COUNT.format(total)}`
  return `${COUNT.format(total)} ${total === 1 ? 'alert' : 'alerts'}`
}

function FilterBar({ searchRef }: { searchRef: RefObject<HTMLInputElement | null> }) {
  const state = useSnapshot(historyState)
  const severityId = useId()
  return (
    <Bar
      label="Alert history filters"
      search={{
        inputRef: searchRef,
        label: 'Search alert history',
        placeholder: 'Search alerts...',
        value: state.search,
        onChange: (value) => (historyState.search = value),
      }}
    >
      <ToggleGroup<HistoryRange>
        label="Time range"
        value={state.range}
        options={RANGE_OPTIONS}
        onChange={(range) => {
          historyState.range = range
          // A bar of the previous range is not one of this range's bars.
          historyState.bucket = null
        }}
      />
      <label htmlFor={severityId} className="sr-only">
        Severity
      </label>
      <select
        id={severityId}
        value={state.severity}
        onChange={(event) => (historyState.severity = event.target.value as HistorySeverity)}
        className={`rounded-md border border-gray-300 bg-white px-2 py-1 text-xs text-gray-700 dark:border-gray-600 dark:bg-gray-800 dark:text-gray-200 ${FOCUS_RING}`}
      >
        {HISTORY_SEVERITIES.map((value) => (
          <option key={value} value={value}>
            {SEVERITY_FILTER_LABELS[value]}
          </option>
        ))}
      </select>
    </Bar>
  )
}
