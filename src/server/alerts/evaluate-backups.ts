// Issue 26: backup alerts of guests (age, not backed up, failed backup job, failed verification)
// and the orphaned-backups summary per instance, read from the per-guest backup summaries
// (`state.guestBackups`). PBS job alerts: evaluate-backup-jobs.ts.
//
// Truth rules on top of evaluate.ts's:
// - Until the backups were read once (backupsCollectedAt 0), or while the summaries are not built
//   yet (guestBackups empty while guests exist), every open backup alert is kept as it is.
// - A guest whose instance or node is stale has its backup alerts held (stale), nothing new fires.
// - While some PBS is unreachable its backups may be missing from the summaries: no new age alert
//   fires and no verification alert resolves (a newer backup still resolves an age alert).
// - While an instance's backups are pending (a listing not read yet: state.backupsPending) its
//   guests' missing backups are unknown: no age alert fires or worsens for them, and none of their
//   verification alerts resolves; a newer backup still resolves. A pending PBS counts as one that
//   is unreachable. Without this, the first minutes at 100,000 guests (listings that time out at
//   their first try) fired "never backed up" for most of the estate.
// - A guest gone from the summaries is not visited: settleUnvisited ends its alerts as 'removed'
//   when its instance answered.
//
// Cost: at 100,000 guests a guest without trouble and without an open backup alert costs a few
// comparisons; its limits (override, rules) are looked up only when it could be in trouble under
// the loosest limits any guest has (backup-limits-plan.ts).
import type { Alert, AlertResourceType } from '../../shared/model/alerts.ts'
import type { GuestBackup } from '../../shared/model/backup-health.ts'
import type { Guest, State } from '../../shared/model/state.ts'
import { backupAgeLevel } from '../../shared/views/backup-alert-limits.ts'
import {
  backupAgeId,
  backupAgeMessage,
  backupFailedId,
  backupGuestLabel,
  backupUncoveredId,
  backupVerifyFailedId,
} from './alert-ids.ts'
import { backupLimitsOf, backupLimitsPlan, type BackupLimitsPlan } from './backup-limits-plan.ts'
import { holdBackups, observeBackup, openOf } from './backup-observe.ts'
import type { EngineRun } from './engine-run.ts'
import { evaluateBackupJobs, isPbsDown } from './evaluate-backup-jobs.ts'
import { evaluateOrphans, pendingBackups } from './evaluate-backup-orphans.ts'
import type { Freshness } from './freshness.ts'
import type { Place } from './observations.ts'

const DAY_S = 86_400
const ERROR_MAX = 200
/** Summaries scanned, and guests in trouble evaluated, between two yields (evaluate.ts). */
const SCAN_STEP = 10_000
const GUEST_STEP = 1_000

/**
 * Evaluate every backup alert kind; called when alerts and backup alerts are enabled. A
 * generator: it yields between steps of guests, so the service can run it a slice per turn of
 * the event loop (evaluate.ts).
 */
export function* evaluateBackups(
  run: EngineRun,
  state: State,
  fresh: Freshness,
): Generator<void, void, void> {
  if (!(state.backupsCollectedAt > 0)) {
    keepAll(run, () => true)
    return
  }
  evaluateBackupJobs(run, state, fresh)
  if (state.guestBackups.length === 0 && state.vms.length + state.containers.length > 0) {
    keepAll(run, (alert) => alert.type !== 'pbs-job-failed' && alert.type !== 'pbs-job-overdue')
    return
  }
  yield* evaluateGuestBackups(run, state, fresh)
}

function keepAll(run: EngineRun, which: (alert: Alert) => boolean): void {
  for (const list of run.backups.values())
    for (const alert of list) if (which(alert)) run.keep(alert)
}

interface Context {
  run: EngineRun
  plan: BackupLimitsPlan
  nowS: number
  fresh: Freshness
  pbsDown: boolean
  /** PVE instances whose backups are not all read yet (state.backupsPending). */
  pending: ReadonlySet<string>
}

