// The Thresholds tab's view pipeline (spec 001 §2 Alerts: thresholds): one section (table) per
// subscription. Pure: the worker owns one pipeline per subscription and calls `compute`.
//
// Why this shape: at 100k guests only the guest section is large. Its order (vmid within node
// groups) is cached on the store's change counters, a keystroke costs one predicate pass and a
// linear regrouping, and a config change or a scroll formats only the rows in the window.
import type { AlertConfig } from '../model/alerts.ts'
import type { PbsInstance } from '../model/backups.ts'
import type { Entity, Guest, PveNode } from '../model/state.ts'
import type { Storage } from '../model/storage.ts'
import {
  countAlertsByResource,
  defaultTriggers,
  describeGuest,
  describeNode,
  describePbs,
  describeStorage,
  ruleTriggers,
  toThresholdRow,
  type ResourceIdentity,
} from './alert-threshold-rows.ts'
import { compileThresholdSearch, type ThresholdSearch } from './alert-threshold-search.ts'
import type {
  AlertThresholdsViewModel,
  AlertThresholdsViewRequest,
  ThresholdResourceKind,
  ThresholdResourceRow,
  ThresholdViewRow,
  VersionedAlertConfig,
} from './alert-thresholds-types.ts'
import { groupGuests, type GuestLayout } from './guest-group.ts'
import { indexGuestNodes } from './guest-nodes.ts'
import { assignGuestSlots, describeSlots, type GuestSlots, type SlotInfo } from './guest-slots.ts'
import { getTieOrder } from './guest-sort.ts'
import type { GuestStamp } from './guest-view.ts'
import { memoizeStage } from './memo.ts'

/** Live data and the working config the pipeline reads. */
export interface AlertThresholdsViewInput {
  nodes: readonly PveNode[]
  /** VMs and containers together, as the store keeps them. */
  guests: readonly Guest[]
  /** The store's change counters for `guests`; without them a new array counts as new data. */
  stamp?: GuestStamp
  pbs: readonly PbsInstance[]
  storage: readonly Storage[]
  alerts: readonly Entity[]
  config: VersionedAlertConfig
}

/** A model before the worker stamps its version. */
export type AlertThresholdsViewResult = Omit<AlertThresholdsViewModel, 'version'>

export interface AlertThresholdsViewPipeline {
  compute(
    input: AlertThresholdsViewInput,
    request: AlertThresholdsViewRequest,
  ): AlertThresholdsViewResult
}

/** Rows of a small section (nodes, PBS, storage): built whole, then windowed. */
interface SmallSection {
  total: number
  rows: ThresholdResourceRow[]
}

// Stamps for inputs without them (tests): one fresh counter per guests array.
const arrayStamps = new WeakMap<readonly Guest[], GuestStamp>()
let stampCounter = 0
function stampOf(guests: readonly Guest[]): GuestStamp {
  let stamp = arrayStamps.get(guests)
  if (!stamp) {
    const n = ++stampCounter
    stamp = { data: n, structure: n, identity: n, placement: n, labels: n }
    arrayStamps.set(guests, stamp)
  }
  return stamp
}

