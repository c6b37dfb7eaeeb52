// The notification service: the outbox (SQLite), the dispatcher (alert transitions and
// escalations into the outbox) and the sender (outbox to channels), started and stopped together.
import type { DestinationKind } from '../../shared/model/notifications.ts'
import type { Db } from '../store/db.ts'
import { createOutboxLog, type OutboxLog } from '../store/outbox-log.ts'
import { createOutboxRepo, type OutboxRepo } from '../store/outbox-repo.ts'
import { createDispatcher, type Dispatcher, type DispatcherDeps } from './dispatcher.ts'
import { createOutbox, type Outbox } from './outbox.ts'
import { createQuietHoursCheck } from './quiet-hours.ts'
import { createStormWriter } from './storm.ts'
import type { Channel, ResolvedDestination } from './types.ts'

/** How often old delivery rows are pruned (and once at start). */
export const PRUNE_INTERVAL_MS = 60 * 60 * 1000

export interface NotifyServiceDeps {
  db: Db
  alerts: DispatcherDeps['alerts']
  destinations: () => readonly ResolvedDestination[]
  channels: Record<DestinationKind, Channel>
  now: () => number
  log: { error(obj: object, msg: string): void; warn(obj: object, msg: string): void }
  sendIntervalMs?: number
  escalationIntervalMs?: number
}

export interface NotifyService {
  repo: OutboxRepo
  log: OutboxLog
  outbox: Outbox
  dispatcher: Dispatcher
  destinations: () => readonly ResolvedDestination[]
  start(): void
  stop(): Promise<void>
  /** End the storm worker (after stop(), before the database closes). */
  close(): Promise<void>
}

/** A channel for a kind no part provides yet: every attempt fails and is retried. */
export const MISSING_CHANNEL: Channel = {
  send: () =>
    Promise.resolve({ ok: false, error: 'no channel for this destination', retryable: true }),
}

export function createNotifyService(deps: NotifyServiceDeps): NotifyService {
  const repo = createOutboxRepo(deps.db)
  const storm = createStormWriter(deps.db)
  // Stored quiet hours that cannot be applied (issue 24 item 18) are ignored by the policy; the
  // administrator learns it here, once, whenever the schedule in force is read.
  const checkQuietHours = createQuietHoursCheck(deps.log)
  const alerts: DispatcherDeps['alerts'] = {
    onTransition: (listener) => deps.alerts.onTransition(listener),
    active: () => deps.alerts.active(),
    silenced: (alert) => deps.alerts.silenced?.(alert),
    channelsOff: (alert) => deps.alerts.channelsOff?.(alert),
    config: () => {
      const config = deps.alerts.config()
      checkQuietHours(config.schedule)
      return config
    },
  }
  const outbox = createOutbox({
    repo,
    channels: deps.channels,
    destinations: deps.destinations,
    schedule: () => alerts.config().schedule,
    now: deps.now,
    log: deps.log,
    intervalMs: deps.sendIntervalMs,
    ...(storm ? { claimDue: storm.claimDue } : {}),
  })
  const dispatcher = createDispatcher({
    repo,
    alerts,
    destinations: deps.destinations,
    now: deps.now,
    log: deps.log,
    escalationIntervalMs: deps.escalationIntervalMs,
    storm,
  })
  let pruneTimer: ReturnType<typeof setInterval> | null = null
  const prune = () => {
    try {
      repo.prune(deps.now())
    } catch (err) {
      deps.log.error({ err }, 'pruning the notification outbox failed')
    }
  }
  // Subscribed at once: a transition must reach the outbox even before the sender starts.
  dispatcher.start()

  return {
    repo,
    log: createOutboxLog(deps.db),
    outbox,
    dispatcher,
    destinations: deps.destinations,
    start() {
      if (pruneTimer) return
      prune()
      pruneTimer = setInterval(prune, PRUNE_INTERVAL_MS)
      pruneTimer.unref()
      // Again after a stop (a collector that lost its lease and won it back); no-op otherwise.
      dispatcher.start()
      outbox.start()
    },
    async stop() {
      if (pruneTimer) clearInterval(pruneTimer)
      pruneTimer = null
      dispatcher.stop()
      await dispatcher.settled()
      await outbox.stop()
    },
    async close() {
      await storm?.close()
    },
  }
}
