// Backups → Coverage (issue 26 item 5): the counts on top, the filter chips and the search, and
// one row per guest worst first. The alert config is loaded and handed to the worker so "overdue"
// uses each guest's own limits, as the alert engine does.
import { Loader2, SearchX, ShieldCheck } from 'lucide-react'
import { useCallback, useState } from 'react'
import { useSnapshot } from 'valtio'
import type {
  BackupCoverageRequest,
  CoverageFilter,
  CoverageSortKey,
} from '../../shared/views/backup-coverage-types.ts'
import type { ViewWindow } from '../../shared/views/guest-view-types.ts'
import { EmptyState } from '../components/EmptyState.tsx'
import { SearchField } from '../components/SearchField.tsx'
import { ToggleGroup } from '../components/ToggleGroup.tsx'
import { BUTTON } from '../components/button-classes.ts'
import { useView } from '../hooks/useView.ts'
import { useAlertConfigLoad, useAlertConfigToWorker } from '../alerts/useAlertConfig.ts'
import { CoverageList } from './CoverageList.tsx'
import { coverageState, nextCoverageSort } from './coverage-state.ts'

const INITIAL_WINDOW: ViewWindow = { start: 0, count: 60 }

const FILTERS: { value: CoverageFilter; label: string }[] = [
  { value: 'all', label: 'All' },
  { value: 'overdue', label: 'Overdue' },
  { value: 'never', label: 'Never backed up' },
  { value: 'noJob', label: 'Not in a job' },
  { value: 'failed', label: 'Last job failed' },
  { value: 'orphaned', label: 'Orphaned' },
]

/** The coverage view of the Backups tab. */
export function CoveragePage() {
  useAlertConfigLoad()
  useAlertConfigToWorker()
  const state = useSnapshot(coverageState)
  const [viewWindow, setViewWindow] = useState<ViewWindow>(INITIAL_WINDOW)
  const request: BackupCoverageRequest = {
    kind: 'backupCoverage',
    search: state.search,
    filter: state.filter,
    sort: { key: state.sort.key, direction: state.sort.direction },
    window: viewWindow,
  }
  const model = useView(request)
  const onSort = useCallback((key: CoverageSortKey) => {
    coverageState.sort = nextCoverageSort(coverageState.sort, key)
  }, [])
  const resetKey = JSON.stringify({ ...request, window: null })

  if (!model || !model.loaded) {
    return (
      <EmptyState
        live
        icon={<Loader2 className="size-8 animate-spin" aria-hidden />}
        title="Loading backup coverage..."
        description="The backups of every guest are read on first open; this may take a moment."
      />
    )
  }
  return (
    <div className="flex min-h-full flex-col gap-2 p-2 sm:p-3 lg:h-full lg:min-h-0">
      <p
        className="text-sm font-medium text-gray-800 tabular-nums dark:text-gray-200"
        aria-live="polite"
        data-testid="coverage-counts"
      >
        {model.countsText}
      </p>
      <div className="flex flex-wrap items-center gap-2">
        <SearchField
          label="Search guests"
          placeholder="Search by name, VMID, node, location"
          value={state.search}
          onChange={(value) => {
            coverageState.search = value
          }}
          className="w-full sm:w-72"
        />
        <div className="max-w-full overflow-x-auto">
          <ToggleGroup
            label="Show"
            value={state.filter}
            options={FILTERS}
            onChange={(value) => {
              coverageState.filter = value
            }}
          />
        </div>
        {state.sort.key !== 'worst' && (
          <button
            type="button"
            className={BUTTON.secondary}
            onClick={() => {
              coverageState.sort = { key: 'worst', direction: 'asc' }
            }}
          >
            Worst first
          </button>
        )}
      </div>
      {model.rowCount === 0 ? (
        state.filter === 'all' && state.search === '' ? (
          <EmptyState
            icon={<ShieldCheck className="size-8" aria-hidden />}
            title="No guests to cover"
            description="No guest and no backup is known yet."
          />
        ) : (
          <EmptyState
            icon={<SearchX className="size-8" aria-hidden />}
            title="No guests match"
            description="Try another filter or search."
          />
        )
      ) : (
        <CoverageList
          model={model}
          sort={state.sort}
          onSort={onSort}
          viewWindow={viewWindow}
          onWindowChange={setViewWindow}
          resetKey={resetKey}
        />
      )}
      <p className="text-xs text-gray-600 tabular-nums dark:text-gray-400">
        {model.rowCount.toLocaleString('en-US')} shown
        {!model.limitsKnown && ' · overdue unknown until the alert settings load'}
      </p>
    </div>
  )
}
