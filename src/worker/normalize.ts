// Normalises entities arriving in full states and deltas: ids, tags, nulls. Runs inside the worker.
import type { Entity, EntityCollection } from '../shared/model/state.ts'
import { guestKey, normalizeTags } from '../shared/model/guest-key.ts'
import { isRecord } from '../shared/model/coerce.ts'
import type { CollectionEntity } from './collections.ts'

const GUEST_COLLECTIONS: ReadonlySet<EntityCollection> = new Set(['vms', 'containers'])

export { isRecord } from '../shared/model/coerce.ts'

/**
 * An entity of a full state, ready for the index: guests without an id get their identity key,
 * other entities without an id get a positional one; guest tags present become a string array.
 * Returns null for something that is not an object. This is the boundary of the store's types:
 * past the id, an entity is trusted to have its collection's wire type (the server's contract).
 */
export function normalizeEntity<K extends EntityCollection>(
  key: K,
  raw: unknown,
  position: number,
): CollectionEntity<K> | null {
  if (!isRecord(raw)) return null
  let entity = raw as Entity
  if (typeof entity.id !== 'string' || !entity.id) {
    const id = GUEST_COLLECTIONS.has(key) ? toGuestId(raw) : null
    entity = { ...entity, id: id ?? `${key}-${position}` }
  }
  if (GUEST_COLLECTIONS.has(key) && entity.tags !== undefined && !isTagArray(entity.tags)) {
    entity = { ...entity, tags: normalizeTags(entity.tags) }
  }
  return entity as CollectionEntity<K>
}

/** A delta patch with guest tags normalised (a patch's null still means "field removed"). */
export function normalizePatch<T extends { id: string } & Record<string, unknown>>(
  key: EntityCollection,
  patch: T,
): T {
  if (!GUEST_COLLECTIONS.has(key) || !('tags' in patch)) return patch
  if (patch.tags === null || isTagArray(patch.tags)) return patch
  return { ...patch, tags: normalizeTags(patch.tags) }
}

function toGuestId(raw: Record<string, unknown>): string | null {
  const { node, vmid, instance } = raw
  if (typeof node !== 'string' || (typeof vmid !== 'number' && typeof vmid !== 'string')) {
    return null
  }
  return guestKey({ node, vmid, instance: typeof instance === 'string' ? instance : undefined })
}

// Already-normalised arrays are kept as they are: no copy per guest on every full state.
function isTagArray(tags: unknown): tags is string[] {
  if (!Array.isArray(tags)) return false
  for (const tag of tags) if (typeof tag !== 'string' || !tag || tag !== tag.trim()) return false
  return true
}
