// Maps `ceph status -f json` (GET /cluster/ceph/status or /nodes/{n}/ceph/status) and
// /nodes/{n}/ceph/pool to a CephCluster (reference/proxmox-api.md §2.13, wire-protocol.md §2.5).
// Pure. Ceph releases differ: reef lists monmap.mons and mgrmap.standbys, newer ones only counts.
import type { CephCluster, CephPool, CephService } from '../../shared/model/state.ts'
import {
  isRecord,
  toBool,
  toNumber,
  toOptionalNumber,
  toOptionalString,
  toPercent,
} from './coerce.ts'

/** Storage plugin types that mean the PVE cluster talks to Ceph. */
export const CEPH_STORAGE_TYPES: ReadonlySet<string> = new Set(['rbd', 'cephfs'])

/** True when /cluster/resources or a storage list shows rbd or cephfs storage. */
export function usesCeph(resources: readonly unknown[], storageTypes: Iterable<string>): boolean {
  for (const type of storageTypes) if (CEPH_STORAGE_TYPES.has(type)) return true
  return resources.some(
    (e) => isRecord(e) && e.type === 'storage' && CEPH_STORAGE_TYPES.has(String(e.plugintype)),
  )
}

type Json = Record<string, unknown>

function record(value: unknown): Json {
  return isRecord(value) ? value : {}
}

function names(value: unknown, key = 'name'): string[] {
  if (!Array.isArray(value)) return []
  return value
    .map((v) => (isRecord(v) ? toOptionalString(v[key]) : toOptionalString(v)))
    .filter((v): v is string => v !== undefined)
}

/** Joins the summaries of the unmuted health checks: "4 pool(s) nearfull; 3 nearfull osd(s)". */
export function readHealthMessage(health: Json): string | undefined {
  const checks = record(health.checks)
  const parts: string[] = []
  for (const check of Object.values(checks)) {
    if (!isRecord(check) || toBool(check.muted)) continue
    const message = toOptionalString(record(check.summary).message)
    if (message) parts.push(message)
  }
  return parts.length > 0 ? parts.join('; ') : undefined
}

// OSD_DOWN details read "osd.7 (root=default,host=pve3) is down": the only place the status
// names the OSDs that are down.
function readDownOsds(health: Json): string[] {
  const check = record(record(health.checks).OSD_DOWN)
  const out: string[] = []
  for (const entry of Array.isArray(check.detail) ? check.detail : []) {
    const text = toOptionalString(record(entry).message) ?? ''
    const match = /^(osd\.\d+)(?:\s*\(([^)]*)\))?\s+is down/.exec(text)
    if (!match) continue
    const host = /(?:^|,)host=([^,]+)/.exec(match[2] ?? '')?.[1]
    out.push(host ? `${match[1]}@${host}` : match[1]!)
  }
  return out
}

function offlineMessage(names: readonly string[]): string | undefined {
  return names.length > 0 ? `Offline: ${names.join(', ')}` : undefined
}

function service(type: string, running: number, total: number, offline: string[]): CephService {
  const message = offlineMessage(offline)
  return { type, running, total, ...(message ? { message } : {}) }
}

interface Counts {
  mons: number
  mgrs: number
  services: CephService[]
}

// Monitors: the monmap lists them all and quorum_names those that answer. Managers: one active
// (when `available`) plus standbys. MDS: ranks up plus standbys, from the fsmap.
function readCounts(status: Json, osdmap: Json, health: Json): Counts {
  const monmap = record(status.monmap)
  const monNames = names(monmap.mons)
  const quorum = names(status.quorum_names)
  const mons = monNames.length > 0 ? monNames.length : toNumber(monmap.num_mons, quorum.length)
  const inQuorum = new Set(quorum)
  const monsDown = monNames.filter((n) => !inQuorum.has(n))

  const mgrmap = record(status.mgrmap)
  const standbys = Array.isArray(mgrmap.standbys)
    ? mgrmap.standbys.length
    : toNumber(mgrmap.num_standbys)
  const active = toOptionalString(mgrmap.active_name) !== undefined || toBool(mgrmap.available)
  const mgrs = (active ? 1 : 0) + standbys
  const mgrRunning = (toBool(mgrmap.available) ? 1 : 0) + standbys

  const numOsds = toNumber(osdmap.num_osds)
  const services: CephService[] = [
    service('mon', quorum.length, mons, monsDown),
    service('mgr', mgrRunning, mgrs, []),
    service('osd', toNumber(osdmap.num_up_osds), numOsds, readDownOsds(health)),
  ]
  const fsmap = record(status.fsmap)
  const ranks = Array.isArray(fsmap.by_rank) ? fsmap.by_rank : []
  const mdsStandby = toNumber(fsmap['up:standby'])
  if (ranks.length > 0 || mdsStandby > 0) {
    const up = ranks.filter((r) => toOptionalString(record(r).status)?.startsWith('up:')).length
    const wanted = Math.max(up, toNumber(fsmap.in, up))
    services.push(service('mds', up + mdsStandby, wanted + mdsStandby, []))
  }
  return { mons, mgrs, services }
}

