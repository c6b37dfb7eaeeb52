// Active alerts grouped by resource, cached per active map: the per-poll loops find a resource's
// open alerts without scanning the whole active map.
import { BACKUP_ALERT_TYPES, type Alert } from '../../shared/model/alerts.ts'

const BACKUP_TYPES: ReadonlySet<string> = new Set(BACKUP_ALERT_TYPES)

/** Issue 26: a backup alert kind (evaluated by evaluate-backups.ts, not by the resource loops). */
export const isBackupAlert = (alert: Alert): boolean => BACKUP_TYPES.has(alert.type)

/** Active alerts grouped by resource id, and the vmids of the guests among those resources. */
export interface ResourceIndex {
  byResource: Map<string, Alert[]>
  /**
   * A guest can have alerts only if its vmid is here: a number lookup instead of hashing every
   * guest's id string (the 100k-guest loop's main cost). null when some guest alert's resource id
   * does not end in its vmid: then every guest is looked up by id.
   */
  guestVmids: Set<number> | null
  /** guestVmids as flags indexed by vmid (1 = maybe has alerts); null when vmids are too large. */
  guestFlags: Uint8Array | null
  /**
   * Issue 26: backup alerts by resource id, kept out of byResource / guestVmids so the metric and
   * state loops never see (hold, stop or resolve) them; their vmids as flags for the backup loop.
   */
  backups: Map<string, Alert[]>
  backupVmids: Set<number> | null
  backupFlags: Uint8Array | null
}

const indexCache = new WeakMap<ReadonlyMap<string, Alert>, ResourceIndex>()
const MAX_FLAG_VMID = 1 << 22

/** The vmid a guest alert's resource id ends in; undefined for other alerts, NaN when none. */
function guestVmid(alert: Alert): number | undefined {
  const type = alert.metadata?.resourceType
  if (type === 'Node' || type === 'PBS' || type === 'Storage' || type === 'Disk') return undefined
  const id = alert.resourceId
  const dash = id.lastIndexOf('-')
  // Plain digits (every real vmid): read them without slicing a string.
  const end = id.length
  if (dash >= 0 && end - dash - 1 > 0 && end - dash - 1 <= 15) {
    let vmid = 0
    let j = dash + 1
    for (; j < end; j++) {
      const c = id.charCodeAt(j) - 48
      if (c < 0 || c > 9) break
      vmid = vmid * 10 + c
    }
    if (j === end) return vmid
  }
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
  // A resource's alerts are mostly next to each other in the map: reuse the last list and vmid.
  let lastId: string | null = null
  let lastList: Alert[] = []
  let lastVmid = Number.NaN
  const backups = new Map<string, Alert[]>()
  let backupVmids: Set<number> | null = new Set()
  for (const alert of active.values()) {
    if (BACKUP_TYPES.has(alert.type)) {
      const list = backups.get(alert.resourceId)
      if (list) list.push(alert)
      else backups.set(alert.resourceId, [alert])
      const vmid = guestVmid(alert)
      if (vmid === undefined || backupVmids === null) continue
      if (Number.isNaN(vmid)) backupVmids = null
      else backupVmids.add(vmid)
      continue
    }
    const resourceId = alert.resourceId
    if (resourceId === lastId) {
      lastList.push(alert)
    } else {
      const list = byResource.get(resourceId)
      if (list) list.push(alert)
      else byResource.set(resourceId, (lastList = [alert]))
      if (list) lastList = list
      lastId = resourceId
    }
    if (guestVmids) {
      const vmid = guestVmid(alert)
      if (vmid === undefined || vmid === lastVmid) continue
      if (Number.isNaN(vmid)) guestVmids = null
      else guestVmids.add((lastVmid = vmid))
    }
  }
  index = {
    byResource,
    guestVmids,
    guestFlags: flagsOf(guestVmids),
    backups,
    backupVmids,
    backupFlags: flagsOf(backupVmids),
  }
  indexCache.set(active, index)
  return index
}
