// Sorting and grouping of the backups list (spec 000 §9 sort options, §5 empty values last,
// §2.4 date group labels). Pure; sorted orders are permutations, records are never moved.
import { dateGroupLabel } from './backups-dates.ts'
import type { BackupsChange, NormalisedBackups } from './backups-normalize.ts'
import {
  DESCENDING_FIRST,
  type BackupGrouping,
  type BackupRecord,
  type BackupSortKey,
} from './backups-types.ts'
import type { SortDirection } from './guest-view-types.ts'

const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' })

/** Header click (spec 000 §9): same key flips; a new key starts descending for time and size. */
export function nextBackupSort(
  current: { key: BackupSortKey; direction: SortDirection },
  key: BackupSortKey,
): { key: BackupSortKey; direction: SortDirection } {
  if (current.key === key) {
    return { key, direction: current.direction === 'asc' ? 'desc' : 'asc' }
  }
  return { key, direction: DESCENDING_FIRST.has(key) ? 'desc' : 'asc' }
}

/** Text of a record for a text sort key; '' sorts last. */
function textOf(record: BackupRecord, key: BackupSortKey): string {
  switch (key) {
    case 'name':
      return record.name
    case 'node':
      return record.node
    case 'backupType':
      return record.backupType
    case 'storage':
      return record.storage || record.datastore
    case 'type':
      return record.type
    case 'owner':
      return record.owner
    default:
      return ''
  }
}

/** Ranks of texts: equal texts get equal ranks, '' gets NaN (last). */
function rankTexts(texts: readonly string[]): Float64Array {
  const unique = [...new Set(texts)].filter((text) => text !== '').sort(collator.compare)
  const rank = new Map(unique.map((text, i) => [text, i]))
  const out = new Float64Array(texts.length)
  for (let i = 0; i < texts.length; i++) out[i] = rank.get(texts[i]!) ?? NaN
  return out
}

/** One comparable number per record for `key`; NaN is an empty value. */
export function getBackupSortValues(data: NormalisedBackups, key: BackupSortKey): Float64Array {
  const { records } = data
  const out = new Float64Array(records.length)
  switch (key) {
    case 'backupTime':
      // The shared column: sortBackups recognises it and takes the packed-key path.
      return data.times
    case 'size':
      // Snapshots have no size: empty, not zero.
      for (let i = 0; i < records.length; i++)
        out[i] = records[i]!.size > 0 ? records[i]!.size : NaN
      return out
    case 'verified':
      for (let i = 0; i < records.length; i++) out[i] = records[i]!.verified ? 1 : 0
      return out
    case 'vmid':
      return vmidValues(records)
    default:
      return rankTexts(records.map((record) => textOf(record, key)))
  }
}

/** Numeric VMIDs by value, then host names in text order after every number. */
function vmidValues(records: readonly BackupRecord[]): Float64Array {
  const hosts = rankTexts(records.map((r) => (/^\d+$/.test(r.vmid) ? '' : r.vmid)))
  const out = new Float64Array(records.length)
  for (let i = 0; i < records.length; i++) {
    const vmid = records[i]!.vmid
    out[i] = /^\d+$/.test(vmid) ? Number(vmid) : vmid === '' ? NaN : 1e15 + hosts[i]!
  }
  return out
}

/** All records sorted by `values` in `direction`; empty last, ties newest first, then by index. */
export function sortBackups(
  data: NormalisedBackups,
  values: Float64Array,
  direction: SortDirection,
): Uint32Array {
  const { records } = data
  if (values === data.times) return sortByTime(data.times, direction)
  const order = new Uint32Array(records.length)
  for (let i = 0; i < order.length; i++) order[i] = i
  const sign = direction === 'asc' ? 1 : -1
  order.sort((a, b) => {
    const va = values[a]!
    const vb = values[b]!
    const ea = Number.isNaN(va)
    const eb = Number.isNaN(vb)
    if (ea !== eb) return ea ? 1 : -1
    if (!ea && va !== vb) return (va - vb) * sign
    return records[b]!.backupTime - records[a]!.backupTime || a - b
  })
  return order
}

/**
 * The order sortBackups would give `data`, from the order of the previous records: the kept
 * records keep their relative order and values (see BackupsChange), so they are remapped in one
 * pass and the rebuilt ones are sorted alone and merged in by binary search. Costs a linear copy
 * plus O(k log n) comparisons for k rebuilt records, instead of a full sort.
 */
