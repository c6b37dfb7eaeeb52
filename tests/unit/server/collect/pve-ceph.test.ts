import { describe, expect, it } from 'vitest'
import { toCephCluster, toCephPool, usesCeph } from '../../../../src/server/collect/pve-ceph.ts'
import { readFixture, readFixtureList } from './fixtures.ts'

const NOW = 1_760_000_000_000
const ctx = { instance: 'lab', now: NOW }
const FSID = 'd11c6ea1-7ab2-41fa-99c5-b85f4d7ffd49'

function reefStatus(): Record<string, unknown> {
  return readFixture('ceph-status__go-proxmox-pve8-reef.json') as Record<string, unknown>
}

// No /nodes/{n}/ceph/pool capture exists (SOURCES.md, "Not found"). These entries carry the
// fields PVE's API2/Ceph/Pool.pm returns (reference/proxmox-api.md §2.13): ceph df's bytes_used
// and percent_used (a fraction), no max_avail and no object count.
const POOLS = [
  {
    pool: 2,
    pool_name: 'vm_nvme',
    size: 3,
    min_size: 2,
    pg_num: 512,
    bytes_used: 3_000_000,
    percent_used: 0.75,
    type: 'replicated',
    crush_rule_name: 'replicated_rule',
    autoscale_status: 'on',
  },
  {
    pool: 1,
    pool_name: '.mgr',
    size: '3',
    min_size: 2,
    pg_num: 1,
    bytes_used: 0,
    percent_used: 0,
    type: 'replicated',
  },
  { pool_name: 'broken' },
]

describe('toCephCluster', () => {
  it('maps a reef `ceph status` capture with its nearfull warnings', () => {
    const cluster = toCephCluster(reefStatus(), POOLS, ctx)
    expect(cluster).toMatchObject({
      id: `lab-${FSID}`,
      instance: 'lab',
      name: 'Ceph',
      fsid: FSID,
      health: 'HEALTH_WARN',
      healthMessage: '4 pool(s) nearfull; 3 nearfull osd(s)',
      totalBytes: 51850204151808,
      usedBytes: 31663826219008,
      availableBytes: 20186377932800,
      usagePercent: 61.07,
      numMons: 3,
      numMgrs: 3,
      numOsds: 21,
      numOsdsUp: 21,
      numOsdsIn: 21,
      numPGs: 577,
      lastUpdated: NOW,
    })
    expect(cluster?.services).toEqual([
      { type: 'mon', running: 3, total: 3 },
      { type: 'mgr', running: 3, total: 3 },
      { type: 'osd', running: 21, total: 21 },
      { type: 'mds', running: 3, total: 3 },
    ])
    expect(cluster?.pools.map((p) => p.name)).toEqual(['.mgr', 'vm_nvme'])
  })

  it('names the monitors out of quorum and the OSDs reported down', () => {
    const status = reefStatus()
    status.quorum_names = ['proxmox-node01', 'proxmox-node03']
    status.osdmap = { num_osds: 21, num_up_osds: 20, num_in_osds: 21 }
    // The active manager is named but not available: only the two standbys run.
    status.mgrmap = { ...(status.mgrmap as object), available: false }
    status.health = {
      status: 'HEALTH_WARN',
      checks: {
        OSD_DOWN: {
          severity: 'HEALTH_WARN',
          summary: { message: '1 osds down', count: 1 },
          detail: [{ message: 'osd.7 (root=default,host=pve3) is down' }],
          muted: false,
        },
        OSDMAP_FLAGS: {
          severity: 'HEALTH_WARN',
          summary: { message: 'noout flag(s) set' },
          muted: true,
        },
      },
    }
    const cluster = toCephCluster(status, undefined, ctx)
    expect(cluster?.healthMessage).toBe('1 osds down')
    expect(cluster?.services.slice(0, 3)).toEqual([
      { type: 'mon', running: 2, total: 3, message: 'Offline: proxmox-node02' },
      { type: 'mgr', running: 2, total: 3 },
      { type: 'osd', running: 20, total: 21, message: 'Offline: osd.7@pve3' },
    ])
    expect(cluster?.numOsdsUp).toBe(20)
    expect(cluster?.pools).toEqual([])
  })

  it('reads the abbreviated maps of newer Ceph releases and a missing health', () => {
    const cluster = toCephCluster(
      {
        fsid: 'abc',
        monmap: { epoch: 3, num_mons: 3 },
        quorum_names: ['a', 'b', 'c'],
        mgrmap: { available: true, num_standbys: 1 },
        osdmap: { num_osds: '4', num_up_osds: 4, num_in_osds: 4 },
        pgmap: { num_pgs: 129, bytes_total: 100, bytes_used: 40, bytes_avail: 60 },
      },
      [],
      ctx,
    )
    expect(cluster).toMatchObject({
      id: 'lab-abc',
      health: 'HEALTH_UNKNOWN',
      numMons: 3,
      numMgrs: 2,
      numOsds: 4,
      usagePercent: 40,
    })
    expect(cluster).not.toHaveProperty('healthMessage')
    expect(cluster?.services.map((s) => [s.type, s.running, s.total])).toEqual([
      ['mon', 3, 3],
      ['mgr', 2, 2],
      ['osd', 4, 4],
    ])
    expect(toCephCluster('error', [], ctx)).toBeUndefined()
  })
})

describe('toCephPool', () => {
  it('converts percent_used to a percentage and solves max_avail from it', () => {
    expect(toCephPool(POOLS[0], 9_000)).toEqual({
      id: 2,
      name: 'vm_nvme',
      storedBytes: 3_000_000,
      availableBytes: 1_000_000,
      percentUsed: 75,
    })
  })

  it('falls back to the raw free space over the replica count for an empty pool', () => {
    expect(toCephPool(POOLS[1], 9_000)).toEqual({
      id: 1,
      name: '.mgr',
      storedBytes: 0,
      availableBytes: 3_000,
      percentUsed: 0,
    })
    expect(toCephPool(POOLS[2], 9_000)).toBeUndefined()
  })
})

describe('usesCeph', () => {
  it('is true only with rbd or cephfs storage', () => {
    const resources = readFixtureList('cluster-resources__go-proxmox.json')
    expect(usesCeph(resources, ['dir', 'zfspool'])).toBe(false)
    expect(usesCeph(resources, ['rbd'])).toBe(true)
    expect(usesCeph([...resources, { type: 'storage', plugintype: 'cephfs' }], [])).toBe(true)
  })
})
