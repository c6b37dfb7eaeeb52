// Active alerts grouped by resource, cached per active map: the per-poll loops find a resource's
// open alerts without scanning the whole active map. An evaluation that changes the active map
// derives the next index from the previous one (only the resources it touched are regrouped), so
// a poll that fires or resolves thousands of alerts does not regroup every open alert.
import type { Alert, AlertEndReason, ResolvedAlert } from '../../shared/model/alerts.ts'

/** Active alerts grouped by resource id, and the vmids of the guests among those resources. */
export interface ResourceIndex {
  byResource: Map<string, Alert[]>
  /**
   * A guest can have alerts only if its vmid is here: a number lookup instead of hashing every
   * guest's id string (the 100k-guest loop's main cost). null when some guest alert's resource id
   * does not end in its vmid: then every guest is looked up by id. May hold vmids of guests whose
   * alerts are gone (a superset is enough: the byResource lookup decides).
   */
  guestVmids: Set<number> | null
  /** guestVmids as flags indexed by vmid (1 = maybe has alerts); null when vmids are too large. */
  guestFlags: Uint8Array | null
}

/** The alert without its stale / flapping marks (object rest is slow; most alerts have neither). */
export function withoutMarks(alert: Alert): Alert {
  if (alert.stale === undefined && alert.flapping === undefined) return alert
  const { stale: _stale, flapping: _flapping, ...rest } = alert
  return rest
}

/**
 * The resolved form of an alert (without its marks). Spelled out for the engine's own alerts (no
 * acknowledgement fields): a spread plus two new keys costs several times as much per alert, and a
 * poll can resolve thousands. Same keys, same order as the spread.
 */
export function toResolved(
  alert: Alert,
  resolvedTime: string,
  endReason: AlertEndReason,
): ResolvedAlert {
  if (alert.ackTime !== undefined || alert.ackUser !== undefined || alert.metadata === undefined) {
    return { ...withoutMarks(alert), resolvedTime, endReason }
  }
  return {
    id: alert.id,
    type: alert.type,
    level: alert.level,
    resourceId: alert.resourceId,
    resourceName: alert.resourceName,
    node: alert.node,
    instance: alert.instance,
    message: alert.message,
    value: alert.value,
    threshold: alert.threshold,
    peak: alert.peak,
    startTime: alert.startTime,
    lastSeen: alert.lastSeen,
    acknowledged: alert.acknowledged,
    metadata: alert.metadata,
    resolvedTime,
    endReason,
  }
}

const indexCache = new WeakMap<ReadonlyMap<string, Alert>, ResourceIndex>()
const MAX_FLAG_VMID = 1 << 22

/** The vmid a guest alert's resource id ends in; undefined for other alerts, NaN when none. */
function guestVmid(alert: Alert): number | undefined {
  const type = alert.metadata?.resourceType
  if (type === 'Node' || type === 'PBS' || type === 'Storage' || type === 'Disk') return undefined
  const id = alert.resourceId
  const dash = id.lastIndexOf('-')
  const vmid = Number(id.slice(dash + 1))
  return Number.isInteger(vmid) && dash >= 0 ? vmid : NaN
}

function flagsOf(vmids: Set<number> | null): Uint8Array | null {
  if (vmids === null) return null
  let max = -1
  for (const vmid of vmids) {
    if (vmid < 0 || vmid >= MAX_FLAG_VMID) return null
    if (vmid > max) max = vmid
  }
  const flags = new Uint8Array(max + 1)
  for (const vmid of vmids) flags[vmid] = 1
  return flags
}

/** The resource index of an active map, built once per map. */
export function indexByResource(active: ReadonlyMap<string, Alert>): ResourceIndex {
  let index = indexCache.get(active)
  if (index) return index
  const byResource = new Map<string, Alert[]>()
  let guestVmids: Set<number> | null = new Set()
  for (const alert of active.values()) {
    const list = byResource.get(alert.resourceId)
    if (list) list.push(alert)
    else byResource.set(alert.resourceId, [alert])
    if (guestVmids) {
      const vmid = guestVmid(alert)
      if (vmid === undefined) continue
      if (Number.isNaN(vmid)) guestVmids = null
      else guestVmids.add(vmid)
    }
  }
  index = { byResource, guestVmids, guestFlags: flagsOf(guestVmids) }
  indexCache.set(active, index)
  return index
}

/**
 * The index of `next`, an active map made from `prev`'s by setting and deleting alerts of the
 * resources in `changed`; `added` are the alerts whose ids were not in `prev` (in set order).
 * Gives the same lists as indexByResource(next); cached for `next`.
 */
export function deriveIndex(
  prev: ReadonlyMap<string, Alert>,
  next: ReadonlyMap<string, Alert>,
  changed: ReadonlySet<string>,
  added: readonly Alert[],
): ResourceIndex {
  const cached = indexCache.get(next)
  if (cached) return cached
  const before = indexByResource(prev)
  let vmids = before.guestVmids
  if (vmids === null || vmids.size > 2 * next.size + 64) return indexByResource(next)
  const byResource = new Map(before.byResource)
  const lists = new Map<string, Alert[]>()
  for (const resourceId of changed) {
    const list: Alert[] = []
    const old = before.byResource.get(resourceId)
    if (old) {
      for (let i = 0; i < old.length; i++) {
        const alert = next.get(old[i]!.id)
        if (alert) list.push(alert)
      }
    }
    lists.set(resourceId, list)
  }
  let copied = false
  for (let i = 0; i < added.length; i++) {
    const alert = next.get(added[i]!.id)
    if (!alert) continue
    lists.get(alert.resourceId)!.push(alert)
    const vmid = guestVmid(alert)
    if (vmid === undefined || vmids.has(vmid)) continue
    if (Number.isNaN(vmid)) return indexByResource(next)
    if (!copied) {
      vmids = new Set(vmids)
      copied = true
    }
    vmids.add(vmid)
  }
  for (const [resourceId, list] of lists) {
    if (list.length > 0) byResource.set(resourceId, list)
    else byResource.delete(resourceId)
  }
  const index: ResourceIndex = {
    byResource,
    guestVmids: vmids,
    guestFlags: copied ? flagsOf(vmids) : before.guestFlags,
  }
  indexCache.set(next, index)
  return index
}
