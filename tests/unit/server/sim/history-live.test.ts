// The simulator's history agrees with what it reported live: the newest hour point of a guest and a
// node is the live value of that minute, stopped guests and offline nodes leave gaps (omitted keys,
// never nulls or zeros), and a filling storage grows at the rate its history shows.

import { afterEach, describe, expect, it } from 'vitest'
import { startSimulator } from '../../../../src/server/sim/index.ts'
import type { SimCluster, Simulator } from '../../../../src/server/sim/index.ts'
import { START_MS, createManualClock, getData } from './helpers.ts'

// The keys these tests read; a gap row has only `time`, which the tests check before reading more.
interface Row {
  [key: string]: number
  time: number
  cpu: number
  mem: number
  memused: number
  used: number
  total: number
}
type Entry = Record<string, unknown>
const MIN = 60_000

const running: Simulator[] = []
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.stop()))
})

async function start(clusters = 2): Promise<Simulator> {
  const clock = createManualClock(START_MS)
  const sim = await startSimulator({
    seed: 9,
    clusters,
    guestsPerNode: 10,
    tickMs: 0,
    now: clock.now,
  })
  running.push(sim)
  return sim
}

const rrd = (cluster: SimCluster, path: string, tf: string, cf = 'AVERAGE'): Promise<Row[]> =>
  getData<Row[]>(cluster, `${path}/rrddata?timeframe=${tf}&cf=${cf}`)

const guestPath = (g: Entry): string =>
  `/nodes/${String(g.node)}/${String(g.type)}/${String(g.vmid)}`
const onlyTime = (row: Row): boolean => Object.keys(row).join() === 'time'

