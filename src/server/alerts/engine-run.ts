// One evaluation's bookkeeping: copy-on-write views of the engine state, the observe → pending →
// fire → update → resolve cycle of one alert id, flapping and re-fire suppression. Pure.
//
// Behaviour where the spec leaves room (each has a test in tests/unit/server/alerts):
// - Condition time: delays, startTime and lastSeen use the poll's time (state.lastUpdate, or `now`
//   when it is 0), so evaluating the same poll again with a new config (a config save) replays that
//   poll: it fires only what that poll would have fired under the new config, and it records no
//   flapping change.
// - minimumDelta / suppressionWindow: within suppressionWindow minutes of a metric alert resolving,
//   a re-crossing that is not at least minimumDelta above the resolved alert's peak stays pending
//   until the window ends (then it fires with its true startTime if it still holds). A worse value
//   fires at once. Nothing is hidden for longer than the window.
// - Flapping: more than `threshold` fire/resolve changes of one id within `window` minutes hold it
//   active as one alert (flapping: true) for `suppression` minutes; a condition that is gone when
//   the hold ends resolves then. minStability is stored only.
// - Thresholds changed under an open metric alert (a config save, or the guest now matches another
//   rule): the alert resolves when its value is below the trigger now in force, even above the
//   clear level; it stays (with the new threshold) when the value still meets the trigger.
// - lastSeen is refreshed when the alert changes and otherwise every LAST_SEEN_REFRESH_MS, so a
//   steady estate (thousands of powered-off guests) does not rewrite identical alerts every poll.
import type {
  Alert,
  AlertConfig,
  AlertEndReason,
  AlertMetric,
  ResolvedAlert,
} from '../../shared/model/alerts.ts'
import type { EngineState, FlapRecord, PendingCondition, Transition } from './engine-types.ts'
import { metricMessage } from './alert-ids.ts'
import { firedAlert, toResolved, updatedAlert } from './alert-build.ts'
import {
  countRecent,
  delayMs,
  isSuppressed,
  nextFlapRecord,
  pruneFlaps,
  pruneResolved,
  recentResolved,
  type LastResolved,
} from './engine-memory.ts'
import type { Observation } from './observations.ts'
import { indexByResource } from './resource-index.ts'

export const LAST_SEEN_REFRESH_MS = 5 * 60 * 1000

export class EngineRun {
  readonly byResource: Map<string, Alert[]>
  readonly guestVmids: Set<number> | null
  readonly guestFlags: Uint8Array | null
  /** Issue 26: open backup alerts by resource id, and their guests' vmids (resource-index.ts). */
  readonly backups: Map<string, Alert[]>
  readonly backupVmids: Set<number> | null
  readonly backupFlags: Uint8Array | null
  readonly touched = new Set<string>()
  readonly transitions: Transition[] = []
  readonly resolved: ResolvedAlert[] = []
  readonly condIso: string
  readonly nowIso: string
  /** This evaluation's poll crossed a lastSeen refresh boundary. */
  readonly refreshTick: boolean
  private activeOut: Map<string, Alert> | null = null
  private pendingOut: Map<string, PendingCondition> | null = null
  private pendingChanged = false
  private flapOut: Map<string, FlapRecord> | null = null
  private resolvedOut: Map<string, LastResolved> | null = null
  /** The last ISO string formatted other than condIso / nowIso (pending starts repeat). */
  private isoTime = Number.NaN
  private isoText = ''

  constructor(
    readonly prev: EngineState,
    readonly config: AlertConfig,
    readonly now: number,
    /** The poll's time: state.lastUpdate, or now. */
    readonly cond: number,
    /** False when this poll was evaluated before (a config save). */
    readonly isPoll: boolean,
  ) {
    const index = indexByResource(prev.active)
    this.byResource = index.byResource
    this.guestVmids = index.guestVmids
    this.guestFlags = index.guestFlags
    this.backups = index.backups
    this.backupVmids = index.backupVmids
    this.backupFlags = index.backupFlags
    this.condIso = new Date(cond).toISOString()
    this.nowIso = now === cond ? this.condIso : new Date(now).toISOString()
    this.refreshTick =
      isPoll &&
      Math.floor(cond / LAST_SEEN_REFRESH_MS) !== Math.floor(prev.lastPoll / LAST_SEEN_REFRESH_MS)
  }

