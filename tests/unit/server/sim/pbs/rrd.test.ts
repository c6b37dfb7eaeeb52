// The PBS simulator's RRD endpoints over real HTTPS: the PVE 9 archive layout, the real data-source
// names, `cf` required, MAX at or above AVERAGE, the host's newest point equal to its live status,
// and one datastore that fills steadily with its live `used` as the newest point.

import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startPbsSimulator } from '../../../../../src/server/sim/pbs/index.ts'
import type { PbsSimulator, SimPbsServer } from '../../../../../src/server/sim/pbs/index.ts'
import { START_MS, callPbs, createManualClock, getPbsData } from './helpers.ts'
import { PVE9_ARCHIVES, expectBuckets } from '../helpers.ts'
import { PBS_NODE_FIELDS, PBS_STORE_FIELDS } from '../../../../../src/server/sim/history/layout.ts'

type Row = Record<string, number>
describe('simulated PBS rrd', () => {
  const clock = createManualClock(START_MS)
  let sim: PbsSimulator
  let pbs: SimPbsServer

  beforeAll(async () => {
    sim = await startPbsSimulator({ seed: 11, tickMs: 0, now: clock.now })
    pbs = sim.servers[0]!
  })
  afterAll(async () => {
    await sim.stop()
  })

  it('answers the PVE 9 layouts with the real field names, oldest first', async () => {
    for (const [tf, step, points] of PVE9_ARCHIVES) {
      const rows = await getPbsData<Row[]>(pbs, `/nodes/localhost/rrd?timeframe=${tf}&cf=AVERAGE`)
      expectBuckets(rows, step, points, START_MS / 1000)
      expect(Object.keys(rows[0]!).sort()).toEqual(['time', ...PBS_NODE_FIELDS].sort())
    }
    const store = await getPbsData<Row[]>(pbs, '/admin/datastore/main/rrd?timeframe=day&cf=MAX')
    expect(store.length).toBe(1440)
    expect(Object.keys(store[0]!).sort()).toEqual(['time', ...PBS_STORE_FIELDS].sort())
  })

  it('requires cf and timeframe, and names the parameter', async () => {
    const noCf = await callPbs(pbs, '/nodes/localhost/rrd?timeframe=hour')
    expect(noCf.status).toBe(400)
    expect(noCf.text).toContain("'cf'")
    const storeNoCf = await callPbs(pbs, '/admin/datastore/main/rrd?timeframe=hour')
    expect(storeNoCf.status).toBe(400)
    const noTf = await callPbs(pbs, '/admin/datastore/main/rrd?cf=MAX')
    expect(noTf.status).toBe(400)
    expect(noTf.text).toContain("'timeframe'")
    const bad = await callPbs(pbs, '/nodes/localhost/rrd?timeframe=century&cf=AVERAGE')
    expect(bad.status).toBe(400)
  })

  it('keeps MAX at or above AVERAGE, and ends the hour at the live status', async () => {
    for (const path of ['/nodes/localhost/rrd', '/admin/datastore/offsite/rrd']) {
      for (const tf of ['hour', 'day', 'year']) {
        const avg = await getPbsData<Row[]>(pbs, `${path}?timeframe=${tf}&cf=AVERAGE`)
        const max = await getPbsData<Row[]>(pbs, `${path}?timeframe=${tf}&cf=MAX`)
        for (const [i, row] of avg.entries()) {
          for (const [key, value] of Object.entries(row)) {
            expect(max[i]![key]!, `${path} ${tf} ${key}`).toBeGreaterThanOrEqual(value * 0.999999)
          }
          if (row.used !== undefined) expect(row.used).toBeLessThanOrEqual(row.total!)
          if (row.cpu !== undefined) expect(max[i]!.cpu).toBeLessThanOrEqual(1)
        }
      }
    }
    const status = await getPbsData<Record<string, Row>>(pbs, '/nodes/localhost/status')
    const hour = await getPbsData<Row[]>(pbs, '/nodes/localhost/rrd?timeframe=hour&cf=AVERAGE')
    expect(hour.at(-1)!.memtotal).toBe(status.memory!.total)
    expect(hour.at(-1)!.used).toBe(status.root!.used)
  })

  it('has a datastore that fills steadily, its newest point the live usage', async () => {
    const usage = await getPbsData(pbs, '/status/datastore-usage')
    const main = usage.find((u) => u.store === 'main')!
    const month = await getPbsData<Row[]>(
      pbs,
      '/admin/datastore/main/rrd?timeframe=month&cf=AVERAGE',
    )
    const first = month[month.length - 30 * 48]!
    const last = month.at(-1)!
    const perDay = (last.used! - first.used!) / 30
    expect(perDay).toBeGreaterThan(0)
    const daysToFull = (last.total! - last.used!) / perDay
    expect(daysToFull).toBeGreaterThan(10)
    expect(daysToFull).toBeLessThan(90)
    expect(last.used! / (main.used as number)).toBeCloseTo(1, 5)
    // A day later the live usage has grown by what the line said.
    clock.set(START_MS + 86_400_000)
    sim.tick()
    const later = await getPbsData(pbs, '/status/datastore-usage')
    const grown = (later.find((u) => u.store === 'main')!.used as number) - (main.used as number)
    expect(grown / perDay).toBeCloseTo(1, 1)
  })
})
