// The worker's indexed copy of the live state: full states replace, deltas merge by id.
// Runs inside the worker. Imports only src/shared and src/worker.
import type { StateDelta } from '../shared/model/messages.ts'
import {
  ENTITY_COLLECTIONS,
  SCALAR_KEYS,
  type EntityCollection,
  type Guest,
  type PveNode,
  type ScalarKey,
  type State,
} from '../shared/model/state.ts'
import { applyDeltaToIndex, mergeEntity } from '../shared/model/delta.ts'
import type { GuestStamp } from '../shared/views/guest-view.ts'
import {
  buildStateColumns,
  patchGuestColumns,
  type StateColumns,
} from '../shared/views/guest-live-columns.ts'
import {
  createArrays,
  createIndex,
  liftPveBackups,
  type CollectionArrays,
  type CollectionEntity,
  type StoreSnapshot,
} from './collections.ts'
import { normalizeEntity, normalizePatch } from './normalize.ts'
import type { MetricsFrame } from '../shared/model/guest-metrics.ts'
import { createGuestSlotTable } from './guest-slots.ts'
import { ON_DEMAND_COLLECTIONS } from '../shared/model/messages.ts'

export type { CollectionEntity, StoreSnapshot } from './collections.ts'

/** What a full state or delta changed: entity collections and/or the scalar keys. */
export type StoreChange = EntityCollection | 'scalars'

/** Result of a delta: applied, a sequence gap (ask for a resync), or ignored while awaiting a full state. */
export type DeltaOutcome = 'applied' | 'gap' | 'ignored'

/** A first load in progress (delta mode 2): rows received of the announced totals. */
export interface LoadProgress {
  guests: { received: number; total: number }
  /** Every chunked collection, guests included. */
  rows: { received: number; total: number }
}

/** The store API the socket and the view subscriptions use. */
export interface StateStore {
  /** Replace each key present in a full state; `seq` (delta mode) becomes the delta baseline. */
  applyFull(data: Record<string, unknown>, seq?: number): ReadonlySet<StoreChange>
  /** Merge a delta that must carry the next sequence number. */
  applyDelta(
    delta: StateDelta,
    seq: number,
    metricsFollow?: boolean,
  ): { outcome: DeltaOutcome; changed: ReadonlySet<StoreChange> }
  /**
   * Start a first load of `seq` (delta mode 2): `head` replaces what it carries, the collections
   * of `counts` are emptied and arrive in chunks. Deltas are ignored until `endLoad`.
   */
  beginLoad(
    seq: number,
    head: Record<string, unknown>,
    counts: Readonly<Record<string, number>>,
    partial?: boolean,
  ): ReadonlySet<StoreChange>
  /** Rows of a collection of the first load of `seq`, with the guests' slots; ignored otherwise. */
  applyChunk(
    seq: number,
    key: EntityCollection,
    rows: readonly unknown[],
    slots: readonly number[] | null,
  ): ReadonlySet<StoreChange>
  /** The first load of `seq` is complete: it becomes the delta baseline. False if none was under way. */
  endLoad(seq: number): boolean
  /** The first load under way, null when none. */
  getLoad(): LoadProgress | null
  /** The backups (ON_DEMAND_COLLECTIONS) are here, as a complete load or full state gave them. */
  holdsBackups(): boolean
  /** Merge the binary metrics frame that follows the delta of the same seq (delta mode 2). */
  applyMetrics(frame: MetricsFrame): { outcome: DeltaOutcome; changed: ReadonlySet<StoreChange> }
  /** Drop the delta baseline (socket closed, gap): deltas are ignored until the next full state with a seq. */
  invalidate(): void
  /** Last applied sequence number, null when there is no baseline. */
  readonly seq: number | null
  /** Whether a full state or delta carried this collection yet (empty is not "not sent"). */
  hasReceived(key: EntityCollection): boolean
  /** Entities of a collection in arrival order; the same array until that collection changes. */
  getCollection<K extends EntityCollection>(key: K): readonly CollectionEntity<K>[]
  /** Nodes; same identity until nodes change. */
  getNodes(): readonly PveNode[]
  /**
   * VMs then containers. Guests are updated in place; the array is replaced when guests are
   * added, removed, renamed or moved, not on metric updates (see getGuestStamp).
   */
  getGuests(): readonly Guest[]
  /** Change counters of the guests (see GuestStamp): what changed since a view last looked. */
  getGuestStamp(): GuestStamp
  /** Live columns of getGuests(), kept current by the merge (the same object, updated in place). */
  getGuestColumns(): StateColumns
  /** Epoch ms of the server's last completed poll, 0 if unknown. */
  getLastUpdate(): number
  /** Server version from stats, '' until known. */
  getServerVersion(): string
  /** A scalar as the server last sent it (replaced whole, so its identity is a version). */
  getScalar<K extends ScalarKey>(key: K): State[K] | undefined
  /** Plain arrays and the scalars received, built from the index (tests, diagnostics). */
  toState(): StoreSnapshot
}

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
      for (const id of removed) structure = map.delete(id) || structure
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
    // Positions moved, or a guest was found off the cursor: rebuild the columns when next asked.
    if (structure || columnsLost) live = null
    stamp.data++
    if (structure) stamp.structure++
    if (identity) stamp.identity++
    if (placement) stamp.placement++
    if (labels) stamp.labels++
    changed.add(key)
    if (structure || identity || placement) reshaped.add(key)
  }
  const reshaped = new Set<GuestKey>()

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
      if (
        delta.upsert?.vms ||
        delta.upsert?.containers ||
        delta.remove?.vms ||
        delta.remove?.containers
      ) {
        for (const key of GUEST_KEYS) mergeGuests(key, delta, changed)
        rest = withoutGuests(delta)
      }
      for (const key of applyDeltaToIndex(index, scalars, rest)) changed.add(key)
      seq = deltaSeq
      markChanged(changed, true)
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
        activeAlerts: copy('activeAlerts'),
        recentlyResolved: copy('recentlyResolved'),
      }
    },
  }
  return store
}

/**
 * Merge a patch into a guest in place. The fields every poll changes get named stores (cheap
 * inline caches); a computed-key store per field costs several times more at 100k guests.
 */
function assignPatch(entity: Record<string, unknown>, patch: Record<string, unknown>): void {
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

type GuestKey = 'vms' | 'containers'
/** How far ahead the merge cursor looks for the next patched guest before asking the map. */
const CURSOR_REACH = 16
const GUEST_KEYS: ReadonlySet<EntityCollection> & Iterable<GuestKey> = new Set<GuestKey>([
  'vms',
  'containers',
])

// The delta minus its guest collections (merged separately, in place).
function withoutGuests(delta: StateDelta): StateDelta {
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
function toEpochMs(value: unknown): number {
  if (typeof value === 'number' && Number.isFinite(value)) return value
  if (typeof value === 'string') {
    const parsed = Date.parse(value)
    return Number.isFinite(parsed) ? parsed : 0
  }
  return 0
}
