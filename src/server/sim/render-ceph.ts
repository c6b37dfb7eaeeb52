// Renders `ceph status -f json` (/cluster/ceph/status, /nodes/{n}/ceph/status) and the pool list
// (/nodes/{n}/ceph/pool) from the Ceph model: health checks follow down OSDs and offline nodes.

import type { SimClusterModel } from './model.ts'
import type { SimCeph } from './ceph.ts'
import { clientIo, isOsdDown, isOsdOut, poolMaxAvail, poolStored } from './ceph.ts'

const OBJECT_SIZE = 4 * 1024 ** 2

/** `data` of the Ceph status endpoints. */
export function renderCephStatus(cluster: SimClusterModel, ceph: SimCeph): object {
  const nowSec = Math.floor(cluster.lastTickMs / 1000)
  const down = ceph.osds.filter((o) => isOsdDown(cluster, o))
  const out = ceph.osds.filter((o) => isOsdOut(cluster, o))
  const monsUp = ceph.mons.filter((n) => cluster.nodes[n]?.online ?? false)
  const stored = ceph.pools.reduce((sum, p) => sum + poolStored(cluster, p), 0)
  const rawUsed = Math.round(stored * 3 + ceph.rawTotal * 0.008)
  const numPgs = ceph.pools.reduce((sum, p) => sum + p.pgNum, 0)
  const degradedPgs = Math.min(
    numPgs,
    Math.round((numPgs * 3 * down.length) / Math.max(1, ceph.osds.length)),
  )
  const objects = Math.round(stored / OBJECT_SIZE)
  const checks = healthChecks(cluster, ceph, down.length, monsUp, degradedPgs, objects)
  const pgsByState = [{ state_name: 'active+clean', count: numPgs - degradedPgs }]
  if (degradedPgs > 0)
    pgsByState.push({ state_name: 'active+undersized+degraded', count: degradedPgs })
  const names = (list: number[]): string[] => list.map((n) => cluster.nodes[n]?.name ?? '')
  return {
    fsid: ceph.fsid,
    health: {
      status: Object.keys(checks).length > 0 ? 'HEALTH_WARN' : 'HEALTH_OK',
      checks,
      mutes: [],
    },
    election_epoch: 40 + 2 * (ceph.mons.length - monsUp.length),
    quorum: monsUp.map((n) => ceph.mons.indexOf(n)),
    quorum_names: names(monsUp),
    quorum_age:
      monsUp.length === 0
        ? 0
        : Math.max(0, nowSec - Math.max(...monsUp.map((n) => cluster.nodes[n]?.bootAt ?? 0))),
    monmap: renderMonmap(cluster, ceph),
    osdmap: {
      epoch: 1200 + down.length * 3,
      num_osds: ceph.osds.length,
      num_up_osds: ceph.osds.length - down.length,
      osd_up_since: nowSec - 86_400,
      num_in_osds: ceph.osds.length - out.length,
      osd_in_since: nowSec - 86_400 * 30,
      num_remapped_pgs: 0,
    },
    pgmap: {
      pgs_by_state: pgsByState,
      num_pgs: numPgs,
      num_pools: ceph.pools.length,
      num_objects: objects,
      data_bytes: stored,
      bytes_used: rawUsed,
      bytes_avail: ceph.rawTotal - rawUsed,
      bytes_total: ceph.rawTotal,
      ...clientIo(cluster),
    },
    fsmap: renderFsmap(cluster, ceph),
    mgrmap: renderMgrmap(cluster, ceph),
    servicemap: { epoch: 3120, modified: new Date(cluster.lastTickMs).toISOString(), services: {} },
    progress_events: {},
  }
}

function healthChecks(
  cluster: SimClusterModel,
  ceph: SimCeph,
  downCount: number,
  monsUp: number[],
  degradedPgs: number,
  objects: number,
): Record<string, object> {
  const checks: Record<string, object> = {}
  const check = (code: string, message: string, count: number, detail: string[]): void => {
    checks[code] = {
      severity: 'HEALTH_WARN',
      summary: { message, count },
      detail: detail.map((m) => ({ message: m })),
      muted: false,
    }
  }
  if (monsUp.length < ceph.mons.length) {
    const missing = ceph.mons.length - monsUp.length
    const quorum = monsUp.map((n) => cluster.nodes[n]?.name ?? '').join(',')
    check('MON_DOWN', `${missing}/${ceph.mons.length} mons down, quorum ${quorum}`, missing, [])
  }
  const offlineHosts = cluster.nodes.filter(
    (n, i) => !n.online && ceph.osds.some((o) => o.node === i),
  )
  if (downCount > 0) {
    const down = ceph.osds.filter((o) => isOsdDown(cluster, o))
    check(
      'OSD_DOWN',
      `${downCount} osds down`,
      downCount,
      down.map(
        (o) => `osd.${o.id} (root=default,host=${cluster.nodes[o.node]?.name ?? ''}) is down`,
      ),
    )
  }
  if (offlineHosts.length > 0) {
    const osds = ceph.osds.filter((o) => !(cluster.nodes[o.node]?.online ?? false)).length
    check(
      'OSD_HOST_DOWN',
      `${offlineHosts.length} host (${osds} osds) down`,
      offlineHosts.length,
      [],
    )
  }
  if (degradedPgs > 0) {
    const degraded = Math.round((objects * 3 * downCount) / Math.max(1, ceph.osds.length))
    const pct = ((degraded / Math.max(1, objects * 3)) * 100).toFixed(3)
    check(
      'PG_DEGRADED',
      `Degraded data redundancy: ${degraded}/${objects * 3} objects degraded (${pct}%), ${degradedPgs} pgs degraded, ${degradedPgs} pgs undersized`,
      degradedPgs * 2,
      [],
    )
  }
  return checks
}

