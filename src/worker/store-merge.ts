// Helpers of the store's guest merge (store.ts): in-place patches, the delta without guests.
// Runs inside the worker. Imports only src/shared and src/worker.
import type { StateDelta } from '../shared/model/messages.ts'
import type { EntityCollection } from '../shared/model/state.ts'

/**
 * Merge a patch into a guest in place. The fields every poll changes get named stores (cheap
 * inline caches); a computed-key store per field costs several times more at 100k guests.
 */
export function assignPatch(entity: Record<string, unknown>, patch: Record<string, unknown>): void {
  for (const field in patch) {
    const value = patch[field]
    if (value === null) {
      delete entity[field]
      continue
    }
    switch (field) {
      case 'cpu':
        entity.cpu = value
        break
      case 'memory':
        entity.memory = value
        break
      case 'uptime':
        entity.uptime = value
        break
      case 'diskRead':
        entity.diskRead = value
        break
      case 'diskWrite':
        entity.diskWrite = value
        break
      case 'networkIn':
        entity.networkIn = value
        break
      case 'networkOut':
        entity.networkOut = value
        break
      case 'disk':
        entity.disk = value
        break
      case 'lastSeen':
        entity.lastSeen = value
        break
      default:
        entity[field] = value
    }
  }
}

export type GuestKey = 'vms' | 'containers'
/** How far ahead the merge cursor looks for the next patched guest before asking the map. */
export const CURSOR_REACH = 16
export const GUEST_KEYS: ReadonlySet<EntityCollection> & Iterable<GuestKey> = new Set<GuestKey>([
  'vms',
  'containers',
])

// The delta minus its guest collections (merged separately, in place).
export function withoutGuests(delta: StateDelta): StateDelta {
  const out: StateDelta = { ...delta }
  if (delta.upsert) {
    const { vms: _vms, containers: _containers, ...upsert } = delta.upsert
    out.upsert = upsert
  }
  if (delta.remove) {
    const { vms: _vms, containers: _containers, ...remove } = delta.remove
    out.remove = remove
  }
  return out
}

// 4.22's initialState sends lastUpdate as an ISO string, rawData as epoch ms.
export function toEpochMs(value: unknown): number {
  if (typeof value === 'number' && Number.isFinite(value)) return value
  if (typeof value === 'string') {
    const parsed = Date.parse(value)
    return Number.isFinite(parsed) ? parsed : 0
  }
  return 0
}
