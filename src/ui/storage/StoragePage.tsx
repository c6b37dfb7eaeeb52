import { HardDrive, Loader2, SearchX } from 'lucide-react'
import { useRef, type ReactNode } from 'react'
import { useSnapshot } from 'valtio'
import type { StorageTab, StorageViewRequest } from '../../shared/views/storage-types.ts'
import { FOCUS_RING } from '../components/button-classes.ts'
import { ConnectionLost } from '../components/ConnectionLost.tsx'
import { EmptyState } from '../components/EmptyState.tsx'
import { FilterBar } from '../components/FilterBar.tsx'
import { useConnection } from '../hooks/useConnection.ts'
import { useView } from '../hooks/useView.ts'
import { loadingText } from '../live/loading-text.ts'
import { NodeSummaryTable } from '../summary/NodeSummaryTable.tsx'
import { getSelectedNode, nodeSelection } from '../summary/selection.ts'
import { DiskTable } from './DiskTable.tsx'
import { storagePageState } from './page-state.ts'
import { PoolTable } from './PoolTable.tsx'
import { StorageFilterBar } from './StorageFilterBar.tsx'
import { STORAGE_HISTORY, storageState, toggleExpanded } from './storage-state.ts'
import { useStorageKeys } from './useStorageKeys.ts'
import { ZfsBanner } from './ZfsBanner.tsx'

const SUB_TABS: readonly { value: StorageTab; label: string }[] = [
  { value: 'pools', label: 'Storage Pools' },
  { value: 'disks', label: 'Physical Disks' },
]

/** The Storage tab (spec 000 §2.3): node summary, Storage Pools and Physical Disks sub-tabs. */
export function StoragePage() {
  const connection = useConnection()
  const state = useSnapshot(storageState)
  const selectedNode = getSelectedNode(useSnapshot(nodeSelection), 'storage')
  const request: StorageViewRequest = {
    kind: 'storage',
    viewMode: state.viewMode,
    search: state.search,
    diskSearch: state.diskSearch,
    sort: { key: state.sort.key, direction: state.sort.direction },
    selectedNode,
  }
  const model = useView(request)
  const page = storagePageState(connection, model)
  const searchRef = useRef<HTMLInputElement>(null)
  useStorageKeys(searchRef)

  if (page.kind !== 'content') return <PageMessage state={page} />
  const view = page.model
  return (
    // On a phone the page grows and <main> scrolls it; wider, the tables scroll in their box.
    <div className="flex min-h-full flex-col gap-2 p-2 sm:h-full sm:min-h-0 sm:p-3">
      <h1 className="sr-only">Storage</h1>
      <NodeSummaryTable tab="storage" />
      <div role="tablist" aria-label="Storage views" className="flex gap-1">
        {SUB_TABS.map((tab) => (
          <button
            key={tab.value}
            type="button"
            role="tab"
            aria-selected={state.tab === tab.value}
            onClick={() => {
              storageState.tab = tab.value
            }}
            className={`rounded-md px-2.5 py-1 text-sm ${FOCUS_RING} ${
              state.tab === tab.value
                ? 'bg-blue-600 text-white'
                : 'text-gray-600 hover:bg-gray-200 dark:text-gray-300 dark:hover:bg-gray-800'
            }`}
          >
            {tab.label}
            <span className="ml-1.5 text-xs opacity-75 tabular-nums">
              {tab.value === 'pools' ? view.poolCount : view.disks.length}
            </span>
          </button>
        ))}
      </div>
      {state.tab === 'pools' ? (
        <section aria-label="Storage Pools" className="flex min-h-0 flex-1 flex-col gap-2">
          <StorageFilterBar searchRef={searchRef} />
          <ZfsBanner issues={view.zfsIssues} />
          {view.poolsEmpty ? (
            <EmptyState
              icon={
                view.storageCount === 0 ? (
                  <HardDrive className="size-8" aria-hidden />
                ) : (
                  <SearchX className="size-8" aria-hidden />
                )
              }
              title={view.poolsEmpty.title}
              description={view.poolsEmpty.description}
            />
          ) : (
            <PoolTable model={view} expanded={state.expanded} onToggle={toggleExpanded} />
          )}
        </section>
      ) : (
        <section aria-label="Physical Disks" className="flex min-h-0 flex-1 flex-col gap-2">
          <FilterBar
            label="Disk filters"
            search={{
              inputRef: searchRef,
              label: 'Search disks',
              placeholder: 'Search: model, device, serial, node',
              value: state.diskSearch,
              entries: state.searchHistory,
              history: STORAGE_HISTORY,
              onChange: (value) => {
                storageState.diskSearch = value
              },
            }}
          />
          {view.disksEmpty ? (
            <EmptyState
              icon={<HardDrive className="size-8" aria-hidden />}
              title={view.disksEmpty}
            />
          ) : (
            <DiskTable disks={view.disks} />
          )}
        </section>
      )}
    </div>
  )
}

/** Loading and connection states with the texts of spec 000 §8. */
function PageMessage({ state }: { state: { kind: 'loading' | 'lost'; reconnecting: boolean } }) {
  const { status } = useConnection()
  let body: ReactNode
  if (state.kind === 'loading') {
    body = (
      <EmptyState
        live
        icon={<Loader2 className="size-8 animate-spin" aria-hidden />}
        title="Loading storage data..."
        description={loadingText(status)}
      />
    )
  } else {
    body = <ConnectionLost reconnecting={state.reconnecting} />
  }
  return <div className="p-2 sm:p-3">{body}</div>
}
