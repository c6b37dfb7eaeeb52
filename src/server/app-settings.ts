// Settings wiring for the composition root (app.ts): network discovery, updates (the updater and
// its auto-update schedule), the theme, and the system settings with their legacy form — the
// services and their routes, registered in this order.
import type { FastifyInstance } from 'fastify'
import type { ServerConfig } from './config.ts'
import { createDiscoveryService } from './discovery/discovery-service.ts'
import type { HistoryRetention } from './history/retention.ts'
import { registerDiscoveryRoutes } from './http/discovery.ts'
import { registerSettingsCompatRoutes } from './http/settings-compat.ts'
import { registerSystemSettingsRoutes } from './http/system-settings.ts'
import { registerThemeRoutes } from './http/theme.ts'
import { registerUpdateRoutes } from './http/updates.ts'
import type { SystemSettingsRepo } from './store/system-settings-repo.ts'
import type { WebPolicy } from './system/web-policy.ts'
import { createUpdates } from './updates/index.ts'
import type { AutoUpdater } from './updates/schedule.ts'
import { readUpdateSettings } from './updates/update-settings.ts'
import type { Updater } from './updates/updater.ts'

export interface AppSettingsDeps {
  config: ServerConfig
  settings: SystemSettingsRepo
  now: () => number
  /** Send a socket message to every client (the hub). */
  broadcast: (type: string, data: unknown) => void
  /** Allowed origins and embedding, applied at once by the guard and the header hook. */
  webPolicy: WebPolicy
  /** Minutes of recent history the server keeps. */
  history: HistoryRetention
}

/** Create discovery and the updater and register the settings routes; returns the updater. */
export function createAppSettings(
  http: FastifyInstance,
  deps: AppSettingsDeps,
): { updater: Updater; autoUpdater: AutoUpdater } {
  const { config, settings, now, broadcast } = deps
  const discovery = createDiscoveryService({ settings, now, broadcast, log: http.log })
  registerDiscoveryRoutes(http, discovery)
  const themeDeps = { settings, now, broadcast }
  const { updater, autoUpdater } = createUpdates({
    config,
    settings,
    now,
    broadcast,
    log: http.log,
  })
  const systemSettingsDeps = {
    discovery,
    webPolicy: deps.webPolicy,
    history: deps.history,
    ...themeDeps,
    onUpdateSettings: () => autoUpdater.rearm(),
  }
  registerSystemSettingsRoutes(http, systemSettingsDeps)
  registerSettingsCompatRoutes(http, { ...systemSettingsDeps, config })
  registerThemeRoutes(http, themeDeps)
  registerUpdateRoutes(http, {
    updater,
    savedChannel: () => readUpdateSettings(settings).updateChannel,
  })
  return { updater, autoUpdater }
}
