// The server's history parts wired together (app.ts builds one): the allowance, the cache, the
// source reader, the service behind /api/history and the forecast job with its state decorator.
import type { State } from '../../shared/model/state.ts'
import type { HistoryClient } from '../collect/poller.ts'
import { createHistoryBudget, type HistoryBudget } from './budget.ts'
import { createForecastDecorator } from './forecast-decorate.ts'
import { createForecastJob, type ForecastJob } from './forecast-job.ts'
import { createRrdCache, type RrdCache } from './rrd-cache.ts'
import { createHistoryService, type HistoryService } from './service.ts'
import { createSourceReader, type SourceReader } from './source-reader.ts'
import type { RecentStore } from './types.ts'

export interface HistoryParts {
  service: HistoryService
  budget: HistoryBudget
  cache: RrdCache
  reader: SourceReader
  forecasts: ForecastJob
  /** Adds the forecasts to a state about to be published (LiveStateDeps.decorate). */
  decorate(next: State): void
}

export interface HistoryPartsDeps {
  state: () => State
  historyClient(instance: string): HistoryClient | undefined
  recent: RecentStore
  now: () => number
  log?: { warn(obj: object, msg: string): void }
}

/** Builds the history parts; the forecast job starts with forecasts.start(). */
export function createHistoryParts(deps: HistoryPartsDeps): HistoryParts {
  const budget = createHistoryBudget(undefined, deps.now)
  const cache = createRrdCache(deps.now)
  const reader = createSourceReader({ historyClient: deps.historyClient, budget, cache })
  const service = createHistoryService({
    state: deps.state,
    reader,
    recent: deps.recent,
    now: deps.now,
  })
  const forecasts = createForecastJob({
    state: deps.state,
    reader,
    budget,
    now: deps.now,
    log: deps.log,
  })
  return { service, budget, cache, reader, forecasts, decorate: createForecastDecorator(forecasts) }
}

/**
 * A recent store that holds nothing: what the history parts use until the recorder
 * (recent-store.ts, built on another branch) is wired in app.ts.
 */
export function createEmptyRecentStore(): RecentStore {
  return {
    record: () => undefined,
    series: () => undefined,
    retentionMinutes: 0,
    setRetentionMinutes: () => undefined,
    stats: () => ({ resources: 0, bytes: 0, retentionMinutes: 0 }),
  }
}
