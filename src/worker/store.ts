// The worker's indexed copy of the live state: full states replace, deltas merge by id.
// Runs inside the worker. Imports only src/shared and src/worker.
import type { StateDelta } from '../shared/model/messages.ts'
import {
  ENTITY_COLLECTIONS,
  SCALAR_KEYS,
  type EntityCollection,
  type Guest,
  type ScalarKey,
  type State,
} from '../shared/model/state.ts'
import { applyDeltaToIndex, mergeEntity } from '../shared/model/delta.ts'
import type { GuestStamp } from '../shared/views/guest-view.ts'
import {
  buildStateColumns,
  mapGuestPositions,
  patchGuestColumns,
  remapStateColumns,
  type StateColumns,
} from '../shared/views/guest-live-columns.ts'
import {
  createArrays,
  createIndex,
  liftPveBackups,
  type CollectionArrays,
  type CollectionEntity,
} from './collections.ts'
import { normalizeEntity, normalizePatch } from './normalize.ts'
import { createGuestSlotTable } from './guest-slots.ts'
import { ON_DEMAND_COLLECTIONS } from '../shared/model/messages.ts'

import type { StateStore, StoreChange } from './store-types.ts'
import {
  assignPatch,
  CURSOR_REACH,
  GUEST_KEYS,
  toEpochMs,
  withoutGuests,
  type GuestKey,
} from './store-merge.ts'

export type { CollectionEntity, StoreSnapshot } from './collections.ts'
export type { DeltaOutcome, LoadProgress, StateStore, StoreChange } from './store-types.ts'

const EMPTY: readonly never[] = Object.freeze([])