describe('simulator history against live values', () => {
  it('ends the hour chart with the live values of the current minute (AVERAGE and MAX)', async () => {
    const sim = await start()
    // Six ticks of 10 s inside one minute: the newest bucket averages them and keeps the peak.
    const seen = new Map<string, number[]>()
    for (let i = 1; i <= 6; i++) {
      sim.tick(START_MS + 5 * MIN + (i - 1) * 10_000)
      for (const cluster of sim.clusters) {
        for (const g of await getData(cluster, '/cluster/resources?type=vm')) {
          if (g.status !== 'running') continue
          const id = `${cluster.name}${guestPath(g)}`
          seen.set(id, [...(seen.get(id) ?? []), Number(g.cpu)])
        }
      }
    }
    for (const cluster of sim.clusters) {
      const [id, cpus] = [...seen.entries()].find(
        ([k, v]) => k.startsWith(`${cluster.name}/`) && v.length === 6,
      )!
      const path = id.slice(cluster.name.length)
      const avg = await rrd(cluster, path, 'hour')
      const max = await rrd(cluster, path, 'hour', 'MAX')
      const mean = cpus.reduce((a, b) => a + b, 0) / cpus.length
      expect(avg[avg.length - 1]!.time).toBe((START_MS + 5 * MIN) / 1000)
      expect(avg[avg.length - 1]!.cpu).toBeCloseTo(mean, 5)
      expect(max[max.length - 1]!.cpu).toBeCloseTo(Math.max(...cpus), 5)
    }
    // One tick in the next minute: its bucket is exactly that tick's live reading.
    sim.tick(START_MS + 6 * MIN)
    for (const cluster of sim.clusters) {
      const guests = await getData(cluster, '/cluster/resources?type=vm')
      const g = guests.find((e) => e.status === 'running' && e.type === 'qemu')!
      const last = (await rrd(cluster, guestPath(g), 'hour')).at(-1)!
      expect(last.time).toBe((START_MS + 6 * MIN) / 1000)
      expect(last.cpu).toBeCloseTo(Number(g.cpu), 5)
      expect(last.mem / Number(g.mem)).toBeCloseTo(1, 5)
      const node = cluster.nodeNames[0]!
      const status = await getData<Entry>(cluster, `/nodes/${node}/status`)
      const nodeLast = (await rrd(cluster, `/nodes/${node}`, 'hour')).at(-1)!
      expect(nodeLast.cpu).toBeCloseTo(Number(status.cpu), 5)
      expect(nodeLast.memused / Number((status.memory as Entry).used)).toBeCloseTo(1, 4)
    }
  })

  it('leaves a stopped guest without samples: every bucket is {time} alone', async () => {
    const sim = await start()
    for (let i = 1; i <= 3; i++) sim.tick(START_MS + i * MIN)
    for (const [index, cluster] of sim.clusters.entries()) {
      const guests = await getData(cluster, '/cluster/resources?type=vm')
      const stopped = guests.find((g) => g.status === 'stopped' && g.template !== 1)!
      const hour = await rrd(cluster, guestPath(stopped), 'hour')
      // PVE 8 keeps all 70 buckets; PVE 9.0.7+ drops the trailing empty one.
      expect(hour.length).toBe(index === 0 ? 70 : 59)
      expect(hour.every(onlyTime)).toBe(true)
      expect(JSON.stringify(hour)).not.toContain('null')
    }
  })

  it('keeps the minutes a node was offline as gaps for it, its guests and its storages', async () => {
    const sim = await start(1)
    const cluster = sim.clusters[0]!
    const node = cluster.nodeNames[1]!
    let t = START_MS
    const tickMinutes = (n: number): void => {
      for (let i = 0; i < n; i++) sim.tick((t += MIN))
    }
    tickMinutes(5)
    const guests = await getData(cluster, '/cluster/resources?type=vm')
    const guest = guests.find((g) => g.node === node && g.status === 'running')!
    sim.setNodeOnline(cluster.name, node, false)
    const downFrom = t / 1000 + 60
    tickMinutes(4)
    sim.setNodeOnline(cluster.name, node, true)
    const downTo = t / 1000
    tickMinutes(3)
    const paths = [`/nodes/${node}`, guestPath(guest), `/nodes/${node}/storage/local`]
    for (const path of paths) {
      for (const cf of ['AVERAGE', 'MAX']) {
        const hour = await rrd(cluster, path, 'hour', cf)
        const gap = hour.filter((r) => r.time >= downFrom && r.time <= downTo)
        expect(gap.length, path).toBe(4)
        expect(gap.every(onlyTime), path).toBe(true)
        const around = hour.filter((r) => r.time > START_MS / 1000 && !gap.includes(r))
        expect(around.length, path).toBeGreaterThan(4)
        expect(around.some(onlyTime), path).toBe(false)
      }
    }
  })

  it('has storages that fill steadily over a month and keep growing live at that rate', async () => {
    const sim = await start()
    sim.tick(START_MS + MIN)
    let checked = 0
    for (const cluster of sim.clusters) {
      const node = cluster.nodeNames[0]!
      const storages = await getData(cluster, `/nodes/${node}/storage`)
      for (const s of storages) {
        const path = `/nodes/${node}/storage/${String(s.storage)}`
        const month = (await rrd(cluster, path, 'month')).filter((r) => !onlyTime(r))
        const slope = fitSlope(month.slice(-30 * 48))
        if (slope.perDay <= 0 || slope.r2 < 0.95) continue
        // Root filesystems creep up too, but would take years to fill.
        const total = month.at(-1)!.total
        const daysToFull = (total - month.at(-1)!.used) / slope.perDay
        if (daysToFull > 365) continue
        checked++
        expect(daysToFull).toBeGreaterThan(10)
        expect(daysToFull).toBeLessThan(100)
        // The newest point is the live value; six hours later it has grown at the same rate.
        const live = await getData<Entry>(cluster, `${path}/status`)
        const hourNow = (await rrd(cluster, path, 'hour')).at(-1)!
        expect(hourNow.used / Number(live.used)).toBeCloseTo(1, 6)
      }
    }
    expect(checked).toBeGreaterThanOrEqual(2)
    const cluster = sim.clusters[0]!
    const node = cluster.nodeNames[0]!
    const before = await fillingUsage(cluster, node)
    for (let h = 1; h <= 6; h++) sim.tick(START_MS + MIN + h * 3_600_000)
    const after = await fillingUsage(cluster, node)
    expect(before.size).toBeGreaterThan(0)
    for (const [name, used] of before) {
      const grown = (after.get(name)! - used) / (6 / 24)
      expect(grown / used, name).toBeGreaterThan(0.002)
    }
  })
})

// Storages of `node` whose month chart rises as a line, with their live usage.
async function fillingUsage(cluster: SimCluster, node: string): Promise<Map<string, number>> {
  const out = new Map<string, number>()
  for (const s of await getData(cluster, `/nodes/${node}/storage`)) {
    const path = `/nodes/${node}/storage/${String(s.storage)}`
    const month = (await rrd(cluster, path, 'month')).filter((r) => !onlyTime(r))
    const fit = fitSlope(month.slice(-30 * 48))
    const last = month.at(-1)!
    const fast = fit.perDay > 0 && (last.total - last.used) / fit.perDay < 365
    if (fast && fit.r2 > 0.95) out.set(String(s.storage), Number(s.used))
  }
  return out
}

// Least squares of used over time: bytes per day and the share of variance the line explains.
function fitSlope(rows: Row[]): { perDay: number; r2: number } {
  const n = rows.length
  if (n < 2) return { perDay: 0, r2: 0 }
  const mx = rows.reduce((a, r) => a + r.time, 0) / n
  const my = rows.reduce((a, r) => a + r.used, 0) / n
  let sxy = 0
  let sxx = 0
  let syy = 0
  for (const r of rows) {
    sxy += (r.time - mx) * (r.used - my)
    sxx += (r.time - mx) ** 2
    syy += (r.used - my) ** 2
  }
  if (syy === 0) return { perDay: 0, r2: 0 }
  return { perDay: (sxy / sxx) * 86_400, r2: (sxy * sxy) / (sxx * syy) }
}
