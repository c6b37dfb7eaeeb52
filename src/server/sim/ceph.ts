// The one Ceph cluster of the estate: OSDs on the members of one PVE cluster, pools behind the
// rbd and cephfs storages, and `ceph status -f json` in its raw shape. OSDs go down now and then
// (HEALTH_WARN, OSD_DOWN), and every OSD and monitor of an offline node is down with it.

import type { Rng } from './prng.ts'
import { createUuid, hash01 } from './prng.ts'
import type { SimClusterModel, SimStorage } from './model.ts'
import type { OsdPlacement } from './build-hardware.ts'

const MIB = 1024 ** 2
// Ceph marks a down OSD "out" after mon_osd_down_out_interval.
const DOWN_OUT_SEC = 600
const MEAN_SEC_BETWEEN_OSD_FAILURES = 3 * 3600
const INITIAL_OSD_DOWN_BEFORE_SEC = 120
const INITIAL_OSD_DOWN_FOR_SEC = 20 * 60

/** One OSD and until when it is down (simulated ms; 0 = up). */
export interface SimOsd extends OsdPlacement {
  downSinceMs: number
  downUntilMs: number
}

/** One Ceph pool; stored bytes come from the storage it backs. */
export interface SimCephPool {
  id: number
  name: string
  pgNum: number
  application: string
  /** The PVE storage whose `used` is this pool's stored data; undefined for fixed-size pools. */
  storage: string | undefined
  /** Stored bytes of pools without a storage (.mgr, cephfs metadata). */
  fixedStored: number
}

/** The Ceph side of a cluster. */
export interface SimCeph {
  fsid: string
  osds: SimOsd[]
  /** Node indices running a monitor (the first three members). */
  mons: number[]
  pools: SimCephPool[]
  release: { major: number; name: string }
  createdIso: string
  rawTotal: number
}

/** Builds the Ceph cluster and the rbd and cephfs storages it backs. */
export function buildCeph(
  rng: Rng,
  nodes: number,
  osds: OsdPlacement[],
  pveMajor: number,
  builtAtSec: number,
): { ceph: SimCeph; storages: SimStorage[] } {
  const rawTotal = osds.reduce((sum, o) => sum + o.size, 0)
  const usable = rawTotal / 3
  const rbdUsed = Math.round(usable * rng.range(0.35, 0.6))
  const fsUsed = Math.round(usable * rng.range(0.03, 0.08))
  // Both pools share one max_avail: what is left below the full ratio, divided by the replica count.
  const maxAvail = Math.max(0, Math.round(usable * 0.93 - rbdUsed - fsUsed))
  const same = (v: number): number[] => Array.from({ length: nodes }, () => v)
  const storages: SimStorage[] = [
    {
      storage: 'ceph-vm',
      plugintype: 'rbd',
      content: 'images,rootdir',
      shared: 1,
      total: same(rbdUsed + maxAvail),
      used: same(rbdUsed),
    },
    {
      storage: 'cephfs',
      plugintype: 'cephfs',
      content: 'backup,iso,vztmpl',
      shared: 1,
      total: same(fsUsed + maxAvail),
      used: same(fsUsed),
    },
  ]
  const pgs = [256, 512, 1024].find((p) => p * 3 >= osds.length * 100) ?? 1024
  const ceph: SimCeph = {
    fsid: createUuid(rng),
    osds: osds.map((o) => ({ ...o, downSinceMs: 0, downUntilMs: 0 })),
    mons: Array.from({ length: Math.min(3, nodes) }, (_, i) => i),
    pools: [
      {
        id: 1,
        name: '.mgr',
        pgNum: 1,
        application: 'mgr',
        storage: undefined,
        fixedStored: 27 * MIB,
      },
      {
        id: 2,
        name: 'ceph-vm',
        pgNum: pgs,
        application: 'rbd',
        storage: 'ceph-vm',
        fixedStored: 0,
      },
      {
        id: 3,
        name: 'cephfs_data',
        pgNum: 64,
        application: 'cephfs',
        storage: 'cephfs',
        fixedStored: 0,
      },
      {
        id: 4,
        name: 'cephfs_metadata',
        pgNum: 16,
        application: 'cephfs',
        storage: undefined,
        fixedStored: rng.int(200, 900) * MIB,
      },
    ],
    release: pveMajor >= 9 ? { major: 19, name: 'squid' } : { major: 18, name: 'reef' },
    createdIso: new Date((builtAtSec - rng.int(200, 900) * 86_400) * 1000).toISOString(),
    rawTotal,
  }
  return { ceph, storages }
}

