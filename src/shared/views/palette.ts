// The command palette's ranking (issue 28 item 6): every source (pages, settings, guests, nodes,
// storage, backup servers, active alerts) is matched against the query, each keeps its best few,
// and the groups are ordered by their best match. Pure: the worker feeds it the store's lists.
import {
  MATCH_TIERS,
  normalizeQuery,
  scanField,
  scanVmids,
  type MatchField,
  type MatchTier,
} from './palette-match.ts'
import {
  PALETTE_GROUP_LABELS,
  PALETTE_KINDS,
  type PaletteGroup,
  type PaletteItem,
  type PaletteKind,
  type PaletteResult,
} from './palette-types.ts'

/** One searchable list: the entries of one kind (one source per kind). */
export interface PaletteSource {
  kind: PaletteKind
  /** The names matched at the exact, prefix, word and substring tiers. */
  names: MatchField
  /**
   * Text matched at the "other" tier: entry i reads `field`'s entry `of[i]`, or entry i when
   * `of` is null (a guest reads its node's name, shared by the node's guests).
   */
  also?: { field: MatchField; of: Uint32Array | null }
  /** Guests: the VMIDs, matched exactly (first of all) and by prefix (tier other). */
  vmids?: Int32Array
  /** With an empty query, list every entry in order (pages); otherwise nothing is listed. */
  browse?: boolean
  /** The item shown for entry `index` (called only for the entries kept). */
  toItem(index: number): PaletteItem
}

/** Items kept per kind: 48 in all, few enough to read and to scroll by keyboard. */
export const PALETTE_LIMITS: Readonly<Record<PaletteKind, number>> = {
  page: 5,
  setting: 5,
  action: 3,
  guest: 15,
  node: 5,
  storage: 5,
  pbs: 5,
  alert: 5,
}

const KIND_ORDER = new Map<PaletteKind, number>(PALETTE_KINDS.map((kind, i) => [kind, i]))

/**
 * The best `limit` entries of a source, best first: by tier, then the shorter name (the closer
 * match), then the name, then the source's order. Most candidates are turned away by one
 * comparison with the worst kept, so 100,000 matches cost one pass.
 */
function createTopList(names: MatchField, limit: number) {
  const indices: number[] = []
  const tiers: number[] = []
  const { starts, lower } = names
  const length = (i: number) => starts[i + 1]! - starts[i]!
  const before = (tierA: number, a: number, tierB: number, b: number): boolean => {
    if (tierA !== tierB) return tierA < tierB
    const lengthA = length(a)
    const lengthB = length(b)
    if (lengthA !== lengthB) return lengthA < lengthB
    const nameA = lower[a]!
    const nameB = lower[b]!
    if (nameA !== nameB) return nameA < nameB
    return a < b
  }
  return {
    offer(index: number, tier: number): void {
      const last = indices.length - 1
      if (indices.length >= limit && !before(tier, index, tiers[last]!, indices[last]!)) return
      let at = indices.length
      while (at > 0 && before(tier, index, tiers[at - 1]!, indices[at - 1]!)) at--
      indices.splice(at, 0, index)
      tiers.splice(at, 0, tier)
      if (indices.length > limit) {
        indices.pop()
        tiers.pop()
      }
    },
    indices,
    tiers,
  }
}

/** The matches of one source: the best tier of every entry that matched, then the top few. */
function matchSource(source: PaletteSource, query: string, limit: number) {
  const count = source.names.starts.length - 1
  // best[i] = tier + 1 of entry i's best match so far, 0 for none.
  const best = new Uint8Array(count)
  const touched: number[] = []
  const record = (index: number, tier: MatchTier) => {
    const current = best[index]!
    if (current === 0) {
      touched.push(index)
      best[index] = tier + 1
    } else if (tier + 1 < current) best[index] = tier + 1
  }
  scanField(source.names, query, record)
  if (source.vmids) scanVmids(source.vmids, query, record)
  const also = source.also
  if (also) {
    if (also.of === null) {
      scanField(also.field, query, (index) => record(index, MATCH_TIERS.other))
    } else {
      const of = also.of
      const matched = new Uint8Array(also.field.starts.length - 1)
      let any = false
      scanField(also.field, query, (index) => {
        matched[index] = 1
        any = true
      })
      if (any) for (let i = 0; i < count; i++) if (matched[of[i]!]) record(i, MATCH_TIERS.other)
    }
  }
  const top = createTopList(source.names, limit)
  for (const index of touched) top.offer(index, best[index]! - 1)
  return { total: touched.length, indices: top.indices, bestTier: top.tiers[0] ?? 0 }
}

/**
 * The palette's answer to `rawQuery` over `sources`: per kind its best `limits[kind]` items, the
 * groups ordered by their best match (ties in PALETTE_KINDS order). An empty query lists the
 * browsable sources (pages) whole.
 */
export function searchPalette(
  sources: readonly PaletteSource[],
  rawQuery: string,
  limits: Readonly<Record<PaletteKind, number>> = PALETTE_LIMITS,
): PaletteResult {
  const query = normalizeQuery(rawQuery)
  const found: Array<PaletteGroup & { bestTier: number }> = []
  for (const source of sources) {
    const group = { kind: source.kind, label: PALETTE_GROUP_LABELS[source.kind] }
    if (query === '') {
      if (!source.browse) continue
      const count = source.names.starts.length - 1
      if (count === 0) continue
      const items = Array.from({ length: count }, (_, i) => source.toItem(i))
      found.push({ ...group, total: count, items, bestTier: 0 })
      continue
    }
    const { total, indices, bestTier } = matchSource(source, query, limits[source.kind])
    if (total === 0) continue
    const items = indices.map((index) => source.toItem(index))
    found.push({ ...group, total, items, bestTier })
  }
  found.sort((a, b) => a.bestTier - b.bestTier || KIND_ORDER.get(a.kind)! - KIND_ORDER.get(b.kind)!)
  return {
    query: rawQuery,
    groups: found.map(({ kind, label, total, items }) => ({ kind, label, total, items })),
  }
}
