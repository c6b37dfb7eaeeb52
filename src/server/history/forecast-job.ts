// The background job behind "full in N days": reads the month RRD of every storage (a shared
// storage once per instance) and PBS datastore, at most every FORECAST_JOB.refreshMs each, a few
// reads per endpoint a minute, and keeps the forecasts the published state carries
// (forecast-decorate.ts). Never blocks the loop (one async read per endpoint per tick, the fit is
// a few thousand additions) and never rejects unhandled.
import { datastoreResourceId } from '../../shared/model/history.ts'
import type { StorageForecast } from '../../shared/model/history.ts'
import type { State, Storage } from '../../shared/model/state.ts'
import type { HistoryBudget } from './budget.ts'
import { forecastStorage } from './forecast.ts'
import type { ResolvedResource } from './resolve.ts'
import { cutFrame } from './rrd-normalise.ts'
import type { SourceReader } from './source-reader.ts'

/** The job's pace (README "Storage forecast"). */
export const FORECAST_JOB = {
  /** Each storage or datastore is read again after this long. */
  refreshMs: 30 * 60_000,
  /** One read (AVERAGE + MAX: 2 calls) per endpoint per tick: 4 reads, 8 calls a minute. */
  tickMs: 15_000,
  /**
   * While some storage has never been read (a start, a new storage), ticks come this often, so
   * the forecasts show within a minute or two of a start; the reserve below still applies.
   */
  firstPassTickMs: 3_000,
  /** A read that failed (endpoint busy or down, an error) is tried again after this long. */
  retryMs: 2 * 60_000,
  /** Calls of the minute's allowance left to the charts: the job waits below this. */
  reserveCalls: 20,
} as const

/** The forecast key of a storage: shared storage once per instance, local per node. */
export function storageForecastKey(storage: Storage): string {
  return storage.shared ? `${storage.instance}\u0000${storage.name}` : storage.id
}

interface Target {
  key: string
  resource: ResolvedResource
  total: number
}

export interface ForecastJob {
  start(): void
  stop(): Promise<void>
  /** Runs one tick now (tests, the bench); resolves when its reads are done. */
  tick(): Promise<void>
  /** The forecast of a key (storageForecastKey, or a datastore's resource id). */
  get(key: string): StorageForecast | undefined
  /** Changes whenever a forecast appears, changes its day count or disappears. */
  readonly version: number
}

export interface ForecastJobDeps {
  state: () => State
  reader: SourceReader
  budget: HistoryBudget
  now: () => number
  log?: { warn(obj: object, msg: string): void }
}

function targetsOf(state: State): Target[] {
  const down = new Set(
    state.nodes.filter((n) => n.status !== 'online').map((n) => `${n.instance}\u0000${n.name}`),
  )
  const byKey = new Map<string, Target>()
  for (const s of state.storage) {
    if (!s.enabled || !(s.total > 0) || down.has(`${s.instance}\u0000${s.node}`)) continue
    const key = storageForecastKey(s)
    if (byKey.has(key)) continue
    const resource: ResolvedResource = {
      kind: 'storage',
      id: s.id,
      instance: s.instance,
      node: s.node,
      storage: s.name,
      nodeDown: false,
    }
    byKey.set(key, { key, resource, total: s.total })
  }
  for (const pbs of state.pbs) {
    if (pbs.status !== 'online') continue
    for (const store of pbs.datastores) {
      if (!(store.total > 0)) continue
      const id = datastoreResourceId(pbs.id, store.name)
      const resource: ResolvedResource = {
        kind: 'datastore',
        id,
        instance: pbs.name,
        store: store.name,
        nodeDown: false,
      }
      byKey.set(id, { key: id, resource, total: store.total })
    }
  }
  return [...byKey.values()]
}

/** Creates the job; nothing runs until start() or tick(). */
export function createForecastJob(deps: ForecastJobDeps): ForecastJob {
  const forecasts = new Map<string, StorageForecast>()
  const readAt = new Map<string, number>()
  let version = 0
  let timer: ReturnType<typeof setInterval> | undefined
  let running: Promise<void> | undefined
  let lastTickAt = -Infinity
  /** Some storage or datastore has not been read yet (as of the last tick). */
  let unread = true

  function keep(key: string, next: StorageForecast | undefined): void {
    const prev = forecasts.get(key)
    if (!next) {
      if (prev && forecasts.delete(key)) version++
      return
    }
    // Same day count: keep the object, so the published state (and its delta) stays unchanged.
    if (prev && prev.fullInDays === next.fullInDays) return
    forecasts.set(key, next)
    version++
  }

  async function refresh(target: Target): Promise<void> {
    readAt.set(target.key, deps.now())
    const frame = await deps.reader.read(target.resource, 'month')
    const { series } = cutFrame(frame, ['used'], -Infinity)
    const used = series.used
    keep(target.key, used && forecastStorage(used.time, used.avg, target.total, deps.now()))
  }

  async function tick(): Promise<void> {
    const now = deps.now()
    const due = new Map<string, Target>()
    const live = new Set<string>()
    lastTickAt = now
    unread = false
    for (const target of targetsOf(deps.state())) {
      live.add(target.key)
      const at = readAt.get(target.key) ?? -Infinity
      if (at === -Infinity) unread = true
      if (now - at < FORECAST_JOB.refreshMs) continue
      const endpoint = target.resource.instance
      const first = due.get(endpoint)
      // The most overdue target of each endpoint.
      if (!first || at < (readAt.get(first.key) ?? -Infinity)) due.set(endpoint, target)
    }
    for (const key of [...forecasts.keys(), ...readAt.keys()]) {
      if (live.has(key)) continue
      keep(key, undefined)
      readAt.delete(key)
    }
    const reads = [...due.values()]
      .filter((t) => deps.budget.remaining(t.resource.instance) > FORECAST_JOB.reserveCalls)
      .map((t) =>
        refresh(t).catch((err: unknown) => {
          // Due again after retryMs instead of the whole refresh time.
          readAt.set(t.key, deps.now() - FORECAST_JOB.refreshMs + FORECAST_JOB.retryMs)
          deps.log?.warn({ err, resource: t.resource.id }, 'storage forecast read failed')
        }),
      )
    await Promise.all(reads)
  }

  const launch = (): void => {
    if (running) return
    if (!unread && deps.now() - lastTickAt < FORECAST_JOB.tickMs) return
    running = tick()
      .catch((err: unknown) => deps.log?.warn({ err }, 'storage forecast tick failed'))
      .finally(() => {
        running = undefined
      })
  }

  return {
    start() {
      if (timer) return
      launch()
      timer = setInterval(launch, FORECAST_JOB.firstPassTickMs)
      timer.unref?.()
    },
    async stop() {
      if (timer) clearInterval(timer)
      timer = undefined
      await running
    },
    tick,
    get: (key) => forecasts.get(key),
    get version() {
      return version
    },
  }
}
