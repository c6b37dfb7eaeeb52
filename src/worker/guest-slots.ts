// The guests' slot table of delta mode 2 and the merge of binary metrics frames through it.
// Runs inside the worker. Imports only src/shared and src/worker.
import {
  DISK_BITS,
  MEMORY_BITS,
  popcount,
  type MetricsFrame,
} from '../shared/model/guest-metrics.ts'
import type { Guest } from '../shared/model/state.ts'
import { patchMetricColumns, type StateColumns } from '../shared/views/guest-live-columns.ts'

/** Slot ↔ guest id, as the server assigned them; entities and positions resolved lazily. */
export interface GuestSlotTable {
  set(id: string, slot: number): void
  remove(id: string): void
  clear(): void
  /** Guests were added, removed or reordered: resolve entities and positions again when needed. */
  invalidate(): void
  /**
   * Guests were added or removed, the others kept their order: `from[j]` is the position in
   * `before` of the guest now at `j` in `after` (-1 for a new one). Positions are moved and new
   * guests looked up by id, instead of resolving every guest again.
   */
  remap(before: readonly Guest[], after: readonly Guest[], from: Int32Array): void
  /**
   * Merge a frame into the guests, in place (their `memory` and `disk` objects too: the store's
   * own, parsed from the wire), and into `columns` when given. Unknown slots are skipped. Returns the number of guests updated.
   */
  apply(frame: MetricsFrame, guests: readonly Guest[], columns: StateColumns | null): number
}

type Mutable = Record<string, unknown>

/** An empty slot table. */
export function createGuestSlotTable(): GuestSlotTable {
  const slotOf = new Map<string, number>()
  let entities: Array<Guest | undefined> | null = null
  let positions: Int32Array | null = null
  let resolvedFor: readonly Guest[] | null = null
  // Ids given a slot since the last resolve, whose entities are not known yet (new guests).
  const pending = new Set<string>()

  const resolve = (guests: readonly Guest[]) => {
    if (entities && resolvedFor === guests && pending.size === 0) return
    pending.clear()
    let size = 0
    for (const slot of slotOf.values()) if (slot >= size) size = slot + 1
    entities = new Array<Guest | undefined>(size)
    positions = new Int32Array(size).fill(-1)
    for (let i = 0; i < guests.length; i++) {
      const slot = slotOf.get(guests[i]!.id)
      if (slot === undefined) continue
      entities[slot] = guests[i]
      positions[slot] = i
    }
    resolvedFor = guests
  }

  const grow = (size: number) => {
    const next = new Int32Array(Math.max(size, positions!.length * 2)).fill(-1)
    next.set(positions!)
    positions = next
    entities!.length = next.length
  }

  return {
    set(id, slot) {
      if (!Number.isInteger(slot) || slot < 0) return
      const old = slotOf.get(id)
      if (old === slot) return
      slotOf.set(id, slot)
      // A guest new to the table: found by remap (or the next resolve). One that changed slot,
      // or a slot taken over by another id: resolve everything again.
      if (old === undefined && (!entities || slot >= entities.length || !entities[slot]))
        pending.add(id)
      else entities = null
    },
    remove(id) {
      const slot = slotOf.get(id)
      if (slot === undefined) return
      slotOf.delete(id)
      pending.delete(id)
      if (entities && slot < entities.length) {
        entities[slot] = undefined
        positions![slot] = -1
      }
    },
    clear() {
      slotOf.clear()
      pending.clear()
      entities = null
    },
    invalidate() {
      entities = null
    },
    remap(before, after, from) {
      if (!entities || resolvedFor !== before) {
        entities = null
        return
      }
      const to = new Int32Array(before.length).fill(-1)
      for (let j = 0; j < from.length; j++) if (from[j]! >= 0) to[from[j]!] = j
      const moved = positions!
      for (let s = 0; s < moved.length; s++) if (moved[s]! >= 0) moved[s] = to[moved[s]!]!
      for (let j = 0; j < from.length; j++) {
        if (from[j]! >= 0) continue
        const guest = after[j]!
        const slot = slotOf.get(guest.id)
        if (slot === undefined) continue
        if (slot >= entities.length) grow(slot + 1)
        entities[slot] = guest
        positions![slot] = j
        pending.delete(guest.id)
      }
      resolvedFor = after
    },
    apply(frame, guests, columns) {
      resolve(guests)
      const { slots, masks, values } = frame
      let k = 0
      let updated = 0
      for (let i = 0; i < slots.length; i++) {
        const mask = masks[i]!
        const guest = entities![slots[i]!] as (Guest & Mutable) | undefined
        if (!guest) {
          k += popcount(mask)
          continue
        }
        // Named stores in bit order (GUEST_METRIC_FIELDS): at 100k guests a computed-key store per
        // field costs several times more. memory and disk are the store's own parsed objects.
        if (mask & 0b1) guest.cpu = values[k++]!
        if (mask & 0b10) guest.uptime = values[k++]!
        if (mask & 0b100) guest.diskRead = values[k++]!
        if (mask & 0b1000) guest.diskWrite = values[k++]!
        if (mask & 0b10000) guest.networkIn = values[k++]!
        if (mask & 0b100000) guest.networkOut = values[k++]!
        if (mask & MEMORY_BITS) {
          const memory = guest.memory
          if (mask & 0b1000000) memory.used = values[k++]!
          if (mask & 0b10000000) memory.usage = values[k++]!
          if (mask & 0b100000000) memory.free = values[k++]!
        }
        if (mask & DISK_BITS) {
          const disk = guest.disk
          if (mask & 0b1000000000) disk.used = values[k++]!
          if (mask & 0b10000000000) disk.usage = values[k++]!
          if (mask & 0b100000000000) disk.free = values[k++]!
        }
        updated++
        const position = positions![slots[i]!]!
        if (columns && position >= 0) patchMetricColumns(columns, position, guest, mask)
      }
      return updated
    },
  }
}