export function carrySortedOrder(
  data: NormalisedBackups,
  values: Float64Array,
  direction: SortDirection,
  previousOrder: Uint32Array,
  change: BackupsChange,
): Uint32Array {
  const { remap, added } = change
  const compare = comparatorOf(data, values, direction)
  const out = new Uint32Array(data.records.length)
  let m = 0
  for (let k = 0; k < previousOrder.length; k++) {
    const to = remap[previousOrder[k]!]!
    if (to >= 0) out[m++] = to
  }
  if (m + added.length !== out.length) return sortBackups(data, values, direction)
  const fresh = sortAdded(data, values, direction, added, compare)
  // Merge in place from the back: the kept records not yet moved are out[0, hi). Each insertion
  // point is found by galloping down from the previous one, then a binary search: few reads, and
  // near each other.
  let hi = m
  let write = out.length
  for (let f = fresh.length - 1; f >= 0; f--) {
    const item = fresh[f]!
    let bound = 1
    while (bound <= hi && compare(out[hi - bound]!, item) > 0) bound *= 2
    let lo = Math.max(0, hi - bound)
    let top = hi - (bound >> 1)
    while (lo < top) {
      const mid = (lo + top) >>> 1
      if (compare(out[mid]!, item) <= 0) lo = mid + 1
      else top = mid
    }
    out.copyWithin(write - (hi - lo), lo, hi)
    write -= hi - lo
    out[--write] = item
    hi = lo
  }
  return out
}

/** The rebuilt records in sort order: packed keys for the time sort, as sortByTime does. */
function sortAdded(
  data: NormalisedBackups,
  values: Float64Array,
  direction: SortDirection,
  added: Uint32Array,
  compare: (a: number, b: number) => number,
): Uint32Array {
  const n = data.times.length
  if (values !== data.times || n >= INDEX_BITS) return added.slice().sort(compare)
  const keys = new Float64Array(added.length)
  for (let k = 0; k < added.length; k++) {
    const i = added[k]!
    const t = values[i]!
    if (!Number.isInteger(t) || t < 0 || t >= MAX_PACKED_TIME) return added.slice().sort(compare)
    keys[k] = (direction === 'asc' ? t : MAX_PACKED_TIME - 1 - t) * INDEX_BITS + i
  }
  keys.sort()
  const out = new Uint32Array(added.length)
  for (let k = 0; k < keys.length; k++) out[k] = keys[k]! % INDEX_BITS
  return out
}

/** The comparison sortBackups orders by (the packed time path orders the same way). */
function comparatorOf(
  data: NormalisedBackups,
  values: Float64Array,
  direction: SortDirection,
): (a: number, b: number) => number {
  const sign = direction === 'asc' ? 1 : -1
  if (values === data.times) {
    const times = data.times
    return (a, b) => (times[a]! - times[b]!) * sign || a - b
  }
  const { times } = data
  return (a, b) => {
    const va = values[a]!
    const vb = values[b]!
    const ea = Number.isNaN(va)
    const eb = Number.isNaN(vb)
    if (ea !== eb) return ea ? 1 : -1
    if (!ea && va !== vb) return (va - vb) * sign
    return times[b]! - times[a]! || a - b
  }
}

const INDEX_BITS = 2 ** 21
/** Latest time a packed key can hold: (time + 1) * 2^21 stays below 2^53. */
const MAX_PACKED_TIME = 2 ** 31

/**
 * The default sort (time, ties by position) without a comparator: each record becomes one number,
 * time and index packed together, and a native typed-array sort orders them. A comparator sort of
 * 100k records was most of a data change's sort cost. Falls back when the values do not fit.
 */
function sortByTime(times: Float64Array, direction: SortDirection): Uint32Array {
  const n = times.length
  const order = new Uint32Array(n)
  const fits =
    n < INDEX_BITS && times.every((t) => Number.isInteger(t) && t >= 0 && t < MAX_PACKED_TIME)
  if (!fits) {
    for (let i = 0; i < n; i++) order[i] = i
    const sign = direction === 'asc' ? 1 : -1
    return order.sort((a, b) => (times[a]! - times[b]!) * sign || a - b)
  }
  const keys = new Float64Array(n)
  for (let i = 0; i < n; i++) {
    const time = direction === 'asc' ? times[i]! : MAX_PACKED_TIME - 1 - times[i]!
    keys[i] = time * INDEX_BITS + i
  }
  keys.sort()
  for (let k = 0; k < n; k++) order[k] = keys[k]! % INDEX_BITS
  return order
}

