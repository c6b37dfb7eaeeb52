// The node summary view (spec 000 §2.1): count → rows → sort → model, each stage memoized on input
// identity. Pure: the worker owns one view per subscription and calls `compute` on every flush.
import type {
  Entity,
  Guest,
  GuestSnapshot,
  PbsBackup,
  PveNode,
  StorageBackup,
} from '../model/state.ts'
import type { BackupNodeCounts, NormalisedBackups } from './backups-normalize.ts'
import type { SortDirection } from './guest-view-types.ts'
import { indexGuestNodes } from './guest-nodes.ts'
import { memoizeStage } from './memo.ts'
import {
  countBackupsByPlace,
  countByNode,
  toPbsEntry,
  toPveEntry,
  type NodeCounts,
  type NodeSummaryEntry,
} from './node-summary-rows.ts'
import type {
  NodeCountColumn,
  NodeSummaryRequest,
  NodeSummaryResult,
  NodeSummaryRow,
  NodeSummarySort,
  NodeSummarySortKey,
  NodeSummaryTab,
} from './node-summary-types.ts'

const EMPTY: readonly never[] = Object.freeze([])
const NO_PBS_BACKUPS: readonly PbsBackup[] = EMPTY

/** Count columns per tab. */
export const NODE_COUNT_COLUMNS: Readonly<Record<NodeSummaryTab, readonly NodeCountColumn[]>> = {
  dashboard: [
    { key: 'vms', label: 'VMs' },
    { key: 'containers', label: 'Containers' },
  ],
  storage: [
    { key: 'storage', label: 'Storage' },
    { key: 'disks', label: 'Disks' },
  ],
  backups: [{ key: 'backups', label: 'Backups' }],
}

/** Stages of the view, in order. */
export const NODE_SUMMARY_STAGES = ['index', 'counts', 'rows', 'sort', 'model'] as const
export type NodeSummaryStage = (typeof NODE_SUMMARY_STAGES)[number]

/** Live data the view reads. Arrays must keep their identity while unchanged. */
export interface NodeSummaryInput {
  nodes: readonly PveNode[]
  /** VMs and containers together. */
  guests: readonly Guest[]
  /** Backup servers (spec 000 §3 Backup server). */
  pbs: readonly Entity[]
  storage: readonly Entity[]
  physicalDisks: readonly Entity[]
  storageBackups?: readonly StorageBackup[]
  guestSnapshots?: readonly GuestSnapshot[]
  pbsBackups?: readonly PbsBackup[]
  /**
   * The normalised backups with their counts per place (the worker shares its incremental
   * normaliser with the Backups view): the backups tab then counts without reading every backup.
   * Called only on the backups tab.
   */
  backups?: () => NormalisedBackups
  /** A first load is still bringing guests: the VM and container counts are partial. */
  guestsLoading?: boolean
}

/** A memoized view; `runs` counts how often each stage actually ran (tests and benches). */
export interface NodeSummaryView {
  compute(input: NodeSummaryInput, request: NodeSummaryRequest): NodeSummaryResult
  readonly runs: Readonly<Record<NodeSummaryStage, number>>
}

/** The sort after a header click: first state, the flipped second state, then default order. */
export function nextNodeSummarySort(
  current: NodeSummarySort,
  key: NodeSummarySortKey,
): NodeSummarySort {
  const first: SortDirection = key === 'name' ? 'asc' : 'desc'
  if (!current || current.key !== key) return { key, direction: first }
  if (current.direction === first) return { key, direction: first === 'asc' ? 'desc' : 'asc' }
  return null
}

