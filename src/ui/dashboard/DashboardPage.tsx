import { Loader2, Server, SearchX } from 'lucide-react'
import { useCallback, useId, useRef, useState } from 'react'
import { useSnapshot } from 'valtio'
import { useLocation } from 'wouter'
import type {
  GuestSortKey,
  GuestViewRequest,
  ViewWindow,
} from '../../shared/views/guest-view-types.ts'
import { BUTTON } from '../components/button-classes.ts'
import { ConnectionLost } from '../components/ConnectionLost.tsx'
import { EmptyState } from '../components/EmptyState.tsx'
import { useConnection } from '../hooks/useConnection.ts'
import { useGlobalKeys } from '../hooks/useGlobalKeys.ts'
import { useView } from '../hooks/useView.ts'
import { loadingText } from '../live/loading-text.ts'
import { uiState } from '../state.ts'
import { NodeSummaryTable } from '../summary/NodeSummaryTable.tsx'
import { getSelectedNode, nodeSelection } from '../summary/selection.ts'
import { nextSort } from './columns.ts'
import { FilterBar } from './FilterBar.tsx'
import { FiltersToggle } from './FiltersToggle.tsx'
import { GuestTable } from './GuestTable.tsx'
import { HiddenNodeTable } from './HiddenNodeTable.tsx'
import { dashboardPageState, type DashboardPageState } from './page-state.ts'

/** First window before the table has measured itself. */
const INITIAL_WINDOW: ViewWindow = { start: 0, count: 60 }

/** The Main tab: filter bar, guest table and the page states of spec 000 §2.2. */
export function DashboardPage() {
  const connection = useConnection()
  const filters = useSnapshot(uiState).dashboard
  const [viewWindow, setViewWindow] = useState<ViewWindow>(INITIAL_WINDOW)
  const selectedNode = getSelectedNode(useSnapshot(nodeSelection), 'dashboard')
  const request: GuestViewRequest = {
    kind: 'guests',
    search: filters.search,
    viewMode: filters.viewMode,
    statusMode: filters.statusMode,
    grouping: filters.grouping,
    sort: { key: filters.sort.key, direction: filters.sort.direction },
    selectedNode,
    window: viewWindow,
  }
  const model = useView(request)
  const state = dashboardPageState(connection, model, filters.search)
  const guestsLoading = connection.loading && connection.guestsExpected > connection.guestCount
  const onSort = useCallback((key: GuestSortKey) => {
    uiState.dashboard.sort = nextSort(uiState.dashboard.sort, key)
  }, [])
  const resetKey = JSON.stringify({ ...request, window: null })
  const searchRef = useRef<HTMLInputElement>(null)
  useGlobalKeys(searchRef)
  const barId = useId()

  // Escape hides the bar and a printable key shows it again (useGlobalKeys); the Filters
  // button does both with the mouse, so a hidden bar is never out of reach.
  const filtersAvailable = state.kind === 'content' || state.kind === 'no-guests'
  const showFilters = filters.showFilters && filtersAvailable
  return (
    // On a phone the page grows and <main> scrolls it; wider, the guest table scrolls in its box.
    <div className="flex min-h-full flex-col gap-2 p-2 sm:h-full sm:min-h-0 sm:p-3">
      {(state.kind === 'content' || state.kind === 'no-guests') && (
        <NodeSummaryTable tab="dashboard">
          {(summary) => <HiddenNodeTable model={summary} />}
        </NodeSummaryTable>
      )}
      {filtersAvailable && (
        <div className="flex items-start gap-2">
          <FiltersToggle expanded={showFilters} controls={barId} searchRef={searchRef} />
          {showFilters && (
            <div className="min-w-0 flex-1">
              <FilterBar id={barId} searchRef={searchRef} />
            </div>
          )}
        </div>
      )}
      {state.kind === 'content' && model ? (
        <>
          <GuestTable
            model={model}
            sort={filters.sort}
            onSort={onSort}
            viewWindow={viewWindow}
            onWindowChange={setViewWindow}
            resetKey={resetKey}
          />
          {guestsLoading && (
            <p role="status" className="text-xs text-amber-700 tabular-nums dark:text-amber-400">
              Loading guests: {connection.guestCount.toLocaleString('en-US')} of{' '}
              {connection.guestsExpected.toLocaleString('en-US')}…
            </p>
          )}
          {/* Partial counts read as final: until every guest is here, the hint above stands alone. */}
          {!guestsLoading && (
            <p className="text-xs text-gray-600 tabular-nums dark:text-gray-400" aria-live="polite">
              <span className="text-emerald-700 dark:text-emerald-400">
                {model.totals.running} running
              </span>
              {' · '}
              <span>{model.totals.stopped} stopped</span>
              {model.totals.matched !== model.totals.guests && (
                <span>
                  {' · '}
                  {model.totals.matched} of {model.totals.guests} shown
                </span>
              )}
            </p>
          )}
        </>
      ) : (
        <PageMessage state={state} />
      )}
    </div>
  )
}

/** Every state other than content, with the exact texts of spec 000 §8. */
function PageMessage({ state }: { state: DashboardPageState }) {
  const [, navigate] = useLocation()
  const { status } = useConnection()
  switch (state.kind) {
    case 'loading':
      return (
        <EmptyState
          live
          icon={<Loader2 className="size-8 animate-spin" aria-hidden />}
          title="Loading dashboard data..."
          description={loadingText(status)}
        />
      )
    case 'lost':
      return <ConnectionLost reconnecting={state.reconnecting} />
    case 'no-nodes':
      return (
        <EmptyState
          icon={<Server className="size-8" aria-hidden />}
          title="No hypervisor nodes configured"
          description="Add a hypervisor node in the Settings tab to start monitoring your infrastructure."
          actions={
            <button
              type="button"
              className={BUTTON.primary}
              onClick={() => navigate('/settings/pve')}
            >
              Go to Settings
            </button>
          }
        />
      )
    case 'no-guests':
      return (
        <EmptyState
          icon={<SearchX className="size-8" aria-hidden />}
          title="No guests found"
          description={
            state.search
              ? `No guests match your search "${state.search}"`
              : 'No guests match your current filters'
          }
        />
      )
    case 'content':
      return null
  }
}
