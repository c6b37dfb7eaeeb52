// Group stage of the guest pipeline: node header rows (grouped) or a flat list.
import type { Guest } from '../model/state.ts'
import type { GuestGroupRow, GuestGrouping } from './guest-view-types.ts'
import {
  findGuestNode,
  toUnknownNode,
  type GuestNodeIndex,
  type GuestNodeInfo,
} from './guest-nodes.ts'

/**
 * The rows of the view in display order. `entries[i] >= 0` is a guest index; a negative entry
 * `-(g + 1)` is the header `groups[g]`. Typed so that 100k rows stay one compact allocation.
 */
export interface GuestLayout {
  entries: Int32Array
  groups: GuestGroupRow[]
}

/** Lay sorted guests out flat, or under node headers: online nodes first, then by name. */
export function groupGuests(
  guests: readonly Guest[],
  sorted: Uint32Array,
  grouping: GuestGrouping,
  nodes: GuestNodeIndex,
): GuestLayout {
  if (grouping === 'flat') return { entries: Int32Array.from(sorted), groups: [] }
  const buckets = new Map<string, { node: GuestNodeInfo; members: number[] }>()
  for (const index of sorted) {
    const guest = guests[index]!
    const node = findGuestNode(nodes, guest) ?? toUnknownNode(guest)
    let bucket = buckets.get(node.id)
    if (!bucket) buckets.set(node.id, (bucket = { node, members: [] }))
    bucket.members.push(index)
  }
  const ordered = [...buckets.values()].sort((a, b) => compareNodes(a.node, b.node))
  const entries = new Int32Array(sorted.length + ordered.length)
  const groups: GuestGroupRow[] = []
  let at = 0
  for (const { node, members } of ordered) {
    groups.push({
      kind: 'group',
      key: `node:${node.id}`,
      nodeId: node.id,
      label: node.label,
      sublabel: node.sublabel,
      online: node.online,
      guestCount: members.length,
    })
    entries[at++] = -groups.length
    for (const index of members) entries[at++] = index
  }
  return { entries, groups }
}

function compareNodes(a: GuestNodeInfo, b: GuestNodeInfo): number {
  if (a.online !== b.online) return a.online ? -1 : 1
  const na = a.name.toLowerCase()
  const nb = b.name.toLowerCase()
  if (na !== nb) return na < nb ? -1 : 1
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0
}
