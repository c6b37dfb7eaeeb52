import { afterEach, describe, expect, it } from 'vitest'
import { startSimulator } from '../../../../src/server/sim/index.ts'
import type { Simulator, SimulatorOptions } from '../../../../src/server/sim/index.ts'
import { START_MS, callApi, createManualClock, getData } from './helpers.ts'

type Entry = Record<string, unknown>
const COUNTERS = ['netin', 'netout', 'diskread', 'diskwrite'] as const

const running: Simulator[] = []
async function start(options: SimulatorOptions): Promise<Simulator> {
  const sim = await startSimulator({ tickMs: 0, ...options })
  running.push(sim)
  return sim
}
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.stop()))
})

const byId = (entries: Entry[]): Map<string, Entry> =>
  new Map(entries.map((e) => [String(e.id), e]))

describe('simulator ticking model', () => {
  it('serves identical bytes between ticks and new values after one', async () => {
    const clock = createManualClock(START_MS)
    const sim = await start({ seed: 11, clusters: 1, guestsPerNode: 30, now: clock.now })
    const cluster = sim.clusters[0]!
    const first = await callApi(cluster, '/cluster/resources')
    const again = await callApi(cluster, '/cluster/resources')
    expect(again.text).toBe(first.text)
    sim.tick(START_MS + 10_000)
    const later = await callApi(cluster, '/cluster/resources')
    expect(later.text).not.toBe(first.text)
  })

  it('keeps counters monotonic across ticks while a guest keeps running', async () => {
    const clock = createManualClock(START_MS)
    const sim = await start({ seed: 12, clusters: 1, guestsPerNode: 60, now: clock.now })
    const cluster = sim.clusters[0]!
    let previous = byId(await getData(cluster, '/cluster/resources?type=vm'))
    let compared = 0
    let grew = 0
    for (let step = 1; step <= 6; step++) {
      sim.tick(START_MS + step * 10_000)
      const current = byId(await getData(cluster, '/cluster/resources?type=vm'))
      for (const [id, now] of current) {
        const before = previous.get(id)
        // A restart (uptime went back) legitimately resets counters; compare only continuous runs.
        if (before?.status !== 'running' || now.status !== 'running') continue
        if ((now.uptime as number) < (before.uptime as number)) continue
        compared++
        for (const key of COUNTERS)
          expect(now[key] as number).toBeGreaterThanOrEqual(before[key] as number)
        if ((now.netin as number) > (before.netin as number)) grew++
        expect((now.uptime as number) - (before.uptime as number)).toBe(10)
      }
      previous = current
    }
    expect(compared).toBeGreaterThan(100)
    expect(grew).toBe(compared)
  })

  it('produces the same responses for the same seed and different ones for another seed', async () => {
    const options = { clusters: 2, nodesPerCluster: 2, guestsPerNode: 25, now: () => START_MS }
    const a = await start({ seed: 42, ...options })
    const b = await start({ seed: 42, ...options })
    const c = await start({ seed: 43, ...options })
    expect(a.clusters.map((x) => x.tokenSecret)).toEqual(b.clusters.map((x) => x.tokenSecret))
    for (const path of [
      '/cluster/resources',
      '/cluster/status',
      '/nodes',
      '/nodes/alpha-pve2/status',
      '/version',
      '/nodes/alpha-pve1/tasks?limit=500',
      '/nodes/alpha-pve1/disks/list',
      '/nodes/alpha-pve1/storage/pbs-main/content',
      '/nodes/alpha-pve2/storage/local/content',
    ]) {
      const ra = await callApi(a.clusters[0]!, path)
      const rb = await callApi(b.clusters[0]!, path)
      expect(rb.text).toBe(ra.text)
    }
    a.tick(START_MS + 10_000)
    b.tick(START_MS + 10_000)
    expect((await callApi(b.clusters[1]!, '/cluster/resources')).text).toBe(
      (await callApi(a.clusters[1]!, '/cluster/resources')).text,
    )
    const rc = await callApi(c.clusters[0]!, '/cluster/resources')
    expect(rc.text).not.toBe((await callApi(a.clusters[0]!, '/cluster/resources')).text)
  })

  it('takes a node offline: 595 on its status, offline in cluster status and resources, guests keep their status', async () => {
    const clock = createManualClock(START_MS)
    const sim = await start({
      seed: 13,
      clusters: 1,
      nodesPerCluster: 3,
      guestsPerNode: 20,
      now: clock.now,
    })
    const cluster = sim.clusters[0]!
    const before = byId(await getData(cluster, '/cluster/resources?type=vm'))

    sim.setNodeOnline('alpha', 'alpha-pve3', false)
    const status = await callApi(cluster, '/nodes/alpha-pve3/status')
    expect(status.status).toBe(595)
    expect(status.statusText).toBe('Connection refused')
    expect(status.body).toEqual({ data: null })
    expect((await callApi(cluster, '/nodes/alpha-pve1/status')).status).toBe(200)

    const members = await getData(cluster, '/cluster/status')
    expect(members.find((m) => m.name === 'alpha-pve3')).toMatchObject({ online: 0 })
    expect(members.find((m) => m.name === 'alpha-pve1')).toMatchObject({ online: 1 })
    expect(members[0]).toMatchObject({ type: 'cluster', quorate: 1 })

    sim.tick(START_MS + 10_000)
    const resources = await getData(cluster, '/cluster/resources')
    const node = resources.find((e) => e.id === 'node/alpha-pve3')!
    expect(node.status).toBe('offline')
    expect('cpu' in node || 'mem' in node || 'uptime' in node).toBe(false)
    const storage = resources.find((e) => e.id === 'storage/alpha-pve3/local')!
    expect(storage.status).toBe('unknown')
    const stranded = resources.filter(
      (e) => e.node === 'alpha-pve3' && (e.type === 'qemu' || e.type === 'lxc'),
    )
    expect(stranded.length).toBeGreaterThan(0)
    for (const g of stranded) {
      const old = before.get(String(g.id))
      expect(g.status).toBe(old?.status)
      expect(g.netin).toBe(old?.netin)
    }
  })

  it('restarts the guests of a node that comes back: uptime and counters start again', async () => {
    const clock = createManualClock(START_MS)
    const sim = await start({
      seed: 14,
      clusters: 1,
      nodesPerCluster: 3,
      guestsPerNode: 20,
      now: clock.now,
    })
    const cluster = sim.clusters[0]!
    const before = await getData(cluster, '/cluster/resources?type=vm')
    const runningBefore = before.filter((g) => g.node === 'alpha-pve2' && g.status === 'running')
    expect(runningBefore.length).toBeGreaterThan(0)

    sim.setNodeOnline('alpha', 'alpha-pve2', false)
    sim.tick(START_MS + 10_000)
    sim.tick(START_MS + 20_000)
    clock.set(START_MS + 20_000)
    sim.setNodeOnline('alpha', 'alpha-pve2', true)
    sim.tick(START_MS + 30_000)

    expect((await callApi(cluster, '/nodes/alpha-pve2/status')).status).toBe(200)
    const nodeStatus = await getData<Entry>(cluster, '/nodes/alpha-pve2/status')
    expect(nodeStatus.uptime as number).toBeLessThan(300)
    const after = byId(await getData(cluster, '/cluster/resources?type=vm'))
    for (const old of runningBefore) {
      const g = after.get(String(old.id))
      if (g === undefined) continue
      expect(g.uptime as number).toBeLessThan(old.uptime as number)
      expect(g.netin as number).toBeLessThan(old.netin as number)
    }
  })

  it('stays alive over simulated hours: guests come and go, power changes, nodes blink', async () => {
    const sim = await start({
      seed: 15,
      clusters: 2,
      nodesPerCluster: 4,
      guestsPerNode: 25,
      now: () => START_MS,
    })
    const cluster = sim.clusters[0]!
    const first = byId(await getData(cluster, '/cluster/resources?type=vm'))
    let sawOffline = false
    // Three simulated hours at the default 10 s step.
    for (let step = 1; step <= 1080; step++) {
      sim.tick(START_MS + step * 10_000)
      if (step % 3 === 0) {
        for (const c of sim.clusters) {
          const nodes = await getData(c, '/cluster/resources?type=node')
          if (nodes.some((n) => n.status === 'offline')) sawOffline = true
        }
      }
    }
    const last = byId(await getData(cluster, '/cluster/resources?type=vm'))
    const created = [...last.keys()].filter((id) => !first.has(id))
    const destroyed = [...first.keys()].filter((id) => !last.has(id))
    const flipped = [...last.values()].filter((g) => first.get(String(g.id))?.status !== g.status)
    expect(created.length).toBeGreaterThan(0)
    expect(destroyed.length).toBeGreaterThan(0)
    expect(flipped.length).toBeGreaterThan(0)
    expect(sawOffline).toBe(true)
    // Modest churn: the estate is recognisably the same one.
    expect(Math.abs(sim.guestCount() - 200)).toBeLessThan(60)
    expect(created.length).toBeLessThan(first.size)
  })
})
