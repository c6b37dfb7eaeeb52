// The worker store's API and the types of what it reports (store.ts implements it).
// Runs inside the worker. Imports only src/shared and src/worker.
import type { StateDelta } from '../shared/model/messages.ts'
import type { MetricsFrame } from '../shared/model/guest-metrics.ts'
import type { EntityCollection, Guest, PveNode, ScalarKey, State } from '../shared/model/state.ts'
import type { GuestStamp } from '../shared/views/guest-view.ts'
import type { StateColumns } from '../shared/views/guest-live-columns.ts'
import type { CollectionEntity, StoreSnapshot } from './collections.ts'

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
