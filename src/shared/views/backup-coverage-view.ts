// The backup coverage view pipeline (issue 26 item 5): limits → derive → rank (per minute) →
// sort (carried over changes) → filter and search → window → model. Pure: the worker owns one
// pipeline per subscription and calls `compute` on each flush; a flush that touches none of the
// inputs (and stays in the same minute) returns the identical model.
import { formatBytes } from '../format/bytes.ts'
import { formatLocalDateTime } from '../format/date-time.ts'
import type { AlertConfig } from '../model/alerts.ts'
import type { CoverageState, GuestBackup } from '../model/backup-health.ts'
import type { Guest } from '../model/state.ts'
import { formatBackupAge, getBackupAgeColour } from './backups-format.ts'
import { parseBackupSearch } from './backups-search.ts'
import {
  createCoverageDeriver,
  createLimitsOf,
  hasBackupRules,
  passesFilter,
  rankCoverage,
  searchText,
  sortCoverage,
  type CoverageDerived,
  type CoverageEntry,
} from './backup-coverage-rank.ts'
import type {
  BackupCoverageModel,
  BackupCoverageRequest,
  CoverageCounts,
  CoverageRow,
  CoverageSortKey,
} from './backup-coverage-types.ts'
import type { SortDirection } from './guest-view-types.ts'
import { memoizeStage } from './memo.ts'

/** Stages of the pipeline, in order (tests and benches read `runs`). */
export const COVERAGE_STAGES = ['limits', 'derive', 'rank', 'sort', 'filter', 'model'] as const
export type CoverageStage = (typeof COVERAGE_STAGES)[number]

export interface BackupCoverageInput {
  guestBackups: readonly GuestBackup[]
  /** For the custom rules' matching only; same identity until guests are added or renamed. */
  guests: readonly Guest[]
  /** The alert config the worker holds (null before the UI sent one). */
  config: AlertConfig | null
  /** The summaries have arrived (an empty estate counts). */
  loaded: boolean
  /** Epoch ms. */
  now: number
}

export type BackupCoverageResult = Omit<BackupCoverageModel, 'version'>

export interface BackupCoveragePipeline {
  compute(input: BackupCoverageInput, request: BackupCoverageRequest): BackupCoverageResult
  readonly runs: Readonly<Record<CoverageStage, number>>
  /** Entries derived (new or changed summaries) by the last derive run. */
  readonly derived: number
}

const COVERAGE_LABELS: Record<CoverageState, string> = {
  enabled: 'In a job',
  disabled: 'Disabled job only',
  none: 'No job',
  unknown: 'Unknown',
}

