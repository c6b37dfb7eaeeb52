// The backups view pipeline: normalise → filter → chart buckets → sort → day → group → window.
// Pure: the worker owns one pipeline per subscription and calls `compute` on data or request change.
//
// Why this shape: normalising is the costly part; it reruns only when a source array changes
// identity, and then rebuilds only the records whose source objects changed
// (backups-incremental.ts). The full sorted order is cached per key and direction and carried over
// a data change by merging in the rebuilt records, so a keystroke costs one filter
// pass (narrowed by the term cache), a linear walk of the sorted order, a linear grouping and the
// formatting of the visible rows. The chart reads the filter result, so scrolling never touches it.
import type {
  Guest,
  GuestSnapshot,
  PbsBackup,
  PbsInstance,
  PveNode,
  StorageBackup,
} from '../model/state.ts'
import { bucketBackups, localDay } from './backups-dates.ts'
import {
  createTermCache,
  effectiveViewMode,
  filterBackups,
  selectSorted,
  type BackupMatch,
} from './backups-filter.ts'
import { formatDedupFactor, listBackupScopes, toBackupRow } from './backups-format.ts'
import { createBackupNormaliser } from './backups-incremental.ts'
import type { NormalisedBackups } from './backups-normalize.ts'
import { parseBackupSearch } from './backups-search.ts'
import {
  carrySortedOrder,
  getBackupSortValues,
  groupBackups,
  sortBackups,
  type BackupLayout,
} from './backups-sort.ts'
import type {
  BackupRecord,
  BackupScope,
  BackupsViewModel,
  BackupsViewRequest,
  BackupViewRow,
} from './backups-types.ts'
import { memoizeStage } from './memo.ts'

/** Stages of the backups pipeline, in order (tests and benches read `runs`). */
export const BACKUP_STAGES = [
  'normalise',
  'search',
  'filter',
  'chart',
  'values',
  'sort',
  'select',
  'group',
  'window',
  'model',
] as const
export type BackupStage = (typeof BACKUP_STAGES)[number]

/** Live data the pipeline reads; arrays keep their identity until their data changes. */
export interface BackupsViewInput {
  storageBackups: readonly StorageBackup[]
  guestSnapshots: readonly GuestSnapshot[]
  /** False until the server sent any PVE backup collection (empty ones count). */
  pveReceived: boolean
  pbsBackups: readonly PbsBackup[]
  pbs: readonly PbsInstance[]
  guests: readonly Guest[]
  nodes: readonly PveNode[]
  /** Epoch ms: what 'Today' is. */
  now: number
  /**
   * The normalised sources from a normaliser shared with other views (the worker's, one per
   * store); without it the pipeline normalises with its own.
   */
  normalised?: () => NormalisedBackups
}

/** A view model before the worker stamps its version. */
export type BackupsViewResult = Omit<BackupsViewModel, 'version'>

/** A pipeline; `runs` counts how often each stage actually ran. */
export interface BackupsViewPipeline {
  compute(input: BackupsViewInput, request: BackupsViewRequest): BackupsViewResult
  readonly runs: Readonly<Record<BackupStage, number>>
}