function* evaluateGuestBackups(
  run: EngineRun,
  state: State,
  fresh: Freshness,
): Generator<void, void, void> {
  const config = run.config
  const cfg = config.backups
  const plan = backupLimitsPlan(config)
  const nowS = run.cond / 1000
  // A newest backup at or before this may be over some guest's age level (0 is never backed up).
  const ageCut = plan.minAgeDays > 0 ? nowS - plan.minAgeDays * DAY_S : -1
  const uncovered = plan.anyNotBackedUp
  const failedOn = cfg.failedJobs
  const verifyOn = cfg.verification
  const open = run.backups
  const anyOpen = open.size > 0
  const flags = run.backupFlags
  const vmids = run.backupVmids
  const flagCount = flags === null ? 0 : flags.length
  const orphans = new Map<string, number>()
  // First pass: the guests with trouble or an open backup alert (few), without allocating.
  const todo: GuestBackup[] = []
  const todoOpen: (Alert[] | undefined)[] = []
  // The live guest of each, for the rules: a summary is at its guest's estate index (vms, then
  // containers) whenever the summaries were built from this poll's guest lists; the few that are
  // not (a build still under way) are looked up by id after the scan.
  const todoGuest: (Guest | undefined)[] = []
  const astray: GuestBackup[] = []
  const { vms, containers } = state
  const list = state.guestBackups
  for (let i = 0; i < list.length; i++) {
    if (i > 0 && i % SCAN_STEP === 0) yield
    const gb = list[i]!
    if (gb.orphaned) {
      orphans.set(gb.instance, (orphans.get(gb.instance) ?? 0) + 1)
      continue
    }
    const template = gb.template === true
    const coverage = gb.coverage
    const job = gb.lastJob
    const trouble =
      (!template && gb.newest <= ageCut && (gb.newest > 0 || coverage === 'enabled')) ||
      (uncovered && !template && (coverage === 'none' || coverage === 'disabled')) ||
      (failedOn && job !== undefined && job.state === 'failed' && gb.newest <= job.time) ||
      (verifyOn && gb.verifyFailed > 0)
    let existing: Alert[] | undefined
    if (anyOpen) {
      const vmid = gb.vmid
      if (
        flags !== null ? vmid < flagCount && flags[vmid] === 1 : vmids === null || vmids.has(vmid)
      )
        existing = open.get(gb.id)
    }
    if (!trouble && !existing) continue
    todo.push(gb)
    todoOpen.push(existing)
    const guest = i < vms.length ? vms[i] : containers[i - vms.length]
    if (guest !== undefined && guest.id === gb.id) todoGuest.push(guest)
    else {
      todoGuest.push(undefined)
      astray.push(gb)
    }
  }
  if (plan.rules.length > 0 && astray.length > 0) {
    const byId = yield* guestsOf(state, astray)
    for (let i = 0; i < todo.length; i++) todoGuest[i] ??= byId.get(todo[i]!.id)
  }
  const pending = pendingBackups(state)
  const ctx: Context = {
    run,
    plan,
    nowS,
    fresh,
    pbsDown: pending.pbs || isPbsDown(state, fresh),
    pending: pending.instances,
  }
  yield
  for (let i = 0; i < todo.length; i++) {
    if (i > 0 && i % GUEST_STEP === 0) yield
    evaluateGuest(ctx, todo[i]!, todoOpen[i], todoGuest[i])
  }
  evaluateOrphans(run, state, fresh, orphans, new Set(state.backupsPending ?? []))
}

/**
 * The live guests of these summaries by id: a vmid flag scan over every guest, and the map holds
 * only the guests asked for (hashing 100,000 ids each poll would cost more). Built in steps: when
 * those are most of the estate it is a whole-estate map, as one step half a second of the loop.
 */
function* guestsOf(
  state: State,
  todo: readonly GuestBackup[],
): Generator<void, Map<string, Guest>, void> {
  let max = 0
  for (const gb of todo) if (gb.vmid > max) max = gb.vmid
  const wanted = new Uint8Array(max + 1)
  for (const gb of todo) if (gb.vmid >= 0) wanted[gb.vmid] = 1
  const map = new Map<string, Guest>()
  let scanned = 0
  for (const collection of [state.vms, state.containers]) {
    for (let i = 0; i < collection.length; i++) {
      if (++scanned % SCAN_STEP === 0) yield
      const g = collection[i]!
      if (g.vmid >= 0 && g.vmid <= max && wanted[g.vmid] === 1) map.set(g.id, g)
    }
  }
  return map
}

/**
 * The open alert needs no write this poll: it is confirmed as it stands (same level, value,
 * threshold and guest name; not stale, not flapping; no lastSeen refresh due). Then it is only
 * marked seen, and no message, place or observation is built: the steady 5 % of a 100,000-guest
 * estate with old backups costs a few comparisons per guest.
 */
function unchanged(
  run: EngineRun,
  open: Alert | null,
  on: boolean,
  undecided: boolean,
  level: string,
  value: number,
  threshold: number,
  name: string,
): boolean {
  if (open === null || open.stale === true || open.flapping === true || run.refreshTick)
    return false
  if (
    undecided ||
    (on &&
      open.level === level &&
      open.value === value &&
      open.threshold === threshold &&
      open.resourceName === name)
  ) {
    run.keep(open)
    return true
  }
  return false
}

