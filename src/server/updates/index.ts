// The updater and its scheduler, wired together: the feed is contacted only when someone checks,
// or by the auto-updater once it is enabled in the settings.
import type { SystemSettingsRepo } from '../store/system-settings-repo.ts'
import type { ServerConfig } from '../config.ts'
import { canStage } from './plan.ts'
import { createAutoUpdater, type AutoUpdater } from './schedule.ts'
import { readUpdateSettings } from './update-settings.ts'
import { createUpdater, type Updater, type UpdaterDeps } from './updater.ts'

export interface UpdatesDeps {
  config: Pick<ServerConfig, 'updates' | 'version' | 'dataDir'>
  settings: SystemSettingsRepo
  now: () => number
  broadcast: (type: string, data: unknown) => void
  log: UpdaterDeps['log']
}

/** The updater and the auto-updater (armed by the caller once the server runs). */
export function createUpdates(deps: UpdatesDeps): { updater: Updater; autoUpdater: AutoUpdater } {
  const { config, log } = deps
  const updater = createUpdater({
    feedUrl: config.updates.feedUrl,
    currentVersion: config.version,
    deploymentType: config.updates.deploymentType,
    dataDir: config.dataDir,
    now: deps.now,
    broadcast: deps.broadcast,
    log,
  })
  const autoUpdater = createAutoUpdater({
    log,
    now: deps.now,
    settings: () => readUpdateSettings(deps.settings),
    run: async (channel) => {
      try {
        const info = await updater.check(channel)
        log.info({ available: info.available, latest: info.latestVersion }, 'auto-update check')
        // Staged only; the restart stays with whoever supervises the process.
        if (info.available && info.downloadUrl && canStage(config.updates.deploymentType)) {
          updater.apply(info.downloadUrl)
          await updater.idle()
        }
      } catch (err) {
        log.warn({ reason: err instanceof Error ? err.message : String(err) }, 'auto-update failed')
      }
    },
  })
  return { updater, autoUpdater }
}
