// The alert engine: a pure `evaluate(state, config, now, previous)`. No I/O, no clock: the service
// persists `next`, publishes the transitions and hands `next` back on the following poll.
//
// Truth rules (tests in tests/unit/server/alerts/truth.test.ts):
// (a) missing or stale data never resolves: alerts of a guest whose status is unknown, whose node
//     is down or whose instance is unhealthy are held (stale: true, value frozen); a resource absent
//     from the state keeps its alerts unless its source answered (connectionHealth true), in which
//     case they resolve as 'removed'.
// (b) a guest that is not running has no metric alerts ('stopped').
// (c) a config save is not an event: see engine-run.ts (the same poll is replayed).
// (d) acknowledgement is carried by every update and lost only with the alert.
// (e) ids are pure functions of resource identity and condition (alert-ids.ts).
// aggregation and ioNormalization are stored-only settings: the engine does not read them.
import type { Alert, AlertConfig } from '../../shared/model/alerts.ts'
import type { State } from '../../shared/model/state.ts'
import { getThresholdResolver } from '../../shared/views/alert-thresholds.ts'
import { EngineRun } from './engine-run.ts'
import type { EngineState, EvaluateResult } from './engine-types.ts'
import { evaluateGuests } from './evaluate-guests.ts'
import {
  evaluateNodes,
  evaluatePbs,
  evaluatePhysicalDisks,
  evaluateStorage,
} from './evaluate-infra.ts'
import { evaluateBackups } from './evaluate-backups.ts'
import { createFreshness, type Freshness } from './freshness.ts'
import { createGuestRuleLookup } from './guest-rule-cache.ts'
import { isBackupAlert } from './resource-index.ts'

const OFFLINE_TYPES = new Set(['connectivity', 'offline', 'powered-off'])
/** Guests evaluated between two yields of evaluateSteps. */
const GUEST_STEP = 5_000

/** Evaluate one poll (or re-evaluate it under a new config) against the previous engine state. */
export function evaluate(
  state: State,
  config: AlertConfig,
  now: number,
  previous: EngineState,
): EvaluateResult {
  const steps = evaluateSteps(state, config, now, previous)
  for (;;) {
    const step = steps.next()
    if (step.done) return step.value
  }
}

/**
 * evaluate() as a generator that yields between steps of a few thousand guests (issue 27: at
 * 100,000 guests with their backup summaries one evaluation took seconds of the event loop).
 * The result equals evaluate()'s as long as `state`, `config` and `previous` are not changed
 * while it runs: the service drops a run when the engine changes under it (service.ts).
 */
export function* evaluateSteps(
  state: State,
  config: AlertConfig,
  now: number,
  previous: EngineState,
): Generator<void, EvaluateResult, void> {
  const pollTime = state.lastUpdate > 0 ? state.lastUpdate : now
  const isPoll = state.lastUpdate === 0 || state.lastUpdate !== previous.lastPoll
  const run = new EngineRun(previous, config, now, pollTime, isPoll)
  const fresh = createFreshness(state)
  if (config.enabled) {
    const resolver = getThresholdResolver(config)
    if (!config.disableAllGuests) {
      const rules = createGuestRuleLookup(resolver)
      for (const guests of [state.vms, state.containers]) {
        for (let from = 0; from < guests.length; from += GUEST_STEP) {
          const to = Math.min(guests.length, from + GUEST_STEP)
          evaluateGuests(run, guests, resolver, rules, fresh, from, to)
          if (to < guests.length) yield
        }
      }
    }
    if (!config.disableAllNodes) {
      evaluateNodes(run, state.nodes, resolver, fresh)
      evaluatePhysicalDisks(run, state.physicalDisks, resolver, fresh)
    }
    if (!config.disableAllPBS) evaluatePbs(run, state.pbs, resolver, fresh)
    if (!config.disableAllStorage) evaluateStorage(run, state.storage, resolver, fresh)
    // Issue 26: backup kinds have their own switches (config.backups), not the class toggles.
    if (config.backups?.enabled) yield* evaluateBackups(run, state, fresh)
  }
  settleUnvisited(run, config, fresh)
  const next = run.finish(isPoll ? state.lastUpdate : previous.lastPoll)
  const unchanged =
    next.active === previous.active &&
    next.pending === previous.pending &&
    next.flapping === previous.flapping &&
    next.lastResolved === previous.lastResolved &&
    next.recentlyResolved === previous.recentlyResolved &&
    next.lastPoll === previous.lastPoll
  return { next: unchanged ? previous : next, transitions: run.transitions }
}

/** Alerts no evaluator looked at: their resource is absent, or their class or the engine is off. */
function settleUnvisited(run: EngineRun, config: AlertConfig, fresh: Freshness): void {
  const active = run.prev.active
  // `touched` holds only ids of the previous active map: equal sizes mean every alert was seen.
  if (run.touched.size === active.size) return
  if (run.touched.size > active.size) {
    let all = true
    for (const id of active.keys()) if (!run.touched.has(id)) all = false
    if (all) return
  }
  for (const alert of active.values()) {
    if (run.touched.has(alert.id)) continue
    if (!config.enabled || classDisabled(alert, config)) run.resolve(alert, 'disabled')
    else if (fresh.sourceHealthy(sourceKey(alert))) run.resolve(alert, 'removed')
    else run.holdStale(alert)
  }
}

/** The connectionHealth key of an alert's source: the PBS id, else the PVE instance. */
function sourceKey(alert: Alert): string {
  return alert.metadata?.resourceType === 'PBS' ? alert.resourceId : alert.instance
}

function classDisabled(alert: Alert, config: AlertConfig): boolean {
  if (isBackupAlert(alert)) return !backupKindOn(alert, config)
  const offline = OFFLINE_TYPES.has(alert.type)
  switch (alert.metadata?.resourceType) {
    case 'VM':
    case 'Container':
      return config.disableAllGuests || (offline && config.disableAllGuestsOffline)
    case 'Node':
    case 'Disk':
      return config.disableAllNodes || (offline && config.disableAllNodesOffline)
    case 'PBS':
      return config.disableAllPBS || (offline && config.disableAllPBSOffline)
    case 'Storage':
      return config.disableAllStorage
    default:
      return false
  }
}

/** Issue 26: the backup kind is switched on in the defaults (a per-resource off is seen by the evaluators). */
function backupKindOn(alert: Alert, config: AlertConfig): boolean {
  const b = config.backups
  if (!b?.enabled) return false
  switch (alert.type) {
    case 'backup-failed':
      return b.failedJobs
    case 'pbs-job-failed':
    case 'pbs-job-overdue':
      return b.pbsJobs
    case 'backup-verify-failed':
      return b.verification
    case 'backup-orphaned':
      return b.orphaned
    default:
      return true
  }
}
