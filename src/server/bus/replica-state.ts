// A web node's copy of the collector's state, kept by applying the changes the collector computed
// (live-changes.ts) instead of diffing whole states: at 100,000 guests a cycle touches the rows
// that changed and copies a few arrays of pointers, where a diff walks every guest.
//
// The guests' slot table is the collector's (from its snapshot, then the `guestSlots` of each
// delta), so the metrics frame addresses the same guests here as there and the web node's delta
// mode 2 frames are the collector's. Rows are found through an id -> position index per
// collection, built on first use and kept up to date (a removed row's place goes to the last
// row, so the order is the collector's only until rows are removed); the arrays and rows
// of earlier states are never written to (publications and first loads in progress hold them).
import { mergeEntity } from '../../shared/model/delta.ts'
import { DIFF_SLICE_ROWS, runSteps, type StateChanges } from '../../shared/model/delta-steps.ts'
import { createMetricChanges, GUEST_METRIC_FIELDS } from '../../shared/model/guest-metrics.ts'
import { ENTITY_COLLECTIONS, type EntityCollection, type State } from '../../shared/model/state.ts'
import { createInterner, type Interner } from '../collect/intern.ts'
import type { ReceivedChanges } from './live-changes.ts'

type Row = { id: string } & Record<string, unknown>

const GUEST_KEYS = ['vms', 'containers'] as const

/**
 * Strings up to this length are shared between the rows that repeat them (an instance, node,
 * datastore, owner or note in a million backup records); longer ones (volume ids) are unique.
 */
const SHARED_STRING_MAX = 40

/**
 * A received row's repeated strings and string lists replaced by shared copies, in place. A row
 * read from a message holds its own copy of every string: at 1,260,000 backup records that was
 * about 300 bytes a record (bench/README.md, "What the server holds").
 */
function shareStrings(row: Row, interner: Interner): void {
  for (const key in row) {
    if (key === 'id') continue
    const value = row[key]
    if (typeof value === 'string') {
      if (value.length <= SHARED_STRING_MAX) row[key] = interner.string(value)
    } else if (Array.isArray(value) && value.every((item) => typeof item === 'string')) {
      row[key] = interner.list(value as string[])
    }
  }
}

/** A new row from its upsert: the received object itself unless it removes fields. */
function newRow(patch: Row): Row {
  for (const key in patch) if (patch[key] === null) return mergeEntity(undefined, patch)
  return patch
}

/** The metrics-frame slot of each guest of a snapshot, by position (-1: none). */
export interface SnapshotSlots {
  vms: number[]
  containers: number[]
}

/** The slot table of `state`'s guests as `slotOf` gives it, for a snapshot. */
export function snapshotSlots(
  state: State,
  slotOf: (id: string) => number | undefined,
): SnapshotSlots {
  return {
    vms: state.vms.map((guest) => slotOf(guest.id) ?? -1),
    containers: state.containers.map((guest) => slotOf(guest.id) ?? -1),
  }
}

export interface ReplicaState {
  /** The state after the last change applied. */
  current(): State
  /** A guest's metrics-frame slot, as the collector assigned it. */
  slot(id: string): number | undefined
  /**
   * Apply one publication's changes; returns the new state and the changes as a Publication
   * holds them (the metrics with the changed rows of the new state). Throws on a malformed delta.
   */
  apply(received: ReceivedChanges): { state: State; changes: StateChanges }
  /** apply() in steps: yields every DIFF_SLICE_ROWS rows (a poll of 100,000 guests, run sliced). */
  applySteps(received: ReceivedChanges): Generator<void, { state: State; changes: StateChanges }>
}

