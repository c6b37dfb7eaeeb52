// Storage pool rows (spec 000 §2.3 Storage Pools, §3 Storage, §5 Storage search, §9 storage sort
// and usage colours): per node, merged by storage, searched and sorted. Pure.
import { formatBytes } from '../format/bytes.ts'
import { formatForecast } from './storage-forecast.ts'
import { formatPercent } from '../format/percent.ts'
import { getStorageUsageColour } from '../format/thresholds.ts'
import type { Storage } from '../model/state.ts'
import type { SortDirection } from './guest-view-types.ts'
import type { GuestNodeIndex } from './guest-nodes.ts'
import { findGuestNode } from './guest-nodes.ts'
import { summarizeZfsErrors } from './storage-zfs.ts'
import type { StoragePoolRow, StorageSortKey } from './storage-types.ts'
import { toNumber as num } from '../model/coerce.ts'

/** Storage types backed by Ceph (their rows expand into the Ceph panel). */
export const CEPH_STORAGE_TYPES: readonly string[] = ['rbd', 'cephfs', 'ceph']

/** True for a Ceph-backed storage type. */
export function isCephType(type: string): boolean {
  return CEPH_STORAGE_TYPES.includes(type.toLowerCase())
}

// Wire values can be missing or strings on older servers: read every number defensively.
function text(value: unknown): string {
  return typeof value === 'string' ? value : value == null ? '' : String(value)
}

/** The node id of a storage entry's node: the known node's id, else `<instance>-<node>`. */
export function storageNodeId(index: GuestNodeIndex, instance: string, node: string): string {
  return findGuestNode(index, { instance, node })?.id ?? (instance ? `${instance}-${node}` : node)
}

/** Usage percent of used/total; the entry's own usage when total is unknown. */
function usageOf(total: number, used: number, reported: number): number {
  if (total > 0) return Math.min(100, Math.max(0, (used / total) * 100))
  return Math.max(0, reported)
}

/** A pool row from the sizes and identity of one storage (or one merged shared storage). */
function toPoolRow(
  entry: Storage,
  key: string,
  nodes: string[],
  nodeIds: string[],
  sizes: { total: number; used: number; free: number },
): StoragePoolRow {
  const usage = usageOf(sizes.total, sizes.used, num(entry.usage))
  const status = text(entry.status) || 'unknown'
  const type = text(entry.type)
  return {
    kind: 'pool',
    key,
    id: text(entry.id),
    name: text(entry.name),
    node: nodes.join(', '),
    nodes,
    nodeIds,
    instance: text(entry.instance),
    type,
    content: text(entry.content),
    pbsNames: pbsNamesOf(entry),
    status,
    available: status === 'available',
    shared: entry.shared === true,
    total: sizes.total,
    used: sizes.used,
    free: sizes.free,
    usage,
    usageText: formatPercent(usage),
    usageDetail: `${formatBytes(sizes.used)} / ${formatBytes(sizes.total)}`,
    usageColour: getStorageUsageColour(usage),
    freeText: formatBytes(sizes.free),
    totalText: formatBytes(sizes.total),
    zfsErrors: summarizeZfsErrors(entry.zfsPool),
    ceph: null,
    forecast: formatForecast(entry.forecast),
  }
}

// Not in the wire type (our server sends none) but part of spec 000 §3: read when present.
function pbsNamesOf(entry: Storage): string[] {
  const names = (entry as { pbsNames?: unknown }).pbsNames
  return Array.isArray(names)
    ? names.filter((name): name is string => typeof name === 'string')
    : []
}

function sizesOf(entry: Storage): { total: number; used: number; free: number } {
  const total = num(entry.total)
  const used = num(entry.used)
  const free = entry.free === undefined ? Math.max(0, total - used) : num(entry.free)
  return { total, used, free }
}

/** One row per storage entry, as the server sends them (one per node). */
export function toNodePoolRows(
  storage: readonly Storage[],
  index: GuestNodeIndex,
): StoragePoolRow[] {
  return storage.map((entry) => {
    const node = text(entry.node)
    const id = storageNodeId(index, text(entry.instance), node)
    return toPoolRow(
      entry,
      text(entry.id) || `${id}-${text(entry.name)}`,
      [node],
      [id],
      sizesOf(entry),
    )
  })
}

/**
 * One row per storage: a shared storage seen on several nodes of an instance is one pool, so its
 * rows merge into one with every node listed and its size counted once (the largest report wins,
 * a node that cannot see it reports 0). Local storage keeps one row per node. Rows whose total is
 * 0 are dropped (spec 000 §5).
 */
