// Guest alerts: metrics of running guests (cpu, memory, disk, I/O in MB/s, each filesystem) and
// powered-off. The hot loop of the engine: at 100,000 guests a guest without trouble costs a
// threshold lookup and a few comparisons, and allocates nothing.
import { GUEST_METRICS, type Alert, type GuestMetric } from '../../shared/model/alerts.ts'
import type { Guest, GuestDisk } from '../../shared/model/state.ts'
import type { GuestThresholds, ThresholdResolver } from '../../shared/views/alert-thresholds.ts'
import { filesystemAlertId, filesystemKey, metricAlertId, poweredOffId } from './alert-ids.ts'
import type { EngineRun } from './engine-run.ts'
import {
  blankObservation,
  blankPlace,
  fillMetricObservation,
  metricObservation,
  stateObservation,
  type Observation,
  type Place,
} from './observations.ts'
import type { Freshness } from './freshness.ts'
import type { GuestRuleLookup } from './guest-rule-cache.ts'

const MB = 1_048_576

/** Percent used of a guest filesystem, or -1 when unknown. */
export function filesystemUsage(disk: GuestDisk): number {
  const usage = disk.usage
  if (typeof usage === 'number' && usage >= 0) return usage
  return disk.total > 0 ? (disk.used / disk.total) * 100 : -1
}

/** A guest metric's alert value, or -1 when the guest does not report it. */
function readValue(guest: Guest, metric: GuestMetric): number {
  switch (metric) {
    case 'cpu':
      return guest.cpu * 100
    case 'memory':
      return guest.memory ? guest.memory.usage : -1
    case 'disk':
      return guest.disk && guest.disk.usage >= 0 ? guest.disk.usage : -1
    default:
      return guest[metric] >= 0 ? guest[metric] / MB : -1
  }
}

/** The index of the first open alert of this type (a filesystem one or not), or -1. */
function findOpen(
  existing: readonly Alert[] | undefined,
  type: string,
  filesystem: boolean,
): number {
  if (!existing) return -1
  for (let i = 0; i < existing.length; i++) {
    const alert = existing[i]!
    if (alert.type === type && (alert.metadata?.mountpoint !== undefined) === filesystem) return i
  }
  return -1
}

/** The index of the guest's open alert with this id, or -1. */
function findId(existing: readonly Alert[] | undefined, id: string): number {
  if (!existing) return -1
  for (let i = 0; i < existing.length; i++) if (existing[i]!.id === id) return i
  return -1
}

/** `id === metricAlertId(resourceId, metric)`, without building the id string. */
function isMetricId(id: string, resourceId: string, metric: string): boolean {
  const n = resourceId.length
  return (
    id.length === n + 1 + metric.length &&
    id.charCodeAt(n) === 45 && // '-'
    id.startsWith(resourceId) &&
    id.endsWith(metric)
  )
}

/** Bit i: the guest's open alert i was observed (lists longer than 31 fall back to `touched`). */
const bit = (i: number): number => (i < 31 ? 1 << i : 0)

/**
 * Scratch objects of one evaluateGuests call: the place of the guest being evaluated and its
 * metric observation, refilled per guest and per metric (observe() keeps neither), so a storm of
 * thousands of guests allocates only what it stores: alerts, ids, messages, transitions.
 */
interface Scratch {
  place: Place
  o: Observation
}

function createScratch(): Scratch {
  return { place: blankPlace(), o: blankObservation() }
}

function placeOf(scratch: Scratch, guest: Guest): Place {
  const place = scratch.place
  place.resourceId = guest.id
  place.resourceName = guest.name
  place.node = guest.node
  place.instance = guest.instance
  place.resourceType = guest.type === 'qemu' ? 'VM' : 'Container'
  return place
}

