import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createEstate } from '../../../../src/server/sim/estate.ts'
import type { Estate } from '../../../../src/server/sim/estate.ts'
import { isNodeDown } from '../../../../src/server/sim/alert-schedule.ts'
import { startSimulator } from '../../../../src/server/sim/index.ts'
import type { SimCluster, Simulator } from '../../../../src/server/sim/index.ts'
import { START_MS, callApi, getData } from './helpers.ts'

type Entry = Record<string, unknown>
const STEP_MS = 10_000
const SHAPE = { seed: 1, clusters: 3, nodesPerCluster: 3, guestsPerNode: 225, alertScenarios: true }

function guestsOf(estate: Estate) {
  return estate.clusters.flatMap((c) => c.guests)
}

describe('demo alert scenarios in the model', () => {
  it('has a guest over 80 % CPU and one over 85 % memory at every tick of the first minute', () => {
    const estate = createEstate(SHAPE, () => START_MS, STEP_MS)
    for (let t = 0; t <= 60_000; t += STEP_MS) {
      if (t > 0) estate.tick(START_MS + t)
      const running = guestsOf(estate).filter((g) => g.running)
      expect(running.some((g) => g.cpu >= 0.8)).toBe(true)
      expect(running.some((g) => g.mem / g.maxmem >= 0.85)).toBe(true)
    }
  })

  it('keeps the rest of the estate under the default thresholds: a handful of alerts, not a share', () => {
    const estate = createEstate(SHAPE, () => START_MS, STEP_MS)
    for (let t = STEP_MS; t <= 30 * 60_000; t += STEP_MS) {
      estate.tick(START_MS + t)
      const running = guestsOf(estate).filter((g) => g.running)
      // 3 spikers and 2 hogs per cluster, plus a rare natural runaway.
      expect(running.filter((g) => g.cpu >= 0.8).length).toBeLessThanOrEqual(3 * 3 + 3)
      expect(running.filter((g) => g.mem / g.maxmem >= 0.85).length).toBeLessThanOrEqual(3 * 2)
      for (const node of estate.clusters.flatMap((c) => c.nodes))
        if (node.online) expect(node.memFrac).toBeLessThan(0.85)
    }
  })

  it('stops only a small fraction of guests, at least one per cluster, and keeps it small over hours', () => {
    const estate = createEstate(SHAPE, () => START_MS, STEP_MS)
    const stoppedShare = () => {
      const regular = guestsOf(estate).filter((g) => g.template === 0)
      return regular.filter((g) => !g.running).length / regular.length
    }
    expect(stoppedShare()).toBeLessThanOrEqual(0.025)
    for (const cluster of estate.clusters) {
      const parked = cluster.scenario!.parked
      expect(parked).toHaveLength(1)
      expect(cluster.byVmid.get(parked[0]!)!.running).toBe(false)
    }
    // Six simulated hours at one-minute steps: power events balance near the start share.
    for (let t = 60_000; t <= 6 * 3_600_000; t += 60_000) estate.tick(START_MS + t)
    expect(stoppedShare()).toBeLessThanOrEqual(0.03)
    for (const cluster of estate.clusters)
      expect(cluster.byVmid.get(cluster.scenario!.parked[0]!)!.running).toBe(false)
    expect(estate.guestCount()).toBeLessThan(2025 * 1.1)
  })

  it('keeps exactly one storage above 85 % in the estate', () => {
    const estate = createEstate(SHAPE, () => START_MS, STEP_MS)
    const full = () =>
      estate.clusters.flatMap((c) =>
        c.storages.flatMap((s) =>
          s.total
            .map((total, i) => ({ name: `${c.name}/${s.storage}/${i}`, share: s.used[i]! / total }))
            .filter((x) => x.share >= 0.85),
        ),
      )
    expect(full()).toHaveLength(1)
    for (let t = 60_000; t <= 3 * 3_600_000; t += 60_000) estate.tick(START_MS + t)
    expect(full()).toHaveLength(1)
  })

  it('keeps the failed disk, the DEGRADED pool and the worn-out SSD on nodes that stay online', () => {
    const estate = createEstate(SHAPE, () => START_MS, STEP_MS)
    const first = estate.clusters[0]!
    const outageNode = first.scenario!.outage!.node
    const failed = first.disks.flatMap((d, n) =>
      d.filter((x) => x.health === 'FAILED').map(() => n),
    )
    expect(failed).toEqual([2])
    const degraded = first.zfsPools.flatMap((p, n) =>
      p.filter((x) => x.state === 'DEGRADED').map(() => n),
    )
    expect(degraded).toEqual([2])
    expect(failed[0]).not.toBe(outageNode)
    const last = estate.clusters[2]!
    expect(last.disks[0]!.some((d) => typeof d.wearout === 'number' && d.wearout < 10)).toBe(true)
  })

  it('takes node 2 of the first cluster down inside its window only, and restarts its guests after', () => {
    const estate = createEstate(SHAPE, () => START_MS, STEP_MS)
    const cluster = estate.clusters[0]!
    const outage = cluster.scenario!.outage!
    expect(outage.node).toBe(1)
    expect(estate.clusters.slice(1).every((c) => c.scenario!.outage === undefined)).toBe(true)
    for (let t = STEP_MS; t <= 70 * 60_000; t += STEP_MS) {
      estate.tick(START_MS + t)
      expect(cluster.nodes[1]!.online).toBe(!isNodeDown(outage.plan, t))
      // The random outages leave this cluster alone.
      expect(cluster.nodes[0]!.online && cluster.nodes[2]!.online).toBe(true)
    }
    // Back from the second outage (minute 64-68), like a rebooted host: its guests started again.
    const back = START_MS + outage.plan.firstMs + outage.plan.periodMs + outage.plan.downMs
    const own = cluster.guests.filter((g) => g.node === 1 && g.running)
    expect(own.length).toBeGreaterThan(0)
    for (const g of own) expect(g.startedAt * 1000).toBeGreaterThanOrEqual(back - 90_000)
  })
})