function evaluateGuest(
  ctx: Context,
  gb: GuestBackup,
  existing: Alert[] | undefined,
  guest: Guest | undefined,
): void {
  const { run, plan, nowS } = ctx
  if (ctx.fresh.isStale(gb.instance, gb.node)) {
    holdBackups(run, existing)
    return
  }
  const config = run.config
  const limits = backupLimitsOf(config, plan, gb.id, guest)
  const resourceType: AlertResourceType = gb.type === 'qemu' ? 'VM' : 'Container'
  let place: Place | null = null
  let label = ''
  const where = (): Place => {
    if (place === null) {
      label = backupGuestLabel(resourceType, gb.name, gb.vmid)
      place = {
        resourceId: gb.id,
        resourceName: gb.name,
        node: gb.node,
        instance: gb.instance,
        resourceType,
        klass: 'guest',
      }
    }
    return place
  }
  const template = gb.template === true
  const name = gb.name

  // Age. Never backed up counts as over both levels, but only for a guest an enabled job selects:
  // a guest in no job is the 'not backed up' kind (opt-in), so an estate that backs nothing up
  // (or a guest left out on purpose) does not turn every guest critical.
  const ageOpen = openOf(existing, 'backup-age')
  const ageOff =
    !limits.enabled || template || (limits.warningDays <= 0 && limits.criticalDays <= 0)
  const neverInJob = gb.newest > 0 || gb.coverage === 'enabled'
  const level = ageOff || !neverInJob ? null : backupAgeLevel(limits, gb.newest, nowS)
  const ageDays = gb.newest > 0 ? Math.round(((nowS - gb.newest) / DAY_S) * 10) / 10 : null
  const ageThreshold = level === 'critical' ? limits.criticalDays : limits.warningDays
  const ageOn = level !== null && !ageOff
  const pending = ctx.pending.size > 0 && ctx.pending.has(gb.instance)
  if (pending && ageOpen && ageOn) {
    // A backup not read yet may be newer: held as it stands until the listings are in.
    run.keep(ageOpen)
  } else if (
    (ageOpen || (ageOn && !ctx.pbsDown && !pending)) &&
    !unchanged(run, ageOpen, ageOn, false, level ?? '', ageDays ?? 0, ageThreshold, name)
  ) {
    const at = where()
    observeBackup(run, at, ageOpen, 'backup-age', backupAgeId, gb.id, {
      on: level !== null,
      off: level === null,
      disabled: ageOff,
      level: level ?? 'warning',
      value: ageDays ?? 0,
      threshold: ageThreshold,
      message: backupAgeMessage(label, ageDays),
      unit: 'days',
    })
  }

  // Not backed up: in no enabled job. 'unknown' coverage decides nothing.
  const coverage = gb.coverage
  const bare = coverage === 'none' || coverage === 'disabled'
  const uncoveredOpen = openOf(existing, 'backup-uncovered')
  const uncoveredOff = !limits.enabled || !limits.notBackedUp || template
  if (
    (uncoveredOpen || (bare && !uncoveredOff)) &&
    !unchanged(
      run,
      uncoveredOpen,
      bare && !uncoveredOff,
      coverage === 'unknown' && !uncoveredOff,
      'warning',
      0,
      0,
      name,
    )
  ) {
    const at = where()
    observeBackup(run, at, uncoveredOpen, 'backup-uncovered', backupUncoveredId, gb.id, {
      on: bare,
      off: coverage === 'enabled',
      disabled: uncoveredOff,
      level: 'warning',
      value: 0,
      threshold: 0,
      message:
        coverage === 'disabled'
          ? `${label} is only in disabled backup jobs`
          : `${label} is in no backup job`,
    })
  }

  // Failed backup job: resolved by a later successful backup, or by the next job result.
  const failedOpen = openOf(existing, 'backup-failed')
  const job = gb.lastJob
  let failed = false
  let passed = false
  if (job) {
    failed = job.state === 'failed' && gb.newest <= job.time
    passed = !failed && (gb.newest > job.time || job.state === 'ok' || job.state === 'warning')
  } else if (failedOpen) {
    // The task left the task list: only a backup newer than the alert ends it.
    passed = gb.newest * 1000 > Date.parse(failedOpen.startTime)
  }
  const failedOff = !limits.enabled || !config.backups.failedJobs
  if (failedOpen || (failed && !failedOff)) {
    const at = where()
    const error = job?.error ? `: ${truncate(job.error)}` : ''
    observeBackup(run, at, failedOpen, 'backup-failed', backupFailedId, gb.id, {
      on: failed,
      off: passed,
      disabled: failedOff,
      level: 'critical',
      value: 0,
      threshold: 0,
      message: `${label}: backup job failed${error}`,
    })
  }

  // Verification failed (PBS snapshots of this guest).
  const n = gb.verifyFailed
  const verifyOpen = openOf(existing, 'backup-verify-failed')
  const verifyOff = !limits.enabled || !config.backups.verification
  if (verifyOpen || (n > 0 && !verifyOff)) {
    const at = where()
    observeBackup(run, at, verifyOpen, 'backup-verify-failed', backupVerifyFailedId, gb.id, {
      on: n > 0,
      off: n === 0 && !ctx.pbsDown && !pending,
      disabled: verifyOff,
      level: 'critical',
      value: n,
      threshold: 0,
      message: `${label}: ${n} backup${n === 1 ? '' : 's'} failed verification`,
    })
  }
}

function truncate(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim()
  return line.length > ERROR_MAX ? `${line.slice(0, ERROR_MAX - 1)}…` : line
}