/** Evaluate the guests of one collection (vms or containers), all or those from `from` to `to`. */
export function evaluateGuests(
  run: EngineRun,
  guests: readonly Guest[],
  resolver: ThresholdResolver,
  /** The guests' custom rules, remembered between polls; null: no enabled rules. */
  rules: GuestRuleLookup | null,
  fresh: Freshness,
  from = 0,
  to = guests.length,
): void {
  const byResource = run.byResource
  const anyAlerts = byResource.size > 0
  const vmids = run.guestVmids
  const flags = run.guestFlags
  const flagCount = flags === null ? 0 : flags.length
  // Without rules or overrides every guest has the same thresholds: no per-guest resolver call.
  // With them, a running guest below the lowest trigger any of them sets exceeds nothing under
  // whichever applies: its thresholds are looked up only when it is over one or has alerts.
  const uniform = resolver.uniformGuest()
  const uDisabled = uniform !== null && uniform.disabled
  const tr = uniform !== null ? uniform.triggers : resolver.lowestGuestTriggers
  const thresholdsOf = (guest: Guest): GuestThresholds =>
    uniform ?? (rules === null ? resolver.guest(guest) : rules.thresholds(guest))
  const cpuT = tr.cpu
  const memoryT = tr.memory
  const diskT = tr.disk
  const readT = tr.diskRead * MB
  const writeT = tr.diskWrite * MB
  const inT = tr.networkIn * MB
  const outT = tr.networkOut * MB
  const filesystems = diskT !== Infinity
  const scratch = createScratch()
  for (let i = from; i < to; i++) {
    const guest = guests[i]!
    const status = guest.status
    // The common case first: a running guest without trouble and without alerts costs a few
    // comparisons and, when some guest has alerts, a flag (or set) lookup by vmid.
    if (status === 'running') {
      if (!uDisabled) {
        const memory = guest.memory
        const disk = guest.disk
        let over =
          guest.cpu * 100 >= cpuT ||
          (memory && memory.usage >= memoryT) ||
          (disk && disk.usage >= diskT) ||
          guest.diskRead >= readT ||
          guest.diskWrite >= writeT ||
          guest.networkIn >= inT ||
          guest.networkOut >= outT
        if (!over && filesystems) {
          const disks = guest.disks
          if (disks) {
            for (let d = 0; d < disks.length; d++) {
              if (filesystemUsage(disks[d]!) >= diskT) {
                over = true
                break
              }
            }
          }
        }
        if (over) {
          const existing = lookup(run, guest, anyAlerts, vmids, flags, flagCount)
          running(run, fresh, guest, thresholdsOf(guest), existing, scratch)
          continue
        }
      }
      if (!anyAlerts) continue
      const vmid = guest.vmid
      if (
        flags !== null ? vmid < flagCount && flags[vmid] === 1 : vmids === null || vmids.has(vmid)
      ) {
        const existing = byResource.get(guest.id)
        if (existing) running(run, fresh, guest, thresholdsOf(guest), existing, scratch)
      }
      continue
    }
    const existing = lookup(run, guest, anyAlerts, vmids, flags, flagCount)
    const poweredOff = status === 'stopped' && guest.template !== true
    if (!existing && !poweredOff) continue
    if (isStale(fresh, guest)) holdAll(run, existing)
    else evaluateNotRunning(run, guest, thresholdsOf(guest), existing, poweredOff, scratch)
  }
}

/** A running guest with trouble or with alerts. */
function running(
  run: EngineRun,
  fresh: Freshness,
  guest: Guest,
  t: GuestThresholds,
  existing: readonly Alert[] | undefined,
  scratch: Scratch,
): void {
  if (isStale(fresh, guest)) holdAll(run, existing)
  else evaluateRunning(run, guest, t, existing, scratch)
}

/** The guest's open alerts (undefined when none). */
function lookup(
  run: EngineRun,
  guest: Guest,
  anyAlerts: boolean,
  vmids: Set<number> | null,
  flags: Uint8Array | null,
  flagCount: number,
): readonly Alert[] | undefined {
  if (!anyAlerts) return undefined
  const vmid = guest.vmid
  if (flags !== null ? vmid < flagCount && flags[vmid] === 1 : vmids === null || vmids.has(vmid))
    return run.byResource.get(guest.id)
  return undefined
}

