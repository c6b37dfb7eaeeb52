// The alert service: holds the engine's state between polls, runs evaluate() on every polled
// state before it is published (live-state's `decorate`), persists what changed before anyone is
// told, then tells the socket clients and the transition listeners. Mutations (ack, unack, clear,
// config save) take the same path and republish the live state at once.
import { performance } from 'node:perf_hooks'
import type {
  Alert,
  AlertConfig,
  AlertHistorySummary,
  BulkAlertResult,
  HistoryAlert,
  ResolvedAlert,
} from '../../shared/model/alerts.ts'
import type { State } from '../../shared/model/state.ts'
import type { AlertHistoryRepo, HistoryFilter } from '../store/alert-history.ts'
import type { AlertsRepo } from '../store/alerts-repo.ts'
import { acknowledge, clearAlerts, unacknowledge } from './acknowledge.ts'
import { DEFAULT_ALERT_CONFIG } from './config-defaults.ts'
import { countRuleTerms, MAX_RULE_TERMS, parseAlertConfig } from './config-validate.ts'
import { createEngineState, type EngineState, type Transition } from './engine-types.ts'
import { evaluate } from './evaluate.ts'
import { createAlertPersistence } from './persist.ts'

/** How often history retention runs (and once at start): not on every poll. */
export const RETENTION_INTERVAL_MS = 60 * 60 * 1000

/**
 * A listener of alert transitions (the notifications issue). Called once per transition, in
 * order, after it has been persisted and broadcast: `fired` (a new alert), `escalated` (warning
 * became critical) and `resolved` (with `reason`: resolved, cleared, disabled, removed, stopped).
 * `alert` is the alert as stored (a ResolvedAlert with resolvedTime for `resolved`); `at` is
 * epoch ms. A config save's re-evaluation emits only what really changed (alerts that no longer
 * meet the new thresholds); acknowledgments emit nothing. A throwing listener is logged and
 * does not stop the others.
 */
export type TransitionListener = (transition: Transition) => void

type Results = BulkAlertResult['results']
type SaveResult = { ok: true } | { ok: false; field: string; message: string }

export interface AlertService {
  /** live-state's decorate hook: evaluate a polled state, fill its alert collections. */
  decorate(next: State, now: number, poll: boolean): void
  config(): AlertConfig
  /** Validate, store, re-evaluate the last polled state with the new config; nothing saved if invalid. */
  saveConfig(input: unknown): SaveResult
  active(): Alert[]
  acknowledge(ids: readonly string[], user: string): Results
  unacknowledge(ids: readonly string[]): Results
  clear(ids: readonly string[]): Results
  history(
    filter: HistoryFilter,
    page: { limit: number; offset: number },
  ): {
    rows: HistoryAlert[]
    total: number
  }
  summary(
    filter: HistoryFilter & { since: number; until: number },
    bucketMs: number,
  ): AlertHistorySummary
  /** Delete the ended history; returns the rows deleted. */
  clearHistory(): number
  /** Apply retention now; returns the rows deleted. */
  pruneHistory(): number
  onTransition(listener: TransitionListener): () => void
  /** Milliseconds the last poll's evaluation and its persistence took. */
  stats(): { evaluateMs: number; persistMs: number }
  /** Start the hourly retention (runs once at once). */
  start(): void
  /** Stop the retention timer (a collector that lost its lease); start() resumes it. */
  stop(): void
  /**
   * Load the config and the active alerts from SQLite again: a standby collector taking over
   * continues from what the previous active one stored.
   */
  reload(): void
  close(): void
}

export interface AlertServiceDeps {
  repo: AlertsRepo
  history: AlertHistoryRepo
  now: () => number
  /** Send a socket message to every client (hub.broadcast). */
  broadcast: (type: string, data: unknown) => void
  /** Publish the live state again (live.republish); called after every mutation. */
  republish: () => void
  log: { warn(obj: object, msg: string): void; error(obj: object, msg: string): void }
  retentionIntervalMs?: number
}