/** Create a pipeline. Equal inputs give the identical result object, so callers can skip pushes. */
export function createAlertThresholdsView(): AlertThresholdsViewPipeline {
  const compileSearch = memoizeStage(compileThresholdSearch)
  const countAlerts = memoizeStage(countAlertsByResource)
  const indexNodes = memoizeStage(indexGuestNodes)
  const describe = memoizeStage(describeSlots)
  const small = memoizeStage(buildSmallSection)
  const group = memoizeStage((order: Uint32Array, slots: GuestSlots, info: SlotInfo) =>
    groupGuests(order, 'grouped', slots, info),
  )
  const guestWindow = memoizeStage(formatGuestWindow)
  const smallWindow = memoizeStage(sliceRows)
  const toModel = memoizeStage(
    (
      section: AlertThresholdsViewRequest['section'],
      configVersion: number,
      total: number,
      matched: number,
      rowCount: number,
      slice: { start: number; rows: ThresholdViewRow[] },
    ): AlertThresholdsViewResult => ({
      kind: 'alertThresholds',
      section,
      configVersion,
      total,
      matched,
      rowCount,
      start: slice.start,
      rows: slice.rows,
    }),
  )

  // Keyed on the stamp, not on the array: guests are updated in place.
  let tie: { at: string; order: Uint32Array } | null = null
  let slotCache: { at: string; slots: GuestSlots } | null = null
  let filtered: {
    tie: Uint32Array
    search: ThresholdSearch
    data: number
    order: Uint32Array
  } | null = null

  const guestOrder = (guests: readonly Guest[], stamp: GuestStamp, search: ThresholdSearch) => {
    const tieAt = `${stamp.structure}:${stamp.identity}`
    if (tie?.at !== tieAt) tie = { at: tieAt, order: getTieOrder(guests) }
    const predicate = search.guest
    if (!predicate) return tie.order
    const data = search.readsData ? stamp.data : -1
    if (filtered?.tie === tie.order && filtered.search === search && filtered.data === data) {
      return filtered.order
    }
    const all = tie.order
    const kept = new Uint32Array(all.length)
    let n = 0
    for (let i = 0; i < all.length; i++) if (predicate(guests[all[i]!]!)) kept[n++] = all[i]!
    filtered = { tie: all, search, data, order: kept.subarray(0, n) }
    return filtered.order
  }

  return {
    compute(input, request) {
      const search = compileSearch(request.search)
      const alertCounts = countAlerts(input.alerts)
      const { config, version } = input.config
      const { start, count } = request.window
      if (request.section !== 'guests') {
        const source =
          request.section === 'nodes'
            ? input.nodes
            : request.section === 'pbs'
              ? input.pbs
              : input.storage
        // The section's own collection, not the input object: a guest delta rebuilds nothing here.
        const section = small(request.section, source, search, config, alertCounts)
        const slice = smallWindow(section.rows, start, count)
        return toModel(
          request.section,
          version,
          section.total,
          section.rows.length,
          section.rows.length,
          slice,
        )
      }
      const guests = input.guests
      const stamp = input.stamp ?? stampOf(guests)
      const nodes = indexNodes(input.nodes)
      const slotsAt = `${stamp.structure}:${stamp.placement}:${nodes.signature}`
      if (slotCache?.at !== slotsAt) {
        slotCache = { at: slotsAt, slots: assignGuestSlots(guests, nodes) }
      }
      const slots = slotCache.slots
      const order = guestOrder(guests, stamp, search)
      const layout = group(order, slots, describe(slots, nodes))
      const slice = guestWindow(guests, layout, start, count, config, alertCounts, stamp.data)
      return toModel(
        request.section,
        version,
        guests.length,
        order.length,
        layout.entries.length,
        slice,
      )
    },
  }
}

function buildSmallSection(
  section: Exclude<AlertThresholdsViewRequest['section'], 'guests'>,
  source: readonly (PveNode | PbsInstance | Storage)[],
  search: ThresholdSearch,
  config: AlertConfig | null,
  alertCounts: ReadonlyMap<string, number>,
): SmallSection {
  // The caller passes the collection of `section`.
  const resources: ResourceIdentity[] =
    section === 'nodes'
      ? (source as readonly PveNode[]).map(describeNode)
      : section === 'pbs'
        ? (source as readonly PbsInstance[]).map(describePbs)
        : (source as readonly Storage[]).map(describeStorage)
  const kind: ThresholdResourceKind =
    section === 'nodes' ? 'node' : section === 'pbs' ? 'pbs' : 'storage'
  const defaults = defaultTriggers(config, kind)
  const kept = search.resource ? resources.filter(search.resource) : resources
  kept.sort(compareResources)
  return {
    total: resources.length,
    rows: kept.map((resource) => toThresholdRow(resource, config, defaults, alertCounts)),
  }
}

// Nodes and PBS by name; storage by node, then name (as the storage tab groups them).
function compareResources(a: ResourceIdentity, b: ResourceIdentity): number {
  if (a.type === 'storage' && a.node !== b.node) return a.node < b.node ? -1 : 1
  if (a.name !== b.name) return a.name < b.name ? -1 : 1
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0
}

function sliceRows(
  rows: readonly ThresholdResourceRow[],
  start: number,
  count: number,
): { start: number; rows: ThresholdViewRow[] } {
  const from = clampStart(start, rows.length)
  return { start: from, rows: rows.slice(from, from + Math.max(0, count)) }
}

/** Only the rows in the window become objects: the rest of 100k guests stay indices. */
function formatGuestWindow(
  guests: readonly Guest[],
  layout: GuestLayout,
  start: number,
  count: number,
  config: AlertConfig | null,
  alertCounts: ReadonlyMap<string, number>,
  _data: number,
): { start: number; rows: ThresholdViewRow[] } {
  const entries = layout.entries
  const from = clampStart(start, entries.length)
  const end = Math.min(entries.length, from + Math.max(0, count))
  const defaults = defaultTriggers(config, 'guest')
  const rows: ThresholdViewRow[] = []
  for (let i = from; i < end; i++) {
    const entry = entries[i]!
    if (entry < 0) rows.push(layout.groups[-entry - 1]!)
    else {
      const guest = guests[entry]!
      const rule = ruleTriggers(config, guest)
      rows.push(toThresholdRow(describeGuest(guest), config, defaults, alertCounts, rule))
    }
  }
  return { start: from, rows }
}

function clampStart(start: number, length: number): number {
  if (!Number.isFinite(start) || start < 0) return 0
  return Math.min(Math.floor(start), Math.max(0, length - 1))
}
