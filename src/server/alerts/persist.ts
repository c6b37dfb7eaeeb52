// Writes what an evaluation or a mutation changed: the active alerts' rows and their history
// occurrences, in one transaction or (a storm) in slices of a few hundred alerts, each its own
// transaction. Only changed rows are written, and a change of value or
// lastSeen alone (every poll of an active alert) is written at most every ACTIVE_REFRESH_MS:
// an estate in trouble with thousands of active alerts must not rewrite them all every 10 s.
import type { Alert, AlertEndReason, ResolvedAlert } from '../../shared/model/alerts.ts'
import type { AlertHistoryRepo } from '../store/alert-history.ts'
import type { AlertsRepo } from '../store/alerts-repo.ts'
import type { Transition } from './engine-types.ts'

/** A value-only change of an active alert is persisted at most this often. */
export const ACTIVE_REFRESH_MS = 60_000

export interface AlertPersistence {
  /** The stored active alerts; history occurrences are reconciled with them. */
  load(now: number): Alert[]
  /** Persist the step from `prev` to `next` (active alerts by id), in one transaction. */
  commit(
    prev: ReadonlyMap<string, Alert>,
    next: ReadonlyMap<string, Alert>,
    transitions: readonly Transition[],
    now: number,
  ): void
  /**
   * The same step as a job written in slices: each `run(max)` writes up to `max` alerts (their
   * active rows and their history occurrences together) in one transaction, so a kill between
   * two slices leaves every alert either wholly before or wholly after the step. Null when
   * nothing is to be written.
   */
  plan(
    prev: ReadonlyMap<string, Alert>,
    next: ReadonlyMap<string, Alert>,
    transitions: readonly Transition[],
    now: number,
  ): PersistJob | null
}

export interface PersistJob {
  /** Alerts to write (upserted and removed). */
  readonly size: number
  /** Write the next `max` alerts in one transaction; true when the job is done. */
  run(max: number): boolean
}

/** What a client would see change: anything but the latest value and when it was seen. */
function isMaterial(old: Alert, next: Alert): boolean {
  return (
    old.level !== next.level ||
    old.peak !== next.peak ||
    old.acknowledged !== next.acknowledged ||
    old.ackTime !== next.ackTime ||
    old.ackUser !== next.ackUser ||
    old.stale !== next.stale ||
    old.flapping !== next.flapping ||
    old.threshold !== next.threshold ||
    old.startTime !== next.startTime ||
    old.resourceName !== next.resourceName
  )
}

/** Persistence of the engine's steps on the alerts and history repos. */
export function createAlertPersistence(deps: {
  repo: AlertsRepo
  history: AlertHistoryRepo
}): AlertPersistence {
  const { repo, history } = deps
  let occurrences = new Map<string, number>()
  /** When each active alert's row was last written. */
  const written = new Map<string, number>()

  const self: AlertPersistence = {
    load(now) {
      const alerts = repo.loadActive()
      occurrences = history.openOccurrences()
      const ids = new Set(alerts.map((a) => a.id))
      repo.applyActive({ upsert: [], remove: [] }, now, () => {
        // A crash between two versions of this code could leave an occurrence without its alert
        // (or the reverse): close the one, open the other, so both stores tell the same story.
        for (const [id, historyId] of occurrences) {
          if (ids.has(id)) continue
          history.closeOrphan(historyId)
          occurrences.delete(id)
        }
        for (const alert of alerts) {
          if (!occurrences.has(alert.id)) occurrences.set(alert.id, history.open(alert))
        }
      })
      for (const alert of alerts) written.set(alert.id, now)
      return alerts
    },
    commit(prev, next, transitions, now) {
      self.plan(prev, next, transitions, now)?.run(Infinity)
    },
    plan(prev, next, transitions, now) {
      if (prev === next) return null
      const upsert: Alert[] = []
      const remove: string[] = []
      for (const [id, alert] of next) {
        const old = prev.get(id)
        if (old === alert) continue
        if (old && !isMaterial(old, alert) && now - (written.get(id) ?? 0) < ACTIVE_REFRESH_MS)
          continue
        upsert.push(alert)
      }
      for (const id of prev.keys()) if (!next.has(id)) remove.push(id)
      if (upsert.length === 0 && remove.length === 0) return null
      const ended = new Map<string, { alert: ResolvedAlert; at: number; reason: AlertEndReason }>()
      for (const t of transitions) if (t.kind === 'resolved') ended.set(t.alert.id, t)
      let u = 0
      let r = 0
      return {
        size: upsert.length + remove.length,
        run(max) {
          const ups = upsert.slice(u, u + max)
          const rems = remove.slice(r, r + Math.max(0, max - ups.length))
          u += ups.length
          r += rems.length
          repo.applyActive({ upsert: ups, remove: rems }, now, () => {
            for (const alert of ups) {
              const historyId = occurrences.get(alert.id)
              if (historyId === undefined) occurrences.set(alert.id, history.open(alert))
              else history.update(historyId, alert)
            }
            for (const id of rems) {
              const historyId = occurrences.get(id)
              if (historyId === undefined) continue
              // An alert that left without a 'resolved' transition was dropped by the engine.
              const end = ended.get(id)
              history.close(
                historyId,
                end?.alert ?? prev.get(id)!,
                end?.at ?? now,
                end?.reason ?? 'removed',
              )
              occurrences.delete(id)
            }
          })
          for (const alert of ups) written.set(alert.id, now)
          for (const id of rems) written.delete(id)
          return u === upsert.length && r === remove.length
        },
      }
    },
  }
  return self
}
