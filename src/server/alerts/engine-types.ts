// The alert engine's state and result: what `evaluate(state, config, now, previous)` takes and
// gives back (evaluate.ts). Pure data: the service (service.ts) persists and publishes it.
import type { Alert, AlertEndReason, ResolvedAlert } from '../../shared/model/alerts.ts'

/** A condition seen but not yet held for its delay: when it began, and its value then. */
export interface PendingCondition {
  since: number
  value: number
}

/** Per alert id: the times of its recent state changes, and until when it is held as flapping. */
export interface FlapRecord {
  changes: readonly number[]
  heldUntil: number
}

/**
 * The engine's memory between polls. Maps hold only resources with an alert or a pending
 * condition, never one entry per guest, so an estate without trouble costs nothing to carry.
 * Treated as immutable: evaluate returns a new object and shares the maps that did not change.
 */
export interface EngineState {
  active: ReadonlyMap<string, Alert>
  pending: ReadonlyMap<string, PendingCondition>
  flapping: ReadonlyMap<string, FlapRecord>
  /** Last resolution per id (time, value): minimumDelta / suppressionWindow look here. */
  lastResolved: ReadonlyMap<string, { at: number; value: number }>
  /** Newest first, bounded (RECENTLY_RESOLVED_MAX, RECENTLY_RESOLVED_MS). */
  recentlyResolved: readonly ResolvedAlert[]
  /** State.lastUpdate of the last poll evaluated: a second evaluation of it (a config save) is not a poll. */
  lastPoll: number
}

export type Transition =
  | { kind: 'fired'; alert: Alert; at: number }
  /** Warning became critical (value reached trigger + 10, or the condition worsened). */
  | { kind: 'escalated'; alert: Alert; at: number }
  | { kind: 'resolved'; alert: ResolvedAlert; at: number; reason: AlertEndReason }

export interface EvaluateResult {
  next: EngineState
  /** In the order they happened; empty when nothing fired, escalated or resolved. */
  transitions: Transition[]
}

export const RECENTLY_RESOLVED_MAX = 200
export const RECENTLY_RESOLVED_MS = 60 * 60 * 1000

export function createEngineState(active: readonly Alert[] = []): EngineState {
  return {
    active: new Map(active.map((a) => [a.id, a])),
    pending: new Map(),
    flapping: new Map(),
    lastResolved: new Map(),
    recentlyResolved: [],
    lastPoll: 0,
  }
}
