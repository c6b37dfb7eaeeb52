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
import { createEvaluationQueue } from './evaluation-queue.ts'
import { createAlertPersistence } from './persist.ts'

/** How often history retention runs (and once at start): not on every poll. */
export const RETENTION_INTERVAL_MS = 60 * 60 * 1000

/**
 * A poll's step of more alerts than this is written this many per transaction, one transaction
 * per turn of the loop (a few milliseconds each), not all in one that holds the loop.
 */
export const PERSIST_SLICE = 100

/**
 * A poll's evaluation runs this long per turn of the loop before it yields (issue 27: at 100,000
 * guests with 1,000,000 backup records one evaluation held the loop for seconds). It yields only
 * between steps of thousands of guests (evaluate.ts), so a small estate is evaluated at once.
 */
export const EVALUATE_SLICE_MS = 8

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
  /**
   * The last poll's evaluation: `evaluateMs` in all over `evaluateTurns` turns of the loop, the
   * longest `evaluateLongestMs`; its persistence took `persistMs` on the turn the evaluation
   * ended, and a storm's step continues in `slices` turns, the longest `longestSliceMs`.
   */
  stats(): {
    evaluateMs: number
    evaluateTurns: number
    evaluateLongestMs: number
    persistMs: number
    slices: number
    longestSliceMs: number
  }
  /** Resolves once the polls handed in are evaluated, and their steps all written and told. */
  settled(): Promise<void>
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
  /** Alerts written per transaction of a storm (PERSIST_SLICE; Infinity: one transaction). */
  persistSlice?: number
  /** Milliseconds of evaluation per turn (EVALUATE_SLICE_MS; Infinity: all in the poll's turn). */
  evaluateSliceMs?: number
}