  /**
   * Process one observation of an alert id. `known`: the caller already found the id's open alert
   * in the resource index (null: it has none), which saves hashing a freshly built id.
   */
  observe(o: Observation, known?: Alert | null): void {
    const existing = known !== undefined ? known : this.prev.active.get(o.id)
    if (existing) {
      // The stored id is equal and already hashed: use it for every map below.
      o.id = existing.id
      this.touched.add(o.id)
      if (o.disabled) this.resolveTouched(existing, 'disabled')
      else if (o.off) this.tryResolve(existing, o)
      else if (!o.on && o.metric && existing.threshold !== o.threshold) {
        // Raised under another trigger (a config save, another rule) and below the one in force
        // now: it no longer meets the thresholds. Hysteresis holds an alert only under the trigger
        // it fired at.
        this.resolveTouched(existing, 'resolved')
      } else this.update(existing, o)
      return
    }
    if (o.disabled || !o.on) return
    const pending = this.prev.pending.size === 0 ? undefined : this.prev.pending.get(o.id)
    const since = pending ? pending.since : this.cond
    const waited = this.cond - since
    if (
      waited < delayMs(this.config, o.klass, o.delayKey) ||
      (o.metric && this.suppressed(o, since))
    ) {
      this.keepPending(o.id, pending ?? { since, value: o.value })
      return
    }
    this.fire(o, since)
  }

  /** Keep an alert whose source is not answering, as it was, marked stale. */
  holdStale(alert: Alert): void {
    this.touched.add(alert.id)
    if (alert.stale) return
    this.set({ ...alert, stale: true })
  }

  /** Keep an alert exactly as it is this evaluation (its data is not in yet): not settled. */
  keep(alert: Alert): void {
    this.touched.add(alert.id)
  }

  resolve(alert: Alert, reason: AlertEndReason): void {
    this.touched.add(alert.id)
    this.resolveTouched(alert, reason)
  }

  /** resolve() of an alert already in `touched`. */
  private resolveTouched(alert: Alert, reason: AlertEndReason): void {
    if (!this.activeOut) this.activeOut = new Map(this.prev.active)
    this.activeOut.delete(alert.id)
    const resolved = toResolved(alert, this.nowIso, reason)
    this.resolved.push(resolved)
    this.transitions.push({ kind: 'resolved', alert: resolved, at: this.now, reason })
    if (reason !== 'resolved') return
    // Without a suppression window a poll's entry is pruned in finish() and never read: skip it.
    if (!this.isPoll || this.config.suppressionWindow > 0) {
      if (!this.resolvedOut) this.resolvedOut = new Map(this.prev.lastResolved)
      this.resolvedOut.set(alert.id, { at: this.cond, value: alert.peak })
    }
    if (this.isPoll) this.recordChange(alert.id)
  }

  private tryResolve(existing: Alert, o: Observation): void {
    const record = (this.flapOut ?? this.prev.flapping).get(o.id)
    if (record && record.heldUntil > 0 && record.heldUntil <= this.cond) {
      // The hold is over and the condition is gone: resolve, and start counting afresh.
      if (!this.flapOut) this.flapOut = new Map(this.prev.flapping)
      this.flapOut.set(o.id, { changes: [], heldUntil: 0 })
      this.resolveTouched(existing, 'resolved')
      return
    }
    if (this.config.flapping.enabled && this.isPoll && !record?.heldUntil) {
      // Would this resolution make the id flap? Then hold it instead.
      if (countRecent(this.config, record, this.cond) + 1 > this.config.flapping.threshold) {
        this.recordChange(o.id)
        this.update(existing, { ...o, level: existing.level }, true)
        return
      }
    }
    if (record && record.heldUntil > this.cond) {
      this.update(existing, { ...o, level: existing.level }, true)
      return
    }
    this.resolveTouched(existing, 'resolved')
  }

