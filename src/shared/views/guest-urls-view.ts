// The Guest URLs view (spec 001 §2 Guest URLs tab): guests sorted by node then VMID, filtered by
// the search, laid out under node headers and windowed. Each stage is memoized on its inputs, so
// a metrics-only flush (no guest added, renamed or moved) recomputes nothing, and typing in the
// search re-runs one linear pass over precomputed lower-case text.
import { guestKey } from '../model/guest-key.ts'
import type { Guest } from '../model/state.ts'
import type { GuestStamp } from './guest-view.ts'
import type {
  GuestUrlGroupRow,
  GuestUrlRow,
  GuestUrlsViewModel,
  GuestUrlsViewRequest,
  GuestUrlViewRow,
} from './guest-urls-types.ts'
import { memoizeStage } from './memo.ts'

export interface GuestUrlsViewInput {
  guests: readonly Guest[]
  /** Change counters; without them every new `guests` array counts as a change. */
  stamp?: GuestStamp
}

export type GuestUrlsResult = Omit<GuestUrlsViewModel, 'version'>

/** The sorted guests with their search text, and where each node's run starts. */
interface Base {
  rows: GuestUrlRow[]
  /** Lower-case name, vmid, node, instance and type of each row, for the search. */
  text: string[]
  /** The group key of each row (instance and node). */
  group: string[]
}

/** Node headers and guest indexes in display order: `-(g + 1)` is `groups[g]`. */
interface Layout {
  entries: Int32Array
  groups: GuestUrlGroupRow[]
  matched: number
}

export interface GuestUrlsView {
  compute(input: GuestUrlsViewInput, request: GuestUrlsViewRequest): GuestUrlsResult
  /** How often each stage ran (tests). */
  readonly runs: { base: number; filter: number; window: number }
}

const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' })

/** Create a view. Equal inputs give the identical result object, so the worker skips the push. */
export function createGuestUrlsView(): GuestUrlsView {
  const runs = { base: 0, filter: 0, window: 0 }
  // The base depends on names, types, VMIDs and placement only: keyed on those counters.
  let baseKey: unknown = null
  let base: Base | null = null
  const filter = memoizeStage(
    (b: Base, search: string) => layout(b, search),
    () => runs.filter++,
  )
  const windowed = memoizeStage(
    (b: Base, l: Layout, search: string, start: number, count: number): GuestUrlsResult => ({
      kind: 'guestUrls',
      search,
      total: b.rows.length,
      matched: l.matched,
      rowCount: l.entries.length,
      window: { start, count },
      rows: slice(b, l, start, count),
    }),
    () => runs.window++,
  )
  return {
    runs,
    compute(input, request) {
      const { stamp } = input
      const key = stamp ? `${stamp.structure}:${stamp.identity}:${stamp.placement}` : input.guests
      if (!base || key !== baseKey) {
        baseKey = key
        base = buildBase(input.guests)
        runs.base++
      }
      const b = base
      const search = request.search
      const l = filter(b, normaliseSearch(search))
      const start = Math.max(0, Math.floor(request.window.start) || 0)
      const count = Math.max(0, Math.min(500, Math.floor(request.window.count) || 0))
      return windowed(b, l, search, start, count)
    },
  }
}

function buildBase(guests: readonly Guest[]): Base {
  const rows: GuestUrlRow[] = guests.map((g) => ({
    kind: 'guest',
    id: guestKey(g),
    nodeVmidKey: `${g.node}-${g.vmid}`,
    instance: g.instance,
    node: g.node,
    vmid: g.vmid,
    name: g.name,
    type: g.type === 'lxc' ? 'LXC' : 'VM',
  }))
  rows.sort(
    (a, b) =>
      collator.compare(a.node, b.node) ||
      collator.compare(a.instance, b.instance) ||
      a.vmid - b.vmid ||
      collator.compare(a.id, b.id),
  )
  return {
    rows,
    text: rows.map((r) =>
      `${r.name}\u0000${r.vmid}\u0000${r.node}\u0000${r.instance}\u0000${r.type}`.toLowerCase(),
    ),
    group: rows.map((r) => `${r.instance}\u0000${r.node}`),
  }
}

function normaliseSearch(search: string): string {
  return search.trim().toLowerCase().replace(/\s+/g, ' ')
}

/** One pass: keep rows matching every word, open a header when the group changes. */
function layout(b: Base, search: string): Layout {
  const words = search ? search.split(' ') : []
  const entries = new Int32Array(b.rows.length * 2)
  const groups: GuestUrlGroupRow[] = []
  let at = 0
  let matched = 0
  let current: GuestUrlGroupRow | null = null
  let currentKey = ''
  for (let i = 0; i < b.rows.length; i++) {
    if (words.length > 0 && !matchesAll(b.text[i]!, words)) continue
    const key = b.group[i]!
    if (!current || key !== currentKey) {
      const row = b.rows[i]!
      current = {
        kind: 'group',
        key: `group:${key}`,
        label: row.node,
        sublabel: row.instance && row.instance !== row.node ? row.instance : '',
        guestCount: 0,
      }
      currentKey = key
      groups.push(current)
      entries[at++] = -groups.length
    }
    current.guestCount++
    entries[at++] = i
    matched++
  }
  return { entries: entries.slice(0, at), groups, matched }
}

function matchesAll(text: string, words: string[]): boolean {
  for (const word of words) if (!text.includes(word)) return false
  return true
}

function slice(b: Base, l: Layout, start: number, count: number): GuestUrlViewRow[] {
  const out: GuestUrlViewRow[] = []
  const end = Math.min(l.entries.length, start + count)
  for (let i = start; i < end; i++) {
    const entry = l.entries[i]!
    out.push(entry >= 0 ? b.rows[entry]! : l.groups[-entry - 1]!)
  }
  return out
}
