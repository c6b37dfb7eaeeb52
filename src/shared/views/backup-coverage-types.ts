// The backup coverage view protocol (issue 26 item 5): one row per guest and per orphaned backup
// group, worst first, with the counts on top. Pure types and constants.
import type { AlertLevel } from '../model/alerts.ts'
import type { CoverageState, JobRunState } from '../model/backup-health.ts'
import type { Colour } from '../format/thresholds.ts'
import type { SortDirection, ViewWindow } from './guest-view-types.ts'

/** The filter chips: everything, or one kind of trouble. */
export const COVERAGE_FILTERS = ['all', 'overdue', 'never', 'noJob', 'failed', 'orphaned'] as const
export type CoverageFilter = (typeof COVERAGE_FILTERS)[number]

/** Sortable columns; 'worst' is the default order (see backup-coverage-rank.ts). */
export const COVERAGE_SORT_KEYS = [
  'worst',
  'name',
  'vmid',
  'node',
  'newest',
  'size',
  'lastJob',
  'coverage',
] as const
export type CoverageSortKey = (typeof COVERAGE_SORT_KEYS)[number]

export interface BackupCoverageRequest {
  kind: 'backupCoverage'
  /** Plain terms (all must match) over name, vmid, node, instance and location. */
  search: string
  filter: CoverageFilter
  sort: { key: CoverageSortKey; direction: SortDirection }
  window: ViewWindow
}

export const DEFAULT_COVERAGE_REQUEST: BackupCoverageRequest = {
  kind: 'backupCoverage',
  search: '',
  filter: 'all',
  sort: { key: 'worst', direction: 'asc' },
  window: { start: 0, count: 60 },
}

/** One guest (or orphaned group), formatted. */
export interface CoverageRow {
  /** The GuestBackup id. */
  id: string
  name: string
  vmid: number
  typeLabel: 'VM' | 'CT'
  node: string
  instance: string
  template: boolean
  orphaned: boolean
  /** 'YYYY-MM-DD HH:mm', '' when never backed up. */
  newestText: string
  /** '4d ago', 'never'. */
  ageText: string
  /** Spec 000 §9 age colour; red for never. */
  ageColour: Colour
  /** The guest's own backup-age alert level (its limits), null when not overdue. */
  overdue: AlertLevel | null
  /** 'PVE', 'PBS' or ''. */
  sourceLabel: string
  location: string
  sizeText: string
  count: number
  /** null: no vzdump task known for this guest. */
  lastJob: { state: JobRunState; timeText: string; error: string; taskId: string } | null
  coverage: CoverageState
  coverageLabel: string
  verifyFailed: number
}

/** The counts on top. "Last night" is the last 24 hours (decided: see countsText). */
export interface CoverageCounts {
  /** Guests (orphaned groups excluded). */
  guests: number
  backedUp24h: number
  /** Not templates; a backup older than the guest's warning limit. */
  overdue: number
  never: number
  /** Coverage 'none' or 'disabled': no enabled job selects the guest. */
  noJob: number
  /** The guest's newest vzdump result is a failure that ended in the last 24 h. */
  failed24h: number
  /** Any last job failed, whenever. */
  failed: number
  orphaned: number
}

export interface BackupCoverageModel {
  kind: 'backupCoverage'
  version: number
  /** False until the guest backup summaries have arrived (the page shows loading, not "0 of 0"). */
  loaded: boolean
  /** False while the alert config (for "overdue") is unknown: overdue counts read 0. */
  limitsKnown: boolean
  counts: CoverageCounts
  /** '1,912 of 2,025 guests backed up in the last 24 h; 31 overdue; 7 in no job; 2 failed last night'. */
  countsText: string
  /** Rows the filter and search keep. */
  rowCount: number
  start: number
  rows: CoverageRow[]
}
