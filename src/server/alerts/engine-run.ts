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
// - lastSeen is refreshed when the alert changes and otherwise every LAST_SEEN_REFRESH_MS, so a
//   steady estate (thousands of powered-off guests) does not rewrite identical alerts every poll.
import type {
  Alert,
  AlertConfig,
  AlertEndReason,
  AlertLevel,
  AlertMetric,
  AlertMetadata,
  AlertType,
  ResolvedAlert,
  ResourceClass,
} from '../../shared/model/alerts.ts'
import type { EngineState, FlapRecord, PendingCondition, Transition } from './engine-types.ts'
import { RECENTLY_RESOLVED_MAX, RECENTLY_RESOLVED_MS } from './engine-types.ts'
import { metricMessage } from './alert-ids.ts'
import { indexByResource, toResolved, withoutMarks } from './resource-index.ts'

export const LAST_SEEN_REFRESH_MS = 5 * 60 * 1000
const MINUTE = 60_000

/** What one poll says about one alert id. Built only for resources with trouble. */
export interface Observation {
  id: string
  klass: ResourceClass
  /** The metric or alert type, for metricTimeThresholds. */
  delayKey: string
  /** The metric, class or resource is switched off: an existing alert resolves as 'disabled'. */
  disabled?: boolean
  /** The condition holds (value >= trigger, or the state is bad). */
  on: boolean
  /** The condition is gone (value <= clear); between clear and trigger a metric is neither. */
  off: boolean
  value: number
  threshold: number
  clear?: number
  level: AlertLevel
  /** Metric alerts take part in re-fire suppression and keep a peak. */
  metric: boolean
  type: AlertType
  resourceId: string
  resourceName: string
  node: string
  instance: string
  /** null: a metric message, built from type, value and metadata when an alert is written. */
  message: string | null
  metadata: AlertMetadata
}

