// The guest view pipeline: sort → filter → group → window. Pure: the worker owns one pipeline per
// subscription and calls `compute` on data or request change.
//
// Why this order: the sorted order of all guests is cached per sort key and direction and only
// rebuilt when the data it depends on changes, so a keystroke in the search box costs one filter
// pass over an already sorted array, a linear grouping and the formatting of the visible rows.
import type { Entity, Guest, PveNode } from '../model/state.ts'
import type { GuestSortKey, GuestViewModel, GuestViewRequest } from './guest-view-types.ts'
import { memoizeStage } from './memo.ts'
import { indexGuestNodes } from './guest-nodes.ts'
import { parseGuestSearch } from '../search/index.ts'
import { createGuestColumns, type LiveSortKey, type StateColumns } from './guest-columns.ts'
import { createTermMaskCache, evaluateSearchMask } from './guest-search-mask.ts'
import { filterGuests } from './guest-filter.ts'
import {
  getSortValues,
  getTieOrder,
  isIdentityKey,
  maskInactive,
  sortGuests,
} from './guest-sort.ts'
import { groupGuests } from './guest-group.ts'
import { assignGuestSlots, describeSlots } from './guest-slots.ts'
import { formatWindow } from './guest-rows.ts'
import { indexGuestAlerts, type GuestAlertIndex } from './guest-alerts.ts'

const NO_ALERTS: readonly Entity[] = Object.freeze([])

/** Stages of the guest pipeline, in order. */
export const GUEST_STAGES = [
  'nodes',
  'matcher',
  'mask',
  'tie',
  'slots',
  'headers',
  'values',
  'sort',
  'filter',
  'group',
  'alerts',
  'window',
  'model',
] as const
export type GuestStage = (typeof GUEST_STAGES)[number]

/**
 * Change counters for the guests, kept by the worker's store. Guests may be updated in place, so
 * these, not object identity, tell the caches what is stale. Each counter only ever increases.
 */
export interface GuestStamp {
  /** Any guest field changed. */
  data: number
  /** Guests added, removed or reordered: positions in `guests` moved. */
  structure: number
  /** A name, type or vmid changed (text sorts and the vmid tie-break). */
  identity: number
  /** A guest's node or instance changed (grouping and the node filter). */
  placement: number
  /** A guest's tags changed (search columns). */
  labels: number
}

/** Live data the pipeline reads. */
export interface GuestViewInput {
  /** VMs and containers together. */
  guests: readonly Guest[]
  nodes: readonly PveNode[]
  /** Active alerts (spec 000 §3 Alert); absent means none. */
  alerts?: readonly Entity[]
  lastUpdate: number
  /** Change counters; without them every new `guests` array counts as a change of everything. */
  stamp?: GuestStamp
  /** Live columns kept current by the store (with `stamp`); built here when absent. */
  live?: StateColumns
}

/** A view model before the worker stamps its version. */
export type GuestViewResult = Omit<GuestViewModel, 'version'>

/** A pipeline; `runs` counts how often each stage actually ran (tests and benches). */
export interface GuestViewPipeline {
  compute(input: GuestViewInput, request: GuestViewRequest): GuestViewResult
  readonly runs: Readonly<Record<GuestStage, number>>
}

// Stamps for inputs without them: one fresh counter per guests array.
const arrayStamps = new WeakMap<readonly Guest[], GuestStamp>()
let arrayStampCounter = 0
function stampOf(guests: readonly Guest[]): GuestStamp {
  let stamp = arrayStamps.get(guests)
  if (!stamp) {
    const n = ++arrayStampCounter
    stamp = { data: n, structure: n, identity: n, placement: n, labels: n }
    arrayStamps.set(guests, stamp)
  }
  return stamp
}

