// The worker's indexed copy of the live state: full states replace, deltas merge by id.
// Runs inside the worker. Imports only src/shared and src/worker.
import type { StateDelta } from '../shared/model/messages.ts'
import {
  ENTITY_COLLECTIONS,
  SCALAR_KEYS,
  type Entity,
  type EntityCollection,
  type Guest,
  type PveNode,
  type ScalarKey,
  type State,
} from '../shared/model/state.ts'
import { applyDeltaToIndex } from '../shared/model/delta.ts'
import { normalizeEntity, normalizePatch } from './normalize.ts'

/** What a full state or delta changed: entity collections and/or the scalar keys. */
export type StoreChange = EntityCollection | 'scalars'

/** Result of a delta: applied, a sequence gap (ask for a resync), or ignored while awaiting a full state. */
export type DeltaOutcome = 'applied' | 'gap' | 'ignored'

/** The store API the socket and the view subscriptions use. */
export interface StateStore {
  /** Replace each key present in a full state; `seq` (delta mode) becomes the delta baseline. */
  applyFull(data: Record<string, unknown>, seq?: number): ReadonlySet<StoreChange>
  /** Merge a delta that must carry the next sequence number. */
  applyDelta(
    delta: StateDelta,
    seq: number,
  ): { outcome: DeltaOutcome; changed: ReadonlySet<StoreChange> }
  /** Drop the delta baseline (socket closed, gap): deltas are ignored until the next full state with a seq. */
  invalidate(): void
  /** Last applied sequence number, null when there is no baseline. */
  readonly seq: number | null
  /** Entities of a collection in arrival order; the same array until that collection changes. */
  getCollection(key: EntityCollection): readonly Entity[]
  /** Nodes; same identity until nodes change. */
  getNodes(): readonly PveNode[]
  /** VMs then containers; same identity until either changes. */
  getGuests(): readonly Guest[]
  /** Epoch ms of the server's last completed poll, 0 if unknown. */
  getLastUpdate(): number
  /** Server version from stats, '' until known. */
  getServerVersion(): string
  /** A plain State built from the index (tests, diagnostics). */
  toState(): State
}

const EMPTY: readonly Entity[] = Object.freeze([])

/** Create an empty store. */
export function createStateStore(): StateStore {
  const index = Object.fromEntries(
    ENTITY_COLLECTIONS.map((key) => [key, new Map<string, Entity>()]),
  ) as Record<EntityCollection, Map<string, Entity>>
  const scalars: Partial<State> = {}
  const arrays = new Map<EntityCollection, readonly Entity[]>()
  let guests: readonly Guest[] | null = null
  let seq: number | null = null

  // Cached arrays keep their identity until a change drops them: the pipeline memoizes on it.
  const markChanged = (changed: ReadonlySet<StoreChange>) => {
    for (const key of changed) {
      if (key === 'scalars') continue
      arrays.delete(key)
      if (key === 'vms' || key === 'containers') guests = null
    }
  }

  const getCollection = (key: EntityCollection): readonly Entity[] => {
    let array = arrays.get(key)
    if (!array) {
      array = index[key].size ? [...index[key].values()] : EMPTY
      arrays.set(key, array)
    }
    return array
  }

  const store: StateStore = {
    get seq() {
      return seq
    },
    applyFull(data, fullSeq) {
      const changed = new Set<StoreChange>()
      for (const key of ENTITY_COLLECTIONS) {
        if (!(key in data)) continue
        const raw = data[key]
        // Mock servers send null for empty collections; anything else non-array is ignored.
        if (raw !== null && !Array.isArray(raw)) continue
        const map = new Map<string, Entity>()
        if (raw) {
          for (let i = 0; i < raw.length; i++) {
            const entity = normalizeEntity(key, raw[i], i)
            if (entity) map.set(entity.id, entity)
          }
        }
        index[key] = map
        changed.add(key)
      }
      for (const key of SCALAR_KEYS) {
        if (data[key] === undefined) continue
        ;(scalars as Record<ScalarKey, unknown>)[key] = data[key]
        changed.add('scalars')
      }
      if (typeof fullSeq === 'number') seq = fullSeq
      markChanged(changed)
      return changed
    },
    applyDelta(delta, deltaSeq) {
      if (seq === null) return { outcome: 'ignored', changed: new Set() }
      if (deltaSeq !== seq + 1) {
        seq = null
        return { outcome: 'gap', changed: new Set() }
      }
      const upsert = delta.upsert
      const normalized: StateDelta = upsert ? { ...delta, upsert: normalizeUpserts(upsert) } : delta
      const changed = applyDeltaToIndex(index, scalars, normalized)
      seq = deltaSeq
      markChanged(changed)
      return { outcome: 'applied', changed }
    },
    invalidate() {
      seq = null
    },
    getCollection,
    getNodes: () => getCollection('nodes') as unknown as readonly PveNode[],
    getGuests() {
      if (!guests) {
        const vms = getCollection('vms') as unknown as readonly Guest[]
        const containers = getCollection('containers') as unknown as readonly Guest[]
        guests =
          containers.length === 0 ? vms : vms.length === 0 ? containers : [...vms, ...containers]
      }
      return guests
    },
    getLastUpdate: () => toEpochMs(scalars.lastUpdate),
    getServerVersion: () => {
      const version = (scalars.stats as { version?: unknown } | undefined)?.version
      return typeof version === 'string' ? version : ''
    },
    toState() {
      const state = { ...scalars } as Record<string, unknown>
      for (const key of ENTITY_COLLECTIONS) state[key] = [...getCollection(key)]
      return state as unknown as State
    },
  }
  return store
}

function normalizeUpserts(upsert: NonNullable<StateDelta['upsert']>): StateDelta['upsert'] {
  const out: NonNullable<StateDelta['upsert']> = {}
  for (const key of ENTITY_COLLECTIONS) {
    const rows = upsert[key]
    if (rows)
      out[key] =
        key === 'vms' || key === 'containers' ? rows.map((row) => normalizePatch(key, row)) : rows
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
