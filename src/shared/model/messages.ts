// Socket messages (spec 000 §7, reference/wire-protocol.md §1, ARCHITECTURE.md "The socket protocol").
import type { EntityCollection, ScalarKey, State } from './state.ts'

/** Query parameter by which a client negotiates delta mode: `/ws?deltas=1`. */
export const DELTA_QUERY_PARAM = 'deltas'
/**
 * Version of our delta protocol the worker asks for (`?deltas=2`), echoed in `welcome`: a first
 * load in chunks and a binary metrics frame. Mode 1 (all JSON) stays for other clients.
 */
export const DELTA_PROTOCOL_VERSION = 2

/**
 * Collections a delta-mode-2 client receives only once it asks for them (query `backups=1` or a
 * `want` message): the backups, which the dashboard does not need and which are most of the
 * state at 100,000 guests. Names not (yet) in the state are ignored.
 */
export const ON_DEMAND_COLLECTIONS: readonly string[] = [
  'pbsBackups',
  'storageBackups',
  'guestSnapshots',
  'backupTasks',
  'guestBackups',
]
/** Query parameter by which a delta-mode-2 client asks for the on-demand collections at once. */
export const BACKUPS_QUERY_PARAM = 'backups'

/**
 * The forms of GET /api/state (`?format=`): `plain`, the default, is the plain /ws dialect's
 * initialState data (the reference's shapes: pveBackups, RFC 3339 times); `internal` is our own
 * state as the delta dialects carry it (top-level backup collections, epoch numbers).
 */
export const STATE_FORMATS = ['plain', 'internal'] as const
export type StateFormat = (typeof STATE_FORMATS)[number]

export interface WelcomeData {
  message: string
  /** Present when the server accepted delta mode for this connection. */
  deltas?: number
  version?: string
}

/**
 * A delta against the previous sequence number. Entities are upserted by id with the changed
 * top-level fields only (a new entity carries all of them; a field set to null was removed);
 * `scalars` replaces those state keys whole.
 */
export interface StateDelta {
  upsert?: Partial<Record<EntityCollection, Array<{ id: string } & Record<string, unknown>>>>
  remove?: Partial<Record<EntityCollection, string[]>>
  scalars?: Partial<Pick<State, ScalarKey>>
  /**
   * Delta mode 2: the slots of guests new to the server's slot table (id → slot); the binary
   * metrics frame addresses guests by slot. A removed guest's slot is free again.
   */
  guestSlots?: Record<string, number>
}

export type ServerMessage =
  | { type: 'welcome'; data: WelcomeData }
  /** Full state. In delta mode `seq` is the sequence number it corresponds to. */
  | { type: 'initialState'; data: Partial<State>; seq?: number }
  | { type: 'rawData'; data: Partial<State> }
  | { type: 'delta'; data: StateDelta; seq: number }
  | { type: 'ping'; data: { timestamp: number } }
  | { type: 'pong'; data: { timestamp: number } }
  | { type: 'error'; data: { message: string } }
  | { type: 'node_deleted'; data: { nodeType: string }; timestamp?: string }
  | { type: 'nodes_changed'; data: unknown; timestamp?: string }
  | { type: string; data?: unknown; seq?: number; timestamp?: string }

export type ClientMessage =
  | { type: 'ping'; data: { timestamp: number } }
  | { type: 'pong'; data: { timestamp: number } }
  /** Delta mode: ask for a fresh full state (after a gap in sequence numbers). */
  | { type: 'resync' }
  /** Wire-compatible: ask for a full rawData now. */
  | { type: 'requestData' }
  /** Delta mode 2: start sending the on-demand collections (ON_DEMAND_COLLECTIONS). */
  | { type: 'want'; data: { backups: true } }