/** Maps one /nodes/{n}/ceph/pool entry; `percent_used` is a fraction 0-1 there. */
export function toCephPool(entry: unknown, clusterAvail: number): CephPool | undefined {
  if (!isRecord(entry)) return undefined
  const id = toOptionalNumber(entry.pool)
  const name = toOptionalString(entry.pool_name) ?? toOptionalString(entry.name)
  if (id === undefined || !name) return undefined
  const stored = toNumber(entry.bytes_used)
  const fraction = toOptionalNumber(entry.percent_used)
  const ratio = fraction === undefined ? undefined : fraction > 1 ? fraction / 100 : fraction
  const objects = toOptionalNumber(entry.objects)
  return {
    id,
    name,
    storedBytes: stored,
    availableBytes: readPoolAvailable(stored, ratio, toNumber(entry.size), clusterAvail),
    ...(objects !== undefined ? { objects } : {}),
    ...(ratio !== undefined ? { percentUsed: Math.round(ratio * 10_000) / 100 } : {}),
  }
}

// PVE does not pass ceph df's max_avail through, but percent_used = used / (used + max_avail),
// so it can be solved for. An empty pool falls back to the raw free space over the replica count.
function readPoolAvailable(
  stored: number,
  ratio: number | undefined,
  size: number,
  clusterAvail: number,
): number {
  if (ratio !== undefined && ratio > 0 && ratio < 1 && stored > 0) {
    return Math.round((stored * (1 - ratio)) / ratio)
  }
  return Math.round(clusterAvail / Math.max(1, size))
}

/** Builds a CephCluster; `pools` is the raw /nodes/{n}/ceph/pool list (or undefined). */
export function toCephCluster(
  raw: unknown,
  pools: unknown,
  ctx: { instance: string; now: number },
): CephCluster | undefined {
  if (!isRecord(raw)) return undefined
  const monmap = record(raw.monmap)
  const fsid = toOptionalString(raw.fsid) ?? toOptionalString(monmap.fsid) ?? ''
  const health = record(raw.health)
  // Before Luminous the OSD counts were nested one level deeper (osdmap.osdmap).
  const outer = record(raw.osdmap)
  const osdmap = isRecord(outer.osdmap) ? outer.osdmap : outer
  const pgmap = record(raw.pgmap)
  const total = toNumber(pgmap.bytes_total)
  const used = toNumber(pgmap.bytes_used)
  const avail = toNumber(pgmap.bytes_avail, Math.max(0, total - used))
  const counts = readCounts(raw, osdmap, health)
  const healthMessage = readHealthMessage(health)
  return {
    id: fsid ? `${ctx.instance}-${fsid}` : ctx.instance,
    instance: ctx.instance,
    name: 'Ceph',
    fsid,
    health:
      toOptionalString(health.status) ??
      toOptionalString(health.overall_status) ??
      'HEALTH_UNKNOWN',
    ...(healthMessage ? { healthMessage } : {}),
    totalBytes: total,
    usedBytes: used,
    availableBytes: avail,
    usagePercent: toPercent(used, total),
    numMons: counts.mons,
    numMgrs: counts.mgrs,
    numOsds: toNumber(osdmap.num_osds),
    numOsdsUp: toNumber(osdmap.num_up_osds),
    numOsdsIn: toNumber(osdmap.num_in_osds),
    numPGs: toNumber(pgmap.num_pgs),
    pools: (Array.isArray(pools) ? pools : [])
      .map((p) => toCephPool(p, avail))
      .filter((p): p is CephPool => p !== undefined)
      .sort((a, b) => a.id - b.id),
    services: counts.services,
    lastUpdated: ctx.now,
  }
}
