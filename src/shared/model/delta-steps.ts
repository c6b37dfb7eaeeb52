// The server's diff of two published states, in steps: a generator that yields every few thousand
// rows, so the server can give its event loop back between slices at 100,000 guests and a million
// backups. Guests' live numbers are split off into a metrics change list (guest-metrics.ts); the
// JSON delta keeps everything else. Pure.
import type { StateDelta } from './messages.ts'
import { diffEntity, jsonEqual } from './delta.ts'
import {
  createMetricChanges,
  DISK_BITS,
  GUEST_METRIC_FIELDS,
  MEMORY_BITS,
  type GuestMetricChanges,
} from './guest-metrics.ts'
import { ENTITY_COLLECTIONS, SCALAR_KEYS, type State } from './state.ts'

type Row = { id: string } & Record<string, unknown>

/** Rows handled between two yields. */
export const DIFF_SLICE_ROWS = 1000

/** Guest id → slot, the index the metrics frame addresses guests by. Shared by vms and containers. */
export interface GuestSlots {
  of: Map<string, number>
  free: number[]
  next: number
}

/** An empty slot table. */
export function createGuestSlots(): GuestSlots {
  return { of: new Map(), free: [], next: 0 }
}

function assignSlot(slots: GuestSlots, id: string): number {
  let slot = slots.of.get(id)
  if (slot === undefined) {
    slot = slots.free.pop() ?? slots.next++
    slots.of.set(id, slot)
  }
  return slot
}

/** What changed between two states. */
export interface StateChanges {
  /** Everything but the guest metrics, with the slots of guests new to the table; null if nothing. */
  delta: StateDelta | null
  /** Number-to-number changes of guest live values; null if none. */
  metrics: GuestMetricChanges | null
}

const GUEST_KEYS = new Set(['vms', 'containers'])
const TOP_METRICS = new Map<string, number>()
GUEST_METRIC_FIELDS.forEach((path, bit) => {
  if (path.length === 1) TOP_METRICS.set(path[0], bit)
})

/**
 * Diff `prev` → `next` in steps (each `yield` is a good moment to let other work run). Slots of
 * new guests are assigned in `slots`, those of removed guests released, and reported in
 * `delta.guestSlots`. Keys in `skip` are not compared (their changes are known otherwise).
 */
export function* diffStateSteps(
  prev: State,
  next: State,
  slots: GuestSlots,
  skip?: ReadonlySet<string>,
): Generator<void, StateChanges, void> {
  const delta: StateDelta = {}
  let empty = true
  const metrics = createMetricChanges()
  const removedGuests: string[] = []
  for (const key of ENTITY_COLLECTIONS) {
    if (prev[key] === next[key] || skip?.has(key)) continue
    const guests = GUEST_KEYS.has(key)
    const prevRows = prev[key] as Row[]
    const nextRows = next[key] as Row[]
    const upsert: Row[] = []
    let remove: string[] = []
    // Same ids in the same order (a collector that lists in a stable order): no map needed.
    let i = 0
    const aligned = Math.min(prevRows.length, nextRows.length)
    for (; i < aligned; i++) {
      const old = prevRows[i]!
      const row = nextRows[i]!
      if (old.id !== row.id) break
      if (old !== row) {
        const changed = guests ? diffGuest(old, row, slots, metrics) : diffEntity(old, row)
        if (changed) upsert.push(changed)
      }
      if ((i + 1) % DIFF_SLICE_ROWS === 0) yield
    }
    if (i < prevRows.length || i < nextRows.length) {
      const before = new Map<string, Row>()
      for (let j = i; j < prevRows.length; j++) {
        before.set(prevRows[j]!.id, prevRows[j]!)
        if ((j + 1) % DIFF_SLICE_ROWS === 0) yield
      }
      for (let j = i; j < nextRows.length; j++) {
        const row = nextRows[j]!
        const old = before.get(row.id)
        before.delete(row.id)
        if (!old) {
          upsert.push(row)
          if (guests) (delta.guestSlots ??= {})[row.id] = assignSlot(slots, row.id)
        } else if (old !== row) {
          const changed = guests ? diffGuest(old, row, slots, metrics) : diffEntity(old, row)
          if (changed) upsert.push(changed)
        }
        if ((j + 1) % DIFF_SLICE_ROWS === 0) yield
      }
      remove = [...before.keys()]
    }
    if (upsert.length) {
      ;(delta.upsert ??= {})[key] = upsert
      empty = false
    }
    if (remove.length) {
      ;(delta.remove ??= {})[key] = remove
      if (guests) removedGuests.push(...remove)
      empty = false
    }
  }
  // After both guest collections: a guest that moved from vms to containers keeps its slot.
  for (const id of removedGuests) {
    const slot = slots.of.get(id)
    if (slot === undefined || delta.guestSlots?.[id] !== undefined) continue
    slots.of.delete(id)
    slots.free.push(slot)
  }
  if (delta.guestSlots) empty = false
  for (const key of SCALAR_KEYS) {
    if (skip?.has(key) || prev[key] === next[key] || jsonEqual(prev[key], next[key])) continue
    ;(delta.scalars ??= {} as NonNullable<StateDelta['scalars']>)[key] = next[key] as never
    empty = false
  }
  return { delta: empty ? null : delta, metrics: metrics.slots.length ? metrics : null }
}

/**
 * The all-JSON delta (delta mode 1): the metric changes folded back into the guests' patches as
 * whole top-level fields, without the slot table.
 */
