// Optimistic alert acknowledgement (spec 000 §4 "Alert acknowledgment (optimistic)", §9 15 s):
// an overlay on the store's activeAlerts that shows the user's ack or unack at once and holds it
// against server states that do not show it yet. Runs inside the worker. Imports only
// src/shared and src/worker.
import type { Entity } from '../shared/model/state.ts'
import type { StateStore } from './store.ts'

/** Spec 000 §9: a pending ack the server has not confirmed in this long is dropped. */
export const ACK_TIMEOUT_MS = 15_000

/** The clock and timers of the overlay; the socket's deps satisfy it (tests drive them). */
export interface AckClock {
  now(): number
  setTimeout(run: () => void, ms: number): unknown
  clearTimeout(handle: unknown): void
}

/** What the overlay reports to its owner (the worker API). */
export interface AckHandlers {
  /** The overlaid list changed without a store change (set, drop, timeout): views must refresh. */
  onChange(): void
  /** These pending acks expired unconfirmed; the server's values show again. */
  onTimeout(alertIds: string[]): void
}

/** A pending acknowledgement: what the user asked for, and when. */
interface Pending {
  want: boolean
  at: number
}

/** The overlay of one store. */
export interface AlertAcks {
  /** Apply an ack (true) or unack (false) at once and hold it until confirmed or timed out. */
  set(alertId: string, acknowledged: boolean): void
  /** Forget a pending ack (its HTTP call failed): the server's value shows again. */
  drop(alertId: string): void
  /** The store's active alerts with pending acks applied; same array while nothing changed. */
  read(): readonly Entity[]
  /** Ids of the pending acks (after the last read); same set while they do not change. */
  pending(): ReadonlySet<string>
}

const NO_PENDING: ReadonlySet<string> = new Set()

// One overlay per store, like the backup normaliser in view-kinds.ts: every view reads the same.
const overlays = new WeakMap<StateStore, AlertAcks>()

/** Create the store's overlay (the worker API does, with its clock) and register it for readAlerts. */
export function createAlertAcks(
  store: StateStore,
  clock: AckClock,
  handlers: AckHandlers,
): AlertAcks {
  const records = new Map<string, Pending>()
  let pendingIds: ReadonlySet<string> = NO_PENDING
  // The last read: its inputs and its output, so an unchanged read costs two comparisons.
  let lastBase: readonly Entity[] | null = null
  let lastRevision = -1
  let lastOut: readonly Entity[] = []
  let revision = 0
  let timer: unknown = null
  let timerAt = Infinity

  const changed = () => {
    revision++
    pendingIds = records.size ? new Set(records.keys()) : NO_PENDING
  }

  // Drop the records the server list confirms or no longer holds. O(alerts) only when the list
  // or the records changed, and only while something is pending.
  const reconcile = (base: readonly Entity[]): string[] => {
    const seen = new Set<string>()
    const done: string[] = []
    for (const alert of base) {
      const record = records.get(alert.id)
      if (!record) continue
      seen.add(alert.id)
      if ((alert.acknowledged === true) === record.want) done.push(alert.id)
    }
    for (const id of records.keys()) if (!seen.has(id)) done.push(id)
    for (const id of done) records.delete(id)
    if (done.length) changed()
    return done
  }

  const read = (): readonly Entity[] => {
    const base = store.getCollection('activeAlerts')
    if (base === lastBase && revision === lastRevision) return lastOut
    if (records.size) reconcile(base)
    lastBase = base
    lastRevision = revision
    lastOut = records.size ? overlay(base, records) : base
    return lastOut
  }

  // One timer, for the oldest record: a bulk of acks costs one timer, and expiries of the same
  // moment reach the UI as one call (one toast).
  const arm = () => {
    let due = Infinity
    for (const record of records.values()) due = Math.min(due, record.at + ACK_TIMEOUT_MS)
    if (due === timerAt) return
    if (timer !== null) clock.clearTimeout(timer)
    timer = null
    timerAt = due
    if (due === Infinity) return
    timer = clock.setTimeout(expire, Math.max(0, due - clock.now()))
  }

  const expire = () => {
    timer = null
    timerAt = Infinity
    // A confirmation that arrived while no view read the list is not a timeout.
    reconcile(store.getCollection('activeAlerts'))
    const now = clock.now()
    const expired: string[] = []
    for (const [id, record] of records) {
      if (now - record.at >= ACK_TIMEOUT_MS) expired.push(id)
    }
    for (const id of expired) records.delete(id)
    if (expired.length) changed()
    arm()
    if (expired.length) {
      handlers.onChange()
      handlers.onTimeout(expired)
    }
  }

  const acks: AlertAcks = {
    set(alertId, acknowledged) {
      const current = store.getCollection('activeAlerts').find((alert) => alert.id === alertId)
      const record = records.get(alertId)
      // Already what the server shows, and nothing pending: nothing to hold.
      if (!record && (!current || (current.acknowledged === true) === acknowledged)) return
      records.set(alertId, { want: acknowledged, at: clock.now() })
      changed()
      arm()
      handlers.onChange()
    },
    drop(alertId) {
      if (!records.delete(alertId)) return
      changed()
      arm()
      handlers.onChange()
    },
    read,
    pending() {
      read()
      return pendingIds
    },
  }
  overlays.set(store, acks)
  return acks
}

/**
 * The store's active alerts as the user should see them: with the pending acks of its overlay
 * applied, or straight from the store when it has none. The same array while nothing changed.
 */
export function readAlerts(store: StateStore): readonly Entity[] {
  return overlays.get(store)?.read() ?? store.getCollection('activeAlerts')
}

/** Ids of the store's pending acks (an ack in flight); empty without an overlay. */
export function readPendingAcks(store: StateStore): ReadonlySet<string> {
  return overlays.get(store)?.pending() ?? NO_PENDING
}

function overlay(
  base: readonly Entity[],
  records: ReadonlyMap<string, Pending>,
): readonly Entity[] {
  const out = base.slice()
  for (let i = 0; i < out.length; i++) {
    const alert = out[i]!
    const record = records.get(alert.id)
    if (!record) continue
    if (record.want) {
      out[i] = { ...alert, acknowledged: true, ackTime: new Date(record.at).toISOString() }
    } else {
      const { ackTime: _time, ackUser: _user, ...rest } = alert
      out[i] = { ...rest, id: alert.id, acknowledged: false }
    }
  }
  return out
}
