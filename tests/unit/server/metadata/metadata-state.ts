// Live states for the guest metadata tests: `makeCollected`'s estate with chosen guests left out
// and chosen endpoints down, published through the app's real live state.
import type { CollectedState } from '../../../../src/server/collect/poller.ts'
import { makeCollected } from '../collected-fixture.ts'

/** `guests` guests (ids lab-pve1-100, lab-pve2-101, …) minus `without`; the endpoint up or down. */
export function estate(
  guests: number,
  tick: number,
  options: { without?: readonly string[]; down?: boolean } = {},
): CollectedState {
  // An even tick: makeCollected drops every 7th guest on odd ones.
  const collected = makeCollected(guests, tick * 2)
  const gone = new Set(options.without ?? [])
  collected.vms = collected.vms.filter((g) => !gone.has(g.id))
  collected.containers = collected.containers.filter((g) => !gone.has(g.id))
  if (options.down) {
    collected.connectionHealth = { lab: false }
    collected.connectionErrors = { lab: 'Cannot reach https://127.0.0.1:8006: refused.' }
  }
  return collected
}

/** The id of guest `i` of `estate` and its node-vmid key (both are metadata keys, spec 000 §3). */
export function guestIds(i: number): { id: string; nodeVmid: string } {
  const node = i % 2 === 0 ? 'pve1' : 'pve2'
  return { id: `lab-${node}-${100 + i}`, nodeVmid: `${node}-${100 + i}` }
}