function renderMonmap(cluster: SimClusterModel, ceph: SimCeph): object {
  return {
    epoch: 3,
    fsid: ceph.fsid,
    modified: ceph.createdIso,
    created: ceph.createdIso,
    min_mon_release: ceph.release.major,
    min_mon_release_name: ceph.release.name,
    election_strategy: 1,
    // Ceph really prints these two keys with a colon and a space inside the name.
    'disallowed_leaders: ': '',
    stretch_mode: false,
    tiebreaker_mon: '',
    'removed_ranks: ': '',
    features: {
      persistent: [
        'kraken',
        'luminous',
        'mimic',
        'osdmap-prune',
        'nautilus',
        'octopus',
        'pacific',
        'elector-pinging',
        'quincy',
        ceph.release.name,
      ],
      optional: [],
    },
    mons: ceph.mons.map((n, rank) => {
      const ip = cluster.nodes[n]?.ip ?? '127.0.0.1'
      return {
        rank,
        name: cluster.nodes[n]?.name ?? '',
        public_addrs: {
          addrvec: [
            { type: 'v2', addr: `${ip}:3300`, nonce: 0 },
            { type: 'v1', addr: `${ip}:6789`, nonce: 0 },
          ],
        },
        addr: `${ip}:6789/0`,
        public_addr: `${ip}:6789/0`,
        priority: 0,
        weight: 0,
        crush_location: '{}',
      }
    }),
  }
}

function renderFsmap(cluster: SimClusterModel, ceph: SimCeph): object {
  const active = ceph.mons.find((n) => cluster.nodes[n]?.online ?? false) ?? 0
  const standby = cluster.nodes.filter((n, i) => n.online && i !== active).length
  return {
    epoch: 42,
    id: 1,
    up: 1,
    in: 1,
    max: 1,
    by_rank: [
      {
        filesystem_id: 1,
        rank: 0,
        name: cluster.nodes[active]?.name ?? '',
        status: 'up:active',
        gid: 184_212 + active,
      },
    ],
    'up:standby': standby,
  }
}

function renderMgrmap(cluster: SimClusterModel, ceph: SimCeph): object {
  const up = ceph.mons.filter((n) => cluster.nodes[n]?.online ?? false)
  const active = up[0] ?? 0
  const ip = cluster.nodes[active]?.ip ?? '127.0.0.1'
  return {
    epoch: 310,
    active_gid: 194_500 + active,
    active_name: cluster.nodes[active]?.name ?? '',
    active_addrs: {
      addrvec: [
        { type: 'v2', addr: `${ip}:6800`, nonce: 2211 },
        { type: 'v1', addr: `${ip}:6801`, nonce: 2211 },
      ],
    },
    active_addr: `${ip}:6801/2211`,
    active_change: ceph.createdIso,
    available: up.length > 0,
    standbys: up.slice(1).map((n) => ({
      gid: 194_500 + n,
      name: cluster.nodes[n]?.name ?? '',
      available_modules: [],
    })),
    modules: ['iostat', 'nfs', 'restful'],
    services: {},
  }
}

/** `data` of GET /nodes/{n}/ceph/pool: PVE's pool list with Ceph's usage figures. */
export function renderCephPools(cluster: SimClusterModel, ceph: SimCeph): object[] {
  const maxAvail = poolMaxAvail(cluster)
  const rawAvail = ceph.rawTotal
  return ceph.pools.map((pool) => {
    const stored = poolStored(cluster, pool)
    const bytesUsed = stored * 3
    return {
      pool: pool.id,
      pool_name: pool.name,
      size: 3,
      min_size: 2,
      pg_num: pool.pgNum,
      pg_num_min: pool.name === '.mgr' ? 1 : undefined,
      pg_autoscale_mode: 'on',
      crush_rule: 0,
      crush_rule_name: 'replicated_rule',
      type: 'replicated',
      bytes_used: bytesUsed,
      // Ceph's own fraction (0..1), not a percentage.
      percent_used: bytesUsed / Math.max(1, bytesUsed + maxAvail * 3),
      application_metadata: { [pool.application]: {} },
      autoscale_status: {
        pool_name: pool.name,
        pool_id: pool.id,
        raw_used: bytesUsed,
        raw_used_rate: 3,
        subtree_capacity: rawAvail,
        capacity_ratio: bytesUsed / Math.max(1, rawAvail),
        target_ratio: 0,
        effective_target_ratio: 0,
        pg_num_target: pool.pgNum,
        pg_num_final: pool.pgNum,
        pg_autoscale_mode: 'on',
        would_adjust: false,
        bias: 1,
        bulk: false,
      },
    }
  })
}
