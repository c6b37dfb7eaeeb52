// Guests on the plain dialect: each carries `lastSeen`, the epoch ms of the poll that read it, as
// the reference's rawData does. Our state and the delta dialect leave it out (a time that changes on
// every poll would put every guest in every delta); it is the node's `lastSeen`, since one poll of
// an endpoint reads a node and its guests together, and stays put while the endpoint is down.
import type { Guest, PveNode } from '../../shared/model/state.ts'

/** A converter that adds `lastSeen` to guests; recomputes only when its inputs change identity. */
export function createPlainGuestsConverter(): (
  guests: readonly Guest[],
  nodes: readonly PveNode[],
) => Guest[] {
  let lastGuests: readonly Guest[] | null = null
  let lastNodes: readonly PveNode[] | null = null
  let lastOut: Guest[] = []
  return (guests, nodes) => {
    if (guests === lastGuests && nodes === lastNodes) return lastOut
    lastGuests = guests
    lastNodes = nodes
    lastOut = addLastSeen(guests, nodes)
    return lastOut
  }
}

/**
 * Copies of `guests` with their node's `lastSeen` (instance and node name must both match). A guest
 * whose node is not listed (a token without Sys.Audit sees no nodes) is left without one: unknown.
 */
export function addLastSeen(guests: readonly Guest[], nodes: readonly PveNode[]): Guest[] {
  // instance → node name → lastSeen: no per-guest key string at 100k guests.
  const seen = new Map<string, Map<string, number>>()
  for (const node of nodes) {
    if (node.lastSeen === undefined) continue
    let byName = seen.get(node.instance)
    if (!byName) seen.set(node.instance, (byName = new Map()))
    byName.set(node.name, node.lastSeen)
  }
  const out = new Array<Guest>(guests.length)
  for (let i = 0; i < guests.length; i++) {
    const guest = guests[i]!
    const lastSeen = seen.get(guest.instance)?.get(guest.node)
    out[i] = lastSeen === undefined ? guest : { ...guest, lastSeen }
  }
  return out
}
