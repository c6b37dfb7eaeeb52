// The summariser's guests (summariser.ts): whether a poll changed a field the summary reads, and
// the guests regrouped into their VMID buckets when one did. A poll hands new guest objects every
// time (metrics), so "changed" is field by field, at 100,000 guests in steps. Pure.
import type { Guest } from '../../model/state.ts'
import { STEP_ITEMS } from './backup-index.ts'
import type { GuestKey } from './bucket-fold.ts'

/** The part of a bucket this module fills. */
interface GuestSlots {
  guests: GuestKey[]
  at: number[]
}

function sameGuest(a: GuestKey, b: GuestKey): boolean {
  return (
    a.id === b.id &&
    a.instance === b.instance &&
    a.node === b.node &&
    a.vmid === b.vmid &&
    a.name === b.name &&
    a.type === b.type &&
    a.template === b.template &&
    a.pool === b.pool
  )
}

function toKey(guest: Guest): GuestKey {
  const { id, instance, node, vmid, type, name, template, pool } = guest
  return { id, instance, node, vmid, type, name, template, pool }
}

/** Whether `lists` (vms, containers) hold the guests of `keys`, field for field, in order. */
export function* sameGuestsSteps(
  before: readonly (readonly Guest[])[],
  lists: readonly (readonly Guest[])[],
  keys: readonly GuestKey[],
): Generator<void, boolean, void> {
  if (lists.every((list, k) => list === before[k])) return true
  let at = 0
  for (const list of lists) {
    for (let i = 0; i < list.length; i++, at++) {
      if (at % STEP_ITEMS === 0) yield
      const key = keys[at]
      if (!key || !sameGuest(key, list[i]!)) return false
    }
  }
  return at === keys.length
}

/**
 * Every guest's key in estate order, and each bucket's guests and estate indexes set anew; a
 * bucket whose guests differ (a field, the order, one more or less) is marked dirty.
 */
export function* regroupGuestSteps<B extends GuestSlots>(
  lists: readonly (readonly Guest[])[],
  buckets: ReadonlyMap<number, B>,
  bucketOf: (vmid: number) => B,
  dirty: Set<B>,
): Generator<void, GuestKey[], void> {
  const keys: GuestKey[] = []
  const groups = new Map<number, GuestSlots>()
  for (const list of lists) {
    for (const guest of list) {
      if (keys.length % STEP_ITEMS === 0) yield
      const group = groups.get(guest.vmid)
      const key = toKey(guest)
      if (group) {
        group.guests.push(key)
        group.at.push(keys.length)
      } else groups.set(guest.vmid, { guests: [key], at: [keys.length] })
      keys.push(key)
    }
  }
  let work = 0
  for (const [vmid, bucket] of buckets) {
    if (++work % STEP_ITEMS === 0) yield
    if (groups.has(vmid) || bucket.guests.length === 0) continue
    bucket.guests = []
    bucket.at = []
    dirty.add(bucket)
  }
  for (const [vmid, group] of groups) {
    if (++work % STEP_ITEMS === 0) yield
    const bucket = bucketOf(vmid)
    const old = bucket.guests
    const same =
      old.length === group.guests.length && old.every((g, k) => sameGuest(g, group.guests[k]!))
    if (!same) dirty.add(bucket)
    bucket.guests = group.guests
    bucket.at = group.at
  }
  return keys
}
