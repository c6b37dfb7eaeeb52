import { Archive, Loader2, SearchX } from 'lucide-react'
import { useCallback, useRef, useState } from 'react'
import { useSnapshot } from 'valtio'
import { nextBackupSort } from '../../shared/views/backups-sort.ts'
import type {
  BackupSortKey,
  BackupsViewModel,
  BackupsViewRequest,
} from '../../shared/views/backups-types.ts'
import type { ViewWindow } from '../../shared/views/guest-view-types.ts'
import { ConnectionLost } from '../components/ConnectionLost.tsx'
import { EmptyState } from '../components/EmptyState.tsx'
import type { ConnectionState } from '../hooks/connection-context.ts'
import { useViewState } from '../hooks/useView.ts'
import { useConnection } from '../hooks/useConnection.ts'
import { NodeSummaryTable } from '../summary/NodeSummaryTable.tsx'
import { DatastoreHistory } from './DatastoreHistory.tsx'
import { getSelectedNode, nodeSelection } from '../summary/selection.ts'
import { BackupsChart } from './BackupsChart.tsx'
import { BackupsFilterBar } from './BackupsFilterBar.tsx'
import { BackupsList } from './BackupsList.tsx'
import { backupsState } from './backups-state.ts'
import { SourceSelector } from './SourceSelector.tsx'
import { useBackupsKeys } from './useBackupsKeys.ts'

const INITIAL_WINDOW: ViewWindow = { start: 0, count: 60 }

/** Which screen the backups tab shows (spec 000 §2.4 states, §8 backup texts). */
export type BackupsPageState =
  | { kind: 'loading' }
  | { kind: 'lost'; reconnecting: boolean }
  | { kind: 'no-sources' }
  | { kind: 'content' }

/** Reads the connection and the model into one page state. */
export function backupsPageState(
  connection: ConnectionState,
  model: BackupsViewModel | null,
): BackupsPageState {
  if (connection.status === 'disconnected') return { kind: 'lost', reconnecting: false }
  if (connection.status === 'reconnecting') {
    return connection.hadData ? { kind: 'lost', reconnecting: true } : { kind: 'loading' }
  }
  // Before the server's first poll and first read of every source's backups, an empty list
  // would read as "no sources": it is still loading.
  if (
    connection.status === 'connecting' ||
    !connection.initialDataReceived ||
    !connection.backupsCollected ||
    // A first load, or the backups asked for on opening this page, still arriving.
    connection.loading ||
    !model
  ) {
    return { kind: 'loading' }
  }
  if (model.sources === 0) return { kind: 'no-sources' }
  if (!model.loaded) return { kind: 'loading' }
  return { kind: 'content' }
}