export function toMergedPoolRows(
  storage: readonly Storage[],
  index: GuestNodeIndex,
): StoragePoolRow[] {
  const merged = new Map<
    string,
    { first: Storage; best: Storage; nodes: string[]; ids: string[] }
  >()
  const order: string[] = []
  for (const entry of storage) {
    const node = text(entry.node)
    const instance = text(entry.instance)
    const key =
      entry.shared === true ? `shared:${instance}:${text(entry.name)}` : `local:${text(entry.id)}`
    const id = storageNodeId(index, instance, node)
    const group = merged.get(key)
    if (!group) {
      merged.set(key, { first: entry, best: entry, nodes: [node], ids: [id] })
      order.push(key)
      continue
    }
    if (!group.nodes.includes(node)) group.nodes.push(node)
    if (!group.ids.includes(id)) group.ids.push(id)
    if (num(entry.total) > num(group.best.total)) group.best = entry
  }
  const rows: StoragePoolRow[] = []
  for (const key of order) {
    const group = merged.get(key)!
    const sizes = sizesOf(group.best)
    if (sizes.total <= 0) continue
    // Status and ZFS data from the entry whose sizes are shown; identity from the first.
    const entry = { ...group.best, id: group.first.id }
    rows.push(toPoolRow(entry, key, group.nodes, group.ids, sizes))
  }
  return rows
}

/** A parsed storage search: `node:` values and plain words, lower-cased. */
export interface StorageSearch {
  nodes: string[]
  words: string[]
}

/** Splits the search text into `node:<name>` terms and words (spec 000 §5 "Storage search"). */
export function parseStorageSearch(search: string): StorageSearch {
  const nodes: string[] = []
  const words: string[] = []
  for (const term of search.trim().toLowerCase().split(/\s+/)) {
    if (!term) continue
    if (term.startsWith('node:')) {
      const value = term.slice(5)
      if (value) nodes.push(value)
    } else words.push(term)
  }
  return { nodes, words }
}

/**
 * True when the row matches: every node: term names one of its nodes, and every word is in its
 * name, node, type, content, status, nodes or pbsNames.
 */
export function matchesStorageSearch(row: StoragePoolRow, search: StorageSearch): boolean {
  const nodes = row.nodes.map((node) => node.toLowerCase())
  for (const wanted of search.nodes) {
    if (!nodes.some((node) => node.includes(wanted))) return false
  }
  if (search.words.length === 0) return true
  const haystack = [row.name, row.node, row.type, row.content, row.status, ...row.nodes]
    .concat(row.pbsNames)
    .join('\n')
    .toLowerCase()
  return search.words.every((word) => haystack.includes(word))
}

// Natural order for names: 'pve2' before 'pve10', case-insensitive.
const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' })

/** The value a row sorts by; '' or NaN is empty (sorted last in both directions). */
function sortValue(row: StoragePoolRow, key: StorageSortKey): string | number {
  switch (key) {
    case 'name':
      return row.name
    case 'node':
      return row.node
    case 'type':
      return row.type
    case 'status':
      return row.status
    case 'usage':
      return row.total > 0 ? row.usage : NaN
    case 'free':
      return row.total > 0 ? row.free : NaN
    case 'total':
      return row.total > 0 ? row.total : NaN
  }
}

function isEmpty(value: string | number): boolean {
  return typeof value === 'number' ? Number.isNaN(value) : value === ''
}

/** Rows sorted by `key` and `direction`, empty values last, ties by name then node. Copies. */
export function sortPoolRows(
  rows: readonly StoragePoolRow[],
  key: StorageSortKey,
  direction: SortDirection,
): StoragePoolRow[] {
  const dir = direction === 'desc' ? -1 : 1
  const tie = (a: StoragePoolRow, b: StoragePoolRow) =>
    collator.compare(a.name, b.name) || collator.compare(a.node, b.node) || (a.key < b.key ? -1 : 1)
  return [...rows].sort((a, b) => {
    const va = sortValue(a, key)
    const vb = sortValue(b, key)
    const ea = isEmpty(va)
    const eb = isEmpty(vb)
    if (ea || eb) return ea === eb ? tie(a, b) : ea ? 1 : -1
    const order =
      typeof va === 'number' && typeof vb === 'number'
        ? va - vb
        : collator.compare(String(va), String(vb))
    return order * dir || tie(a, b)
  })
}
