import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSimulator } from '../../../../src/server/sim/index.ts'
import type { SimCluster, Simulator } from '../../../../src/server/sim/index.ts'
import { START_MS, callApi, getData } from './helpers.ts'

type Entry = Record<string, unknown>

describe('simulated Ceph', () => {
  let sim: Simulator
  let ceph: SimCluster

  beforeAll(async () => {
    sim = await startSimulator({
      seed: 3,
      clusters: 3,
      nodesPerCluster: 3,
      guestsPerNode: 10,
      tickMs: 0,
      now: () => START_MS,
    })
    ceph = sim.clusters[1]!
  })
  afterAll(async () => {
    await sim.stop()
  })

  it('runs on exactly one cluster, which has rbd and cephfs storage; the others answer 500', async () => {
    const withCeph: string[] = []
    for (const cluster of sim.clusters) {
      const storage = await getData(cluster, '/cluster/resources?type=storage')
      const types = new Set(storage.map((s) => s.plugintype))
      const status = await callApi(cluster, '/cluster/ceph/status')
      if (types.has('rbd')) {
        withCeph.push(cluster.name)
        expect(types).toContain('cephfs')
        expect(status.status).toBe(200)
      } else {
        expect(types.has('cephfs')).toBe(false)
        for (const path of [
          '/cluster/ceph/status',
          `/nodes/${cluster.nodeNames[0]!}/ceph/status`,
          `/nodes/${cluster.nodeNames[0]!}/ceph/pool`,
        ]) {
          const reply = await callApi(cluster, path)
          expect(reply.status).toBe(500)
          expect(reply.statusText).toBe('binary not installed: /usr/bin/ceph')
        }
      }
    }
    expect(withCeph).toEqual([ceph.name])
    // /cluster/ceph/df does not exist in PVE.
    expect((await callApi(ceph, '/cluster/ceph/df')).status).toBe(501)
  })

  it('renders `ceph status -f json`: health, monmap, quorum, a flat osdmap, pgmap totals, mgr and fs maps', async () => {
    const status = await getData<Entry>(ceph, '/cluster/ceph/status')
    expect(status.fsid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/)
    expect(status.health).toEqual({ status: 'HEALTH_OK', checks: {}, mutes: [] })
    const monmap = status.monmap as Entry
    expect(monmap.fsid).toBe(status.fsid)
    expect((monmap.mons as Entry[]).map((m) => m.name)).toEqual(ceph.nodeNames)
    expect(status.quorum_names).toEqual(ceph.nodeNames)
    const osdmap = status.osdmap as Entry
    let osdDisks = 0
    for (const node of ceph.nodeNames) {
      osdDisks += (await getData(ceph, `/nodes/${node}/disks/list`)).filter(
        (d) => d.osdid !== -1,
      ).length
    }
    expect(osdmap.num_osds).toBe(osdDisks)
    expect(osdmap).toMatchObject({
      num_up_osds: osdDisks,
      num_in_osds: osdDisks,
      num_remapped_pgs: 0,
    })
    const pgmap = status.pgmap as Entry
    const byState = pgmap.pgs_by_state as Entry[]
    expect(byState).toEqual([{ state_name: 'active+clean', count: pgmap.num_pgs }])
    expect((pgmap.bytes_used as number) + (pgmap.bytes_avail as number)).toBe(pgmap.bytes_total)
    expect(pgmap.data_bytes as number).toBeLessThan(pgmap.bytes_used as number)
    for (const key of [
      'read_bytes_sec',
      'write_bytes_sec',
      'read_op_per_sec',
      'write_op_per_sec',
      'num_objects',
      'num_pools',
    ])
      expect(typeof pgmap[key]).toBe('number')
    expect((status.mgrmap as Entry).active_name).toBe(ceph.nodeNames[0])
    expect(((status.mgrmap as Entry).standbys as Entry[]).length).toBe(ceph.nodeNames.length - 1)
    expect((status.fsmap as Entry).by_rank).toHaveLength(1)
    expect(status.servicemap).toBeTypeOf('object')
    expect(await getData<Entry>(ceph, `/nodes/${ceph.nodeNames[1]!}/ceph/status`)).toEqual(status)
  })

  it('lists pools whose usage matches the rbd and cephfs storages', async () => {
    const pools = await getData(ceph, `/nodes/${ceph.nodeNames[0]!}/ceph/pool`)
    expect(pools.map((p) => p.pool_name)).toEqual([
      '.mgr',
      'ceph-vm',
      'cephfs_data',
      'cephfs_metadata',
    ])
    const storage = await getData(ceph, `/nodes/${ceph.nodeNames[0]!}/storage`)
    const rbd = storage.find((s) => s.type === 'rbd')!
    const rbdPool = pools.find((p) => p.pool_name === 'ceph-vm')!
    expect(rbdPool.bytes_used).toBe((rbd.used as number) * 3)
    for (const p of pools) {
      expect(p).toMatchObject({
        size: 3,
        min_size: 2,
        type: 'replicated',
        crush_rule_name: 'replicated_rule',
      })
      expect(p.percent_used as number).toBeGreaterThanOrEqual(0)
      expect(p.percent_used as number).toBeLessThan(1)
    }
  })

  it('warns with OSD_DOWN, OSD_HOST_DOWN and MON_DOWN while a member is offline, and recovers', async () => {
    const down = ceph.nodeNames[2]!
    const osds = (await getData(ceph, `/nodes/${down}/disks/list`)).filter((d) => d.osdid !== -1)
    sim.setNodeOnline(ceph.name, down, false)
    try {
      const status = await getData<Entry>(ceph, '/cluster/ceph/status')
      const health = status.health as { status: string; checks: Record<string, Entry> }
      expect(health.status).toBe('HEALTH_WARN')
      expect(health.checks.OSD_DOWN).toMatchObject({
        severity: 'HEALTH_WARN',
        summary: { message: `${osds.length} osds down`, count: osds.length },
        muted: false,
      })
      expect((health.checks.OSD_DOWN!.detail as Entry[])[0]!.message).toMatch(
        /^osd\.\d+ \(root=default,host=.+\) is down$/,
      )
      expect(Object.keys(health.checks)).toEqual(
        expect.arrayContaining(['MON_DOWN', 'OSD_HOST_DOWN', 'PG_DEGRADED']),
      )
      expect(status.quorum_names).not.toContain(down)
      const osdmap = status.osdmap as Entry
      expect(osdmap.num_up_osds).toBe((osdmap.num_osds as number) - osds.length)
      const states = (status.pgmap as Entry).pgs_by_state as Entry[]
      expect(states.map((s) => s.state_name)).toContain('active+undersized+degraded')
      expect((await callApi(ceph, `/nodes/${down}/ceph/status`)).status).toBe(595)
    } finally {
      sim.setNodeOnline(ceph.name, down, true)
    }
    expect(((await getData<Entry>(ceph, '/cluster/ceph/status')).health as Entry).status).toBe(
      'HEALTH_OK',
    )
  })

  it('lets an OSD fail now and then on its own, and heals it again', async () => {
    const seen = new Set<string>()
    for (let minute = 1; minute <= 24 * 60; minute += 2) {
      sim.tick(START_MS + minute * 60_000)
      const status = await getData<Entry>(ceph, '/cluster/ceph/status')
      const checks = (status.health as { checks: Record<string, unknown> }).checks
      seen.add(Object.keys(checks).sort().join('+') || 'OK')
    }
    expect(seen).toContain('OK')
    // An OSD down while every host is up: no OSD_HOST_DOWN, no MON_DOWN.
    expect(seen).toContain('OSD_DOWN+PG_DEGRADED')
  })
})