  private fire(o: Observation, since: number): void {
    const held = this.config.flapping.enabled && this.isPoll && this.recordChange(o.id)
    const alert = firedAlert(o, this.message(o), this.iso(since), this.condIso, held)
    // Not added to `touched`: that set is asked only about alerts of the previous active map.
    this.set(alert)
    this.transitions.push({ kind: 'fired', alert, at: this.now })
  }

  private update(existing: Alert, o: Observation, flapping = false): void {
    const record = (this.flapOut ?? this.prev.flapping).get(o.id)
    const isFlapping = flapping || (record !== undefined && record.heldUntil > this.cond)
    const peak = o.value > existing.peak ? o.value : existing.peak
    const message = this.message(o)
    const same =
      existing.value === o.value &&
      existing.level === o.level &&
      existing.threshold === o.threshold &&
      existing.message === message &&
      existing.peak === peak &&
      existing.stale !== true &&
      (existing.flapping === true) === isFlapping &&
      existing.metadata?.clearThreshold === o.metadata.clearThreshold
    if (same && (!this.refreshTick || existing.lastSeen === this.condIso)) return
    const next = updatedAlert(existing, o, message, peak, this.condIso, isFlapping)
    this.set(next)
    if (existing.level === 'warning' && o.level === 'critical') {
      this.transitions.push({ kind: 'escalated', alert: next, at: this.now })
    }
  }

  /** The observation's message; a metric one is built here, when an alert is written. */
  private message(o: Observation): string {
    if (o.message !== null) return o.message
    const metadata = o.metadata
    return (o.message = metricMessage(
      metadata.resourceType,
      o.type as AlertMetric,
      o.value,
      metadata.mountpoint,
    ))
  }

  private set(alert: Alert): void {
    if (!this.activeOut) this.activeOut = new Map(this.prev.active)
    this.activeOut.set(alert.id, alert)
  }

  /** An ISO time string, formatted once per evaluation for the poll's and the evaluation's time. */
  private iso(time: number): string {
    if (time === this.cond) return this.condIso
    if (time === this.now) return this.nowIso
    if (time !== this.isoTime) {
      this.isoTime = time
      this.isoText = new Date(time).toISOString()
    }
    return this.isoText
  }

  private keepPending(id: string, pending: PendingCondition): void {
    if (!this.pendingOut) this.pendingOut = new Map()
    if (this.prev.pending.get(id) !== pending) this.pendingChanged = true
    this.pendingOut.set(id, pending)
  }

  private suppressed(o: Observation, since: number): boolean {
    const last = (this.resolvedOut ?? this.prev.lastResolved).get(o.id)
    return isSuppressed(this.config, o, since, this.cond, last)
  }

  /** Record a fire or resolve of `id`; true when the id is (now) held as flapping. */
  private recordChange(id: string): boolean {
    if (!this.config.flapping.enabled) return false
    if (!this.flapOut) this.flapOut = new Map(this.prev.flapping)
    const record = nextFlapRecord(this.config, this.flapOut.get(id), this.cond)
    this.flapOut.set(id, record)
    return record.heldUntil > this.cond
  }

  /** The next engine state; maps that did not change keep their identity. */
  finish(lastPoll: number): EngineState {
    const prev = this.prev
    let pending = prev.pending
    if (this.pendingOut) {
      if (this.pendingChanged || this.pendingOut.size !== prev.pending.size)
        pending = this.pendingOut
    } else if (prev.pending.size > 0) pending = new Map()
    const flapping = this.flapOut ?? prev.flapping
    const lastResolved = this.resolvedOut ?? prev.lastResolved
    return {
      active: this.activeOut ?? prev.active,
      pending,
      flapping: this.isPoll ? pruneFlaps(this.config, flapping, this.cond) : flapping,
      lastResolved: this.isPoll
        ? pruneResolved(this.config, lastResolved, this.cond)
        : lastResolved,
      recentlyResolved: recentResolved(prev.recentlyResolved, this.resolved, this.now),
      lastPoll,
    }
  }
}