/** Missing or stale data never resolves: the guest's status is unknown or its source is down. */
function isStale(fresh: Freshness, guest: Guest): boolean {
  return guest.status === 'unknown' || fresh.isStale(guest.instance, guest.node)
}

function holdAll(run: EngineRun, existing: readonly Alert[] | undefined): void {
  if (existing) for (const alert of existing) run.holdStale(alert)
}

function evaluateNotRunning(
  run: EngineRun,
  guest: Guest,
  t: GuestThresholds,
  existing: readonly Alert[] | undefined,
  poweredOff: boolean,
  scratch: Scratch,
): void {
  if (existing) {
    // A guest that is not running has no metric alerts.
    for (const alert of existing) {
      if (alert.type !== 'powered-off') run.resolve(alert, t.disabled ? 'disabled' : 'stopped')
    }
  }
  const place = placeOf(scratch, guest)
  const label = place.resourceType === 'VM' ? 'VM' : 'Container'
  const disabled = t.disabled || t.disableConnectivity || run.config.disableAllGuestsOffline
  const id = poweredOffId(guest.id)
  // The open powered-off alert, found in the guest's list (no hashing of the fresh id).
  const at = findId(existing, id)
  run.observe(
    stateObservation(
      place,
      id,
      'powered-off',
      poweredOff,
      t.poweredOffSeverity,
      `${label} '${guest.name}' is powered off`,
      disabled,
    ),
    at >= 0 ? existing![at] : undefined,
  )
}

function evaluateRunning(
  run: EngineRun,
  guest: Guest,
  t: GuestThresholds,
  existing: readonly Alert[] | undefined,
  scratch: Scratch,
): void {
  if (t.disabled) {
    if (existing) for (const alert of existing) run.resolve(alert, 'disabled')
    return
  }
  const active = run.prev.active
  const place = placeOf(scratch, guest)
  let seen = 0
  for (const metric of GUEST_METRICS) {
    const value = readValue(guest, metric)
    if (value < 0) continue
    // Ids are built only for a crossing or an open alert of that kind.
    const below = value < t.triggers[metric]
    let at = findOpen(existing, metric, false)
    if (below && at < 0) continue
    // The open alert found in the index is the id's alert when the ids match: then its stored
    // (hashed) id is used and no id string is built.
    if (at >= 0 && !isMetricId(existing![at]!.id, guest.id, metric)) at = -1
    const id = at >= 0 ? existing![at]!.id : metricAlertId(guest.id, metric)
    if (below && at < 0 && !active.has(id)) continue
    run.observe(
      fillMetricObservation(scratch.o, place, id, metric, value, t.pairs[metric]),
      at >= 0 ? existing![at] : undefined,
    )
    if (at >= 0) seen |= bit(at)
  }
  const disks = guest.disks
  if (disks) {
    for (let i = 0; i < disks.length; i++) {
      const disk = disks[i]!
      const value = filesystemUsage(disk)
      if (value < 0) continue
      const below = value < t.triggers.disk
      if (below && findOpen(existing, 'disk', true) < 0) continue
      const id = filesystemAlertId(guest.id, filesystemKey(disk, i))
      const at = findId(existing, id)
      if (below && at < 0 && !active.has(id)) continue
      const extra = disk.device
        ? { mountpoint: disk.mountpoint ?? disk.device, device: disk.device }
        : { mountpoint: disk.mountpoint ?? '' }
      run.observe(
        metricObservation(place, id, 'disk', value, t.pairs.disk, extra),
        at >= 0 ? existing![at] : undefined,
      )
      if (at >= 0) seen |= bit(at)
    }
  }
  if (!existing) return
  for (let i = 0; i < existing.length; i++) {
    const alert = existing[i]!
    if ((seen & bit(i)) !== 0 || run.touched.has(alert.id)) continue
    if (alert.type === 'powered-off') run.resolve(alert, 'resolved')
    else if (alert.metadata?.mountpoint !== undefined && disks && disks.length > 0) {
      run.resolve(alert, 'removed') // the filesystem is gone from a guest that answers
    } else run.holdStale(alert) // the guest does not report this value now
  }
}
