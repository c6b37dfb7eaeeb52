// The dispatcher: the alert service's transitions become NotificationEvents, planned by the
// policy for every enabled destination and written to the outbox before anything is sent. The
// transitions of one evaluation are written in one transaction (a microtask after the first);
// escalations are checked every minute over the active alerts.
import type { Alert, AlertSchedule, ResolvedAlert } from '../../shared/model/alerts.ts'
import type { ChannelsOff, NotificationEvent } from '../../shared/model/notifications.ts'
import type { AlertSilenced } from '../../shared/model/silences.ts'
import type { OutboxRepo } from '../store/outbox-repo.ts'
import { escalationsDue } from './escalation.ts'
import { enqueueEvents } from './enqueue.ts'
import { STORM_EVENTS, type StormWriter } from './storm.ts'
import type { PolicyDestination, ResolvedDestination } from './types.ts'

export { enqueueEvents }

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
    /** Issue 28: the active silence covering `alert`, if any (its events are not sent). */
    silenced?(alert: Alert): AlertSilenced | undefined
    /** Issue 28: the channels the custom rule deciding the alert's guest turns off, if any. */
    channelsOff?(alert: Alert): ChannelsOff | undefined
  }
  destinations: () => readonly ResolvedDestination[]
  now: () => number
  log: { error(obj: object, msg: string): void }
  escalationIntervalMs?: number
  /** The storm path (storm.ts); without it every dispatch is planned on the loop. */
  storm?: StormWriter | null
}

export interface Dispatcher {
  start(): void
  /** Write what the listener collected now (tests; the microtask does it otherwise). */
  flush(): void
  /** Run the escalation check now. */
  checkEscalations(): void
  /**
   * Issue 28: the silences covering these still-firing alerts ended: plan a 'fired' for each, to
   * the destinations that were not told of its occurrence.
   */
  afterSilence(alerts: readonly Alert[]): void
  /** Resolves when every dispatch handed to the storm worker so far is in the outbox. */
  settled(): Promise<void>
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

export function createDispatcher(deps: DispatcherDeps): Dispatcher {
  const { repo, alerts, log } = deps
  let queued: NotificationEvent[] = []
  let scheduled = false
  let unsubscribe: (() => void) | null = null
  let timer: ReturnType<typeof setInterval> | null = null

  const { storm } = deps
  /** The event with the silence covering its alert now and its rule's channels off, if any. */
  const withSilence = (event: NotificationEvent): NotificationEvent => {
    const silenced = alerts.silenced?.(event.alert)
    const channelsOff = alerts.channelsOff?.(event.alert)
    if (!silenced && !channelsOff) return event
    return { ...event, ...(silenced ? { silenced } : {}), ...(channelsOff ? { channelsOff } : {}) }
  }
  const write = (events: readonly NotificationEvent[]) => {
    const destinations = policyDestinations(deps.destinations())
    const schedule = alerts.config().schedule
    // Behind a dispatch the worker is still planning, even a small one waits its turn: its
    // policy must see the earlier rows (a recovery's fire, an open group).
    if (storm && destinations.length > 0 && (events.length >= STORM_EVENTS || storm.busy())) {
      const dispatch = { events: [...events], schedule, destinations, now: deps.now() }
      storm.enqueue(dispatch).catch((err: unknown) => {
        log.error({ err, count: events.length }, 'planning staged notifications failed')
      })
      return
    }
    enqueueEvents(repo, events, schedule, destinations, deps.now())
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
    // A staged dispatch whose planning failed (the worker died) is tried again every minute.
    storm?.resume().catch((err: unknown) => {
      log.error({ err }, 'planning staged notifications failed')
    })
    try {
      const schedule = alerts.config().schedule
      const due = escalationsDue(alerts.active(), schedule, deps.now(), repo.escalationPlanned)
      if (due.length > 0) write(due.map(withSilence))
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
        missing.push(withSilence({ kind: 'fired', alert, at: now }))
    }
    if (missing.length > 0) write(missing)
  }

  return {
    start() {
      if (unsubscribe) return
      unsubscribe = alerts.onTransition((t) => {
        queued.push(withSilence(toEvent(t)))
        if (!scheduled) {
          scheduled = true
          queueMicrotask(flush)
        }
      })
      try {
        // What a kill left in the inbox first: recover() then sees its rows (or queues behind).
        storm?.resume().catch((err: unknown) => {
          log.error({ err }, 'planning staged notifications failed')
        })
        recover()
      } catch (err) {
        log.error({ err }, 'recovering unplanned notifications failed')
      }
      timer = setInterval(checkEscalations, deps.escalationIntervalMs ?? ESCALATION_INTERVAL_MS)
      timer.unref()
    },
    flush,
    checkEscalations,
    afterSilence(list) {
      const at = deps.now()
      const events: NotificationEvent[] = []
      // Still active and covered by no other silence: the service checked; checked again here,
      // since the alert may have resolved since.
      const active = new Set(alerts.active().map((a) => a.id))
      for (const alert of list) {
        if (active.has(alert.id) && !alerts.silenced?.(alert))
          events.push(withSilence({ kind: 'fired', alert, at, afterSilence: true }))
      }
      if (events.length === 0) return
      try {
        write(events)
      } catch (err) {
        log.error({ err, count: events.length }, 'writing notifications to the outbox failed')
      }
    },
    settled: async () => {
      flush()
      await storm?.settled()
    },
    stop() {
      unsubscribe?.()
      unsubscribe = null
      if (timer) clearInterval(timer)
      timer = null
      flush()
    },
  }
}
