// The backups view protocol between the worker and the UI (spec 000 §2.4, §3 normalised backup
// record, §4 Backups, §9 backup constants). Pure types and constants.
import type { Colour } from '../format/thresholds.ts'
import type { SortDirection, ViewWindow } from './guest-view-types.ts'

/** View modes of the filter bar (spec 000 §4): all / snapshot / pve / pbs. */
export const BACKUP_VIEW_MODES = ['all', 'snapshot', 'pve', 'pbs'] as const
export type BackupViewMode = (typeof BACKUP_VIEW_MODES)[number]

/** Classes of a normalised record (spec 000 §3): snapshot, local (PVE storage), remote (PBS). */
export const BACKUP_CLASSES = ['snapshot', 'local', 'remote'] as const
export type BackupClass = (typeof BACKUP_CLASSES)[number]

/** Guest classes of a record (spec 000 §5 normalisation). */
export const BACKUP_GUEST_TYPES = ['VM', 'LXC', 'Host'] as const
export type BackupGuestType = (typeof BACKUP_GUEST_TYPES)[number]

/** Type filter values: all, or one guest class. */
export const BACKUP_TYPE_FILTERS = ['all', ...BACKUP_GUEST_TYPES] as const
export type BackupTypeFilter = (typeof BACKUP_TYPE_FILTERS)[number]

/** Grouping of the list: by local day or by guest. */
export const BACKUP_GROUPINGS = ['date', 'guest'] as const
export type BackupGrouping = (typeof BACKUP_GROUPINGS)[number]

/** Sort options (spec 000 §9), 'backupTime' labelled Time. */
export const BACKUP_SORT_KEYS = [
  'backupTime',
  'name',
  'node',
  'vmid',
  'backupType',
  'size',
  'storage',
  'verified',
  'type',
  'owner',
] as const
export type BackupSortKey = (typeof BACKUP_SORT_KEYS)[number]

/** Chart ranges in days (spec 000 §9), default 30. */
export const BACKUP_CHART_RANGES = [7, 30, 90, 365] as const
export type BackupChartRange = (typeof BACKUP_CHART_RANGES)[number]

/** The viewMode → backupType mapping of spec 000 §4. */
export const VIEW_MODE_CLASS: Readonly<Record<BackupViewMode, BackupClass | null>> = {
  all: null,
  snapshot: 'snapshot',
  pve: 'local',
  pbs: 'remote',
}

/** One normalised backup record (spec 000 §3), built once per data change. */
export interface BackupRecord {
  backupType: BackupClass
  /** The VMID, or the host name of a PBS host backup. */
  vmid: string
  name: string
  type: BackupGuestType
  /** PVE node; for a PBS backup the PBS instance name. */
  node: string
  instance: string
  /** Epoch seconds. */
  backupTime: number
  backupName: string
  description: string
  /** 'ok', or the PBS verification state ('ok', 'failed', 'none'). */
  status: string
  size: number
  storage: string
  datastore: string
  /** '' is the root namespace. */
  namespace: string
  verified: boolean
  protected: boolean
  encrypted: boolean
  owner: string
}

/** A PBS datastore and namespace scope (the `pbs:` term and the namespace selector). */
export interface BackupScope {
  instance: string
  datastore: string
  /** '' for the root namespace. */
  namespace: string
}

/** What the UI asks the worker for. */
export interface BackupsViewRequest {
  kind: 'backups'
  search: string
  viewMode: BackupViewMode
  typeFilter: BackupTypeFilter
  grouping: BackupGrouping
  sort: { key: BackupSortKey; direction: SortDirection }
  range: BackupChartRange
  /** Local day number (days since 1970-01-01 in local time) chosen on the chart, or null. */
  selectedDay: number | null
  /** Node id (`<instance>-<name>`) or PBS id (`pbs-<name>`) from the node summary, or null. */
  selectedNode: string | null
  /** PBS datastore/namespace chosen in the selector, or null. */
  scope: BackupScope | null
  window: ViewWindow
}

/** A group header row (a day or a guest). */
export interface BackupGroupRow {
  kind: 'group'
  key: string
  label: string
  count: number
}

/** One record formatted for display; times stay numbers so the UI can show relative times. */
export interface BackupRow {
  kind: 'backup'
  key: string
  backupType: BackupClass
  /** 'Snapshot', 'PVE' or 'PBS'. */
  classLabel: string
  vmid: string
  type: BackupGuestType
  name: string
  node: string
  owner: string
  /** Epoch seconds. */
  backupTime: number
  size: number
  sizeText: string
  /** Spec 000 §9 size colour; grey when the size is unknown (0). */
  sizeColour: Colour
  /** Backup (name) column; local names shortened to 30 characters. */
  backupName: string
  backupNameFull: string
  /** Storage, or datastore with its namespace. */
  location: string
  verified: boolean
  protected: boolean
  encrypted: boolean
  /** Details truncated at 35 characters (32 and an ellipsis); full text in `detailsFull`. */
  details: string
  detailsFull: string
}

export type BackupViewRow = BackupGroupRow | BackupRow

/** Stacked counts per day of the chart range (spec 000 §9). */
export interface BackupChartData {
  range: BackupChartRange
  /** Local day numbers, oldest first; one per day of the range ending today. */
  days: number[]
  snapshot: number[]
  pve: number[]
  pbs: number[]
  /** Largest daily total (0 when the range is empty). */
  max: number
}

/** What the worker pushes. */
export interface BackupsViewModel {
  kind: 'backups'
  version: number
  /** PVE nodes plus PBS instances: 0 means 'No backup sources configured'. */
  sources: number
  /** False until the server has sent any PVE backup data. */
  loaded: boolean
  totals: { records: number; matched: number; snapshot: number; local: number; remote: number }
  /** Any Host-class record exists: the type filter offers Host. */
  hasHostBackups: boolean
  /** Average PBS deduplication factor ('3.2x'), or null without any factor. */
  dedupText: string | null
  /** Every PBS datastore namespace, for the node/namespace selector. */
  scopes: BackupScope[]
  /** Today's local day number, for the chart labels and 'Today'. */
  today: number
  chart: BackupChartData
  rowCount: number
  start: number
  rows: BackupViewRow[]
}

/** Sort keys whose first header click is descending (spec 000 §9). */
export const DESCENDING_FIRST: ReadonlySet<BackupSortKey> = new Set(['backupTime', 'size'])

/** The §4 Reset defaults with a first window. */
export const DEFAULT_BACKUPS_VIEW_REQUEST: Readonly<BackupsViewRequest> = {
  kind: 'backups',
  search: '',
  viewMode: 'all',
  typeFilter: 'all',
  grouping: 'date',
  sort: { key: 'backupTime', direction: 'desc' },
  range: 30,
  selectedDay: null,
  selectedNode: null,
  scope: null,
  window: { start: 0, count: 60 },
}
