// The history services the composition root (app.ts) creates and hands to the routes: the recent
// store, fed from every polled state without holding the event loop, and its retention setting.
import type { FastifyBaseLogger } from 'fastify'
import type { CollectedState } from '../collect/collected-state.ts'
import { runSliced } from '../live/run-sliced.ts'
import type { SystemSettingsRepo } from '../store/system-settings-repo.ts'
import type { State } from '../../shared/model/state.ts'
import type { HistoryClient } from '../collect/poller.ts'
import { createHistoryParts, type HistoryParts } from './history-parts.ts'
import { createRecentStore } from './recent-store.ts'
import { createHistoryRetention, type HistoryRetention } from './retention.ts'
import type { RecentStore } from './types.ts'

/** Longest run of recording between two turns of the loop (a slice of 2,048 guests is ~1 ms). */
const SLICE_MS = 4

/** What app.ts keeps of history; the /api/history routes read `recent`. */
export interface HistoryServices {
  recent: RecentStore
  retention: HistoryRetention
  /**
   * Adds a polled state at `atMs`, in slices of at most ~4 ms (run-sliced.ts) so that 100,000
   * guests never hold the loop; polls are recorded one after the other, in order.
   */
  record(state: CollectedState, atMs: number): Promise<void>
}

export interface HistoryDeps {
  settings: SystemSettingsRepo
  now: () => number
  /** HISTORY_RETENTION_MINUTES, or null when unset. */
  envMinutes: number | null
  log: FastifyBaseLogger
}

/** Create the recent store at the retention in effect, and keep the two in step. */
export function createHistory(deps: HistoryDeps): HistoryServices {
  const recentRef: { current?: RecentStore } = {}
  const retention = createHistoryRetention({
    repo: deps.settings,
    now: deps.now,
    envMinutes: deps.envMinutes,
    onChange: (minutes) => recentRef.current?.setRetentionMinutes(minutes),
  })
  const recent = createRecentStore({ retentionMinutes: retention.minutes() })
  recentRef.current = recent
  let queue: Promise<void> = Promise.resolve()
  return {
    recent,
    retention,
    record(state, atMs) {
      queue = queue
        .then(() => runSliced(recent.recordSteps(state, atMs), SLICE_MS))
        .catch((err: unknown) => deps.log.error({ err }, 'recording the history failed'))
      return queue
    },
  }
}

export interface MetricsHistoryDeps extends HistoryDeps {
  /** The published state (resource ids are looked up in it). */
  state: () => State
  /** The poller's client of an endpoint, so history shares its connections and limit. */
  historyClient(instance: string): HistoryClient | undefined
}

/**
 * Everything app.ts needs of metrics history: our recent store fed from every poll (`history`)
 * and the service behind /api/history reading Proxmox RRD and that store, with the forecast job
 * (`source`).
 */
export function createMetricsHistory(deps: MetricsHistoryDeps): {
  history: HistoryServices
  source: HistoryParts
} {
  const history = createHistory(deps)
  const source = createHistoryParts({
    state: deps.state,
    historyClient: deps.historyClient,
    recent: history.recent,
    now: deps.now,
    log: deps.log,
  })
  return { history, source }
}
