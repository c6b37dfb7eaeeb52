// Composition root: wires store, poller, live state, hub and routes. The alerting area (alerts,
// silences, notes, notifications) is wired in app-alerting.ts, discovery, updates and the system
// settings in app-settings.ts. Tests build it on a temporary data directory; main.ts builds it
// from the environment.
import Fastify, { type FastifyInstance } from 'fastify'
import fastifyWebsocket from '@fastify/websocket'
import { createAppAlerting, registerAlertingRoutes } from './app-alerting.ts'
import { createAppSettings } from './app-settings.ts'
import type { AuthService } from './auth/auth-service.ts'
import { installAuth } from './auth/install.ts'
import { createOidc } from './auth/oidc.ts'
import type { Poller } from './collect/poller.ts'
import { createAppPoller } from './live/app-poller.ts'
import { endpointStatusFrom } from './nodes/poller-status.ts'
import { installStandbyGuard } from './http/standby.ts'
import { createHub, type Hub } from './hub/hub.ts'
import type { AlertService } from './alerts/service.ts'
import type { SilenceService } from './alerts/silence-service.ts'
import type { NotifyService } from './notify/service.ts'
import type { Channel, ResolvedDestination } from './notify/types.ts'
import type { DestinationKind } from '../shared/model/notifications.ts'
import { registerAuthRoutes } from './http/auth.ts'
import { registerConfigBackupRoutes } from './http/config-backup.ts'
import { installErrorHandler } from './http/errors.ts'
import { RequestLogController } from './log.ts'
import { registerCoreRoutes } from './http/core.ts'
import { registerStateRoute } from './http/state.ts'
import { registerMetricsRoute } from './http/metrics.ts'
import { createMetricsService } from './metrics/metrics-service.ts'
import { createOutboxCounts } from './store/outbox-counts.ts'
import { registerHistoryRoutes } from './http/history.ts'
import type { HistoryParts } from './history/history-parts.ts'
import { registerMetadataRoutes } from './http/metadata.ts'
import { registerDiagnosticsRoutes } from './http/diagnostics.ts'
import { registerNodeRoutes } from './http/nodes.ts'
import { registerSetupScriptRoutes } from './http/setup-script.ts'
import { registerAutoRegisterRoute } from './http/auto-register.ts'
import { createRegistrationCodes } from './setup/registration-codes.ts'
import { readUpdateSettings } from './updates/update-settings.ts'
import type { Updater } from './updates/updater.ts'
import { createSystemSettingsRepo } from './store/system-settings-repo.ts'
import { createWebPolicy } from './system/web-policy.ts'
import { registerOidcRoutes } from './http/oidc.ts'
import { registerSecurityRoutes } from './http/security.ts'
import { registerTokenRoutes } from './http/tokens.ts'
import { registerSessionRoutes } from './http/sessions.ts'
import { registerSocketRoute } from './http/socket.ts'
import { registerUserRoutes } from './http/users.ts'
import { registerSpa } from './http/spa.ts'
import { createLiveState, type LiveState } from './live/live-state.ts'
import { createBackupHealthDerive } from './backup-health/wiring.ts'
import { createNodeService, type NodeService } from './nodes/node-service.ts'
import { openDatabase, type Db } from './store/db.ts'
import { createGuestMetadata } from './metadata/guest-metadata.ts'
import { createStorageHealth } from './store/storage-health.ts'
import type { MetadataRetention } from './metadata/metadata-retention.ts'
import { createNodesRepo } from './store/nodes-repo.ts'
import { createSecretBox, loadOrCreateKey } from './store/secret-box.ts'
import type { KdfCost } from './backup/config-crypto.ts'
import type { ServerConfig } from './config.ts'
import { createMetricsHistory, type HistoryServices } from './history/wiring.ts'

export interface App {
  http: FastifyInstance
  live: LiveState
  hub: Hub
  nodes: NodeService
  poller: Poller & { close(): Promise<void> }
  db: Db
  auth: AuthService
  alerts: AlertService
  /** Silences and maintenance windows (issue 28). */
  silences: SilenceService
  notify: NotifyService
  updater: Updater
  /** Metrics history: our recent minutes (read by /api/history) and their retention. */
  history: HistoryServices
  /** Metrics history read from Proxmox: /api/history's service, allowance, cache, forecasts. */
  historySource: HistoryParts
  /** The sweep that prunes metadata of guests gone for good (runs with the polls). */
  metadataRetention: MetadataRetention
  /** Every route registered (method, url pattern), in registration order. */
  routes: ReadonlyArray<{ method: string; url: string }>
  /** Start polling (and the poll timer), the alert retention, the notifications, auto-update. */
  startPolling(): void
  /** Stop what startPolling started (a collector that lost its lease); startPolling resumes. */
  stopPolling(): Promise<void>
  /**
   * Read again the settings kept in memory (allowed origins, embedding): a collector taking over
   * from one that changed them in the shared database.
   */
  reloadStored(): void
  /** Also hear every socket event this app broadcasts (a collector publishes them on the bus). */
  onBroadcast(listener: (type: string, data: unknown) => void): () => void
  close(): Promise<void>
}

