// The storage tab protocol between the worker and the UI (spec 000 §2.3, §3 Storage / Ceph cluster
// / Physical disk, §4 Storage, §8 storage texts, §9 storage colours).
import type { ForecastText } from './storage-forecast.ts'
import type { Colour } from '../format/thresholds.ts'
import type { SortDirection } from './guest-view-types.ts'

/** Pool list layouts: rows per node (with a Shared column) or one row per storage. */
export const STORAGE_VIEW_MODES = ['node', 'storage'] as const
export type StorageViewMode = (typeof STORAGE_VIEW_MODES)[number]

/** Storage sort options (spec 000 §9). */
export const STORAGE_SORT_KEYS = [
  'name',
  'node',
  'type',
  'status',
  'usage',
  'free',
  'total',
] as const
export type StorageSortKey = (typeof STORAGE_SORT_KEYS)[number]

/** Sub-tabs of the storage tab. */
export const STORAGE_TABS = ['pools', 'disks'] as const
export type StorageTab = (typeof STORAGE_TABS)[number]

/** What the UI asks the worker for. */
export interface StorageViewRequest {
  kind: 'storage'
  viewMode: StorageViewMode
  /** Pool search: `node:<name>` terms plus words (spec 000 §5 "Storage search"). */
  search: string
  /** Disk search: substring of model, devPath, serial or node. */
  diskSearch: string
  sort: { key: StorageSortKey; direction: SortDirection }
  /** Node id selected in the node summary table, or null. */
  selectedNode: string | null
}

/** A device of a ZFS pool that is not healthy (state other than ONLINE, or errors). */
export interface ZfsDeviceIssue {
  name: string
  state: string
  errors: number
  message: string
}

/** The error summary of a ZFS pool, behind the ERRORS badge and the 'ZFS Pool Status' banner. */
export interface ZfsErrorSummary {
  pool: string
  state: string
  readErrors: number
  writeErrors: number
  checksumErrors: number
  devices: ZfsDeviceIssue[]
}

/** A pool with ZFS errors as the banner lists it: the summary plus the row it belongs to. */
export interface StorageZfsIssue extends ZfsErrorSummary {
  key: string
  storage: string
  node: string
}

/** A Ceph pool line of the Ceph panel. */
export interface CephPoolLine {
  name: string
  storedText: string
  availableText: string
}

/** A Ceph service line ('mon 3/3'). */
export interface CephServiceLine {
  type: string
  running: number
  total: number
  message: string
}

/** What the Ceph panel of a Ceph storage row shows: live cluster data, or derived from storage. */
export interface CephDetail {
  /** True when no live Ceph data exists and the numbers come from the storage entries. */
  derived: boolean
  /** 'Derived from storage metrics – live Ceph telemetry unavailable.' for a derived row. */
  note: string | null
  name: string
  health: string
  healthMessage: string
  numMons: number
  numMgrs: number
  numOsds: number
  numOsdsUp: number
  numOsdsIn: number
  numPGs: number
  usagePercent: number
  usedText: string
  totalText: string
  /** At most 2 pools (spec 000 §2.3); `poolCount` says how many exist. */
  pools: CephPoolLine[]
  poolCount: number
  services: CephServiceLine[]
  /** Epoch ms, 0 when unknown. */
  lastUpdated: number
}

/** A node header of the by-node layout. */
export interface StorageGroupRow {
  kind: 'group'
  key: string
  nodeId: string
  label: string
  count: number
}

/** One pool (by node) or one storage merged across its nodes (by storage). */
export interface StoragePoolRow {
  kind: 'pool'
  key: string
  /** Id of the storage entry (the first one for a merged row). */
  id: string
  name: string
  /** The node name; for a merged shared row, the nodes joined with ', '. */
  node: string
  nodes: string[]
  nodeIds: string[]
  instance: string
  type: string
  content: string
  /** Backup-server names behind a pbs storage, when the server sends them. */
  pbsNames: string[]
  status: string
  available: boolean
  shared: boolean
  total: number
  used: number
  free: number
  usage: number
  usageText: string
  /** 'used / total'. */
  usageDetail: string
  /** Spec 000 §9: 90 and above red, 80 and above yellow, else green. */
  usageColour: Colour
  freeText: string
  totalText: string
  /** Set when the ZFS pool reports errors or unhealthy devices. */
  zfsErrors: ZfsErrorSummary | null
  /** Set for Ceph types (rbd, cephfs, ceph). */
  ceph: CephDetail | null
  /** "Full in N days" beside the usage bar (issue 25), null when the server sends no forecast. */
  forecast: ForecastText | null
}

export type StorageListRow = StorageGroupRow | StoragePoolRow

/** One physical disk formatted for display. */
export interface DiskRow {
  key: string
  node: string
  nodeId: string
  devPath: string
  model: string
  serial: string
  typeLabel: string
  fs: string
  /** The reported health when healthy, 'LOW LIFE', 'FAILED' or 'UNKNOWN'. */
  healthLabel: string
  healthColour: Colour
  /** Percent of life left; null when no SSD life bar is shown (wearout not > 0). */
  lifePercent: number | null
  lifeColour: Colour | null
  temperatureText: string
  temperatureColour: Colour | null
  sizeText: string
}

/** An empty-state message with its title and text (spec 000 §8). */
export interface StorageEmptyText {
  title: string
  description: string
}

/** The storage tab as the worker pushes it. */
export interface StorageViewModel {
  kind: 'storage'
  /** Increases with every model the worker pushes; the UI drops older ones. */
  version: number
  viewMode: StorageViewMode
  /** Storage entries in the live state (0: 'No storage configured'). */
  storageCount: number
  /** Pools shown (group rows not counted). */
  poolCount: number
  rows: StorageListRow[]
  /** Pools with ZFS errors among the shown rows, for the 'ZFS Pool Status' banner. */
  zfsIssues: StorageZfsIssue[]
  /** Null when pools are shown. */
  poolsEmpty: StorageEmptyText | null
  diskCount: number
  disks: DiskRow[]
  /** 'No physical disks found' with its suffixes; null when disks are shown. */
  disksEmpty: string | null
}

/** A model before the worker stamps its version. */
export type StorageViewResult = Omit<StorageViewModel, 'version'>
