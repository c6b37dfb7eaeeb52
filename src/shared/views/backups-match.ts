// Matching for the incremental backup normaliser (backups-incremental.ts): which source objects
// are the ones normalised last time, and the (time, vmid) key maps of PBS backups and their PVE
// twins. Pure.
import type { GuestNames } from './backups-normalize.ts'

/** How far the matching walk looks ahead for a source object before indexing the rest. */
const LOOKAHEAD = 64

/** Counts per (time, vmid) key: PBS backups per key, or PVE twins per key and instance. */
export type KeyCounts<V> = Map<number, Map<string, V>>

/** How the new items relate to the old ones. */
export interface Match {
  /** Per new item: the old position of the identical object, or -1. */
  prev: Int32Array
  /** Per new item: 1 when its record must be built (new object or a dependency changed). */
  fresh: Uint8Array
  /** Per old item: 1 when its object is still there, at `prev` of some new item. */
  kept: Uint8Array
  /** Per old item: 1 when kept and its record is reused (not rebuilt). */
  reused: Uint8Array
}

/**
 * Match new items to old ones by identity, walking both in order. The store keeps a collection in
 * arrival order: a changed entity stays in place as a new object, a removed one leaves a gap and a
 * new one is appended, so a linear walk finds every kept object. Anything else (a full state
 * replaced everything) only costs more records built, never a wrong one: a record is kept only
 * for the identical object.
 */
export function matchItems<T extends { id: string }>(old: readonly T[], next: readonly T[]): Match {
  const prev = new Int32Array(next.length).fill(-1)
  const fresh = new Uint8Array(next.length).fill(1)
  const kept = new Uint8Array(old.length)
  let tail: Map<string, number> | null = null
  let j = 0
  for (let i = 0; i < next.length; i++) {
    const item = next[i]!
    if (j >= old.length) break
    if (old[j] === item) {
      prev[i] = j
      fresh[i] = 0
      kept[j++] = 1
      continue
    }
    if (old[j]!.id === item.id) {
      j++ // replaced in place
      continue
    }
    // Old items were removed before this one, or this one is new: look a little way ahead, then
    // index what is left of the old items once.
    let found = -1
    for (let k = j + 1; k < old.length && k <= j + LOOKAHEAD; k++) {
      if (old[k]!.id === item.id) {
        found = k
        break
      }
    }
    if (found < 0) {
      if (!tail) {
        tail = new Map()
        for (let k = j; k < old.length; k++) tail.set(old[k]!.id, k)
      }
      found = tail.get(item.id) ?? -1
      if (found < j) continue // new, or out of order: built anew
    }
    j = found
    if (old[j] === item) {
      prev[i] = j
      fresh[i] = 0
      kept[j] = 1
    }
    j++
  }
  return { prev, fresh, kept, reused: kept.slice() }
}

/** Rebuild the kept items for which `test` holds (a dependency of their record changed). */
export function markWhere<T>(match: Match, items: readonly T[], test: (item: T) => boolean): void {
  for (let i = 0; i < items.length; i++) {
    if (match.fresh[i] === 0 && test(items[i]!)) {
      match.fresh[i] = 1
      match.reused[match.prev[i]!] = 0
    }
  }
}

/** Old objects that are gone (replaced or removed). */
export function forRemoved<T>(match: Match, old: readonly T[], run: (item: T) => void): void {
  for (let j = 0; j < old.length; j++) if (match.kept[j] !== 1) run(old[j]!)
}

/** New objects (not kept ones marked for rebuilding: their keys are counted already). */
export function forAdded<T>(match: Match, items: readonly T[], run: (item: T) => void): void {
  for (let i = 0; i < items.length; i++) if (match.prev[i] === -1) run(items[i]!)
}

/** The value of a key, if any. */
export function getKey<V>(map: KeyCounts<V>, time: number, vmid: string): V | undefined {
  return map.get(time)?.get(vmid)
}

/** Whether a key is present. */
export function hasKey<V>(map: KeyCounts<V>, time: number, vmid: string): boolean {
  return map.get(time)?.has(vmid) ?? false
}

/** Set a key's value. */
export function setKey<V>(map: KeyCounts<V>, time: number, vmid: string, value: V): void {
  let byVmid = map.get(time)
  if (!byVmid) map.set(time, (byVmid = new Map()))
  byVmid.set(vmid, value)
}

/** Drop a key (and its time when that was its last vmid). */
export function deleteKey<V>(map: KeyCounts<V>, time: number, vmid: string): void {
  const byVmid = map.get(time)
  if (!byVmid) return
  byVmid.delete(vmid)
  if (byVmid.size === 0) map.delete(time)
}

/** The twin instance of a key as normaliseBackups resolves it: one instance, '' for several. */
export function twinOf(
  twins: KeyCounts<Map<string, number>>,
  time: number,
  vmid: string,
): string | undefined {
  const byInstance = getKey(twins, time, vmid)
  if (!byInstance || byInstance.size === 0) return undefined
  if (byInstance.size > 1) return ''
  return byInstance.keys().next().value
}

/** Vmids whose name lookups differ between two guest name indexes. */
export function changedVmids(before: GuestNames, after: GuestNames): Set<string> {
  const changed = new Set<string>()
  const compare = (a: Map<string, string> | undefined, b: Map<string, string> | undefined) => {
    if (a === b) return
    for (const [vmid, name] of a ?? []) if (b?.get(vmid) !== name) changed.add(vmid)
    for (const [vmid, name] of b ?? []) if (a?.get(vmid) !== name) changed.add(vmid)
  }
  for (const instance of new Set([...before.byNode.keys(), ...after.byNode.keys()])) {
    const a = before.byNode.get(instance)
    const b = after.byNode.get(instance)
    for (const node of new Set([...(a?.keys() ?? []), ...(b?.keys() ?? [])])) {
      compare(a?.get(node), b?.get(node))
    }
    compare(before.byInstance.get(instance), after.byInstance.get(instance))
  }
  // A guest that moved: its storage backups move with it.
  for (const instance of new Set([...before.homes.keys(), ...after.homes.keys()])) {
    compare(before.homes.get(instance), after.homes.get(instance))
  }
  for (const key of new Set([...before.byTypeVmid.keys(), ...after.byTypeVmid.keys()])) {
    const a = before.byTypeVmid.get(key) ?? []
    const b = after.byTypeVmid.get(key) ?? []
    const same =
      a.length === b.length &&
      a.every((guest, i) => guest.name === b[i]!.name && guest.instance === b[i]!.instance)
    if (!same) changed.add(key.slice(key.indexOf('/') + 1))
  }
  return changed
}
