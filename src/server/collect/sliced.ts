// Work over long lists (a shared storage's 100,000 volumes, a PBS namespace's snapshots, mapped
// while parsed: json-slices.ts) done a slice at a time, the event loop free between slices (issue
// 27: never blocked over 50 ms).
import { setImmediate as nextTurn } from 'node:timers/promises'

/** Entries handled per turn of the event loop. */
export const MAP_SLICE = 5000

/** Field-by-field equality of two flat records (=== on every value). */
export function shallowEqual(a: object, b: object): boolean {
  const ka = Object.keys(a)
  if (ka.length !== Object.keys(b).length) return false
  const ra = a as Record<string, unknown>
  const rb = b as Record<string, unknown>
  return ka.every((k) => ra[k] === rb[k])
}

/**
 * `next`, changed in place: each record equal to the previous read's record of the same id is
 * replaced by that older object, so an unchanged listing keeps its objects (nothing new for the
 * server's diff or the old generation of the heap). `same` is true when the result is the
 * previous list element for element. Records are first matched by position (listings keep their
 * order); the previous list is indexed by id, in slices, only when positions stop matching.
 */
export async function reuseSliced<T extends { id: string }>(
  previous: readonly T[] | undefined,
  next: T[],
): Promise<{ list: T[]; same: boolean }> {
  if (previous === undefined) return { list: next, same: false }
  let same = previous.length === next.length
  let byId: Map<string, T> | undefined
  for (let from = 0; from < next.length; from += MAP_SLICE) {
    const end = Math.min(next.length, from + MAP_SLICE)
    for (let i = from; i < end; i++) {
      const record = next[i]!
      let old = previous[i]
      if (old === undefined || old.id !== record.id) {
        byId ??= await indexById(previous)
        old = byId.get(record.id)
      }
      if (old !== undefined && old !== record && shallowEqual(old, record)) next[i] = old
      if (next[i] !== previous[i]) same = false
    }
    if (end < next.length) await nextTurn()
  }
  return { list: next, same }
}

async function indexById<T extends { id: string }>(list: readonly T[]): Promise<Map<string, T>> {
  const byId = new Map<string, T>()
  for (let from = 0; from < list.length; from += MAP_SLICE) {
    const end = Math.min(list.length, from + MAP_SLICE)
    for (let i = from; i < end; i++) byId.set(list[i]!.id, list[i]!)
    if (end < list.length) await nextTurn()
  }
  return byId
}
