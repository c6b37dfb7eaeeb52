// Filter stage of the guest pipeline: view mode, status mode, selected node, search. It walks the
// cached sort order and reads only typed arrays, so its output is already sorted and a keystroke
// never re-sorts or touches guest objects.
import type { GuestStatusMode, GuestViewMode } from './guest-view-types.ts'
import type { StateColumns } from './guest-columns.ts'
import type { GuestSlots } from './guest-slots.ts'

/** Indices of matching guests (in sorted order) and the footer counts over them. */
export interface GuestFilterResult {
  order: Uint32Array
  running: number
  stopped: number
}

/** Options of the filter stage; `mask` null means no search. */
export interface GuestFilterOptions {
  viewMode: GuestViewMode
  statusMode: GuestStatusMode
  selectedNode: string | null
  /** 1 for guests the search matches. */
  mask: Uint8Array | null
}

/** Keep the guests of `sorted` that pass every filter; any status other than running is stopped. */
export function filterGuests(
  sorted: Uint32Array,
  state: StateColumns,
  slots: GuestSlots,
  options: GuestFilterOptions,
): GuestFilterResult {
  const { viewMode, statusMode, selectedNode, mask } = options
  const wantLxc = viewMode === 'lxc' ? 1 : viewMode === 'vm' ? 0 : -1
  const wantRunning = statusMode === 'running' ? 1 : statusMode === 'stopped' ? 0 : -1
  const wantSlot = selectedNode === null ? -1 : slots.ids.indexOf(selectedNode)
  if (selectedNode !== null && wantSlot < 0) {
    return { order: new Uint32Array(0), running: 0, stopped: 0 }
  }
  const { slotOf } = slots
  const { lxc, running: isRunning } = state
  if (mask === null && wantSlot < 0 && wantLxc < 0 && wantRunning < 0) {
    // Nothing to filter: the sorted order itself (the same array, so later stages can cache).
    let running = 0
    for (let i = 0; i < isRunning.length; i++) running += isRunning[i]!
    return { order: sorted, running, stopped: sorted.length - running }
  }
  const picked = new Uint32Array(sorted.length)
  let count = 0
  let running = 0
  for (let i = 0; i < sorted.length; i++) {
    const index = sorted[i]!
    if (mask !== null && mask[index] === 0) continue
    if (wantSlot >= 0 && slotOf[index] !== wantSlot) continue
    if (wantLxc >= 0 && lxc[index] !== wantLxc) continue
    const up = isRunning[index]!
    if (wantRunning >= 0 && up !== wantRunning) continue
    picked[count++] = index
    running += up
  }
  return { order: picked.subarray(0, count), running, stopped: count - running }
}
