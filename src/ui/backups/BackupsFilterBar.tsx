import { useId, type RefObject } from 'react'
import { useSnapshot } from 'valtio'
import { BACKUP_SORT_KEYS, type BackupSortKey } from '../../shared/views/backups-types.ts'
import { FilterBar } from '../components/FilterBar.tsx'
import type { SearchHistoryStore } from '../components/SearchField.tsx'
import { SortControl } from '../components/SortControl.tsx'
import { Switch } from '../components/Switch.tsx'
import { ToggleGroup } from '../components/ToggleGroup.tsx'
import { backupsState, resetBackupsTab } from './backups-state.ts'

const VIEW_MODES = [
  { value: 'all', label: 'All' },
  { value: 'snapshot', label: 'Snapshots' },
  { value: 'pve', label: 'PVE' },
  { value: 'pbs', label: 'PBS' },
] as const
const GROUPINGS = [
  { value: 'date', label: 'By date' },
  { value: 'guest', label: 'By guest' },
] as const
/** Labels of the sort options (spec 000 §9: backupTime is 'Time'). */
export const SORT_LABELS: Record<BackupSortKey, string> = {
  backupTime: 'Time',
  name: 'Name',
  node: 'Node',
  vmid: 'VMID',
  backupType: 'Backup',
  size: 'Size',
  storage: 'Location',
  verified: 'Verified',
  type: 'Type',
  owner: 'Owner',
}

interface Props {
  searchRef: RefObject<HTMLInputElement | null>
  /** Host backups exist: the type filter offers Host (spec 000 §2.4). */
  hasHost: boolean
  /** The view mode in force (a selected PBS forces 'pbs'). */
  viewMode: (typeof VIEW_MODES)[number]['value']
  /** A PBS is selected: the view mode cannot change. */
  viewModeLocked: boolean
}

/** Search, view mode, type, grouping, sort, Reset and the relative-time toggle. */
export function BackupsFilterBar({ searchRef, hasHost, viewMode, viewModeLocked }: Props) {
  const filters = useSnapshot(backupsState)
  const types = [
    { value: 'all', label: 'All' },
    { value: 'VM', label: 'VM' },
    { value: 'LXC', label: 'LXC' },
    ...(hasHost || filters.typeFilter === 'Host' ? [{ value: 'Host', label: 'Host' }] : []),
  ] as { value: typeof filters.typeFilter; label: string }[]
  const relativeId = useId()
  return (
    <FilterBar
      label="Backup filters"
      search={{
        inputRef: searchRef,
        label: 'Search backups',
        placeholder: 'Search: vmid, name, node, pbs:instance:datastore:namespace',
        value: filters.search,
        onChange: (value) => {
          backupsState.search = value
        },
        entries: filters.searchHistory,
        history: HISTORY,
      }}
      onReset={resetBackupsTab}
      trailing={
        <span className="flex items-center gap-1.5 text-xs text-gray-600 dark:text-gray-300">
          <Switch
            id={relativeId}
            checked={filters.useRelativeTime}
            onChange={(checked) => {
              backupsState.useRelativeTime = checked
            }}
          />
          <label htmlFor={relativeId}>Relative time</label>
        </span>
      }
    >
      <div className={viewModeLocked ? 'pointer-events-none opacity-60' : undefined}>
        <ToggleGroup
          label="Backup source"
          value={viewMode}
          options={VIEW_MODES}
          onChange={(value) => {
            backupsState.viewMode = value
          }}
        />
      </div>
      <ToggleGroup
        label="Guest type"
        value={filters.typeFilter}
        options={types}
        onChange={(value) => {
          backupsState.typeFilter = value
        }}
      />
      <ToggleGroup
        label="Grouping"
        value={filters.grouping}
        options={GROUPINGS}
        onChange={(value) => {
          backupsState.grouping = value
        }}
      />
      <SortControl
        label="Sort by"
        keys={BACKUP_SORT_KEYS}
        labels={SORT_LABELS}
        sort={filters.sort}
        onKey={(key) => {
          backupsState.sort = { key, direction: backupsState.sort.direction }
        }}
        onToggleDirection={() => {
          const { key, direction } = backupsState.sort
          backupsState.sort = { key, direction: direction === 'asc' ? 'desc' : 'asc' }
        }}
      />
    </FilterBar>
  )
}

/** The backups tab's saved search history. */
const HISTORY: SearchHistoryStore = {
  get: () => backupsState.searchHistory,
  set: (next) => {
    backupsState.searchHistory = next
  },
}