export class EngineRun {
  readonly byResource: Map<string, Alert[]>
  readonly guestVmids: Set<number> | null
  readonly guestFlags: Uint8Array | null
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
  private resolvedOut: Map<string, { at: number; value: number }> | null = null
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
      else this.update(existing, o)
      return
    }
    if (o.disabled || !o.on) return
    const pending = this.prev.pending.size === 0 ? undefined : this.prev.pending.get(o.id)
    const since = pending ? pending.since : this.cond
    const waited = this.cond - since
    if (waited < this.delayMs(o.klass, o.delayKey) || this.suppressed(o, since)) {
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
      if (this.countRecent(record) + 1 > this.config.flapping.threshold) {
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
    const startTime = this.iso(since)
    const message = this.message(o)
    // Two literals rather than a conditional spread (slow per call); the same key order.
    const alert: Alert = held
      ? {
          id: o.id,
          type: o.type,
          level: o.level,
          resourceId: o.resourceId,
          resourceName: o.resourceName,
          node: o.node,
          instance: o.instance,
          message,
          value: o.value,
          threshold: o.threshold,
          peak: o.value,
          startTime,
          lastSeen: this.condIso,
          acknowledged: false,
          flapping: true,
          metadata: o.metadata,
        }
      : {
          id: o.id,
          type: o.type,
          level: o.level,
          resourceId: o.resourceId,
          resourceName: o.resourceName,
          node: o.node,
          instance: o.instance,
          message,
          value: o.value,
          threshold: o.threshold,
          peak: o.value,
          startTime,
          lastSeen: this.condIso,
          acknowledged: false,
          metadata: o.metadata,
        }
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
    // Spelled out for the engine's own alerts (no acknowledgement fields, metadata set): a spread
    // costs several times as much and every open alert whose value moved is rewritten per poll.
    // Same keys, same order as the spread.
    const next: Alert =
      existing.ackTime === undefined &&
      existing.ackUser === undefined &&
      existing.metadata !== undefined
        ? {
            id: existing.id,
            type: existing.type,
            level: o.level,
            resourceId: existing.resourceId,
            resourceName: existing.resourceName,
            node: existing.node,
            instance: existing.instance,
            message,
            value: o.value,
            threshold: o.threshold,
            peak,
            startTime: existing.startTime,
            lastSeen: this.condIso,
            acknowledged: existing.acknowledged,
            metadata: o.metadata,
          }
        : {
            ...withoutMarks(existing),
            level: o.level,
            value: o.value,
            threshold: o.threshold,
            message,
            peak,
            lastSeen: this.condIso,
            metadata: o.metadata,
          }
    if (isFlapping) next.flapping = true // after the spread's keys, as a conditional spread put it
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

  private delayMs(klass: ResourceClass, key: string): number {
    const per = this.config.metricTimeThresholds[klass]
    const seconds =
      per?.[key] ??
      per?.[key.toLowerCase()] ??
      per?.default ??
      this.config.timeThresholds[klass] ??
      this.config.timeThreshold
    return Math.max(0, seconds) * 1000
  }

  private suppressed(o: Observation, since: number): boolean {
    if (!o.metric) return false
    const last = (this.resolvedOut ?? this.prev.lastResolved).get(o.id)
    if (!last) return false
    const windowEnd = last.at + this.config.suppressionWindow * MINUTE
    // A condition held through the whole window is reported, with its true start.
    if (this.cond >= windowEnd || since < last.at) return false
    return o.value < last.value + this.config.minimumDelta
  }

  /** How many of the record's changes fall within the flapping window. */
  private countRecent(record: FlapRecord | undefined): number {
    if (!record) return 0
    const from = this.cond - this.config.flapping.window * MINUTE
    const changes = record.changes
    let count = 0
    for (let i = 0; i < changes.length; i++) if (changes[i]! > from) count++
    return count
  }

  /** Record a fire or resolve of `id`; true when the id is (now) held as flapping. */
  private recordChange(id: string): boolean {
    const flap = this.config.flapping
    if (!flap.enabled) return false
    if (!this.flapOut) this.flapOut = new Map(this.prev.flapping)
    const record = this.flapOut.get(id)
    // One array per change: the recent changes and this one (no filter-then-spread copy).
    const from = this.cond - flap.window * MINUTE
    const changes: number[] = []
    if (record) for (const t of record.changes) if (t > from) changes.push(t)
    changes.push(this.cond)
    let heldUntil = record?.heldUntil ?? 0
    if (changes.length > flap.threshold && heldUntil <= this.cond) {
      heldUntil = this.cond + flap.suppression * MINUTE
    }
    this.flapOut.set(id, { changes, heldUntil })
    return heldUntil > this.cond
  }

  /** The next engine state; maps that did not change keep their identity. */
  finish(lastPoll: number): EngineState {
    const prev = this.prev
    let pending = prev.pending
    if (this.pendingOut) {
      if (this.pendingChanged || this.pendingOut.size !== prev.pending.size)
        pending = this.pendingOut
    } else if (prev.pending.size > 0) pending = new Map()
    return {
      active: this.activeOut ?? prev.active,
      pending,
      flapping: this.isPoll ? this.pruneFlaps() : (this.flapOut ?? prev.flapping),
      lastResolved: this.isPoll ? this.pruneResolved() : (this.resolvedOut ?? prev.lastResolved),
      recentlyResolved: this.recent(),
      lastPoll,
    }
  }

  private pruneFlaps(): ReadonlyMap<string, FlapRecord> {
    const map = this.flapOut ?? this.prev.flapping
    const from = this.cond - this.config.flapping.window * MINUTE
    let out: Map<string, FlapRecord> | null = null
    for (const [id, record] of map) {
      const last = record.changes[record.changes.length - 1] ?? 0
      if (record.heldUntil > this.cond || last > from) continue
      out ??= new Map(map)
      out.delete(id)
    }
    return out ?? map
  }

  private pruneResolved(): ReadonlyMap<string, { at: number; value: number }> {
    const map = this.resolvedOut ?? this.prev.lastResolved
    const from = this.cond - this.config.suppressionWindow * MINUTE
    let out: Map<string, { at: number; value: number }> | null = null
    for (const [id, entry] of map) {
      if (entry.at > from) continue
      out ??= new Map(map)
      out.delete(id)
    }
    return out ?? map
  }

  private recent(): readonly ResolvedAlert[] {
    const prev = this.prev.recentlyResolved
    const from = this.now - RECENTLY_RESOLVED_MS
    const oldest = prev[prev.length - 1]
    const expired = oldest !== undefined && Date.parse(oldest.resolvedTime) < from
    if (this.resolved.length === 0 && !expired) return prev
    // Newest first: this evaluation's resolutions (last first), then the previous ones still
    // within RECENTLY_RESOLVED_MS; only the newest RECENTLY_RESOLVED_MAX are looked at.
    const out: ResolvedAlert[] = []
    const resolved = this.resolved
    for (let i = resolved.length - 1; i >= 0 && out.length < RECENTLY_RESOLVED_MAX; i--) {
      out.push(resolved[i]!)
    }
    for (let i = 0; i < prev.length && out.length < RECENTLY_RESOLVED_MAX; i++) {
      const r = prev[i]!
      if (Date.parse(r.resolvedTime) >= from) out.push(r)
    }
    return out
  }
}