/** The Backups tab (spec 000 §2.4): node summary, selector, filters, chart and the backup list. */
export function BackupsPage() {
  const connection = useConnection()
  const filters = useSnapshot(backupsState)
  const selectedNode = getSelectedNode(useSnapshot(nodeSelection), 'backups')
  const [viewWindow, setViewWindow] = useState<ViewWindow>(INITIAL_WINDOW)
  const request: BackupsViewRequest = {
    kind: 'backups',
    search: filters.search,
    viewMode: filters.viewMode,
    typeFilter: filters.typeFilter,
    grouping: filters.grouping,
    sort: { key: filters.sort.key, direction: filters.sort.direction },
    range: filters.range,
    selectedDay: filters.selectedDay,
    selectedNode,
    scope: filters.scope ? { ...filters.scope } : null,
    window: viewWindow,
  }
  const { model, answered } = useViewState(request)
  const state = backupsPageState(connection, model)
  const searchRef = useRef<HTMLInputElement>(null)
  useBackupsKeys(searchRef)
  const onSort = useCallback((key: BackupSortKey) => {
    backupsState.sort = nextBackupSort(backupsState.sort, key)
  }, [])
  const resetKey = JSON.stringify({ ...request, window: null })
  // The controls already show the new filters; until the worker answers them, the list is the
  // old one: say so. Scrolling (the window) alone never counts.
  const updating = answered !== null && withoutWindow(answered) !== resetKey
  // A selected PBS forces the remote view (spec 000 §4); the stored choice comes back after.
  const pbsSelected = selectedNode?.startsWith('pbs-') ?? false

  if (state.kind !== 'content' || !model) return <PageMessage state={state} />
  return (
    // Below the table breakpoint the page grows and <main> scrolls it, cards and all; wide
    // screens keep the page in view and scroll the table.
    <div className="flex min-h-full flex-col gap-2 p-2 sm:p-3 lg:h-full lg:min-h-0">
      <NodeSummaryTable
        tab="backups"
        historyExtra={(row) => <DatastoreHistory row={row} scopes={model.scopes} />}
      />
      <div className="flex flex-wrap items-center gap-2">
        <SourceSelector scopes={model.scopes} />
        {model.dedupText && (
          <span className="text-xs text-gray-600 dark:text-gray-400">
            Deduplication <span className="font-medium tabular-nums">{model.dedupText}</span>
          </span>
        )}
      </div>
      {connection.backupsPending.length > 0 && (
        <PendingNotice sources={connection.backupsPending} />
      )}
      <BackupsFilterBar
        searchRef={searchRef}
        hasHost={model.hasHostBackups}
        viewMode={pbsSelected ? 'pbs' : filters.viewMode}
        viewModeLocked={pbsSelected}
      />
      <BackupsChart
        chart={model.chart}
        today={model.today}
        selectedDay={filters.selectedDay}
        onRange={(range) => {
          backupsState.range = range
        }}
        onSelectDay={(day) => {
          backupsState.selectedDay = day
        }}
      />
      {model.totals.matched === 0 ? (
        <EmptyState
          icon={<SearchX className="size-8" aria-hidden />}
          title="No backups match your filters"
          description="Try adjusting filters or selecting a different time range."
        />
      ) : (
        <>
          <BackupsList
            model={model}
            updating={updating}
            sort={filters.sort}
            onSort={onSort}
            relative={filters.useRelativeTime}
            viewWindow={viewWindow}
            onWindowChange={setViewWindow}
            resetKey={resetKey}
          />
          <p className="text-xs text-gray-600 tabular-nums dark:text-gray-400" aria-live="polite">
            {updating ? (
              <span className="inline-flex items-center gap-1 text-blue-700 dark:text-blue-300">
                <Loader2 className="size-3 animate-spin" aria-hidden />
                Updating…
              </span>
            ) : (
              <>
                {model.totals.matched} of {model.totals.records} backups · {model.totals.snapshot}{' '}
                snapshots · {model.totals.local} PVE · {model.totals.remote} PBS
              </>
            )}
          </p>
        </>
      )}
    </div>
  )
}

/**
 * Some listing of these sources has not answered yet (a storage that timed out at every read so
 * far): what is shown of them may be missing backups, and no age alert fires for them meanwhile.
 */
function PendingNotice({ sources }: { sources: readonly string[] }) {
  const names =
    sources.length > 3
      ? `${sources.slice(0, 3).join(', ')} and ${sources.length - 3} more`
      : sources.join(', ')
  return (
    <p
      role="status"
      className="flex items-center gap-1 rounded border border-amber-300 bg-amber-50 px-2 py-1 text-xs text-amber-900 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-200"
    >
      <Loader2 className="size-3 shrink-0 animate-spin" aria-hidden />
      <span>
        The backups of {names} are not all read yet (a storage listing has not answered): their
        guests may show older or no backups, and no backup age alert fires for them until then.
      </span>
    </p>
  )
}

// The request JSON without its window, as `resetKey` is built.
function withoutWindow(requestJson: string): string {
  return JSON.stringify({ ...(JSON.parse(requestJson) as BackupsViewRequest), window: null })
}

/** Loading, connection lost and no sources, with the texts of spec 000 §8. */
function PageMessage({ state }: { state: BackupsPageState }) {
  switch (state.kind) {
    case 'loading':
      return (
        <EmptyState
          live
          icon={<Loader2 className="size-8 animate-spin" aria-hidden />}
          title="Loading backup data..."
          description="This may take up to 20 seconds on the first load."
        />
      )
    case 'lost':
      return <ConnectionLost reconnecting={state.reconnecting} />
    case 'no-sources':
      return (
        <EmptyState
          icon={<Archive className="size-8" aria-hidden />}
          title="No backup sources configured"
        />
      )
    case 'content':
      return null
  }
}