/** Create a pipeline. */
export function createBackupCoveragePipeline(): BackupCoveragePipeline {
  const runs = Object.fromEntries(COVERAGE_STAGES.map((stage) => [stage, 0])) as Record<
    CoverageStage,
    number
  >
  const counted = <A extends readonly unknown[], R>(stage: CoverageStage, run: (...args: A) => R) =>
    memoizeStage(run, () => runs[stage]++)
  const limits = counted('limits', createLimitsOf)
  const needsGuests = memoizeStage(hasBackupRules)
  const deriver = createCoverageDeriver()
  const derive = counted('derive', deriver.derive)
  // The ranks depend on the time: the minute, so flushes inside one minute reuse them.
  const rank = counted('rank', (derived: CoverageDerived, minute: number) => ({
    derived,
    counts: rankCoverage(derived.entries, minute * 60),
  }))
  let sortedFor = ''
  let sortedOrder: CoverageEntry[] | null = null
  const sort = counted(
    'sort',
    (ranked: { derived: CoverageDerived }, key: CoverageSortKey, dir: SortDirection) => {
      const sortKey = `${key}:${dir}`
      const previous = sortedFor === sortKey ? sortedOrder : null
      sortedOrder = sortCoverage(ranked.derived, key, dir, previous)
      sortedFor = sortKey
      return sortedOrder
    },
  )
  const filter = counted(
    'filter',
    (order: CoverageEntry[], chip: BackupCoverageRequest['filter'], search: string) => {
      const { terms } = parseBackupSearch(search)
      if (chip === 'all' && terms.length === 0) return order
      return order.filter(
        (entry) =>
          passesFilter(entry, chip) && terms.every((term) => searchText(entry).includes(term)),
      )
    },
  )
  const toModel = counted(
    'model',
    (
      matched: CoverageEntry[],
      counts: CoverageCounts,
      loaded: boolean,
      limitsKnown: boolean,
      start: number,
      count: number,
      minute: number,
    ): BackupCoverageResult => {
      const from = Math.max(0, Math.min(start, matched.length))
      const to = Math.min(matched.length, from + Math.max(0, count))
      const rows: CoverageRow[] = []
      for (let k = from; k < to; k++) rows.push(toCoverageRow(matched[k]!, minute * 60_000))
      return {
        kind: 'backupCoverage',
        loaded,
        limitsKnown,
        counts,
        countsText: formatCoverageCounts(counts, limitsKnown),
        rowCount: matched.length,
        start: from,
        rows,
      }
    },
  )

  return {
    runs,
    get derived() {
      return deriver.built
    },
    compute(input, request) {
      const minute = Math.floor(input.now / 60_000)
      // The guests matter only to custom rules: without them, a guest added keeps the entries.
      const limitsOf = limits(input.config, needsGuests(input.config) ? input.guests : EMPTY)
      const ranked = rank(derive(input.guestBackups, limitsOf), minute)
      const order = sort(ranked, request.sort.key, request.sort.direction)
      const matched = filter(order, request.filter, request.search)
      return toModel(
        matched,
        ranked.counts,
        input.loaded,
        input.config !== null,
        request.window.start,
        request.window.count,
        minute,
      )
    },
  }
}

const EMPTY: readonly Guest[] = []

const n = (value: number) => value.toLocaleString('en-US')

/**
 * '1,912 of 2,025 guests backed up in the last 24 h; 31 overdue; 7 in no job; 2 failed last
 * night'. "Last night" means a failed last job that ended in the last 24 hours.
 */
export function formatCoverageCounts(counts: CoverageCounts, limitsKnown: boolean): string {
  const parts = [
    `${n(counts.backedUp24h)} of ${n(counts.guests)} ${counts.guests === 1 ? 'guest' : 'guests'} backed up in the last 24 h`,
  ]
  if (limitsKnown) parts.push(`${n(counts.overdue)} overdue`)
  parts.push(`${n(counts.noJob)} in no job`)
  parts.push(`${n(counts.failed24h)} failed last night`)
  return parts.join('; ')
}

/** One entry, formatted for display at `nowMs`. */
export function toCoverageRow(entry: CoverageEntry, nowMs: number): CoverageRow {
  const e = entry.entity
  const never = e.newest <= 0
  const job = e.lastJob
  return {
    id: e.id,
    name: e.name || (e.orphaned ? `Orphaned ${e.vmid}` : String(e.vmid)),
    vmid: e.vmid,
    typeLabel: e.type === 'lxc' ? 'CT' : 'VM',
    node: e.node,
    instance: e.instance,
    template: e.template,
    orphaned: e.orphaned,
    newestText: never ? '' : formatLocalDateTime(e.newest * 1000, false),
    ageText: never ? 'never' : formatBackupAge(e.newest, nowMs),
    ageColour: never ? 'red' : getBackupAgeColour(nowMs / 1000 - e.newest),
    overdue: entry.level,
    sourceLabel: e.newestSource === 'pbs' ? 'PBS' : e.newestSource === 'pve' ? 'PVE' : '',
    location: e.newestLocation ?? '',
    sizeText: e.newestSize ? formatBytes(e.newestSize) : '',
    count: e.count,
    lastJob: job
      ? {
          state: job.state,
          timeText: job.time > 0 ? formatLocalDateTime(job.time * 1000, false) : '',
          error: job.error ?? '',
          taskId: job.taskId,
        }
      : null,
    coverage: e.coverage,
    coverageLabel: e.orphaned ? '' : COVERAGE_LABELS[e.coverage],
    verifyFailed: e.verifyFailed,
  }
}
