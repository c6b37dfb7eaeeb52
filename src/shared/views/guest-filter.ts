// Filter stage of the guest pipeline: view mode, status mode, selected node, search. It walks the
// cached sort order, so its output is already sorted and a keystroke never re-sorts.
import type { Guest } from '../model/state.ts'
import type { GuestStatusMode, GuestViewMode } from './guest-view-types.ts'
import type { GuestMatcher } from './guest-matcher.ts'
import type { GuestSlots } from './guest-slots.ts'

/** Indices of matching guests (in sorted order) and the footer counts over them. */
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

/** Keep the guests of `sorted` that pass every filter; any status other than running is stopped. */
export function filterGuests(
  guests: readonly Guest[],
  sorted: Uint32Array,
  slots: GuestSlots,
  options: GuestFilterOptions,
): GuestFilterResult {
  const { viewMode, statusMode, selectedNode, matcher } = options
  const wantType = viewMode === 'vm' ? 'qemu' : viewMode === 'lxc' ? 'lxc' : null
  const wantSlot = selectedNode === null ? -1 : slots.ids.indexOf(selectedNode)
  if (selectedNode !== null && wantSlot < 0)
    return { order: new Uint32Array(0), running: 0, stopped: 0 }
  const slotOf = slots.slotOf
  const picked = new Uint32Array(sorted.length)
  let count = 0
  let running = 0
  for (let i = 0; i < sorted.length; i++) {
    const index = sorted[i]!
    if (wantSlot >= 0 && slotOf[index] !== wantSlot) continue
    const guest = guests[index]!
    if (wantType && guest.type !== wantType) continue
    const isRunning = guest.status === 'running'
    if (statusMode === 'running' ? !isRunning : statusMode === 'stopped' && isRunning) continue
    // The matcher runs last: it is the costliest test.
    if (matcher && !matcher(guest)) continue
    picked[count++] = index
    if (isRunning) running++
  }
  return { order: picked.subarray(0, count), running, stopped: count - running }
}