export function toJsonDelta(changes: StateChanges, state: State): StateDelta | null {
  const { metrics } = changes
  if (!changes.delta && !metrics) return null
  const { guestSlots: _slots, ...delta } = changes.delta ?? {}
  if (!metrics) return Object.keys(delta).length ? delta : null
  const upsert = { ...delta.upsert }
  for (const key of ['vms', 'containers'] as const) {
    const patches = new Map<string, Row>()
    for (const patch of upsert[key] ?? []) patches.set(patch.id, patch)
    const ids = new Set(state[key].length ? metricsIds(metrics, key, state) : [])
    if (!ids.size) continue
    for (let i = 0; i < metrics.rows.length; i++) {
      const row = metrics.rows[i]!
      if (!ids.has(row.id)) continue
      // A copy: the patch objects belong to the mode-2 delta too.
      const patch: Row = { ...patches.get(row.id), id: row.id }
      patches.set(row.id, patch)
      const mask = metrics.masks[i]!
      for (let bit = 0; bit < GUEST_METRIC_FIELDS.length; bit++) {
        if (mask & (1 << bit))
          patch[GUEST_METRIC_FIELDS[bit]![0]] = row[GUEST_METRIC_FIELDS[bit]![0]]
      }
    }
    upsert[key] = [...patches.values()]
  }
  return { ...delta, upsert }
}

// Ids of the metric rows that belong to collection `key` of `state`.
function metricsIds(metrics: GuestMetricChanges, key: 'vms' | 'containers', state: State) {
  const members = new Set<unknown>(state[key])
  return metrics.rows.filter((row) => members.has(row)).map((row) => row.id)
}

/** Run steps to the end at once (tests, small states). */
export function runSteps<T>(steps: Generator<void, T, void>): T {
  for (;;) {
    const step = steps.next()
    if (step.done) return step.value
  }
}

/**
 * One guest: number-to-number changes of the metric fields go to `metrics` (by the guest's slot),
 * every other change into the returned JSON patch (null when there is none). A `memory` or `disk`
 * whose other fields changed travels whole in the patch, and its metric bits are dropped.
 */
function diffGuest(
  prev: Row,
  next: Row,
  slots: GuestSlots,
  metrics: GuestMetricChanges,
): Row | null {
  let out: Row | null = null
  let mask = 0
  // Keys of `next` that `prev` has too; if that is all of prev's, nothing was removed.
  let shared = 0
  for (const key in next) {
    const value = next[key]
    if (value === undefined) continue
    const old = prev[key]
    if (old !== undefined) shared++
    if (old === value) continue
    const bit = TOP_METRICS.get(key)
    if (bit !== undefined && typeof old === 'number' && typeof value === 'number') {
      mask |= 1 << bit
      continue
    }
    if (key === 'memory' || key === 'disk') {
      const bits = key === 'memory' ? MEMORY_BITS : DISK_BITS
      const nested = diffNested(old, value, bits)
      if (nested === null) continue
      if (nested >= 0) {
        mask |= nested
        continue
      }
    }
    if (!jsonEqual(old, value)) (out ??= { id: next.id })[key] = value
  }
  let defined = 0
  for (const key in prev) if (prev[key] !== undefined) defined++
  if (defined !== shared) {
    for (const key in prev) {
      if (prev[key] !== undefined && next[key] === undefined) (out ??= { id: next.id })[key] = null
    }
  }
  if (out && 'memory' in out) mask &= ~MEMORY_BITS
  if (out && 'disk' in out) mask &= ~DISK_BITS
  if (mask) {
    const values: number[] = []
    for (let bit = 0; bit < GUEST_METRIC_FIELDS.length; bit++) {
      if (!(mask & (1 << bit))) continue
      const path = GUEST_METRIC_FIELDS[bit]!
      const holder = path.length === 1 ? next : (next[path[0]] as Record<string, unknown>)
      values.push(holder[path[path.length - 1]!] as number)
    }
    const slot = slots.of.get(next.id)
    if (slot === undefined) {
      // Not in the table (cannot happen for a guest present in both states): send it as JSON.
      for (const path of GUEST_METRIC_FIELDS) (out ??= { id: next.id })[path[0]] = next[path[0]]
    } else {
      metrics.slots.push(slot)
      metrics.masks.push(mask)
      metrics.rows.push(next)
      for (const v of values) metrics.values.push(v)
    }
  }
  return out
}

/**
 * Compare `memory` or `disk`: null when equal, the mask of its changed metric fields when only
 * those changed number-to-number, -1 when anything else changed (the object goes whole as JSON).
 */
function diffNested(old: unknown, value: unknown, bits: number): number | null {
  if (!isPlain(old) || !isPlain(value)) return -1
  let mask = 0
  let count = 0
  for (const field in value) {
    const v = value[field]
    if (v === undefined) continue
    count++
    const o = old[field]
    if (o === v) continue
    const bit = nestedBit(field, bits)
    if (bit >= 0 && typeof o === 'number' && typeof v === 'number') mask |= 1 << bit
    else if (!jsonEqual(o, v)) return -1
  }
  for (const field in old) if (old[field] !== undefined) count--
  if (count !== 0) return -1
  return mask || null
}

function nestedBit(field: string, bits: number): number {
  for (let bit = 0; bit < GUEST_METRIC_FIELDS.length; bit++) {
    if (!(bits & (1 << bit))) continue
    if (GUEST_METRIC_FIELDS[bit]![1] === field) return bit
  }
  return -1
}

function isPlain(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