/** Create a pipeline. Equal inputs give the identical result object, so callers can skip pushes. */
export function createBackupsViewPipeline(): BackupsViewPipeline {
  const runs = Object.fromEntries(BACKUP_STAGES.map((stage) => [stage, 0])) as Record<
    BackupStage,
    number
  >
  const counted = <A extends readonly unknown[], R>(stage: BackupStage, run: (...args: A) => R) =>
    memoizeStage(run, () => runs[stage]++)

  const normaliser = createBackupNormaliser()
  const normalise = counted(
    'normalise',
    (
      guestSnapshots: readonly GuestSnapshot[],
      storageBackups: readonly StorageBackup[],
      pbsBackups: readonly PbsBackup[],
      guests: readonly Guest[],
    ) => normaliser({ guestSnapshots, storageBackups, pbsBackups, guests }),
  )
  // A shared normaliser's result passes through; `runs` still counts each new one.
  const shared = counted('normalise', (data: NormalisedBackups) => data)
  const parse = counted('search', parseBackupSearch)
  const termList = createTermCache()
  // The scope object arrives fresh with every request: compare it by value.
  let scopeKey = ''
  let scopeValue: BackupScope | null = null
  const sameScope = (scope: BackupScope | null) => {
    const key = scope ? JSON.stringify([scope.instance, scope.datastore, scope.namespace]) : ''
    if (key !== scopeKey) {
      scopeKey = key
      scopeValue = scope
    }
    return scopeValue
  }
  const filter = counted(
    'filter',
    (
      data: NormalisedBackups,
      search: ReturnType<typeof parseBackupSearch>,
      viewMode: BackupsViewRequest['viewMode'],
      typeFilter: BackupsViewRequest['typeFilter'],
      selectedNode: string | null,
      scope: BackupScope | null,
    ) => filterBackups(data, search, { viewMode, typeFilter, selectedNode, scope }, termList),
  )
  const chart = counted(
    'chart',
    (
      data: NormalisedBackups,
      match: BackupMatch,
      range: BackupsViewRequest['range'],
      today: number,
    ) => bucketBackups(match.order, data.days, data.classes, range, today, data.classCounts?.byDay),
  )
  // One sorted order per key and direction. When the records change incrementally, the orders
  // of the previous records are kept aside and carried over when a key is next asked for.
  let sortSource: NormalisedBackups | null = null
  const values = new Map<string, Float64Array>()
  let orders = new Map<string, Uint32Array>()
  let carry: { orders: Map<string, Uint32Array>; data: NormalisedBackups } | null = null
  const sorted = (data: NormalisedBackups, request: BackupsViewRequest) => {
    if (sortSource !== data) {
      const direct = sortSource !== null && data.change?.previous === sortSource
      carry = direct ? { orders, data } : null
      sortSource = data
      values.clear()
      orders = new Map()
    }
    const { key, direction } = request.sort
    const cacheKey = `${key}:${direction}`
    let order = orders.get(cacheKey)
    if (!order) {
      let keyValues = values.get(key)
      if (!keyValues) {
        runs.values++
        keyValues = getBackupSortValues(data, key)
        values.set(key, keyValues)
      }
      runs.sort++
      const previous = carry?.data === data ? carry.orders.get(cacheKey) : undefined
      order =
        previous && data.change
          ? carrySortedOrder(data, keyValues, direction, previous, data.change)
          : sortBackups(data, keyValues, direction)
      orders.set(cacheKey, order)
    }
    return order
  }
  const select = counted(
    'select',
    (order: Uint32Array, match: BackupMatch, days: Int32Array, day: number | null) =>
      selectSorted(order, match, days, day),
  )
  const group = counted('group', groupBackups)
  const windowRows = counted(
    'window',
    (data: NormalisedBackups, layout: BackupLayout, start: number, count: number) =>
      formatBackupWindow(data.records, layout, start, count),
  )
  const dedup = memoizeStage(formatDedupFactor)
  const scopes = memoizeStage(listBackupScopes)
  const toModel = counted(
    'model',
    (
      sources: number,
      loaded: boolean,
      data: NormalisedBackups,
      match: BackupMatch,
      chartData: BackupsViewResult['chart'],
      layout: BackupLayout,
      slice: { start: number; rows: BackupViewRow[] },
      dedupText: string | null,
      scopeList: BackupScope[],
      today: number,
    ): BackupsViewResult => ({
      kind: 'backups',
      sources,
      loaded,
      totals: {
        records: data.records.length,
        matched: layout.length - layout.groups.length,
        snapshot: match.counts.snapshot,
        local: match.counts.local,
        remote: match.counts.remote,
      },
      hasHostBackups: data.hasHost,
      dedupText,
      scopes: scopeList,
      today,
      chart: chartData,
      rowCount: layout.length,
      start: slice.start,
      rows: slice.rows,
    }),
  )

  return {
    runs,
    compute(input, request) {
      const today = localDay(input.now / 1000)
      const data = input.normalised
        ? shared(input.normalised())
        : normalise(input.guestSnapshots, input.storageBackups, input.pbsBackups, input.guests)
      const search = parse(request.search)
      const viewMode = effectiveViewMode(request.viewMode, request.selectedNode)
      const match = filter(
        data,
        search,
        viewMode,
        request.typeFilter,
        request.selectedNode,
        sameScope(request.scope),
      )
      const chartData = chart(data, match, request.range, today)
      const order = select(sorted(data, request), match, data.days, request.selectedDay)
      const layout = group(data, order, request.grouping, request.sort.key, today)
      const slice = windowRows(data, layout, request.window.start, request.window.count)
      const loaded = input.pveReceived || input.pbsBackups.length > 0
      return toModel(
        input.nodes.length + input.pbs.length,
        loaded,
        data,
        match,
        chartData,
        layout,
        slice,
        dedup(input.pbs),
        scopes(input.pbs),
        today,
      )
    },
  }
}

/** Rows [start, start + count) of the layout, headers included. */
export function formatBackupWindow(
  records: readonly BackupRecord[],
  layout: BackupLayout,
  start: number,
  count: number,
): { start: number; rows: BackupViewRow[] } {
  const from = Math.max(0, Math.min(start, layout.length))
  const to = Math.min(layout.length, from + Math.max(0, count))
  const rows: BackupViewRow[] = []
  for (let k = from; k < to; k++) {
    const entry = layout.entryAt(k)
    if (entry < 0) {
      const group = layout.groups[-entry - 1]!
      rows.push({ kind: 'group', key: group.key, label: group.label, count: group.count })
    } else rows.push(toBackupRow(records[entry]!, `b:${entry}`))
  }
  return { start: from, rows }
}
