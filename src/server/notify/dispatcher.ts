// The dispatcher: the alert service's transitions become NotificationEvents, planned by the
// policy for every enabled destination and written to the outbox before anything is sent. The
// transitions of one evaluation are written in one transaction (a microtask after the first);
// escalations are checked every minute over the active alerts.
import type { Alert, AlertSchedule, ResolvedAlert } from '../../shared/model/alerts.ts'
import type { NotificationEvent } from '../../shared/model/notifications.ts'
import type { OutboxRepo } from '../store/outbox-repo.ts'
import { escalationsDue } from './escalation.ts'
import { createPlanningMemory } from './planning-memory.ts'
import { planEvent } from './policy.ts'
import type { PolicyDestination, ResolvedDestination } from './types.ts'

export const ESCALATION_INTERVAL_MS = 60_000
/** On start, a 'fired' of an active alert younger than this with no outbox row is planned again. */
export const RECOVER_WINDOW_MS = 2 * 60 * 60 * 1000

/**
 * An alert transition as the alert service's `onTransition` gives it (alerts/engine-types.ts
 * Transition; notify does not import the alert engine, the engine's type is assignable to this).
 */
export type AlertTransition =
  | { kind: 'fired' | 'escalated'; alert: Alert; at: number }
  | { kind: 'resolved'; alert: ResolvedAlert; at: number }

export interface DispatcherDeps {
  repo: OutboxRepo
  alerts: {
    onTransition(listener: (transition: AlertTransition) => void): () => void
    active(): readonly Alert[]
    config(): { schedule: AlertSchedule }
  }
  destinations: () => readonly ResolvedDestination[]
  now: () => number
  log: { error(obj: object, msg: string): void }
  escalationIntervalMs?: number
}

export interface Dispatcher {
  start(): void
  /** Write what the listener collected now (tests; the microtask does it otherwise). */
  flush(): void
  /** Run the escalation check now. */
  checkEscalations(): void
  stop(): void
}

/** The destinations the policy plans for: email if enabled, each enabled webhook. */
export function policyDestinations(all: readonly ResolvedDestination[]): PolicyDestination[] {
  const out: PolicyDestination[] = []
  for (const d of all) {
    const on = d.kind === 'email' ? d.config.enabled : d.webhook.enabled
    if (on) out.push({ kind: d.kind, id: d.id, name: d.name })
  }
  return out
}

export function toEvent(t: AlertTransition): NotificationEvent {
  return { kind: t.kind, alert: t.alert, at: t.at }
}

/**
 * Plan each event for the destinations and insert the rows, all in one transaction: the policy
 * of a later event sees the rows of the earlier ones (an open group, a cooldown).
 */
export function enqueueEvents(
  repo: OutboxRepo,
  events: readonly NotificationEvent[],
  schedule: AlertSchedule,
  destinations: readonly PolicyDestination[],
  now: number,
): number {
  if (events.length === 0 || destinations.length === 0) return 0
  return repo.transaction(() => {
    const alertIds = new Set<string>()
    for (const event of events) alertIds.add(event.alert.id)
    const memory = createPlanningMemory(
      repo.memoryRows([...alertIds]),
      schedule.grouping.enabled ? repo.openGroups(now) : [],
    )
    let inserted = 0
    for (const event of events) {
      const planned = planEvent({
        event,
        schedule,
        destinations,
        now,
        memory,
        openGroupDue: memory.openGroupDue,
      })
      for (const row of planned) {
        // A key already stored (a replanned event) is in the memory already.
        if (!repo.insertOne(row, now)) continue
        inserted++
        memory.record(row)
      }
    }
    return inserted
  })
}

export function createDispatcher(deps: DispatcherDeps): Dispatcher {
  const { repo, alerts, log } = deps
  let queued: NotificationEvent[] = []
  let scheduled = false
  let unsubscribe: (() => void) | null = null
  let timer: ReturnType<typeof setInterval> | null = null

  const write = (events: readonly NotificationEvent[]) => {
    const destinations = policyDestinations(deps.destinations())
    enqueueEvents(repo, events, alerts.config().schedule, destinations, deps.now())
  }

  const flush = () => {
    scheduled = false
    if (queued.length === 0) return
    const events = queued
    queued = []
    try {
      write(events)
    } catch (err) {
      log.error({ err, count: events.length }, 'writing notifications to the outbox failed')
    }
  }

  const checkEscalations = () => {
    try {
      const schedule = alerts.config().schedule
      const due = escalationsDue(alerts.active(), schedule, deps.now(), repo.escalationPlanned)
      if (due.length > 0) write(due)
    } catch (err) {
      log.error({ err }, 'the escalation check failed')
    }
  }

  /**
   * A kill between an alert's commit and the outbox write would lose its 'fired': on start, an
   * active alert that began recently and has no fired row at all is planned again (a row that
   * exists keeps its key, so nothing already accepted is planned twice).
   */
  const recover = () => {
    const now = deps.now()
    const missing: NotificationEvent[] = []
    for (const alert of alerts.active()) {
      const start = Date.parse(alert.startTime)
      if (!(now - start < RECOVER_WINDOW_MS)) continue
      if (!repo.firedPlanned(alert.id, alert.startTime))
        missing.push({ kind: 'fired', alert, at: now })
    }
    if (missing.length > 0) write(missing)
  }

  return {
    start() {
      if (unsubscribe) return
      unsubscribe = alerts.onTransition((t) => {
        queued.push(toEvent(t))
        if (!scheduled) {
          scheduled = true
          queueMicrotask(flush)
        }
      })
      try {
        recover()
      } catch (err) {
        log.error({ err }, 'recovering unplanned notifications failed')
      }
      timer = setInterval(checkEscalations, deps.escalationIntervalMs ?? ESCALATION_INTERVAL_MS)
      timer.unref()
    },
    flush,
    checkEscalations,
    stop() {
      unsubscribe?.()
      unsubscribe = null
      if (timer) clearInterval(timer)
      timer = null
      flush()
    },
  }
}