/**
 * Takes the last OSD down since 2 minutes before `nowSec`, for the next 20 minutes: the cluster
 * shows HEALTH_WARN with OSD_DOWN and degraded PGs from the first poll, then heals.
 */
export function startWithOsdDown(ceph: SimCeph, nowSec: number): void {
  const osd = ceph.osds.at(-1)
  if (osd === undefined) return
  osd.downSinceMs = (nowSec - INITIAL_OSD_DOWN_BEFORE_SEC) * 1000
  osd.downUntilMs = (nowSec + INITIAL_OSD_DOWN_FOR_SEC) * 1000
}

/** Heals OSDs whose outage is over and now and then takes one down for a few minutes. */
export function advanceCeph(cluster: SimClusterModel, nowMs: number, dtSec: number): void {
  const ceph = cluster.ceph
  if (ceph === undefined || dtSec <= 0) return
  for (const osd of ceph.osds) {
    if (osd.downUntilMs !== 0 && nowMs >= osd.downUntilMs) osd.downSinceMs = osd.downUntilMs = 0
  }
  if (ceph.osds.some((o) => o.downUntilMs !== 0)) return
  if (cluster.aux.next() >= dtSec / MEAN_SEC_BETWEEN_OSD_FAILURES) return
  const osd = cluster.aux.pick(ceph.osds)
  if (osd === undefined || !(cluster.nodes[osd.node]?.online ?? false)) return
  osd.downSinceMs = nowMs
  osd.downUntilMs = nowMs + cluster.aux.int(180, 900) * 1000
}

/** Whether an OSD is down now (its own outage, or its node is offline). */
export function isOsdDown(cluster: SimClusterModel, osd: SimOsd): boolean {
  return osd.downUntilMs !== 0 || !(cluster.nodes[osd.node]?.online ?? false)
}

/** Stored bytes of a pool right now. */
export function poolStored(cluster: SimClusterModel, pool: SimCephPool): number {
  if (pool.storage === undefined) return pool.fixedStored
  return cluster.storages.find((s) => s.storage === pool.storage)?.used[0] ?? 0
}

/** The shared max_avail of the pools (bytes a pool can still store). */
export function poolMaxAvail(cluster: SimClusterModel): number {
  const rbd = cluster.storages.find((s) => s.storage === 'ceph-vm')
  return Math.max(0, (rbd?.total[0] ?? 0) - (rbd?.used[0] ?? 0))
}

/** Client I/O rates for the current tick: stable between ticks, busier at night. */
export function clientIo(cluster: SimClusterModel): Record<string, number> {
  const h = hash01(cluster.seed, Math.floor(cluster.lastTickMs / 1000), 61)
  const night = (cluster.lastTickMs / 3_600_000) % 24 < 4 ? 4 : 1
  return {
    read_bytes_sec: Math.round((2e6 + h * 40e6) * night),
    write_bytes_sec: Math.round((5e6 + h * 60e6) * night),
    read_op_per_sec: Math.round((40 + h * 600) * night),
    write_op_per_sec: Math.round((120 + h * 1500) * night),
  }
}

/** Seconds an OSD has been down (0 when up or down only because its node is offline). */
export function downForSec(osd: SimOsd, nowMs: number): number {
  return osd.downSinceMs === 0 ? 0 : Math.max(0, (nowMs - osd.downSinceMs) / 1000)
}

/** OSDs count as "out" after ten minutes down. */
export function isOsdOut(cluster: SimClusterModel, osd: SimOsd): boolean {
  return isOsdDown(cluster, osd) && downForSec(osd, cluster.lastTickMs) > DOWN_OUT_SEC
}
