// Group stage of the guest pipeline: node header rows (grouped) or a flat list.
import type { GuestGroupRow, GuestGrouping } from './guest-view-types.ts'
import type { GuestSlots, SlotInfo } from './guest-slots.ts'

/**
 * The rows of the view in display order. `entries[i] >= 0` is a guest index; a negative entry
 * `-(g + 1)` is the header `groups[g]`. Typed so that 100k rows stay one compact allocation.
 */
export interface GuestLayout {
  entries: Int32Array
  groups: GuestGroupRow[]
}

/**
 * Lay sorted guests out flat, or under node headers (online nodes first, then by name) with each
 * group keeping the sort order: a counting sort by header rank, linear in the guests.
 */
export function groupGuests(
  sorted: Uint32Array,
  grouping: GuestGrouping,
  slots: GuestSlots,
  info: SlotInfo,
): GuestLayout {
  if (grouping === 'flat') return { entries: new Int32Array(sorted), groups: [] }
  const slotCount = info.infos.length
  const sizes = new Uint32Array(slotCount)
  const slotOf = slots.slotOf
  for (let i = 0; i < sorted.length; i++) sizes[slotOf[sorted[i]!]!]!++
  // Header positions in rank order, each followed by its members.
  const byRank = new Int32Array(slotCount).fill(-1)
  for (let slot = 0; slot < slotCount; slot++) byRank[info.rank[slot]!] = slot
  const start = new Uint32Array(slotCount)
  const groups: GuestGroupRow[] = []
  const entries = new Int32Array(sorted.length + countNonEmpty(sizes))
  let at = 0
  for (let r = 0; r < slotCount; r++) {
    const slot = byRank[r]!
    if (slot < 0 || sizes[slot] === 0) continue
    const node = info.infos[slot]!
    groups.push({
      kind: 'group',
      key: `node:${node.id}`,
      nodeId: node.id,
      label: node.label,
      sublabel: node.sublabel,
      online: node.online,
      guestCount: sizes[slot]!,
    })
    entries[at] = -groups.length
    start[slot] = at + 1
    at += 1 + sizes[slot]!
  }
  for (let i = 0; i < sorted.length; i++) {
    const index = sorted[i]!
    entries[start[slotOf[index]!]!++] = index
  }
  return { entries, groups }
}

function countNonEmpty(sizes: Uint32Array): number {
  let n = 0
  for (let i = 0; i < sizes.length; i++) if (sizes[i]) n++
  return n
}
