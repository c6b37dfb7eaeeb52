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

/** Evaluate one poll (or re-evaluate it under a new config) against the previous engine state. */
export function evaluate(
  state: State,
  config: AlertConfig,
  now: number,
  previous: EngineState,
): EvaluateResult {
  const pollTime = state.lastUpdate > 0 ? state.lastUpdate : now
  const isPoll = state.lastUpdate === 0 || state.lastUpdate !== previous.lastPoll
  const run = new EngineRun(previous, config, now, pollTime, isPoll)
  const fresh = createFreshness(state)
  if (config.enabled) {
    const resolver = getThresholdResolver(config)
    if (!config.disableAllGuests) {
      const rules = createGuestRuleLookup(resolver)
      evaluateGuests(run, state.vms, resolver, rules, fresh)
      evaluateGuests(run, state.containers, resolver, rules, fresh)
    }
    if (!config.disableAllNodes) {
      evaluateNodes(run, state.nodes, resolver, fresh)
      evaluatePhysicalDisks(run, state.physicalDisks, resolver, fresh)
    }
    if (!config.disableAllPBS) evaluatePbs(run, state.pbs, resolver, fresh)
    if (!config.disableAllStorage) evaluateStorage(run, state.storage, resolver, fresh)
    // Issue 26: backup kinds have their own switches (config.backups), not the class toggles.
    if (config.backups?.enabled) evaluateBackups(run, state, fresh)
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
