// Each guest's parent node as a small integer (a slot), so the filter and group stages compare
// numbers instead of looking nodes up per guest. Slots survive metric-only updates.
import type { Guest } from '../model/state.ts'
import {
  findGuestNode,
  toUnknownNode,
  type GuestNodeIndex,
  type GuestNodeInfo,
} from './guest-nodes.ts'

/** Guests mapped to node slots; `ids[slot]` is the node id, `unknown[slot]` its stand-in. */
export interface GuestSlots {
  slotOf: Uint32Array
  ids: string[]
  /** Node info for slots whose node is not in the state (a header is still needed). */
  unknown: Array<GuestNodeInfo | null>
}

/** Node info per slot and the group order (online first, then name), for the current nodes. */
export interface SlotInfo {
  infos: GuestNodeInfo[]
  /** `rank[slot]`: position of the slot's header in grouped mode. */
  rank: Uint32Array
}

/** Assign every guest its node's slot (known nodes by instance and name, then by name alone). */
export function assignGuestSlots(guests: readonly Guest[], nodes: GuestNodeIndex): GuestSlots {
  const slotOf = new Uint32Array(guests.length)
  const slotById = new Map<string, number>()
  const ids: string[] = []
  const unknown: Array<GuestNodeInfo | null> = []
  for (let i = 0; i < guests.length; i++) {
    const guest = guests[i]!
    const known = findGuestNode(nodes, guest)
    const info = known ?? toUnknownNode(guest)
    let slot = slotById.get(info.id)
    if (slot === undefined) {
      slot = ids.length
      slotById.set(info.id, slot)
      ids.push(info.id)
      unknown.push(known ? null : info)
    }
    slotOf[i] = slot
  }
  return { slotOf, ids, unknown }
}

/** Current node info and header order of the slots. */
export function describeSlots(slots: GuestSlots, nodes: GuestNodeIndex): SlotInfo {
  const infos = slots.ids.map((id, slot) => nodes.byId.get(id) ?? slots.unknown[slot]!)
  const ordered = infos.map((_, slot) => slot).sort((a, b) => compareNodes(infos[a]!, infos[b]!))
  const rank = new Uint32Array(infos.length)
  ordered.forEach((slot, position) => (rank[slot] = position))
  return { infos, rank }
}

function compareNodes(a: GuestNodeInfo, b: GuestNodeInfo): number {
  if (a.online !== b.online) return a.online ? -1 : 1
  const na = a.name.toLowerCase()
  const nb = b.name.toLowerCase()
  if (na !== nb) return na < nb ? -1 : 1
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0
}