export interface BuildOptions {
  config: ServerConfig
  now?: () => number
  logger?: boolean | object
  /** scrypt cost of configuration exports; the production default unless a test passes one. */
  exportKdfCost?: KdfCost
  /**
   * Test-only: notification destinations and channels (the crash test's loopback receiver).
   * Production passes nothing and gets the email/webhook parts' own.
   */
  notify?: {
    destinations: () => readonly ResolvedDestination[]
    channels: Record<DestinationKind, Channel>
  }
  /** What /api/health adds about the role (roles/collector.ts); default `{ role: 'all' }`. */
  health?: () => Record<string, unknown>
  /**
   * True while this is a standby collector: API writes are refused (503), since the active one
   * would neither see nor publish them and its own writes would overwrite them.
   */
  standby?: () => boolean
  /** The poller in a thread of its own; default `config.collectorThread`. */
  collectorThread?: boolean
}

/** Build the server without listening. */
export async function buildApp(options: BuildOptions): Promise<App> {
  const { config } = options
  const now = options.now ?? Date.now
  const http = Fastify({
    logger: options.logger ?? false,
    // Fastify's two info lines per request would drown the log: one line at debug instead, with
    // method, redacted URL and status only, never bodies or headers (secrets).
    logController: new RequestLogController(),
    bodyLimit: 1024 * 1024,
  })
  const routes: Array<{ method: string; url: string }> = []
  http.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) routes.push({ method, url: route.url })
  })
  const db = openDatabase(config.dataDir)
  const box = createSecretBox(loadOrCreateKey(config.dataDir))
  const repo = createNodesRepo(db, box)

  // The live state reports the hub's client count, and the hub subscribes to the live state.
  const hubRef: { current?: Hub } = {}
  // The alerting services decorate every published state and republish after a mutation.
  const liveRef: { current?: LiveState } = {}
  const alerting = createAppAlerting({
    db,
    box,
    now,
    log: http.log,
    config,
    notify: options.notify,
    broadcast: (type, data) => hubRef.current?.broadcast(type, data),
    live: () => liveRef.current,
  })
  const { alerts, silences, notes, notify, webhookChannel } = alerting
  // Metrics history (issue 25): our recent minutes fed from every poll, RRD read through the
  // poller's clients, forecasts on the state.
  const systemSettings = createSystemSettingsRepo(db)
  const { history, source: historySource } = createMetricsHistory({
    settings: systemSettings,
    now,
    envMinutes: config.historyRetentionMinutes,
    log: http.log,
    state: () => live.current().state,
    historyClient: (instance) => poller.historyClient(instance),
  })
  const live = createLiveState({
    now,
    version: config.version,
    clientCount: () => hubRef.current?.clientCount() ?? 0,
    derive: createBackupHealthDerive(http.log).derive,
    decorate: (next, at, poll) => {
      alerting.decorate(next, at, poll)
      historySource.decorate(next)
    },
  })
  liveRef.current = live
  const poller = createAppPoller({
    threaded: options.collectorThread ?? config.collectorThread,
    intervalMs: config.pollIntervalMs,
    now,
    log: http.log,
    live,
    history,
  })
  const nodes = createNodeService({
    repo,
    now,
    ...endpointStatusFrom(poller),
    onChange: () => {
      poller.setEndpoints(nodes.endpoints())
      void poller.pollNow()
    },
    // The hub is created just below; changes happen only once requests are served.
    broadcast: (type, data) => hubRef.current?.broadcast(type, data),
  })
  // Every broadcast goes through this hub object, so one tap sees all of them.
  const broadcastTaps = new Set<(type: string, data: unknown) => void>()
  const localHub = createHub({ live, now, version: config.version, log: http.log })
  const hub: Hub = {
    ...localHub,
    broadcast(type, data) {
      localHub.broadcast(type, data)
      for (const tap of broadcastTaps) tap(type, data)
    },
  }
  hubRef.current = hub

  const storage = createStorageHealth(db, now)
  installErrorHandler(http, { storageError: (err) => storage.toAppError(err) })
  if (options.standby) installStandbyGuard(http, options.standby)
  // The websocket plugin first: its onRequest hook marks upgrades, and its onResponse hook closes
  // the socket of an upgrade the guard refuses (a hook that throws skips the hooks after it).
  await http.register(fastifyWebsocket, { options: { maxPayload: 64 * 1024 } })
  const webPolicy = createWebPolicy({
    repo: systemSettings,
    now,
    envOrigins: config.allowedOrigins,
    envEmbedding: config.embedding,
  })
  const oidc = createOidc({ db, box, env: config.oidcEnv, now, log: http.log })
  // Before any route: the guard and security headers must cover every route and plugin.
  const { auth, loginLimit, rateLimits } = await installAuth(http, {
    db,
    now,
    disabled: config.authDisabled,
    allowedOrigins: () => webPolicy.allowedOrigins(),
    trustedProxies: config.trustedProxies,
    publicUrl: config.publicUrl,
    proxyAuth: config.proxyAuth,
    embedding: () => webPolicy.embedding(),
    envToken: config.apiToken,
    ssoReady: oidc.ready,
  })
  registerCoreRoutes(http, {
    version: config.version,
    demo: config.demo !== null,
    startedAt: now(),
    now,
    deploymentType: config.updates.deploymentType,
    channel: () => readUpdateSettings(systemSettings).updateChannel,
    health: options.health,
    storage: () => storage.status(),
  })
  registerStateRoute(http, { hub })
  registerHistoryRoutes(http, historySource.service)
  registerAuthRoutes(http, { auth, loginLimit, oidc })
  registerSecurityRoutes(http, auth, { proxyAuth: config.proxyAuth, oidc })
  registerUserRoutes(http, auth)
  registerTokenRoutes(http, auth.tokens)
  registerSessionRoutes(http, auth)
  registerOidcRoutes(http, { auth, oidc, now, rateLimits })
  registerConfigBackupRoutes(http, {
    db,
    box,
    auth,
    now,
    rateLimits,
    kdfCost: options.exportKdfCost,
    // Nodes go to the poller at once; sessions were revoked inside the import's transaction, and
    // the sockets of tokens the file does not hold close now.
    onImported: () => {
      nodes.reload()
      auth.tokens.closeOrphanSockets()
    },
  })
  registerNodeRoutes(http, nodes)
  registerAlertingRoutes(http, alerting, {
    audit: auth.audit,
    now,
    state: () => live.current().state,
  })
  // Scripts served carry a registration code; auto-register spends it.
  const registrationCodes = createRegistrationCodes(now)
  registerSetupScriptRoutes(http, { now, codes: registrationCodes })
  registerAutoRegisterRoute(http, {
    nodes,
    codes: registrationCodes,
    rateLimits,
    broadcast: (type, data) => hub.broadcast(type, data),
  })
  // Discovery, updates, the theme and the system settings.
  const { updater, autoUpdater } = createAppSettings(http, {
    config,
    settings: systemSettings,
    now,
    broadcast: (type, data) => hub.broadcast(type, data),
    webPolicy,
    history: history.retention,
  })
  // Bounded guest metadata; a sweep with the polls prunes that of guests gone for good.
  const metadata = createGuestMetadata({ db, live, now, log: http.log })
  registerMetadataRoutes(http, metadata.service, now)
  registerDiagnosticsRoutes(http, {
    version: config.version,
    port: config.port,
    startedAt: now(),
    now,
    nodes: () => nodes.list(),
    endpoints: () => nodes.endpoints(),
    state: () => live.current().state,
    websocketClients: () => hub.clientCount(),
  })
  registerSocketRoute(http, hub, auth.sockets)
  // Prometheus /metrics (issue 28 item 5): outside /api, with its own token check.
  registerMetricsRoute(http, {
    metrics: createMetricsService({
      live,
      version: config.version,
      socketClients: () => hub.clientCount(),
      outbox: createOutboxCounts(db),
      endpoints: () => nodes.endpoints(),
      poller,
    }),
    auth,
    scrapeToken: config.metricsToken,
  })
  await registerSpa(http, config.staticDir)

  poller.setEndpoints(nodes.endpoints())
  return {
    http,
    live,
    hub,
    nodes,
    poller,
    db,
    auth,
    alerts,
    silences,
    notify,
    updater,
    history,
    historySource,
    metadataRetention: metadata.retention,
    routes,
    startPolling: () => {
      autoUpdater.rearm()
      alerts.start()
      silences.start()
      notify.start()
      poller.start()
      historySource.forecasts.start()
    },
    async stopPolling() {
      autoUpdater.stop()
      alerts.stop()
      silences.stop()
      await Promise.all([notify.stop(), poller.stop(), historySource.forecasts.stop()])
    },
    reloadStored: () => (
      webPolicy.reload(),
      history.retention.reload(),
      silences.reload(),
      notes.reload()
    ),
    onBroadcast(listener) {
      broadcastTaps.add(listener)
      return () => broadcastTaps.delete(listener)
    },
    async close() {
      autoUpdater.stop()
      alerts.close()
      silences.stop()
      hub.close()
      await notify.stop()
      await notify.close()
      await historySource.forecasts.stop()
      await poller.close()
      await http.close()
      await webhookChannel.close()
      await metadata.retention.settled()
      db.close()
    },
  }
}
