// The storage tab view (spec 000 §2.3): pools (rows → Ceph → filter → sort → layout) and disks
// (rows → filter), each stage memoized on input identity. Pure: the worker owns one view per
// subscription and calls `compute` on every flush.
import type { CephCluster, Entity, PhysicalDisk, PveNode, Storage } from '../model/state.ts'
import { indexGuestNodes, type GuestNodeIndex } from './guest-nodes.ts'
import { memoizeStage } from './memo.ts'
import { attachCeph } from './storage-ceph.ts'
import { filterDiskRows, noDisksText, toDiskRows } from './storage-disks.ts'
import {
  matchesStorageSearch,
  parseStorageSearch,
  sortPoolRows,
  toMergedPoolRows,
  toNodePoolRows,
} from './storage-pools.ts'
import type {
  DiskRow,
  StorageEmptyText,
  StorageListRow,
  StoragePoolRow,
  StorageViewMode,
  StorageViewRequest,
  StorageViewResult,
  StorageZfsIssue,
} from './storage-types.ts'
import type { SortDirection } from './guest-view-types.ts'
import type { StorageSortKey } from './storage-types.ts'

/** Stages of the view, in order. */
export const STORAGE_STAGES = [
  'pools',
  'ceph',
  'filter',
  'sort',
  'layout',
  'disks',
  'diskFilter',
  'model',
] as const
export type StorageStage = (typeof STORAGE_STAGES)[number]

/** Live data the view reads. Arrays must keep their identity while unchanged. */
export interface StorageViewInput {
  nodes: readonly PveNode[]
  storage: readonly Entity[]
  cephClusters: readonly Entity[]
  physicalDisks: readonly Entity[]
}

/** A memoized view; `runs` counts how often each stage actually ran (tests and benches). */
export interface StorageView {
  compute(input: StorageViewInput, request: StorageViewRequest): StorageViewResult
  readonly runs: Readonly<Record<StorageStage, number>>
}

/** Spec 000 §8 'No storage configured' text. */
export const NO_STORAGE_CONFIGURED: StorageEmptyText = {
  title: 'No storage configured',
  description: 'Add a hypervisor or backup-server node in Settings to see its storage.',
}

/** 'No storage found' with the search term, or the generic text when only filters apply. */
export function noStorageText(search: string): StorageEmptyText {
  const term = search.trim()
  return {
    title: 'No storage found',
    description: term
      ? `No storage matches your search "${term}"`
      : 'No storage matches your current filters',
  }
}

/** Create a view. Equal inputs give the identical result object, so callers can skip pushes. */
export function createStorageView(): StorageView {
  const runs = Object.fromEntries(STORAGE_STAGES.map((stage) => [stage, 0])) as Record<
    StorageStage,
    number
  >
  const counted = <A extends readonly unknown[], R>(stage: StorageStage, run: (...args: A) => R) =>
    memoizeStage(run, () => runs[stage]++)

  // Node metrics change every poll, but rows depend only on which nodes exist (the signature).
  let index: GuestNodeIndex = indexGuestNodes([])
  let indexedNodes: readonly PveNode[] | null = null
  const pools = counted(
    'pools',
    (mode: StorageViewMode, storage: readonly Storage[], _signature: string) =>
      mode === 'storage' ? toMergedPoolRows(storage, index) : toNodePoolRows(storage, index),
  )
  const ceph = counted('ceph', attachCeph)
  const filter = counted('filter', filterPools)
  const sort = counted('sort', sortPoolRows)
  const layout = counted('layout', layoutRows)
  const disks = counted('disks', (all: readonly PhysicalDisk[], _signature: string) =>
    toDiskRows(all, index),
  )
  const diskFilter = counted('diskFilter', filterDiskRows)
  const toModel = counted('model', buildModel)

  return {
    runs,
    compute(input, request) {
      if (input.nodes !== indexedNodes) {
        const next = indexGuestNodes(input.nodes)
        if (next.signature !== index.signature || indexedNodes === null) index = next
        indexedNodes = input.nodes
      }
      const storage = input.storage as unknown as readonly Storage[]
      const clusters = input.cephClusters as unknown as readonly CephCluster[]
      const base = pools(request.viewMode, storage, index.signature)
      const withCeph = ceph(base, storage, clusters)
      const shown = filter(withCeph, request.selectedNode, request.search)
      const sorted = sort(shown, request.sort.key, request.sort.direction)
      const rows = layout(sorted, request.viewMode, request.sort.key, request.sort.direction)
      const diskRows = disks(
        input.physicalDisks as unknown as readonly PhysicalDisk[],
        index.signature,
      )
      const diskShown = diskFilter(diskRows, request.selectedNode, request.diskSearch)
      const nodeName =
        request.selectedNode === null
          ? null
          : (index.byId.get(request.selectedNode)?.name ?? request.selectedNode)
      return toModel(
        request.viewMode,
        storage.length,
        sorted,
        rows,
        request.search,
        diskRows.length,
        diskShown,
        nodeName,
        request.diskSearch,
      )
    },
  }
}