/** Create a pipeline. Equal inputs give the identical result object, so callers can skip pushes. */
export function createGuestViewPipeline(): GuestViewPipeline {
  const runs = Object.fromEntries(GUEST_STAGES.map((stage) => [stage, 0])) as Record<
    GuestStage,
    number
  >
  const counted = <A extends readonly unknown[], R>(stage: GuestStage, run: (...args: A) => R) =>
    memoizeStage(run, () => runs[stage]++)

  const indexNodes = counted('nodes', indexGuestNodes)
  const parseSearch = counted('matcher', parseGuestSearch)
  const termMasks = createTermMaskCache()
  let currentStamp: GuestStamp = { data: 0, structure: 0, identity: 0, placement: 0, labels: 0 }
  let currentLive: StateColumns | undefined
  const columns = createGuestColumns()
  // Keyed on the stamp, not on the guests array: a new array with the same guests in the same
  // places (a metrics update) keeps these.
  let tie: { at: string; order: Uint32Array } | null = null
  const tieOrder = (guests: readonly Guest[], stamp: GuestStamp) => {
    const at = `${stamp.structure}:${stamp.identity}`
    if (tie?.at !== at) {
      runs.tie++
      tie = { at, order: getTieOrder(guests) }
    }
    return tie.order
  }
  let slotCache: { at: string; slots: ReturnType<typeof assignGuestSlots> } | null = null
  const assignSlots = (
    guests: readonly Guest[],
    nodes: ReturnType<typeof indexGuestNodes>,
    stamp: GuestStamp,
  ) => {
    const at = `${stamp.structure}:${stamp.placement}:${nodes.signature}`
    if (slotCache?.at !== at) {
      runs.slots++
      slotCache = { at, slots: assignGuestSlots(guests, nodes) }
    }
    return slotCache.slots
  }
  const slotInfo = counted('headers', describeSlots)
  // One cache entry per key (values) and per key and direction (order), replaced when stale.
  const valueCache = new Map<GuestSortKey, { at: string; values: Float64Array }>()
  const liveCache = new Map<
    GuestSortKey,
    { at: number; source: Float64Array; values: Float64Array }
  >()
  const orderCache = new Map<
    string,
    { tie: Uint32Array; values: Float64Array; order: Uint32Array; at: number }
  >()
  const sortValues = (guests: readonly Guest[], key: GuestSortKey, stamp: GuestStamp) => {
    // Live keys come from the one-pass columns; names, types and vmids change only with identity.
    if (!isIdentityKey(key)) {
      // The columns keep raw values (metric filters read them); stopped guests sort as empty.
      const state = columns.state(guests, stamp, currentLive)
      const source = state.sort[key as LiveSortKey]
      const hit = liveCache.get(key)
      if (hit?.source === source && hit.at === stamp.data) return hit.values
      const values = maskInactive(source, state.running)
      liveCache.set(key, { at: stamp.data, source, values })
      return values
    }
    const at = `${stamp.structure}:${stamp.identity}`
    const hit = valueCache.get(key)
    if (hit?.at === at) return hit.values
    runs.values++
    const values = getSortValues(guests, key)
    valueCache.set(key, { at, values })
    return values
  }
  const sortOrder = (
    tie: Uint32Array,
    values: Float64Array,
    key: GuestSortKey,
    direction: 'asc' | 'desc',
    stamp: GuestStamp,
  ) => {
    const cacheKey = `${key}:${direction}`
    // Live values may be updated in place: their order is only good for the data it was made from.
    const at = isIdentityKey(key) ? -1 : stamp.data
    const hit = orderCache.get(cacheKey)
    if (hit && hit.tie === tie && hit.values === values && hit.at === at) return hit.order
    runs.sort++
    const order = sortGuests(tie, values, direction)
    orderCache.set(cacheKey, { tie, values, order, at })
    return order
  }
  const slotNames = memoizeStage((info: ReturnType<typeof describeSlots>) =>
    info.infos.map((node) => (typeof node.name === 'string' ? node.name.toLowerCase() : '')),
  )
  const searchMask = counted(
    'mask',
    (
      search: ReturnType<typeof parseGuestSearch>,
      guests: readonly Guest[],
      slots: ReturnType<typeof assignGuestSlots>,
      names: readonly string[],
      _data: number,
    ) =>
      evaluateSearchMask(search, {
        guests,
        stamp: currentStamp,
        columns,
        live: currentLive,
        cache: termMasks,
        slotOf: slots.slotOf,
        slotNames: names,
      }),
  )
  const filter = counted(
    'filter',
    (
      sorted: Uint32Array,
      state: ReturnType<typeof columns.state>,
      slots: ReturnType<typeof assignGuestSlots>,
      viewMode: GuestViewRequest['viewMode'],
      statusMode: GuestViewRequest['statusMode'],
      selectedNode: string | null,
      mask: Uint8Array | null,
      _data: number,
    ) => filterGuests(sorted, state, slots, { viewMode, statusMode, selectedNode, mask }),
  )
  const groupStage = counted('group', groupGuests)
  // The unfiltered layout is what an empty search returns to after every keystroke that clears
  // it: kept apart from the last result so it survives other searches in between.
  let fullLayout: { args: unknown[]; layout: ReturnType<typeof groupGuests> } | null = null
  const group = (
    order: Uint32Array,
    grouping: GuestViewRequest['grouping'],
    slots: ReturnType<typeof assignGuestSlots>,
    info: ReturnType<typeof describeSlots>,
    sorted: Uint32Array,
  ) => {
    if (order !== sorted) return groupStage(order, grouping, slots, info)
    const args = [order, grouping, slots, info]
    if (fullLayout && fullLayout.args.every((arg, i) => arg === args[i])) return fullLayout.layout
    fullLayout = { args, layout: groupStage(order, grouping, slots, info) }
    return fullLayout.layout
  }
  const indexAlerts = counted('alerts', indexGuestAlerts)
  const windowRows = counted(
    'window',
    (
      guests: readonly Guest[],
      layout: ReturnType<typeof groupGuests>,
      nodes: ReturnType<typeof indexGuestNodes>,
      start: number,
      count: number,
      alerts: GuestAlertIndex,
      _data: number,
    ) => formatWindow(guests, layout, nodes, { start, count }, alerts),
  )
  const toModel = counted(
    'model',
    (
      guestCount: number,
      filtered: ReturnType<typeof filterGuests>,
      layout: ReturnType<typeof groupGuests>,
      slice: ReturnType<typeof formatWindow>,
      lastUpdate: number,
    ): GuestViewResult => ({
      kind: 'guests',
      totals: {
        guests: guestCount,
        running: filtered.running,
        stopped: filtered.stopped,
        matched: filtered.order.length,
      },
      rowCount: layout.entries.length,
      start: slice.start,
      rows: slice.rows,
      lastUpdate,
    }),
  )

  return {
    runs,
    compute(input, request) {
      const guests = input.guests
      const stamp = input.stamp ?? stampOf(guests)
      const nodes = indexNodes(input.nodes)
      const search = parseSearch(request.search)
      const tie = tieOrder(guests, stamp)
      const slots = assignSlots(guests, nodes, stamp)
      const info = slotInfo(slots, nodes)
      const { key, direction } = request.sort
      currentLive = input.live
      const sorted = sortOrder(tie, sortValues(guests, key, stamp), key, direction, stamp)
      // Every guest change moves `data`; the column caches inside key on the finer counters.
      currentStamp = stamp
      const mask = searchMask(search, guests, slots, slotNames(info), stamp.data)
      const filtered = filter(
        sorted,
        columns.state(guests, stamp, currentLive),
        slots,
        request.viewMode,
        request.statusMode,
        request.selectedNode,
        mask,
        stamp.data,
      )
      const layout = group(filtered.order, request.grouping, slots, info, sorted)
      const alerts = indexAlerts(input.alerts ?? NO_ALERTS)
      const { start, count } = request.window
      const slice = windowRows(guests, layout, nodes, start, count, alerts, stamp.data)
      return toModel(guests.length, filtered, layout, slice, input.lastUpdate)
    },
  }
}
