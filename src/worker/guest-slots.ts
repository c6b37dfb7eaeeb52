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

  const resolve = (guests: readonly Guest[]) => {
    if (entities && resolvedFor === guests) return
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

  return {
    set(id, slot) {
      if (!Number.isInteger(slot) || slot < 0) return
      slotOf.set(id, slot)
      entities = null
    },
    remove(id) {
      if (slotOf.delete(id)) entities = null
    },
    clear() {
      slotOf.clear()
      entities = null
    },
    invalidate() {
      entities = null
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