/** The storage view of `input` for `request`, computed from scratch (no memo). */
export function computeStorageView(
  input: StorageViewInput,
  request: StorageViewRequest,
): StorageViewResult {
  return createStorageView().compute(input, request)
}

/** Rows on the selected node that match the search. */
function filterPools(
  rows: readonly StoragePoolRow[],
  selectedNode: string | null,
  search: string,
): StoragePoolRow[] {
  const parsed = parseStorageSearch(search)
  return rows.filter(
    (row) =>
      (selectedNode === null || row.nodeIds.includes(selectedNode)) &&
      matchesStorageSearch(row, parsed),
  )
}

const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' })

/** By node: a header per node (by name; reversed for a node sort descending) over its rows. */
function layoutRows(
  rows: readonly StoragePoolRow[],
  mode: StorageViewMode,
  key: StorageSortKey,
  direction: SortDirection,
): StorageListRow[] {
  if (mode === 'storage') return [...rows]
  const groups = new Map<string, { label: string; rows: StoragePoolRow[] }>()
  for (const row of rows) {
    const nodeId = row.nodeIds[0] ?? row.node
    let group = groups.get(nodeId)
    if (!group) groups.set(nodeId, (group = { label: row.node, rows: [] }))
    group.rows.push(row)
  }
  const dir = key === 'node' && direction === 'desc' ? -1 : 1
  const ordered = [...groups.entries()].sort(
    ([idA, a], [idB, b]) => collator.compare(a.label, b.label) * dir || (idA < idB ? -1 : 1),
  )
  const out: StorageListRow[] = []
  for (const [nodeId, group] of ordered) {
    out.push({
      kind: 'group',
      key: `node:${nodeId}`,
      nodeId,
      label: group.label,
      count: group.rows.length,
    })
    out.push(...group.rows)
  }
  return out
}

function buildModel(
  viewMode: StorageViewMode,
  storageCount: number,
  pools: readonly StoragePoolRow[],
  rows: StorageListRow[],
  search: string,
  diskCount: number,
  disks: DiskRow[],
  nodeName: string | null,
  diskSearch: string,
): StorageViewResult {
  const zfsIssues: StorageZfsIssue[] = []
  for (const pool of pools) {
    if (pool.zfsErrors) {
      zfsIssues.push({ ...pool.zfsErrors, key: pool.key, storage: pool.name, node: pool.node })
    }
  }
  return {
    kind: 'storage',
    viewMode,
    storageCount,
    poolCount: pools.length,
    rows,
    zfsIssues,
    poolsEmpty:
      storageCount === 0
        ? NO_STORAGE_CONFIGURED
        : pools.length === 0
          ? noStorageText(search)
          : null,
    diskCount,
    disks,
    disksEmpty: disks.length === 0 ? noDisksText(nodeName, diskSearch) : null,
  }
}
