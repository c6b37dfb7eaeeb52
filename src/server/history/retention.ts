// How many minutes the recent store keeps (issue 25): HISTORY_RETENTION_MINUTES fixes it when set
// (the System tab shows it read-only, as for the other settings the environment sets); otherwise
// the value saved from the System tab, else the default. A saved change applies at once.
import {
  HISTORY_RETENTION_DEFAULT,
  retentionProblem,
} from '../../shared/model/history-retention.ts'
import type { SystemSettingsRepo } from '../store/system-settings-repo.ts'

export const RETENTION_KEY = 'historyRetentionMinutes'

/** The retention part of GET /api/system/settings. */
export interface RetentionSettings {
  historyRetentionMinutes: number
  envOverrides: Record<string, boolean>
}

export interface HistoryRetention {
  /** Minutes in effect. */
  minutes(): number
  settings(): RetentionSettings
  /** Store a validated value (ignored when the environment fixes it); applies at once. */
  configure(minutes: number | undefined): void
  /** Read the stored value again (a collector taking over). */
  reload(): void
}

export interface RetentionDeps {
  repo: SystemSettingsRepo
  now: () => number
  /** HISTORY_RETENTION_MINUTES, or null when unset. */
  envMinutes: number | null
  /** Called with the minutes in effect whenever they change. */
  onChange: (minutes: number) => void
}

/** The stored value when it is a valid one; a damaged value falls back to the default. */
function storedMinutes(repo: SystemSettingsRepo): number {
  const value = repo.get(RETENTION_KEY)
  return retentionProblem(value) ? HISTORY_RETENTION_DEFAULT : (value as number)
}

/** Create the retention setting from the environment and the stored settings. */
export function createHistoryRetention(deps: RetentionDeps): HistoryRetention {
  const { repo, envMinutes } = deps
  let minutes = envMinutes ?? storedMinutes(repo)
  const apply = (next: number) => {
    if (next === minutes) return
    minutes = next
    deps.onChange(minutes)
  }
  const envOverrides: Record<string, boolean> = envMinutes === null ? {} : { [RETENTION_KEY]: true }
  return {
    minutes: () => minutes,
    settings: () => ({
      historyRetentionMinutes: minutes,
      envOverrides,
    }),
    configure(next) {
      if (next === undefined || envMinutes !== null) return
      repo.set(RETENTION_KEY, next, deps.now())
      apply(next)
    },
    reload() {
      apply(envMinutes ?? storedMinutes(repo))
    },
  }
}