describe('Ceph on a single-cluster estate', () => {
  it('runs on the only cluster there is', async () => {
    const sim = await startSimulator({
      seed: 8,
      clusters: 1,
      nodesPerCluster: 3,
      guestsPerNode: 5,
      tickMs: 0,
    })
    try {
      const status = await getData<Entry>(sim.clusters[0]!, '/cluster/ceph/status')
      expect((status.health as Entry).status).toBe('HEALTH_OK')
    } finally {
      await sim.stop()
    }
  })
})

describe('Ceph starting with an OSD down (the demo)', () => {
  it('warns with OSD_DOWN and degraded PGs from the first answer, and heals after 20 minutes', async () => {
    const sim = await startSimulator({
      seed: 8,
      clusters: 1,
      nodesPerCluster: 3,
      guestsPerNode: 5,
      tickMs: 0,
      now: () => START_MS,
      cephOsdDownAtStart: true,
    })
    try {
      const cluster = sim.clusters[0]!
      const health = async () => {
        const status = await getData<Entry>(cluster, '/cluster/ceph/status')
        const { status: overall, checks } = status.health as {
          status: string
          checks: Record<string, unknown>
        }
        const osdmap = status.osdmap as { num_osds: number; num_up_osds: number }
        return {
          overall,
          checks: Object.keys(checks).sort(),
          down: osdmap.num_osds - osdmap.num_up_osds,
        }
      }
      expect(await health()).toEqual({
        overall: 'HEALTH_WARN',
        checks: ['OSD_DOWN', 'PG_DEGRADED'],
        down: 1,
      })
      // It heals once the 20 minutes are over (OSDs still fail now and then on their own).
      const seen = new Set<string>()
      for (let minute = 2; minute <= 60; minute += 2) {
        sim.tick(START_MS + minute * 60_000)
        seen.add((await health()).overall)
      }
      expect(seen).toContain('HEALTH_OK')
    } finally {
      await sim.stop()
    }
  })
})