/** A replica starting from a snapshot. */
export function createReplicaState(initial: State, slots: SnapshotSlots): ReplicaState {
  let state = initial
  const interner = createInterner()
  const slotOf = new Map<string, number>()
  const idAt: Array<string | undefined> = []
  const setSlot = (id: string, slot: number) => {
    if (!Number.isInteger(slot) || slot < 0) return
    slotOf.set(id, slot)
    idAt[slot] = id
  }
  const removeSlot = (id: string) => {
    const slot = slotOf.get(id)
    if (slot === undefined) return
    slotOf.delete(id)
    if (idAt[slot] === id) idAt[slot] = undefined
  }
  for (const key of GUEST_KEYS) {
    initial[key].forEach((guest, i) => setSlot(guest.id, slots[key][i] ?? -1))
  }

  // id -> position in `rows` (the array of that collection it was built for).
  const indexes = new Map<EntityCollection, { rows: readonly Row[]; of: Map<string, number> }>()
  const indexOf = (key: EntityCollection, rows: readonly Row[]): Map<string, number> => {
    const known = indexes.get(key)
    if (known?.rows === rows) return known.of
    const of = new Map<string, number>()
    for (let i = 0; i < rows.length; i++) of.set(rows[i]!.id, i)
    indexes.set(key, { rows, of })
    return of
  }

  function* applySteps(received: ReceivedChanges) {
    const { delta, metrics } = received
    let work = 0
    const next: State = { ...state }
    const table = next as unknown as Record<EntityCollection, Row[]>
    // Arrays copied for this state: positions as in the previous one unless rows were removed.
    const copied = new Set<EntityCollection>()
    const writable = (key: EntityCollection): Row[] => {
      if (copied.has(key)) return table[key]
      const rows = table[key].slice()
      const index = indexOf(key, table[key])
      indexes.set(key, { rows, of: index })
      copied.add(key)
      return (table[key] = rows)
    }
    for (const key of ENTITY_COLLECTIONS) {
      const removed = delta?.remove?.[key]
      const upserts = delta?.upsert?.[key]
      if (!removed?.length && !upserts?.length) continue
      const rows = writable(key)
      const index = indexOf(key, rows)
      // The last row takes a removed one's place: the index stays right without a rebuild (a
      // million backups would cost hundreds of ms). Rows are addressed by id, never by position.
      for (const id of removed ?? []) {
        const at = index.get(id)
        if (at === undefined) continue
        const last = rows.pop()!
        index.delete(id)
        if (at < rows.length) {
          rows[at] = last
          index.set(last.id, at)
        }
        if (++work % DIFF_SLICE_ROWS === 0) yield
      }
      for (const patch of upserts ?? []) {
        shareStrings(patch, interner)
        const at = index.get(patch.id)
        if (at === undefined) {
          index.set(patch.id, rows.length)
          rows.push(newRow(patch))
        } else rows[at] = mergeEntity(rows[at], patch)
        if (++work % DIFF_SLICE_ROWS === 0) yield
      }
    }
    // Removals first, then the new slots: a guest that moved between vms and containers keeps
    // its slot (the worker's order too, store.ts).
    for (const key of GUEST_KEYS) for (const id of delta?.remove?.[key] ?? []) removeSlot(id)
    for (const id in delta?.guestSlots) setSlot(id, delta.guestSlots[id]!)
    if (delta?.scalars) Object.assign(next, delta.scalars)

    const changes = createMetricChanges()
    if (metrics) {
      let v = 0
      for (let i = 0; i < metrics.slots.length; i++) {
        const slot = metrics.slots[i]!
        const mask = metrics.masks[i]!
        const first = v
        for (let bit = 0; bit < GUEST_METRIC_FIELDS.length; bit++) if (mask & (1 << bit)) v++
        const id = idAt[slot]
        if (id === undefined) continue
        const key = GUEST_KEYS.find((k) => indexOf(k, table[k]).has(id))
        if (!key) continue
        const rows = writable(key)
        const at = indexOf(key, rows).get(id)!
        const row: Row = { ...rows[at]! }
        let value = first
        for (let bit = 0; bit < GUEST_METRIC_FIELDS.length; bit++) {
          if (!(mask & (1 << bit))) continue
          const path = GUEST_METRIC_FIELDS[bit]!
          const number = metrics.values[value++]!
          changes.values.push(number)
          if (path.length === 1) row[path[0]] = number
          else {
            // A copy per guest, once: the previous state's object stays as it was.
            const [outer, field] = path
            if (row[outer] === rows[at]![outer]) row[outer] = { ...(row[outer] as object) }
            ;(row[outer] as Record<string, unknown>)[field] = number
          }
        }
        rows[at] = row
        changes.slots.push(slot)
        changes.masks.push(mask)
        changes.rows.push(row)
        if (++work % DIFF_SLICE_ROWS === 0) yield
      }
    }
    state = next
    return {
      state,
      changes: { delta, metrics: changes.slots.length ? changes : null },
    }
  }

  return {
    current: () => state,
    slot: (id) => slotOf.get(id),
    apply: (received) => runSteps(applySteps(received)),
    applySteps,
  }
}