/** Create an empty store. */
export function createStateStore(): StateStore {
  const index = createIndex()
  const scalars: Partial<State> = {}
  const arrays = createArrays()
  const received = new Set<EntityCollection>()
  let guests: readonly Guest[] | null = null
  let seq: number | null = null
  const stamp: GuestStamp = { data: 0, structure: 0, identity: 0, placement: 0, labels: 0 }
  let live: StateColumns | null = null
  const slots = createGuestSlotTable()
  let load: {
    seq: number
    counts: Record<string, number>
    received: Record<string, number>
  } | null = null
  // Seq of a delta whose metrics frame has not arrived yet.
  let metricsDue: number | null = null
  let backupsHeld = false
  let loadHasBackups = false
  const hasOnDemand = (keys: Record<string, unknown>) =>
    ON_DEMAND_COLLECTIONS.some((key) => key in keys)
  const bumpAll = () => {
    live = null
    stamp.data++
    stamp.structure++
    stamp.identity++
    stamp.placement++
    stamp.labels++
  }

  // Cached arrays keep their identity until a change drops them: the pipeline memoizes on it.
  const markChanged = (changed: ReadonlySet<StoreChange>, inPlace = false) => {
    for (const key of changed) {
      if (key === 'scalars') continue
      received.add(key)
      // Guests merged in place with no change of membership, order, names or nodes: same arrays.
      if (inPlace && GUEST_KEYS.has(key) && !reshaped.has(key as GuestKey)) continue
      arrays[key].array = null
      if (key === 'vms' || key === 'containers') guests = null
    }
    reshaped.clear()
  }

  const getCollection = <K extends EntityCollection>(key: K): readonly CollectionEntity<K>[] => {
    // Read through the slot's own type: a write to `arrays[key]` would need every collection's type.
    const slot: CollectionArrays[K] = arrays[key]
    const map: Map<string, CollectionEntity<K>> = index[key]
    slot.array ??= map.size ? [...map.values()] : EMPTY
    return slot.array
  }

  // Generic over the key, so that each entity gets the type of its collection.
  const replaceCollection = <K extends EntityCollection>(key: K, raw: readonly unknown[]) => {
    const map: Map<string, CollectionEntity<K>> = index[key]
    map.clear()
    for (let i = 0; i < raw.length; i++) {
      const entity = normalizeEntity(key, raw[i], i)
      if (entity) map.set(entity.id, entity)
    }
  }

  // Guests merge in place: at 100k guests a copy per changed guest costs more than the rest of
  // the update. The stamp records what kind of change happened, for the view caches; the guest
  // arrays keep their identity through metric-only updates (a view reads the stamp).
  const mergeGuests = (key: GuestKey, delta: StateDelta, changed: Set<StoreChange>) => {
    const map = index[key]
    const removed = delta.remove?.[key]
    const upserts = delta.upsert?.[key]
    if (!removed?.length && !upserts?.length) return
    let structure = false
    let identity = false
    let placement = false
    let labels = false
    if (removed?.length) {
      for (const id of removed) {
        const entity = map.get(id)
        if (!entity) continue
        map.delete(id)
        gone.add(entity)
        structure = true
      }
    }
    // Patches arrive in the server's order, which is (nearly always) ours: a cursor finds most
    // guests by comparing ids in place, with no hashing of 100k freshly parsed id strings.
    const ordered = getCollection(key)
    const offset = key === 'containers' ? getCollection('vms').length : 0
    let cursor = 0
    let columnsLost = false
    for (const raw of upserts ?? []) {
      const patch = normalizePatch(key, raw)
      const id = patch.id
      let entity: CollectionEntity<GuestKey> | undefined
      let position = -1
      const from = cursor
      for (let k = 0; k < CURSOR_REACH && cursor < ordered.length; k++, cursor++) {
        if (ordered[cursor]!.id === id) {
          position = cursor
          entity = ordered[cursor++]
          break
        }
      }
      if (!entity || (removed?.length && !map.has(id))) {
        cursor = from
        position = -1
        entity = map.get(id)
      }
      if (!entity) {
        map.set(id, mergeEntity<CollectionEntity<GuestKey>>(undefined, patch))
        structure = true
        continue
      }
      assignPatch(entity, patch)
      // Monomorphic loads: patches of one poll share a shape, so these checks cost next to nothing.
      if (patch.name !== undefined || patch.vmid !== undefined || patch.type !== undefined) {
        identity = true
      }
      if (patch.node !== undefined || patch.instance !== undefined) placement = true
      if (patch.tags !== undefined) labels = true
      if (live === null) continue
      if (position < 0) columnsLost = true
      else patchGuestColumns(live, offset + position, patch, entity)
    }
    // A guest found off the cursor: rebuild the columns when next asked. Guests added or removed
    // are patched in after both collections merged (remapGuests).
    if (columnsLost) live = null
    stamp.data++
    if (structure) stamp.structure++
    if (identity) stamp.identity++
    if (placement) stamp.placement++
    if (labels) stamp.labels++
    changed.add(key)
    if (structure || identity || placement) reshaped.add(key)
  }
  const reshaped = new Set<GuestKey>()
  // Guests removed by the delta being merged (the entities, to map old positions to new ones).
  const gone = new Set<Guest>()

  // Guests were added or removed: move the live columns and the slot table's positions to the new
  // guest array in one gather, instead of reading every guest again (a structural tick at 100k).
  const remapGuests = (before: readonly Guest[]) => {
    const after = store.getGuests()
    const from = before === after ? null : mapGuestPositions(before, after, gone)
    gone.clear()
    if (!from) {
      live = null
      slots.invalidate()
      return
    }
    if (live) live = remapStateColumns(live, from, after)
    slots.remap(before, after, from)
  }

  const store: StateStore = {
    get seq() {
      return seq
    },
    applyFull(received, fullSeq) {
      const data = liftPveBackups(received)
      const changed = new Set<StoreChange>()
      for (const key of ENTITY_COLLECTIONS) {
        if (!(key in data)) continue
        const raw = data[key]
        // Mock servers send null for empty collections; anything else non-array is ignored.
        if (raw !== null && !Array.isArray(raw)) continue
        replaceCollection(key, raw ?? [])
        changed.add(key)
        if (GUEST_KEYS.has(key)) {
          bumpAll()
          slots.clear()
        }
      }
      for (const key of SCALAR_KEYS) {
        if (data[key] === undefined) continue
        ;(scalars as Record<ScalarKey, unknown>)[key] = data[key]
        changed.add('scalars')
      }
      if (typeof fullSeq === 'number') seq = fullSeq
      // A full state (initialState, rawData) carries whatever the server has.
      backupsHeld = true
      load = null
      metricsDue = null
      markChanged(changed)
      return changed
    },
    beginLoad(loadSeq, head, counts, partial = false) {
      seq = null
      metricsDue = null
      const chunked: Record<string, unknown> = {}
      for (const key of ENTITY_COLLECTIONS) if (key in counts) chunked[key] = []
      // A whole load without the backups: what the store held of them is of another time.
      if (!partial && !hasOnDemand(counts) && !hasOnDemand(head)) {
        for (const key of ENTITY_COLLECTIONS)
          if (ON_DEMAND_COLLECTIONS.includes(key)) chunked[key] = []
      }
      const changed = store.applyFull({ ...head, ...chunked })
      backupsHeld = false
      // Small collections come in the head, large ones in chunks: either way they are here at the end.
      loadHasBackups = hasOnDemand(counts) || hasOnDemand(head)
      load = { seq: loadSeq, counts: { ...counts }, received: {} }
      return changed
    },
    applyChunk(loadSeq, key, rows, chunkSlots) {
      if (!load || load.seq !== loadSeq || !(key in load.counts)) return new Set()
      const map: Map<string, CollectionEntity<EntityCollection>> = index[key]
      const start = map.size
      for (let i = 0; i < rows.length; i++) {
        const entity = normalizeEntity(key, rows[i], start + i)
        if (!entity) continue
        map.set(entity.id, entity)
        const slot = chunkSlots?.[i]
        if (slot !== undefined) slots.set(entity.id, slot)
      }
      load.received[key] = (load.received[key] ?? 0) + rows.length
      if (GUEST_KEYS.has(key)) bumpAll()
      const changed = new Set<StoreChange>([key])
      markChanged(changed)
      return changed
    },
    endLoad(loadSeq) {
      if (!load || load.seq !== loadSeq) return false
      if (loadHasBackups) backupsHeld = true
      load = null
      seq = loadSeq
      return true
    },
    getLoad() {
      if (!load) return null
      const sum = (keys: readonly string[], of: Record<string, number>) =>
        keys.reduce((total, key) => total + (of[key] ?? 0), 0)
      const keys = Object.keys(load.counts)
      const guestKeys = keys.filter((key) => GUEST_KEYS.has(key as EntityCollection))
      return {
        guests: { received: sum(guestKeys, load.received), total: sum(guestKeys, load.counts) },
        rows: { received: sum(keys, load.received), total: sum(keys, load.counts) },
      }
    },
    holdsBackups: () => backupsHeld,
    applyMetrics(frame) {
      if (seq === null) return { outcome: 'ignored', changed: new Set() }
      if (frame.seq !== seq || metricsDue !== seq) {
        seq = null
        return { outcome: 'gap', changed: new Set() }
      }
      metricsDue = null
      const changed = new Set<StoreChange>()
      if (slots.apply(frame, store.getGuests(), live) > 0) {
        stamp.data++
        changed.add('vms')
        changed.add('containers')
        markChanged(changed, true)
      }
      return { outcome: 'applied', changed }
    },
    applyDelta(delta, deltaSeq, metricsFollow = false) {
      if (seq === null) return { outcome: 'ignored', changed: new Set() }
      if (deltaSeq !== seq + 1 || metricsDue !== null) {
        seq = null
        return { outcome: 'gap', changed: new Set() }
      }
      for (const key of GUEST_KEYS) for (const id of delta.remove?.[key] ?? []) slots.remove(id)
      for (const id in delta.guestSlots) slots.set(id, delta.guestSlots[id]!)
      if (metricsFollow) metricsDue = deltaSeq
      const changed = new Set<StoreChange>()
      let rest: StateDelta = delta
      let before: readonly Guest[] | null = null
      if (
        delta.upsert?.vms ||
        delta.upsert?.containers ||
        delta.remove?.vms ||
        delta.remove?.containers
      ) {
        before = store.getGuests()
        const structure = stamp.structure
        gone.clear()
        for (const key of GUEST_KEYS) mergeGuests(key, delta, changed)
        if (stamp.structure === structure) before = null
        rest = withoutGuests(delta)
      }
      for (const key of applyDeltaToIndex(index, scalars, rest)) changed.add(key)
      seq = deltaSeq
      markChanged(changed, true)
      if (before) remapGuests(before)
      return { outcome: 'applied', changed }
    },
    invalidate() {
      seq = null
      load = null
      metricsDue = null
    },
    hasReceived: (key) => received.has(key),
    getCollection,
    getNodes: () => getCollection('nodes'),
    getGuests() {
      if (!guests) {
        const vms = getCollection('vms')
        const containers = getCollection('containers')
        guests =
          containers.length === 0 ? vms : vms.length === 0 ? containers : [...vms, ...containers]
      }
      return guests
    },
    getGuestStamp: () => ({ ...stamp }),
    getGuestColumns() {
      live ??= buildStateColumns(store.getGuests())
      return live
    },
    getLastUpdate: () => toEpochMs(scalars.lastUpdate),
    getServerVersion: () => {
      const version = (scalars.stats as { version?: unknown } | undefined)?.version
      return typeof version === 'string' ? version : ''
    },
    getScalar: (key) => scalars[key],
    toState() {
      const copy = <K extends EntityCollection>(key: K) => [...getCollection(key)]
      return {
        ...scalars,
        nodes: copy('nodes'),
        vms: copy('vms'),
        containers: copy('containers'),
        storage: copy('storage'),
        cephClusters: copy('cephClusters'),
        physicalDisks: copy('physicalDisks'),
        pbs: copy('pbs'),
        pbsBackups: copy('pbsBackups'),
        storageBackups: copy('storageBackups'),
        guestSnapshots: copy('guestSnapshots'),
        backupTasks: copy('backupTasks'),
        backupJobs: copy('backupJobs'),
        backupCoverage: copy('backupCoverage'),
        pbsJobs: copy('pbsJobs'),
        guestBackups: copy('guestBackups'),
        activeAlerts: copy('activeAlerts'),
        recentlyResolved: copy('recentlyResolved'),
      }
    },
  }
  return store
}