/** Create the service: loads the config and the active alerts from SQLite. */
export function createAlertService(deps: AlertServiceDeps): AlertService {
  const { repo, history, log } = deps
  const persistence = createAlertPersistence({ repo, history })
  const listeners = new Set<TransitionListener>()
  let config = loadConfig(repo, log)
  let engine: EngineState = createEngineState(persistence.load(deps.now()))
  let lastState: State | null = null
  let list: { from: EngineState['active']; alerts: Alert[] } = { from: new Map(), alerts: [] }
  let figures = { evaluateMs: 0, persistMs: 0 }
  let timer: ReturnType<typeof setInterval> | null = null

  const activeList = (): Alert[] => {
    // Same array while the engine's map is the same: the live diff skips it by identity.
    if (list.from !== engine.active)
      list = { from: engine.active, alerts: [...engine.active.values()] }
    return list.alerts
  }

  /** Persist, then tell: a client never hears of an alert the store would not have after a crash. */
  const commit = (next: EngineState, transitions: readonly Transition[], now: number) => {
    const prev = engine
    persistence.commit(prev.active, next.active, transitions, now)
    engine = next
    for (const t of transitions) {
      if (t.kind === 'resolved') {
        deps.broadcast('alertResolved', { alertId: t.alert.id, resolvedTime: t.alert.resolvedTime })
      } else {
        deps.broadcast('alert', t.alert)
      }
      for (const listener of listeners) {
        try {
          listener(t)
        } catch (err) {
          log.error({ err }, 'an alert transition listener failed')
        }
      }
    }
  }

  const mutate = (step: { next: EngineState; results: Results; transitions: Transition[] }) => {
    commit(step.next, step.transitions, deps.now())
    deps.republish()
    return step.results
  }

  const prune = () => history.prune(config.history, deps.now())

  return {
    decorate(next, now, poll) {
      if (poll) {
        lastState = next
        try {
          const t0 = performance.now()
          const result = evaluate(next, config, now, engine)
          const t1 = performance.now()
          commit(result.next, result.transitions, now)
          figures = { evaluateMs: t1 - t0, persistMs: performance.now() - t1 }
        } catch (err) {
          // The poll is published regardless, with the alerts as they were.
          log.error({ err }, 'alert evaluation failed')
        }
      }
      next.activeAlerts = activeList()
      next.recentlyResolved = engine.recentlyResolved as ResolvedAlert[]
    },
    config: () => config,
    saveConfig(input) {
      const parsed = parseAlertConfig(input)
      if (!parsed.ok) return parsed
      const now = deps.now()
      const before = config
      repo.saveConfig(parsed.config, now)
      config = parsed.config
      // Not a poll: the engine sees the same state again (lastPoll) and only re-checks thresholds.
      if (lastState) {
        const result = evaluate(lastState, config, now, engine)
        commit(result.next, result.transitions, now)
      }
      if (
        before.history.retentionDays !== config.history.retentionDays ||
        before.history.maxRows !== config.history.maxRows
      ) {
        prune()
      }
      deps.republish()
      return { ok: true }
    },
    active: () => activeList(),
    acknowledge: (ids, user) => mutate(acknowledge(engine, ids, user, deps.now())),
    unacknowledge: (ids) => mutate(unacknowledge(engine, ids)),
    clear: (ids) => mutate(clearAlerts(engine, ids, deps.now())),
    history: (filter, page) => history.query(filter, page, deps.now()),
    summary: (filter, bucketMs) => history.summary(filter, bucketMs, deps.now()),
    clearHistory: () => history.clear(),
    pruneHistory: prune,
    onTransition(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    stats: () => figures,
    start() {
      if (timer) return
      const run = () => {
        try {
          prune()
        } catch (err) {
          log.error({ err }, 'alert history retention failed')
        }
      }
      run()
      timer = setInterval(run, deps.retentionIntervalMs ?? RETENTION_INTERVAL_MS)
      timer.unref()
    },
    stop() {
      if (timer) clearInterval(timer)
      timer = null
    },
    reload() {
      config = loadConfig(repo, log)
      engine = createEngineState(persistence.load(deps.now()))
    },
    close() {
      if (timer) clearInterval(timer)
      timer = null
      listeners.clear()
    },
  }
}

function loadConfig(repo: AlertsRepo, log: AlertServiceDeps['log']): AlertConfig {
  const stored = repo.loadConfig()
  if (stored === null) return DEFAULT_ALERT_CONFIG
  const parsed = parseAlertConfig(stored, { stored: true })
  if (parsed.ok) {
    const terms = countRuleTerms(parsed.config)
    if (terms > MAX_RULE_TERMS) {
      log.warn(
        { terms, limit: MAX_RULE_TERMS },
        'stored alert rules exceed the limit a save accepts; the next save must reduce them',
      )
    }
    return parsed.config
  }
  // A config saved by another version that this one refuses: run on defaults, keep the row.
  log.warn({ field: parsed.field, problem: parsed.message }, 'stored alert config ignored')
  return DEFAULT_ALERT_CONFIG
}
