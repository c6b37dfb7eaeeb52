// Alerting wiring for the composition root (app.ts): the alert history, the alert service,
// silences and maintenance windows (issue 28), notes on alerts, the channels a rule turns off,
// and the notifications (issue 15: email, webhooks, their dispatcher) — then the routes of
// alerts, silences, webhooks, email and deliveries. The live state and the hub are created after
// these services, so app.ts hands over forward references to them.
import type { FastifyBaseLogger, FastifyInstance } from 'fastify'
import type { Alert } from '../shared/model/alerts.ts'
import type { State } from '../shared/model/state.ts'
import { createNotesService } from './alerts/notes-service.ts'
import { createRuleChannels } from './alerts/rule-channels.ts'
import { createAlertService } from './alerts/service.ts'
import { createSilenceService } from './alerts/silence-service.ts'
import type { AuditLog } from './auth/audit.ts'
import type { ServerConfig } from './config.ts'
import { registerAlertRoutes } from './http/alerts.ts'
import { registerDeliveryRoutes } from './http/notify-deliveries.ts'
import { registerEmailRoutes } from './http/notify-email.ts'
import { registerWebhookRoutes, testStoredWebhook } from './http/notify-webhooks.ts'
import { registerSilenceRoutes } from './http/silences.ts'
import type { LiveState } from './live/live-state.ts'
import { createAppNotify, type AppNotifyDeps } from './notify/app-notify.ts'
import type { NotifyService } from './notify/service.ts'
import { createAlertHistoryRepo } from './store/alert-history.ts'
import { createAlertsRepo } from './store/alerts-repo.ts'
import type { Db } from './store/db.ts'
import type { SecretBox } from './store/secret-box.ts'
import { createSilencesRepo } from './store/silences-repo.ts'

export interface AppAlertingDeps {
  db: Db
  box: SecretBox
  now: () => number
  log: FastifyBaseLogger
  config: Pick<ServerConfig, 'publicUrl' | 'webhookAllowLoopback'>
  /** Test-only notification destinations and channels (BuildOptions.notify). */
  notify?: AppNotifyDeps['override']
  /** Send a socket message to every client: the hub, once created. */
  broadcast: (type: string, data: unknown) => void
  /** The live state, once created: republished after a mutation. */
  live: () => LiveState | undefined
}

export type AppAlerting = ReturnType<typeof createAppAlerting>

/** The alerting services, the notifications, and live-state's decorate step for them. */
export function createAppAlerting(deps: AppAlertingDeps) {
  const { db, box, now, log, config } = deps
  const republish = (failure: string) => () => {
    deps
      .live()
      ?.republish()
      .catch((err: unknown) => {
        log.error({ err }, failure)
      })
  }
  const alertHistory = createAlertHistoryRepo(db)
  // The alert service decorates every published state and republishes after a mutation.
  const alerts = createAlertService({
    repo: createAlertsRepo(db),
    history: alertHistory,
    now,
    broadcast: deps.broadcast,
    republish: republish('republishing the alerts failed'),
    log,
  })
  // Silences (issue 28): marked on the published alerts, consulted by the dispatcher; when one
  // stops covering a firing alert, the dispatcher tells the destinations that never heard of it.
  const notifyRef: { current?: NotifyService } = {}
  // The state the alert engine is evaluating (set before it is published): the rule deciding an
  // alert's guest is read from it, so a guest on its first poll has its rule too.
  const decorated: { current: State | null } = { current: null }
  const silences = createSilenceService({
    repo: createSilencesRepo(db),
    now,
    alerts: () => alerts.active(),
    onChange: republish('republishing the silenced alerts failed'),
    onUncovered: (ended) => notifyRef.current?.dispatcher.afterSilence(ended),
    log,
  })
  // Notes on alerts (issue 28): kept on the history rows, marked on the published alerts.
  const notes = createNotesService({
    repo: alertHistory,
    active: () => alerts.active(),
    now,
    onChange: republish('republishing the noted alerts failed'),
  })
  const { notify, emailRepo, webhookRepo, emailChannel, webhookChannel, webhookSafety } =
    createAppNotify({
      db,
      box,
      alerts: {
        onTransition: (listener) => alerts.onTransition(listener),
        active: () => alerts.active(),
        config: () => alerts.config(),
        silenced: (alert) => silences.covering(alert),
        channelsOff: createRuleChannels({
          config: () => alerts.config(),
          state: () => decorated.current,
        }),
      },
      now,
      log,
      publicUrl: config.publicUrl,
      webhookAllowLoopback: config.webhookAllowLoopback,
      ...(deps.notify ? { override: deps.notify } : {}),
    })
  notifyRef.current = notify
  /** The active alerts with their silences and notes marked, as published. */
  const marked = (active: Alert[], state: State): Alert[] =>
    notes.mark(silences.mark(active, state))
  return {
    alerts,
    silences,
    notes,
    notify,
    emailRepo,
    webhookRepo,
    emailChannel,
    webhookChannel,
    webhookSafety,
    marked,
    /** live-state's decorate, the alerting part: evaluate the state, mark its alerts. */
    decorate(next: State, at: number, poll: boolean): void {
      silences.seen(next)
      decorated.current = next
      alerts.decorate(next, at, poll)
      next.activeAlerts = marked(next.activeAlerts as Alert[], next)
    },
  }
}

export interface AlertingRouteDeps {
  audit: AuditLog
  now: () => number
  /** The published state (the active alerts are marked against it). */
  state: () => State
}

/** The routes of alerts, silences, webhooks, email and deliveries, in that order. */
export function registerAlertingRoutes(
  http: FastifyInstance,
  alerting: AppAlerting,
  deps: AlertingRouteDeps,
): void {
  const { alerts, silences, notes, notify, emailRepo, webhookRepo, webhookChannel } = alerting
  const { audit, now } = deps
  registerAlertRoutes(http, {
    alerts,
    audit,
    now,
    marked: (active) => alerting.marked(active, deps.state()),
    notes,
  })
  registerSilenceRoutes(http, { silences, audit, now })
  registerWebhookRoutes(http, {
    repo: webhookRepo,
    channel: webhookChannel,
    audit,
    safety: alerting.webhookSafety,
    now,
  })
  registerEmailRoutes(http, {
    repo: emailRepo,
    channel: alerting.emailChannel,
    audit,
    now,
    testOther: (request, body) =>
      testStoredWebhook(request, body, { repo: webhookRepo, channel: webhookChannel, now }),
  })
  registerDeliveryRoutes(http, { log: notify.log, destinations: notify.destinations })
}