/**
 * Grouped layout: `length` rows, each a record index or -(group + 1) for a header (`entryAt`).
 * When every group's records are consecutive in the sorted order and the groups show in the order
 * they come (time sort by date, any sort by guest), the rows are the order with a header before
 * each run: nothing is copied, and a row is found from the group starts.
 */
export interface BackupLayout {
  length: number
  entryAt(row: number): number
  groups: { key: string; label: string; count: number }[]
}

/**
 * Group a sorted order. Guests appear in the order of their first record; days newest first,
 * except when sorting by time, where the days follow the sort. Rows keep the sort inside a group.
 */
export function groupBackups(
  data: NormalisedBackups,
  order: Uint32Array,
  grouping: BackupGrouping,
  sortKey: BackupSortKey,
  today: number,
): BackupLayout {
  const byDate = grouping === 'date'
  const keyOf = byDate ? data.days : data.guestGroups
  const slot = new Map<number, number>()
  const keys: number[] = []
  const counts: number[] = []
  const firsts: number[] = []
  // Sorted by time, one day's records are consecutive: look the group up only when the key moves.
  // A key that comes back after another one breaks the runs: then every row is placed.
  let runs = true
  let lastKey = NaN
  let lastGroup = -1
  for (let k = 0; k < order.length; k++) {
    const key = keyOf[order[k]!]!
    if (key === lastKey) {
      counts[lastGroup]!++
      continue
    }
    let g = slot.get(key)
    if (g === undefined) {
      g = keys.length
      slot.set(key, g)
      keys.push(key)
      counts.push(0)
      firsts.push(order[k]!)
    } else runs = false
    counts[g]!++
    lastKey = key
    lastGroup = g
  }
  const rank = keys.map((_, g) => g)
  if (byDate && sortKey !== 'backupTime') rank.sort((a, b) => keys[b]! - keys[a]!)
  const groups = keys.map((key, g) => {
    const first = data.records[firsts[g]!]!
    return {
      key: byDate ? `d:${key}` : `g:${key}`,
      label: byDate ? dateGroupLabel(key, today) : guestLabel(first),
      count: counts[g]!,
    }
  })
  const inPlace = runs && rank.every((g, at) => g === at)
  return inPlace ? runLayout(order, counts, groups) : placeRows(order, keyOf, slot, rank, groups)
}

/** Consecutive groups in their order: row k is a header or order[k - headers before it]. */
function runLayout(
  order: Uint32Array,
  counts: readonly number[],
  groups: BackupLayout['groups'],
): BackupLayout {
  // Row of each group's header.
  const heads = new Int32Array(groups.length)
  let at = 0
  for (let g = 0; g < groups.length; g++) {
    heads[g] = at
    at += counts[g]! + 1
  }
  return {
    length: at,
    groups,
    entryAt(row) {
      let lo = 0
      let hi = heads.length - 1
      while (lo < hi) {
        const mid = (lo + hi + 1) >>> 1
        if (heads[mid]! <= row) lo = mid
        else hi = mid - 1
      }
      return heads[lo] === row ? -(lo + 1) : order[row - lo - 1]!
    },
  }
}

/** Every row placed: groups in `rank` order, each group's records in sort order. */
function placeRows(
  order: Uint32Array,
  keyOf: Int32Array,
  slot: ReadonlyMap<number, number>,
  rank: readonly number[],
  groups: BackupLayout['groups'],
): BackupLayout {
  // Offsets of each group's header in the entries, in display order.
  const offset = new Int32Array(groups.length)
  let at = 0
  for (const g of rank) {
    offset[g] = at
    at += groups[g]!.count + 1
  }
  const entries = new Int32Array(at)
  const fill = new Int32Array(groups.length)
  for (let g = 0; g < groups.length; g++) entries[offset[g]!] = -(g + 1)
  let lastKey = NaN
  let g = -1
  for (let k = 0; k < order.length; k++) {
    const key = keyOf[order[k]!]!
    if (key !== lastKey) {
      g = slot.get(key)!
      lastKey = key
    }
    entries[offset[g]! + 1 + fill[g]!++] = order[k]!
  }
  return { length: at, groups, entryAt: (row) => entries[row]! }
}

/** 'VM 101 · web-1', 'Host backup-host'. */
function guestLabel(record: BackupRecord): string {
  const head = `${record.type} ${record.vmid}`
  return record.name && record.name !== record.vmid ? `${head} · ${record.name}` : head
}
