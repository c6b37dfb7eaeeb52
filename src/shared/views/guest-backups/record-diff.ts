// What changed between two backup lists, for the summariser's buckets. The collectors keep the
// record objects of an unchanged listing (PVE, reuseRecords) or hand new objects with the same
// ids (PBS, each content refresh), and a new list is the old one with a few records inserted or
// dropped; so both lists are walked side by side comparing identities (a pointer compare per
// record), then ids and the fields read, and only what does not line up is paired by id. Cost: a
// walk of the list plus work in proportion to what moved. Pure, in steps.
import { STEP_ITEMS } from './backup-index.ts'

/** The change from one list to the next as a multiset of records. */
export interface ListChange<R> {
  added: readonly R[]
  removed: R[]
  /** Pairs (old, new) of records equal for the summary: the bucket takes the new object. */
  replaced: R[]
}

/**
 * The change from `old` to `next`. `same` compares id and every field the summary reads;
 * `known` says whether a record is in the old list or has a same-id record there (it only
 * steers the walk: a wrong answer costs time, never correctness).
 */
export function* diffRecordSteps<R extends { id: string }>(
  old: readonly R[],
  next: readonly R[],
  same: (a: R, b: R) => boolean,
  known: (record: R) => boolean,
): Generator<void, ListChange<R>, void> {
  const replaced: R[] = []
  // A first build: everything is new (no copy of a 1,000,000-record list).
  if (old.length === 0) return { added: next, removed: [], replaced }
  const newOnly: R[] = []
  const oldOnly: R[] = []
  let i = 0
  let j = 0
  let work = 0
  while (i < next.length) {
    if (++work % STEP_ITEMS === 0) yield
    const x = next[i]!
    if (j < old.length) {
      const y = old[j]!
      if (x === y) {
        i++
        j++
        continue
      }
      if (same(x, y)) {
        replaced.push(y, x)
        i++
        j++
        continue
      }
      // x was there before: y was dropped (or moved; the pairing below finds it).
      if (known(x)) {
        oldOnly.push(y)
        j++
        continue
      }
    }
    newOnly.push(x)
    i++
  }
  for (; j < old.length; j++) {
    if (++work % STEP_ITEMS === 0) yield
    oldOnly.push(old[j]!)
  }
  if (oldOnly.length === 0 || newOnly.length === 0) {
    return { added: newOnly, removed: oldOnly, replaced }
  }
  // Pair what did not line up: the same object first (moved), else a same-id equal record.
  const byId = new Map<string, R[]>()
  for (let k = 0; k < oldOnly.length; k++) {
    if (k % STEP_ITEMS === 0) yield
    const y = oldOnly[k]!
    const list = byId.get(y.id)
    if (list) list.push(y)
    else byId.set(y.id, [y])
  }
  const added: R[] = []
  for (let k = 0; k < newOnly.length; k++) {
    if (k % STEP_ITEMS === 0) yield
    const x = newOnly[k]!
    const list = byId.get(x.id)
    let at = list ? list.indexOf(x) : -1
    if (list && at < 0) at = list.findIndex((y) => same(x, y))
    if (!list || at < 0) {
      added.push(x)
      continue
    }
    const y = list[at]!
    list[at] = list[list.length - 1]!
    list.pop()
    if (y !== x) replaced.push(y, x)
  }
  const removed: R[] = []
  for (const list of byId.values()) for (const y of list) removed.push(y)
  return { added, removed, replaced }
}
