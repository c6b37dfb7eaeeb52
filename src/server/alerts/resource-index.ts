// Active alerts grouped by resource, cached per active map: the per-poll loops find a resource's
// open alerts without scanning the whole active map.
import type { Alert } from '../../shared/model/alerts.ts'

/** Active alerts grouped by resource id, and the vmids of the guests among those resources. */
export interface ResourceIndex {
  byResource: Map<string, Alert[]>
  /**
   * A guest can have alerts only if its vmid is here: a number lookup instead of hashing every
   * guest's id string (the 100k-guest loop's main cost). null when some guest alert's resource id
   * does not end in its vmid: then every guest is looked up by id.
   */
  guestVmids: Set<number> | null
}

/** The alert without its stale / flapping marks (object rest is slow; most alerts have neither). */
export function withoutMarks(alert: Alert): Alert {
  if (alert.stale === undefined && alert.flapping === undefined) return alert
  const { stale: _stale, flapping: _flapping, ...rest } = alert
  return rest
}

const indexCache = new WeakMap<ReadonlyMap<string, Alert>, ResourceIndex>()

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
    const type = alert.metadata?.resourceType
    if (guestVmids && type !== 'Node' && type !== 'PBS' && type !== 'Storage' && type !== 'Disk') {
      const id = alert.resourceId
      const vmid = Number(id.slice(id.lastIndexOf('-') + 1))
      if (Number.isInteger(vmid) && id.lastIndexOf('-') >= 0) guestVmids.add(vmid)
      else guestVmids = null
    }
  }
  index = { byResource, guestVmids }
  indexCache.set(active, index)
  return index
}
