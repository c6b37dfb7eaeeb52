// Delta protocol: the server diffs consecutive published states, the worker applies the result.
// Both sides use these functions so that merge(initialState, deltas...) equals the server's state.
import type { StateDelta } from './messages.ts'
import {
  ENTITY_COLLECTIONS,
  SCALAR_KEYS,
  type Entity,
  type EntityCollection,
  type State,
} from './state.ts'

type Row = { id: string } & Record<string, unknown>

/** Structural equality for JSON values (what crosses the wire). */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false
    for (let i = 0; i < a.length; i++) if (!jsonEqual(a[i], b[i])) return false
    return true
  }
  if (Array.isArray(b)) return false
  const ao = a as Record<string, unknown>
  const bo = b as Record<string, unknown>
  let count = 0
  for (const key in ao) {
    if (ao[key] === undefined) continue
    count++
    if (!jsonEqual(ao[key], bo[key])) return false
  }
  for (const key in bo) if (bo[key] !== undefined) count--
  return count === 0
}

/** Changed top-level fields of `next` against `prev`; removed fields become null. Null when equal. */
export function diffEntity(prev: Row, next: Row): Row | null {
  let out: Row | null = null
  for (const key in next) {
    const value = next[key]
    if (value === undefined) continue
    if (!jsonEqual(prev[key], value)) (out ??= { id: next.id })[key] = value
  }
  for (const key in prev) {
    if (prev[key] !== undefined && next[key] === undefined) (out ??= { id: next.id })[key] = null
  }
  return out
}

function diffCollection(prev: readonly Row[], next: readonly Row[]) {
  const before = new Map<string, Row>()
  for (const row of prev) before.set(row.id, row)
  const upsert: Row[] = []
  for (const row of next) {
    const old = before.get(row.id)
    before.delete(row.id)
    if (!old) upsert.push(row)
    else if (old !== row) {
      const changed = diffEntity(old, row)
      if (changed) upsert.push(changed)
    }
  }
  return { upsert, remove: [...before.keys()] }
}

/** The delta that turns `prev` into `next`, or null when nothing changed. */
export function diffState(prev: State, next: State): StateDelta | null {
  const delta: StateDelta = {}
  let empty = true
  for (const key of ENTITY_COLLECTIONS) {
    if (prev[key] === next[key]) continue
    const { upsert, remove } = diffCollection(prev[key] as Row[], next[key] as Row[])
    if (upsert.length) {
      ;(delta.upsert ??= {})[key] = upsert
      empty = false
    }
    if (remove.length) {
      ;(delta.remove ??= {})[key] = remove
      empty = false
    }
  }
  for (const key of SCALAR_KEYS) {
    if (prev[key] === next[key] || jsonEqual(prev[key], next[key])) continue
    ;(delta.scalars ??= {} as NonNullable<StateDelta['scalars']>)[key] = next[key] as never
    empty = false
  }
  return empty ? null : delta
}

/** Merge a changed-fields row into an existing entity (null deletes a field). Returns a new object. */
export function mergeEntity<T extends Row>(target: T | undefined, patch: Row): T {
  const out: Record<string, unknown> = target ? { ...target } : {}
  for (const key in patch) {
    const value = patch[key]
    if (value === null) delete out[key]
    else out[key] = value
  }
  return out as T
}

/**
 * Apply a delta to an id-indexed store in place. New entities are appended to the order;
 * removed ones dropped. Returns the collections that changed.
 */
export function applyDeltaToIndex(
  index: Record<EntityCollection, Map<string, Entity>>,
  scalars: Partial<State>,
  delta: StateDelta,
): Set<EntityCollection | 'scalars'> {
  const changed = new Set<EntityCollection | 'scalars'>()
  for (const key of ENTITY_COLLECTIONS) {
    const map = index[key]
    const removed = delta.remove?.[key]
    if (removed?.length) {
      for (const id of removed) map.delete(id)
      changed.add(key)
    }
    const upserts = delta.upsert?.[key]
    if (upserts?.length) {
      for (const patch of upserts) map.set(patch.id, mergeEntity(map.get(patch.id), patch))
      changed.add(key)
    }
  }
  if (delta.scalars) {
    Object.assign(scalars, delta.scalars)
    changed.add('scalars')
  }
  return changed
}

/** Apply a delta to a plain state object, returning a new state (tests and simple clients). */
export function applyDelta(state: State, delta: StateDelta): State {
  const next: State = { ...state }
  for (const key of ENTITY_COLLECTIONS) {
    const removed = delta.remove?.[key]
    const upserts = delta.upsert?.[key]
    if (!removed?.length && !upserts?.length) continue
    const map = new Map<string, Entity>()
    for (const row of state[key] as Entity[]) map.set(row.id, row)
    for (const id of removed ?? []) map.delete(id)
    for (const patch of upserts ?? []) map.set(patch.id, mergeEntity(map.get(patch.id), patch))
    ;(next as unknown as Record<string, Entity[]>)[key] = [...map.values()]
  }
  if (delta.scalars) Object.assign(next, delta.scalars)
  return next
}