/** Create a view. Equal inputs give the identical result object, so callers can skip pushes. */
export function createNodeSummaryView(): NodeSummaryView {
  const runs = Object.fromEntries(NODE_SUMMARY_STAGES.map((stage) => [stage, 0])) as Record<
    NodeSummaryStage,
    number
  >
  const counted = <A extends readonly unknown[], R>(
    stage: NodeSummaryStage,
    run: (...args: A) => R,
  ) => memoizeStage(run, () => runs[stage]++)

  const index = counted('index', indexGuestNodes)
  // Counts depend on which node each guest maps to (the index signature), not on node metrics,
  // which change every poll: at 100k guests the count is the costly stage.
  let currentIndex: ReturnType<typeof indexGuestNodes> | null = null
  const count = counted(
    'counts',
    (
      tab: NodeSummaryTab,
      guests: readonly Guest[],
      storage: readonly Entity[],
      disks: readonly Entity[],
      storageBackups: readonly StorageBackup[],
      guestSnapshots: readonly GuestSnapshot[],
      pbsBackups: readonly PbsBackup[],
      _signature: string,
    ) =>
      countByNode(
        tab,
        { guests, storage, disks, storageBackups, guestSnapshots, pbsBackups },
        currentIndex!,
      ),
  )
  const countPlaces = counted(
    'counts',
    (places: BackupNodeCounts, _data: NormalisedBackups, _signature: string) =>
      countBackupsByPlace(places, currentIndex!),
  )
  const build = counted('rows', buildEntries)
  const sort = counted('sort', sortEntries)
  const toModel = counted(
    'model',
    (
      tab: NodeSummaryTab,
      built: BuiltRows,
      rows: NodeSummaryRow[],
      guestsLoading: boolean,
    ): NodeSummaryResult => ({
      kind: 'nodeSummary',
      tab,
      nameLabel: tab === 'backups' ? 'Node / PBS' : 'Node',
      diskLabel: tab === 'backups' ? 'Storage / Disk' : 'Disk',
      showTemperature: built.showTemperature,
      countColumns: [...NODE_COUNT_COLUMNS[tab]],
      guestsLoading,
      rows,
    }),
  )

  return {
    runs,
    compute(input, request) {
      const { tab } = request
      const nodes = index(input.nodes)
      currentIndex = nodes
      const backups = tab === 'backups' ? input.backups?.() : undefined
      // Only the collections the tab counts are passed, so others changing keeps the stage cached.
      const counts = backups?.nodeCounts
        ? countPlaces(backups.nodeCounts, backups, nodes.signature)
        : count(
            tab,
            // The backups tab counts a storage backup under its guest's node.
            tab === 'dashboard' || tab === 'backups' ? input.guests : EMPTY,
            tab === 'storage' ? input.storage : EMPTY,
            tab === 'storage' ? input.physicalDisks : EMPTY,
            tab === 'backups' ? (input.storageBackups ?? EMPTY) : EMPTY,
            tab === 'backups' ? (input.guestSnapshots ?? EMPTY) : EMPTY,
            tab === 'backups' ? (input.pbsBackups ?? NO_PBS_BACKUPS) : NO_PBS_BACKUPS,
            nodes.signature,
          )
      const built = build(tab, input.nodes, tab === 'backups' ? input.pbs : EMPTY, counts)
      const rows = sort(built.entries, request.sort?.key ?? null, request.sort?.direction ?? 'asc')
      return toModel(tab, built, rows, input.guestsLoading === true)
    },
  }
}

/** The node summary of `input` for `request`, computed from scratch (no memo). */
export function computeNodeSummary(
  input: NodeSummaryInput,
  request: NodeSummaryRequest,
): NodeSummaryResult {
  return createNodeSummaryView().compute(input, request)
}

interface BuiltRows {
  entries: NodeSummaryEntry[]
  /** Any node reports temperature available (spec 000 §2.1 optional Temp column). */
  showTemperature: boolean
}

function buildEntries(
  tab: NodeSummaryTab,
  nodes: readonly PveNode[],
  pbs: readonly Entity[],
  counts: NodeCounts,
): BuiltRows {
  const keys = NODE_COUNT_COLUMNS[tab].map((column) => column.key)
  const entries: NodeSummaryEntry[] = []
  let showTemperature = false
  for (const node of nodes) {
    entries.push(toPveEntry(node, counts, keys))
    if (node.temperature?.available) showTemperature = true
  }
  for (const server of pbs) entries.push(toPbsEntry(server, counts, keys))
  return { entries, showTemperature }
}

// Natural order for names: 'pve2' before 'pve10', case-insensitive.
const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' })

/** Default order: hypervisor nodes before backup servers, online before offline, then by name. */
function compareDefault(a: NodeSummaryRow, b: NodeSummaryRow): number {
  if (a.kind !== b.kind) return a.kind === 'pve' ? -1 : 1
  if (a.online !== b.online) return a.online ? -1 : 1
  return collator.compare(a.name, b.name) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
}

/** The value a row sorts by for a numeric key; NaN means empty (sorted last). */
function sortNumber(entry: NodeSummaryEntry, key: Exclude<NodeSummarySortKey, 'name'>): number {
  const row = entry.row
  switch (key) {
    case 'uptime':
      return entry.uptime
    case 'cpu':
      return row.cpuPercent < 0 ? NaN : row.cpuPercent
    case 'memory':
      return row.memoryPercent < 0 ? NaN : row.memoryPercent
    case 'disk':
      return row.diskPercent < 0 ? NaN : row.diskPercent
    case 'temperature':
      return row.temperature ?? NaN
    default:
      return row.counts[key] ?? NaN
  }
}

/** Rows in default order, or by one key with empty values last in both directions. */
function sortEntries(
  entries: readonly NodeSummaryEntry[],
  key: NodeSummarySortKey | null,
  direction: SortDirection,
): NodeSummaryRow[] {
  const dir = direction === 'desc' ? -1 : 1
  const indexed = entries.map((entry) => ({
    row: entry.row,
    value: key === null || key === 'name' ? NaN : sortNumber(entry, key),
  }))
  indexed.sort((a, b) => {
    if (key === null) return compareDefault(a.row, b.row)
    if (key === 'name') {
      const emptyA = !a.row.name
      const emptyB = !b.row.name
      if (emptyA || emptyB)
        return emptyA === emptyB ? compareDefault(a.row, b.row) : emptyA ? 1 : -1
      return collator.compare(a.row.name, b.row.name) * dir || compareDefault(a.row, b.row)
    }
    const emptyA = Number.isNaN(a.value)
    const emptyB = Number.isNaN(b.value)
    if (emptyA || emptyB) return emptyA === emptyB ? compareDefault(a.row, b.row) : emptyA ? 1 : -1
    return (a.value - b.value) * dir || compareDefault(a.row, b.row)
  })
  return indexed.map((item) => item.row)
}
