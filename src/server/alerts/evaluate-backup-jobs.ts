// Issue 26: PBS sync, verify, prune and GC job alerts. A job whose last run failed (critical; a run
// that ended with warnings raises it at warning level) or whose next run is past by more than the
// grace with no run since. Resolved by the next good run. An unreachable PBS (health false, or
// not online) holds its job alerts stale and resolves nothing; a job gone from a PBS that answers
// ends as 'removed' (settleUnvisited). Job alerts live on the PBS resource (resourceId = PBS id).
import type { PbsJob } from '../../shared/model/backup-health.ts'
import type { State } from '../../shared/model/state.ts'
import { pbsJobFailedId, pbsJobOverdueId } from './alert-ids.ts'
import { observeBackup, openOf } from './backup-observe.ts'
import type { EngineRun } from './engine-run.ts'
import type { Freshness } from './freshness.ts'
import type { Place } from './observations.ts'

const KIND_LABELS: Record<PbsJob['kind'], string> = {
  sync: 'Sync',
  verify: 'Verify',
  prune: 'Prune',
  gc: 'Garbage collection',
}

/** Some PBS is not answering: its backups and snapshots may be missing from the summaries. */
export function isPbsDown(state: State, fresh: Freshness): boolean {
  for (const pbs of state.pbs) {
    if (pbs.status !== 'online' || pbs.connectionHealth === 'error' || !fresh.sourceUp(pbs.id))
      return true
  }
  return false
}

/** `2026-11-27 21:00 UTC`: a stable time for a message (the alert is not rewritten each poll). */
function utcMinute(epochS: number): string {
  return `${new Date(epochS * 1000).toISOString().slice(0, 16).replace('T', ' ')} UTC`
}

/** Evaluate the job alerts of every PBS job in the state. */
export function evaluateBackupJobs(run: EngineRun, state: State, fresh: Freshness): void {
  const config = run.config
  const nowS = run.cond / 1000
  const graceS = Math.max(0, config.backups.overdueGraceMinutes) * 60
  // A PBS that is not answering may list no jobs at all: its job alerts are held, not removed.
  for (const pbs of state.pbs) {
    if (pbs.status === 'online' && pbs.connectionHealth !== 'error' && fresh.sourceUp(pbs.id))
      continue
    for (const alert of run.backups.get(pbs.id) ?? []) {
      if (alert.type === 'pbs-job-failed' || alert.type === 'pbs-job-overdue') run.holdStale(alert)
    }
  }
  for (const job of state.pbsJobs) {
    const existing = run.backups.get(job.pbs)
    const failedOpen = openOf(existing, 'pbs-job-failed', pbsJobFailedId(job.id))
    const overdueOpen = openOf(existing, 'pbs-job-overdue', pbsJobOverdueId(job.id))
    const pbs = state.pbs.find((p) => p.id === job.pbs)
    const down =
      !fresh.sourceUp(job.pbs) ||
      (pbs !== undefined && (pbs.status !== 'online' || pbs.connectionHealth === 'error'))
    if (down) {
      if (failedOpen) run.holdStale(failedOpen)
      if (overdueOpen) run.holdStale(overdueOpen)
      continue
    }
    const override = config.overrides[job.pbs]
    const disabled =
      !config.backups.pbsJobs || override?.backup?.enabled === false || override?.disabled === true
    const place: Place = {
      resourceId: job.pbs,
      resourceName: job.instance,
      node: job.instance,
      instance: job.instance,
      resourceType: 'PBS',
      klass: 'pbs',
    }
    const what = `PBS ${job.instance}: ${KIND_LABELS[job.kind]} job '${job.jobId}' (datastore ${job.store})`
    const run0 = job.lastRun
    const state0 = run0?.state
    const bad = state0 === 'failed' || state0 === 'warning'
    observeBackup(run, place, failedOpen, 'pbs-job-failed', pbsJobFailedId, job.id, {
      on: bad,
      // Running or unknown decides nothing: the failed alert stays until a good run.
      off: state0 === 'ok',
      disabled,
      level: state0 === 'warning' ? 'warning' : 'critical',
      value: 0,
      threshold: 0,
      message:
        state0 === 'warning'
          ? `${what} ended with warnings (${run0!.status})`
          : `${what} failed${run0?.status ? ` (${run0.status})` : ''}`,
    })
    const lastStart = run0?.startTime ?? 0
    const overdue =
      job.enabled &&
      job.schedule !== '' &&
      job.nextRun > 0 &&
      nowS > job.nextRun + graceS &&
      lastStart < job.nextRun &&
      state0 !== 'running'
    observeBackup(run, place, overdueOpen, 'pbs-job-overdue', pbsJobOverdueId, job.id, {
      on: overdue,
      off: !overdue,
      disabled,
      level: 'warning',
      value: overdue ? Math.round((nowS - job.nextRun) / 60) : 0,
      threshold: config.backups.overdueGraceMinutes,
      message: `${what} is overdue: due ${utcMinute(job.nextRun)}, no run since`,
    })
  }
}
