// Filtering the normalised backups (spec 000 §4 Backups, §5 backup search). Pure.
import type { NormalisedBackups } from './backups-normalize.ts'
import { inPbsScope, inSelectorScope, type BackupSearch } from './backups-search.ts'
import {
  VIEW_MODE_CLASS,
  type BackupClass,
  type BackupScope,
  type BackupTypeFilter,
  type BackupViewMode,
} from './backups-types.ts'

/** The filters of a request, with the view mode already made effective (see effectiveViewMode). */
export interface BackupFilters {
  viewMode: BackupViewMode
  typeFilter: BackupTypeFilter
  selectedNode: string | null
  scope: BackupScope | null
}

/** Choosing a PBS (id `pbs-…`) forces the remote view (spec 000 §4). */
export function effectiveViewMode(
  viewMode: BackupViewMode,
  selectedNode: string | null,
): BackupViewMode {
  return selectedNode?.startsWith('pbs-') ? 'pbs' : viewMode
}

/**
 * Records matching one plain term, as a sorted index list. Keeps one list per term of the current
 * records, and narrows a longer term from a cached term it contains ('web' → 'web-1'), so typing
 * costs a scan of the previous matches rather than of every record.
 */
export function createTermCache() {
  let source: NormalisedBackups | null = null
  let cache = new Map<string, Uint32Array>()
  return (data: NormalisedBackups, term: string): Uint32Array => {
    if (source !== data) {
      source = data
      cache = new Map()
    }
    const hit = cache.get(term)
    if (hit) return hit
    let base: Uint32Array | null = null
    for (const [cached, list] of cache) {
      if (term.includes(cached) && (!base || list.length < base.length)) base = list
    }
    const haystacks = data.haystacks()
    const out: number[] = []
    if (base) {
      for (const index of base) if (haystacks[index]!.includes(term)) out.push(index)
    } else {
      for (let i = 0; i < haystacks.length; i++) if (haystacks[i]!.includes(term)) out.push(i)
    }
    const list = Uint32Array.from(out)
    // Bounded: a long session of searches must not keep a list per keystroke forever.
    if (cache.size >= 64) cache.delete(cache.keys().next().value!)
    cache.set(term, list)
    return list
  }
}

/** The records (index order) passing every filter except the chosen day: mask and counts. */
export interface BackupMatch {
  /** 1 where the record passes; null when every record passes (nothing filters). */
  mask: Uint8Array | null
  /** Passing record indices, ascending; null when every record passes. */
  order: Uint32Array | null
  /** How many records pass. */
  total: number
  counts: Record<BackupClass, number>
}

/** Apply search, view mode, type, node and namespace filters. */
export function filterBackups(
  data: NormalisedBackups,
  search: BackupSearch,
  filters: BackupFilters,
  termList: (data: NormalisedBackups, term: string) => Uint32Array,
): BackupMatch {
  const { records, classes, nodeIds } = data
  const wantClass = VIEW_MODE_CLASS[filters.viewMode]
  const wantType = filters.typeFilter === 'all' ? null : filters.typeFilter
  const { selectedNode, scope } = filters
  const searching = search.terms.length > 0 || search.scopes.length > 0
  // Nothing filters (the default view): no mask and no index list over every record, and the
  // sorted order is used as it is.
  if (!searching && wantClass === null && wantType === null && !selectedNode && !scope) {
    // Counts kept by the incremental normaliser: no pass over every record.
    const kept = data.classCounts?.total
    const counts: Record<BackupClass, number> = kept
      ? { ...kept }
      : { snapshot: 0, local: 0, remote: 0 }
    if (!kept) for (let i = 0; i < classes.length; i++) counts[classes[i]!]++
    return { mask: null, order: null, total: records.length, counts }
  }
  // Candidates: the shortest term list when searching, else every record.
  let candidates: Uint32Array | null = null
  for (const term of search.terms) {
    const list = termList(data, term)
    if (!candidates || list.length < candidates.length) candidates = list
  }
  const mask = new Uint8Array(records.length)
  const total = candidates ? candidates.length : records.length
  const out = new Uint32Array(total)
  let n = 0
  const counts: Record<BackupClass, number> = { snapshot: 0, local: 0, remote: 0 }
  for (let k = 0; k < total; k++) {
    const i = candidates ? candidates[k]! : k
    const kind = classes[i]!
    if (wantClass !== null && kind !== wantClass) continue
    const record = records[i]!
    if (wantType !== null && record.type !== wantType) continue
    if (selectedNode !== null && nodeIds[i] !== selectedNode) continue
    if (scope && !inSelectorScope(record, scope)) continue
    if (searching && !passesSearch(data, i, search)) continue
    mask[i] = 1
    out[n++] = i
    counts[kind]++
  }
  return { mask, order: n === total ? out : out.slice(0, n), total: n, counts }
}

/** Every plain term and every `pbs:` scope. */
function passesSearch(data: NormalisedBackups, index: number, search: BackupSearch): boolean {
  if (search.terms.length > 0) {
    const haystack = data.haystacks()[index]!
    for (const term of search.terms) if (!haystack.includes(term)) return false
  }
  for (const scope of search.scopes) if (!inPbsScope(data.records[index]!, scope)) return false
  return true
}

/** The sorted order restricted to the mask and, when chosen, one local day. */
export function selectSorted(
  sorted: Uint32Array,
  match: BackupMatch,
  days: Int32Array,
  selectedDay: number | null,
): Uint32Array {
  const { mask } = match
  // Every record passes: the sorted order itself (same identity: later stages stay memoized).
  if (!mask && selectedDay === null) return sorted
  const out = new Uint32Array(match.total)
  let n = 0
  for (let k = 0; k < sorted.length; k++) {
    const i = sorted[k]!
    if ((!mask || mask[i] === 1) && (selectedDay === null || days[i] === selectedDay)) {
      out[n++] = i
    }
  }
  return n === out.length ? out : out.slice(0, n)
}
