// Columns of all guests for the filter stage: typed arrays and joined lower-case texts, built once
// per change of what they hold (see GuestStamp) so that a keystroke never walks 100k guest objects.
import type { Guest } from '../model/state.ts'
import { readMetric } from '../search/index.ts'
import type { GuestStamp } from './guest-view.ts'
import {
  buildStateColumns,
  LIVE_SORT_KEYS,
  type LiveSortKey,
  type StateColumns,
} from './guest-live-columns.ts'

export { LIVE_SORT_KEYS, type LiveSortKey, type StateColumns } from './guest-live-columns.ts'

/** Texts searched by free text and field text, rebuilt when names, nodes or tags change. */
export interface TextColumns {
  /** Lower-case names joined by '\n'; guest i is `names.slice(nameStarts[i], nameStarts[i+1]-1)`. */
  names: string
  nameStarts: Uint32Array
  /** Decimal vmids, laid out like `names`. */
  vmids: string
  vmidStarts: Uint32Array
  /** Each guest's set of lower-case tags, as an index into `tagSets` (0 is no tags). */
  tagSet: Uint32Array
  tagSets: string[][]
}

/** Lazily built, stamp-keyed columns of one guest list. */
export interface GuestColumns {
  text(guests: readonly Guest[], stamp: GuestStamp): TextColumns
  /** Live columns: `provided` (kept current by the store) or built from the guests. */
  state(guests: readonly Guest[], stamp: GuestStamp, provided?: StateColumns): StateColumns
  /** `readMetric` of every guest for one source (cpu, memory, disk, uptime or a field). */
  metric(
    guests: readonly Guest[],
    stamp: GuestStamp,
    source: string,
    provided?: StateColumns,
  ): Float64Array
}

/** A column cache; keep one per pipeline. */
export function createGuestColumns(): GuestColumns {
  let text: { at: string; columns: TextColumns } | null = null
  let state: { at: number; columns: StateColumns } | null = null
  const metrics = new Map<string, { at: number; values: Float64Array }>()
  return {
    text(guests, stamp) {
      const at = `${stamp.structure}:${stamp.identity}:${stamp.labels}`
      if (text?.at !== at) text = { at, columns: buildTextColumns(guests) }
      return text.columns
    },
    state(guests, stamp, provided) {
      if (provided) return provided
      if (state?.at !== stamp.data) state = { at: stamp.data, columns: buildStateColumns(guests) }
      return state.columns
    },
    metric(guests, stamp, source, provided) {
      const live = this.state(guests, stamp, provided)
      if (source === 'cpu' || source === 'memory' || source === 'disk' || source === 'uptime') {
        return live.metric[source]
      }
      if ((LIVE_SORT_KEYS as readonly string[]).includes(source)) {
        // readMetric of a plain number field is the number itself, as the sort value is.
        return live.sort[source as LiveSortKey]
      }
      const hit = metrics.get(source)
      if (hit?.at === stamp.data) return hit.values
      const values = new Float64Array(guests.length)
      for (let i = 0; i < guests.length; i++) values[i] = readMetric(guests[i]!, source)
      // Only the current data is ever asked for: older entries are dropped, not accumulated.
      if (hit === undefined && metrics.size > 8) metrics.clear()
      metrics.set(source, { at: stamp.data, values })
      return values
    },
  }
}

function buildTextColumns(guests: readonly Guest[]): TextColumns {
  const n = guests.length
  const names = new Array<string>(n)
  const vmids = new Array<string>(n)
  const tagSet = new Uint32Array(n)
  const tagSets: string[][] = [[]]
  const setIds = new Map<string, number>()
  for (let i = 0; i < n; i++) {
    const guest = guests[i]!
    names[i] = typeof guest.name === 'string' ? guest.name.toLowerCase() : ''
    const vmid: unknown = guest.vmid
    vmids[i] =
      typeof vmid === 'number' || typeof vmid === 'string' ? String(vmid).toLowerCase() : ''
    const tags: unknown = guest.tags
    const list = Array.isArray(tags) ? tags : typeof tags === 'string' ? [tags] : []
    if (list.length === 0) continue
    const lower = list.map((tag: unknown) => (typeof tag === 'string' ? tag.toLowerCase() : ''))
    const key = lower.join('\n')
    let id = setIds.get(key)
    if (id === undefined) {
      id = tagSets.length
      tagSets.push(lower)
      setIds.set(key, id)
    }
    tagSet[i] = id
  }
  return {
    names: names.join('\n') + '\n',
    nameStarts: startsOf(names),
    vmids: vmids.join('\n') + '\n',
    vmidStarts: startsOf(vmids),
    tagSet,
    tagSets,
  }
}

function startsOf(parts: readonly string[]): Uint32Array {
  const starts = new Uint32Array(parts.length + 1)
  let at = 0
  for (let i = 0; i < parts.length; i++) {
    starts[i] = at
    at += parts[i]!.length + 1
  }
  starts[parts.length] = at
  return starts
}

/** Set `mask[i]` for every guest whose segment of `hay` contains `needle` (no '\n' in it). */
export function markTextMatches(
  hay: string,
  starts: Uint32Array,
  needle: string,
  mask: Uint8Array,
): void {
  let guest = 0
  let at = hay.indexOf(needle)
  while (at >= 0) {
    while (starts[guest + 1]! <= at) guest++
    mask[guest] = 1
    at = hay.indexOf(needle, starts[guest + 1])
  }
}
