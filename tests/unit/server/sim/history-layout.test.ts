// The simulator's rrddata over real HTTPS: the layout of each PVE version (PVE 8: 70 points per
// range; PVE 9: 1,440 per archive), parameter checks, AVERAGE vs MAX, bounds, and the data-source
// names of the real recorded answers in tests/fixtures/proxmox/pve.

import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSimulator } from '../../../../src/server/sim/index.ts'
import type { SimCluster, Simulator } from '../../../../src/server/sim/index.ts'
import {
  PVE9_ARCHIVES,
  START_MS,
  callApi,
  createManualClock,
  expectBuckets,
  getData,
} from './helpers.ts'

type Row = Record<string, number>
const FIXTURES = new URL('../../../fixtures/proxmox/pve/', import.meta.url)

let sim: Simulator
let pve8: SimCluster
let pve9: SimCluster

beforeAll(async () => {
  const clock = createManualClock(START_MS)
  sim = await startSimulator({ seed: 5, clusters: 2, guestsPerNode: 8, tickMs: 0, now: clock.now })
  for (let i = 1; i <= 12; i++) sim.tick(START_MS + i * 10_000)
  pve8 = sim.clusters[0]!
  pve9 = sim.clusters[1]!
})
afterAll(async () => {
  await sim.stop()
})

async function versionOf(cluster: SimCluster): Promise<string> {
  return (await getData<{ version: string }>(cluster, '/version')).version
}

async function guestPath(cluster: SimCluster, type: 'qemu' | 'lxc'): Promise<string> {
  const guests = await getData(cluster, '/cluster/resources?type=vm')
  const g = guests.find((e) => e.type === type && e.status === 'running' && e.template !== 1)!
  return `/nodes/${String(g.node)}/${type}/${String(g.vmid)}/rrddata`
}

function keysOf(rows: Row[]): string[] {
  const keys = new Set<string>()
  for (const row of rows) for (const k of Object.keys(row)) keys.add(k)
  return [...keys].sort()
}

function fixtureKeys(name: string): string[] {
  const text = readFileSync(new URL(name, FIXTURES), 'utf8')
  return keysOf((JSON.parse(text) as { data: Row[] }).data)
}

// The newest bucket is the one holding the simulator's current time (two minutes of ticks).
const expectLayout = (rows: Row[], step: number, points: number): void =>
  expectBuckets(rows, step, points, START_MS / 1000 + 120)

