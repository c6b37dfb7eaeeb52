// A straightforward dashboard path, for comparison: what the same view costs without this
// project's caches. Same search compiler; on every change it filters the guest objects, groups
// them in a Map by node, sorts each group with a comparator that reads the objects, and builds the
// full row list before taking the window. This is a baseline we wrote, not the reference code.
import type { Guest, PveNode } from '../src/shared/model/state.ts'
import { compileGuestSearch } from '../src/shared/search/index.ts'
import { findGuestNode, indexGuestNodes, toUnknownNode } from '../src/shared/views/guest-nodes.ts'
import { getSortNumber, isTextSortKey } from '../src/shared/views/guest-sort.ts'
import { toGuestRow } from '../src/shared/views/guest-rows.ts'
import type { GuestViewRequest } from '../src/shared/views/guest-view-types.ts'

/** The baseline view: returns the rows of the window and the matched count. */
export function computeBaselineView(
  guests: readonly Guest[],
  nodes: readonly PveNode[],
  request: GuestViewRequest,
): { matched: number; rows: unknown[] } {
  const matcher = compileGuestSearch(request.search)
  const index = indexGuestNodes(nodes)
  const wantType = request.viewMode === 'vm' ? 'qemu' : request.viewMode === 'lxc' ? 'lxc' : null
  const matched = guests.filter(
    (guest) =>
      (!wantType || guest.type === wantType) &&
      (request.statusMode === 'all' ||
        (request.statusMode === 'running') === (guest.status === 'running')) &&
      matcher(guest),
  )
  const { key, direction } = request.sort
  const dir = direction === 'asc' ? 1 : -1
  const compare = (a: Guest, b: Guest) => {
    if (isTextSortKey(key)) {
      const ta = key === 'name' ? a.name : a.type
      const tb = key === 'name' ? b.name : b.type
      return (ta ?? '').localeCompare(tb ?? '') * dir || a.vmid - b.vmid
    }
    const va = getSortNumber(a, key)
    const vb = getSortNumber(b, key)
    if (Number.isNaN(va) || Number.isNaN(vb))
      return Number.isNaN(va) ? (Number.isNaN(vb) ? 0 : 1) : -1
    return (va - vb) * dir || a.vmid - b.vmid
  }
  const groups = new Map<string, { name: string; online: boolean; guests: Guest[] }>()
  for (const guest of matched) {
    const node = findGuestNode(index, guest) ?? toUnknownNode(guest)
    let group = groups.get(node.id)
    if (!group) groups.set(node.id, (group = { name: node.name, online: node.online, guests: [] }))
    group.guests.push(guest)
  }
  const rows: Array<{ header: string } | Guest> = []
  const ordered = [...groups.values()].sort(
    (a, b) => Number(b.online) - Number(a.online) || a.name.localeCompare(b.name),
  )
  for (const group of ordered) {
    rows.push({ header: group.name })
    rows.push(...group.guests.sort(compare))
  }
  const { start, count } = request.window
  const window = rows
    .slice(start, start + count)
    .map((row) => ('header' in row ? row : toGuestRow(row, row.status === 'running')))
  return { matched: matched.length, rows: window }
}