describe('the scheduled outage over HTTP', () => {
  let sim: Simulator
  let cluster: SimCluster
  let clock = START_MS

  beforeAll(async () => {
    sim = await startSimulator({
      seed: 1,
      clusters: 2,
      nodesPerCluster: 3,
      guestsPerNode: 20,
      tickMs: 0,
      now: () => clock,
      alertScenarios: true,
      memberEndpoints: false,
    })
    cluster = sim.clusters[0]!
  })
  afterAll(async () => {
    await sim.stop()
  })

  // The simulator's clock is injected: stepping it and ticking replaces waiting for minutes.
  const advanceTo = (elapsedMs: number): void => {
    while (clock < START_MS + elapsedMs) {
      clock += STEP_MS
      sim.tick(clock)
    }
  }

  it('answers for the node as a real cluster does while it is down, and normally again after', async () => {
    const down = cluster.nodeNames[1]!
    expect((await callApi(cluster, `/nodes/${down}/status`)).status).toBe(200)

    advanceTo(5 * 60_000 + 30_000)
    const nodes = await getData(cluster, '/cluster/resources?type=node')
    expect(nodes.find((n) => n.node === down)).toMatchObject({ status: 'offline' })
    expect(nodes.filter((n) => n.status === 'online')).toHaveLength(2)
    const members = await getData(cluster, '/cluster/status')
    expect(members.find((m) => m.name === down)).toMatchObject({ online: 0 })
    const status = await callApi(cluster, `/nodes/${down}/status`)
    expect(status.status).toBe(595)
    expect((await callApi(cluster, `/nodes/${down}/qemu`)).status).toBe(595)
    // PVE keeps the node's guests listed with their last status; the collector marks them unknown.
    const guests = await getData(cluster, '/cluster/resources?type=vm')
    expect(guests.filter((g) => g.node === down).length).toBeGreaterThan(0)
    const storages = await getData(cluster, '/cluster/resources?type=storage')
    expect(
      storages.filter((s: Entry) => s.node === down).every((s) => s.status === 'unknown'),
    ).toBe(true)

    advanceTo(8 * 60_000 + 30_000)
    const after = await getData(cluster, '/cluster/resources?type=node')
    expect(after.find((n) => n.node === down)).toMatchObject({ status: 'online' })
    expect((await callApi(cluster, `/nodes/${down}/status`)).status).toBe(200)
  })
})