describe('simulator rrddata layouts', () => {
  it('runs PVE 8 on the first cluster and PVE 9 on the second', async () => {
    expect(await versionOf(pve8)).toMatch(/^8\./)
    expect(await versionOf(pve9)).toMatch(/^9\./)
  })

  it('answers 70 points per range on PVE 8 (hour 60 s, day 30 min, year 1 week)', async () => {
    const node = pve8.nodeNames[0]!
    const expected = { hour: 60, day: 1800, week: 10800, month: 43200, year: 604800 }
    for (const [tf, step] of Object.entries(expected)) {
      expectLayout(await getData<Row[]>(pve8, `/nodes/${node}/rrddata?timeframe=${tf}`), step, 70)
    }
    const guest = await guestPath(pve8, 'qemu')
    expectLayout(await getData<Row[]>(pve8, `${guest}?timeframe=day`), 1800, 70)
    expectLayout(await getData<Row[]>(pve8, `${guest}?timeframe=year&cf=MAX`), 604800, 70)
  })

  it('answers the PVE 9 archives (hour 60x60, day 60x1440, year 6 h x 1440, decade)', async () => {
    const node = pve9.nodeNames[0]!
    for (const [tf, step, points] of PVE9_ARCHIVES) {
      const rows = await getData<Row[]>(pve9, `/nodes/${node}/rrddata?timeframe=${tf}`)
      expectLayout(rows, step, points)
    }
    const guest = await guestPath(pve9, 'lxc')
    expectLayout(await getData<Row[]>(pve9, `${guest}?timeframe=hour`), 60, 60)
    expectLayout(await getData<Row[]>(pve9, `${guest}?timeframe=year`), 21600, 1440)
  })

  it('rejects decade on PVE 8 and for guests, a missing timeframe and an unknown cf', async () => {
    const node8 = pve8.nodeNames[0]!
    const bad = await callApi(pve8, `/nodes/${node8}/rrddata?timeframe=decade`)
    expect(bad.status).toBe(400)
    expect((bad.body as { errors: Record<string, string> }).errors.timeframe).toBe(
      "value 'decade' does not have a value in the enumeration 'hour, day, week, month, year'",
    )
    const guest9 = await guestPath(pve9, 'qemu')
    expect((await callApi(pve9, `${guest9}?timeframe=decade`)).status).toBe(400)
    const missing = await callApi(pve9, `/nodes/${pve9.nodeNames[0]!}/rrddata`)
    expect(missing.status).toBe(400)
    expect((missing.body as { errors: Record<string, string> }).errors).toHaveProperty('timeframe')
    const cf = await callApi(pve9, `${guest9}?timeframe=hour&cf=MIN`)
    expect(cf.status).toBe(400)
    expect((cf.body as { errors: Record<string, string> }).errors).toHaveProperty('cf')
  })

  it('keeps MAX at or above AVERAGE for every bucket and field, within bounds', async () => {
    for (const cluster of [pve8, pve9]) {
      const paths = [
        `/nodes/${cluster.nodeNames[0]!}/rrddata`,
        await guestPath(cluster, 'qemu'),
        await guestPath(cluster, 'lxc'),
        `/nodes/${cluster.nodeNames[1]!}/storage/local/rrddata`,
      ]
      for (const path of paths) {
        for (const tf of ['hour', 'day', 'year']) {
          const avg = await getData<Row[]>(cluster, `${path}?timeframe=${tf}`)
          const max = await getData<Row[]>(cluster, `${path}?timeframe=${tf}&cf=MAX`)
          expect(max.length).toBe(avg.length)
          for (const [i, row] of avg.entries()) {
            expect(Object.keys(max[i]!).sort()).toEqual(Object.keys(row).sort())
            for (const [key, value] of Object.entries(row)) {
              expect(max[i]![key]!, `${path} ${tf} ${key}`).toBeGreaterThanOrEqual(value * 0.999999)
            }
            for (const r of [row, max[i]!]) {
              if (r.cpu !== undefined) expect(r.cpu).toBeLessThanOrEqual(1)
              if (r.mem !== undefined) expect(r.mem).toBeLessThanOrEqual(r.maxmem!)
              if (r.used !== undefined) expect(r.used).toBeLessThanOrEqual(r.total!)
              if (r.memused !== undefined) expect(r.memused).toBeLessThanOrEqual(r.memtotal!)
            }
          }
        }
      }
    }
  })

  it('uses the data-source names of the recorded PVE 9 answers, and the pve2 set on PVE 8', async () => {
    const node9 = await getData<Row[]>(pve9, `/nodes/${pve9.nodeNames[0]!}/rrddata?timeframe=hour`)
    expect(keysOf(node9)).toEqual(fixtureKeys('node-rrddata-hour__pulse-pve9.2.3.json'))
    const qemu9 = await getData<Row[]>(pve9, `${await guestPath(pve9, 'qemu')}?timeframe=year`)
    expect(keysOf(qemu9)).toEqual(fixtureKeys('qemu-rrddata-year__pulse-pve9.2.3.json'))
    const lxc9 = await getData<Row[]>(pve9, `${await guestPath(pve9, 'lxc')}?timeframe=hour`)
    expect(keysOf(lxc9)).toEqual(fixtureKeys('lxc-rrddata-hour__pulse-pve9.2.3.json'))
    const pve9Only = /^(memavailable|arcsize|memhost|pressure.*)$/
    const node8 = await getData<Row[]>(pve8, `/nodes/${pve8.nodeNames[0]!}/rrddata?timeframe=hour`)
    expect(keysOf(node8)).toEqual(
      fixtureKeys('node-rrddata-hour__pulse-pve9.2.3.json').filter((k) => !pve9Only.test(k)),
    )
    const qemu8 = await getData<Row[]>(pve8, `${await guestPath(pve8, 'qemu')}?timeframe=hour`)
    expect(keysOf(qemu8)).toEqual(
      fixtureKeys('qemu-rrddata-year__pulse-pve9.2.3.json').filter((k) => !pve9Only.test(k)),
    )
    const storage = await getData<Row[]>(
      pve8,
      `/nodes/${pve8.nodeNames[0]!}/storage/local/rrddata?timeframe=day`,
    )
    expect(keysOf(storage)).toEqual(['time', 'total', 'used'])
  })
})
