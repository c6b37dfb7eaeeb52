// Filter stage of the guest pipeline: view mode, status mode, selected node, search.
import type { Guest } from '../model/state.ts'
import type { GuestStatusMode, GuestViewMode } from './guest-view-types.ts'
import type { GuestMatcher } from './guest-matcher.ts'
import { findGuestNode, toUnknownNode, type GuestNodeIndex } from './guest-nodes.ts'

/** Indices of matching guests (in input order) and the footer counts over them. */
export interface GuestFilterResult {
  order: Uint32Array
  running: number
  stopped: number
}

/** Options of the filter stage; `matcher` null means no search. */
export interface GuestFilterOptions {
  viewMode: GuestViewMode
  statusMode: GuestStatusMode
  selectedNode: string | null
  matcher: GuestMatcher | null
}

/** Keep the guests that pass every filter; any status other than running counts as stopped. */
export function filterGuests(
  guests: readonly Guest[],
  nodes: GuestNodeIndex,
  options: GuestFilterOptions,
): GuestFilterResult {
  const { viewMode, statusMode, selectedNode, matcher } = options
  const wantType = viewMode === 'vm' ? 'qemu' : viewMode === 'lxc' ? 'lxc' : null
  const picked = new Uint32Array(guests.length)
  let count = 0
  let running = 0
  for (let i = 0; i < guests.length; i++) {
    const guest = guests[i]!
    if (wantType && guest.type !== wantType) continue
    const isRunning = guest.status === 'running'
    if (statusMode === 'running' ? !isRunning : statusMode === 'stopped' && isRunning) continue
    if (selectedNode !== null) {
      const node = findGuestNode(nodes, guest) ?? toUnknownNode(guest)
      if (node.id !== selectedNode) continue
    }
    // The matcher runs last: it is the costliest test.
    if (matcher && !matcher(guest)) continue
    picked[count++] = i
    if (isRunning) running++
  }
  return { order: picked.slice(0, count), running, stopped: count - running }
}
