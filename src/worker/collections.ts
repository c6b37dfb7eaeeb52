// The store's typed collections: which entity type each collection holds, and their containers.
// Runs inside the worker. Imports only src/shared and src/worker.
import { isRecord } from '../shared/model/coerce.ts'
import type { Entity, EntityCollection, ScalarKey, State } from '../shared/model/state.ts'

/**
 * An entity of collection `K` as the store holds it: the wire type the State declares, plus any
 * field the server sent that the type does not name (the index is keyed by `id`).
 */
export type CollectionEntity<K extends EntityCollection> = State[K][number] & Entity

/** Every collection's entities by id, in arrival order. */
export type CollectionIndex = { [K in EntityCollection]: Map<string, CollectionEntity<K>> }

/** The cached array of each collection, dropped (null) when that collection changes. */
export type CollectionArrays = {
  [K in EntityCollection]: { array: readonly CollectionEntity<K>[] | null }
}

/** Every collection's entities as arrays; what `toState()` returns, with the scalars received. */
export type StoreSnapshot = Partial<Pick<State, ScalarKey>> & {
  [K in EntityCollection]: CollectionEntity<K>[]
}

/** Every collection's array cache, empty. */
export function createArrays(): CollectionArrays {
  return {
    nodes: { array: null },
    vms: { array: null },
    containers: { array: null },
    storage: { array: null },
    cephClusters: { array: null },
    physicalDisks: { array: null },
    pbs: { array: null },
    pbsBackups: { array: null },
    storageBackups: { array: null },
    guestSnapshots: { array: null },
    backupTasks: { array: null },
    backupJobs: { array: null },
    backupCoverage: { array: null },
    pbsJobs: { array: null },
    guestBackups: { array: null },
    activeAlerts: { array: null },
    recentlyResolved: { array: null },
  }
}

/** One empty map per collection; listing them makes a new collection a compile error here. */
export function createIndex(): CollectionIndex {
  return {
    nodes: new Map(),
    vms: new Map(),
    containers: new Map(),
    storage: new Map(),
    cephClusters: new Map(),
    physicalDisks: new Map(),
    pbs: new Map(),
    pbsBackups: new Map(),
    storageBackups: new Map(),
    guestSnapshots: new Map(),
    backupTasks: new Map(),
    backupJobs: new Map(),
    backupCoverage: new Map(),
    pbsJobs: new Map(),
    guestBackups: new Map(),
    activeAlerts: new Map(),
    recentlyResolved: new Map(),
  }
}

const PVE_BACKUP_KEYS = ['storageBackups', 'guestSnapshots', 'backupTasks'] as const

/**
 * A full state with the plain dialect's `pveBackups: { storageBackups, guestSnapshots,
 * backupTasks }` (a reference server, or our server without deltas) lifted into the three
 * top-level collections our dialect sends. Top-level keys already present win.
 */
export function liftPveBackups(data: Record<string, unknown>): Record<string, unknown> {
  const nested = data.pveBackups
  if (!isRecord(nested)) return data
  const out: Record<string, unknown> = { ...data }
  for (const key of PVE_BACKUP_KEYS) {
    if (!(key in data) && key in nested) out[key] = nested[key] ?? []
  }
  return out
}