/** Create the service: loads the config and the active alerts from SQLite. */
export function createAlertService(deps: AlertServiceDeps): AlertService {
  const { repo, history, log } = deps
  const slice = deps.persistSlice ?? PERSIST_SLICE
  const evaluateSliceMs = deps.evaluateSliceMs ?? EVALUATE_SLICE_MS
  const persistence = createAlertPersistence({ repo, history })
  const listeners = new Set<TransitionListener>()
  let config = loadConfig(repo, log)
  let engine: EngineState = createEngineState(persistence.load(deps.now()))
  let lastState: State | null = null
  let list: { from: EngineState['active']; alerts: Alert[] } = { from: new Map(), alerts: [] }
  let figures = { evaluateMs: 0, evaluateTurns: 0, evaluateLongestMs: 0, persistMs: 0 }
  let timer: ReturnType<typeof setInterval> | null = null

  const activeList = (): Alert[] => {
    // Same array while the engine's map is the same: the live diff skips it by identity.
    if (list.from !== engine.active)
      list = { from: engine.active, alerts: [...engine.active.values()] }
    return list.alerts
  }

  /** Tell the socket clients and the listeners of transitions already persisted. */
  const announce = (transitions: readonly Transition[]) => {
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

  /**
   * A storm's step being written in slices, then told in slices. Until its last slice is written
   * the service shows and tells nothing of it: `engine` is still the step before, so the
   * published state, the socket and the listeners only ever know what the store would have
   * after a crash. Then its transitions are told, PERSIST_SLICE per turn, in order.
   */
  let pending: { run(max: number): boolean } | null = null
  let slices = { count: 0, longestMs: 0 }

  /** Finish a storm's step at once (before anything reads or changes the engine). */
  const flush = () => {
    const p = pending
    if (!p) return
    pending = null
    while (!p.run(Infinity));
  }

  /**
   * Persist, then tell: a client never hears of an alert the store would not have after a crash.
   * A poll's step of more than PERSIST_SLICE alerts is written and told a slice per turn of the
   * loop; the live state is republished once it is all told.
   */
  const commit = (
    next: EngineState,
    transitions: readonly Transition[],
    now: number,
    sliced = false,
  ) => {
    flush()
    const job = persistence.plan(engine.active, next.active, transitions, now)
    if (!sliced || (job?.size ?? 0) <= slice) {
      job?.run(Infinity)
      engine = next
      announce(transitions)
      return
    }
    let written = false
    let told = 0
    const work = {
      run(max: number) {
        if (!written) {
          written = job!.run(max)
          if (written) engine = next
          return false
        }
        const end = Math.min(transitions.length, told + max)
        announce(transitions.slice(told, end))
        told = end
        return told === transitions.length
      },
    }
    slices = { count: 1, longestMs: 0 }
    work.run(slice)
    pending = work
    const step = () => {
      if (pending !== work) return
      const t0 = performance.now()
      slices.count++
      // Every other turn a checkpoint of what the slices wrote: small, never the whole WAL.
      if (slices.count % 2 === 0) {
        repo.checkpoint()
        setImmediate(step)
      } else if (work.run(slice)) {
        pending = null
        deps.republish()
        evaluations.resume()
      } else {
        setImmediate(step)
      }
      slices.longestMs = Math.max(slices.longestMs, performance.now() - t0)
    }
    setImmediate(step)
  }

  const evaluations = createEvaluationQueue({
    sliceMs: evaluateSliceMs,
    engine: () => engine,
    config: () => config,
    blocked: () => pending !== null,
    commit(result, now, evaluated) {
      const t0 = performance.now()
      slices = { count: 0, longestMs: 0 }
      commit(result.next, result.transitions, now, true)
      figures = { ...evaluated, persistMs: performance.now() - t0 }
    },
    republish: deps.republish,
    log,
  })

  const mutate = (
    change: (engine: EngineState) => {
      next: EngineState
      results: Results
      transitions: Transition[]
    },
  ) => {
    evaluations.interrupt()
    flush()
    const step = change(engine)
    commit(step.next, step.transitions, deps.now())
    deps.republish()
    evaluations.resume()
    return step.results
  }

  const prune = () => history.prune(config.history, deps.now())

  return {
    decorate(next, now, poll) {
      if (poll) {
        lastState = next
        evaluations.poll(next, now)
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
      evaluations.interrupt()
      flush()
      repo.saveConfig(parsed.config, now)
      config = parsed.config
      // Not a poll: the engine sees the same state again (lastPoll) and only re-checks thresholds.
      if (lastState) {
        const result = evaluate(lastState, config, now, engine)
        commit(result.next, result.transitions, now)
        // That was the newest poll's evaluation too.
        evaluations.forget(lastState)
      }
      if (
        before.history.retentionDays !== config.history.retentionDays ||
        before.history.maxRows !== config.history.maxRows
      ) {
        prune()
      }
      deps.republish()
      evaluations.resume()
      return { ok: true }
    },
    active: () => activeList(),
    acknowledge: (ids, user) => mutate((e) => acknowledge(e, ids, user, deps.now())),
    unacknowledge: (ids) => mutate((e) => unacknowledge(e, ids)),
    clear: (ids) => mutate((e) => clearAlerts(e, ids, deps.now())),
    history: (filter, page) => history.query(filter, page, deps.now()),
    summary: (filter, bucketMs) => history.summary(filter, bucketMs, deps.now()),
    clearHistory: () => history.clear(),
    pruneHistory: prune,
    onTransition(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    stats: () => ({ ...figures, slices: slices.count, longestSliceMs: slices.longestMs }),
    settled: () =>
      new Promise<void>((resolve) => {
        const check = () => (pending || !evaluations.idle() ? setImmediate(check) : resolve())
        check()
      }),
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
      // A collector that lost its lease finishes the step it started, as one transaction would
      // have; a poll not evaluated yet is left to the collector that takes over.
      evaluations.clear()
      flush()
      if (timer) clearInterval(timer)
      timer = null
    },
    reload() {
      evaluations.clear()
      flush()
      config = loadConfig(repo, log)
      engine = createEngineState(persistence.load(deps.now()))
    },
    close() {
      evaluations.clear()
      flush()
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
