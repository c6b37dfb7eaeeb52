// The Ceph panel of Ceph storage rows (spec 000 §2.3, §3 Ceph cluster, §8): live cluster data of
// the same instance, or a cluster derived from the storage entries when no live data exists. Pure.
import { formatBytes } from '../format/bytes.ts'
import type { CephCluster, Storage } from '../model/state.ts'
import { isCephType } from './storage-pools.ts'
import type { CephDetail, CephPoolLine, StoragePoolRow } from './storage-types.ts'
import { toNumber as num } from '../model/coerce.ts'

/** Spec 000 §8 text of a derived Ceph row. */
export const CEPH_DERIVED_NOTE = 'Derived from storage metrics – live Ceph telemetry unavailable.'
/** Pools listed in the panel at most (spec 000 §2.3). */
export const CEPH_POOLS_SHOWN = 2
/** Derived cluster: OSDs and placement groups per Ceph storage entry (spec 000 §3). */
export const DERIVED_OSDS_PER_ENTRY = 2
export const DERIVED_PGS_PER_ENTRY = 128

/** The panel of a live cluster. */
export function toLiveCephDetail(cluster: CephCluster): CephDetail {
  const pools = Array.isArray(cluster.pools) ? cluster.pools : []
  const services = Array.isArray(cluster.services) ? cluster.services : []
  const total = num(cluster.totalBytes)
  const used = num(cluster.usedBytes)
  return {
    derived: false,
    note: null,
    name: cluster.name || 'Ceph',
    health: cluster.health || 'HEALTH_UNKNOWN',
    healthMessage: cluster.healthMessage ?? '',
    numMons: num(cluster.numMons),
    numMgrs: num(cluster.numMgrs),
    numOsds: num(cluster.numOsds),
    numOsdsUp: num(cluster.numOsdsUp),
    numOsdsIn: num(cluster.numOsdsIn),
    numPGs: num(cluster.numPGs),
    usagePercent: num(cluster.usagePercent) || (total > 0 ? (used / total) * 100 : 0),
    usedText: formatBytes(used),
    totalText: formatBytes(total),
    pools: pools.slice(0, CEPH_POOLS_SHOWN).map((pool): CephPoolLine => ({
      name: String(pool.name ?? ''),
      storedText: formatBytes(num(pool.storedBytes)),
      availableText: formatBytes(num(pool.availableBytes)),
    })),
    poolCount: pools.length,
    services: services.map((service) => ({
      type: String(service.type ?? ''),
      running: num(service.running),
      total: num(service.total),
      message: service.message ?? '',
    })),
    lastUpdated: num(cluster.lastUpdated),
  }
}

/**
 * The panel derived from an instance's Ceph storage entries: 2 OSDs and 128 placement groups per
 * entry, one monitor per node seen (between 1 and 3); sizes of each storage counted once.
 */
export function toDerivedCephDetail(entries: readonly Storage[]): CephDetail {
  const nodes = new Set(entries.map((entry) => entry.node))
  const byName = new Map<string, Storage>()
  for (const entry of entries) {
    const seen = byName.get(entry.name)
    if (!seen || num(entry.total) > num(seen.total)) byName.set(entry.name, entry)
  }
  const storages = [...byName.values()]
  const total = storages.reduce((sum, entry) => sum + num(entry.total), 0)
  const used = storages.reduce((sum, entry) => sum + num(entry.used), 0)
  const mons = Math.min(3, Math.max(1, nodes.size))
  const mgrs = Math.min(2, mons)
  const osds = entries.length * DERIVED_OSDS_PER_ENTRY
  const healthy = entries.every((entry) => entry.status === 'available')
  return {
    derived: true,
    note: CEPH_DERIVED_NOTE,
    name: 'Ceph',
    health: healthy ? 'HEALTH_OK' : 'HEALTH_WARN',
    healthMessage: '',
    numMons: mons,
    numMgrs: mgrs,
    numOsds: osds,
    numOsdsUp: osds,
    numOsdsIn: osds,
    numPGs: entries.length * DERIVED_PGS_PER_ENTRY,
    usagePercent: total > 0 ? (used / total) * 100 : 0,
    usedText: formatBytes(used),
    totalText: formatBytes(total),
    pools: storages.slice(0, CEPH_POOLS_SHOWN).map((entry) => ({
      name: entry.name,
      storedText: formatBytes(num(entry.used)),
      availableText: formatBytes(num(entry.free)),
    })),
    poolCount: storages.length,
    services: [
      { type: 'mon', running: mons, total: mons, message: '' },
      { type: 'mgr', running: mgrs, total: mgrs, message: '' },
      { type: 'osd', running: osds, total: osds, message: '' },
    ],
    lastUpdated: 0,
  }
}

/**
 * Rows with the Ceph panel set on each Ceph-type row: the live cluster of the row's instance when
 * there is one, else the cluster derived from that instance's Ceph storage entries. Copies rows
 * it changes.
 */
export function attachCeph(
  rows: readonly StoragePoolRow[],
  storage: readonly Storage[],
  clusters: readonly CephCluster[],
): StoragePoolRow[] {
  const details = new Map<string, CephDetail>()
  const detailFor = (instance: string): CephDetail => {
    let detail = details.get(instance)
    if (detail) return detail
    const live = clusters.find((cluster) => cluster.instance === instance)
    detail = live
      ? toLiveCephDetail(live)
      : toDerivedCephDetail(
          storage.filter((entry) => entry.instance === instance && isCephType(entry.type ?? '')),
        )
    details.set(instance, detail)
    return detail
  }
  return rows.map((row) => (isCephType(row.type) ? { ...row, ceph: detailFor(row.instance) } : row))
}
