// Metrics history end to end (issue 25): the server against the real simulator on loopback, one
// PVE 8 and one PVE 9 cluster. What /api/history answers for a range the source keeps equals the
// simulator's own rrddata (AVERAGE and MAX) point for point, and a node that was offline leaves
// a gap in its chart and its guests' charts, never a line through it or a zero. The worker then
// downsamples to the chart's width; at a width of at least the point count that is the identity
// (tests/unit/shared/downsample.test.ts), so these are the chart's points.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { HistoryAnswer, HistoryRange } from '../../../../src/shared/model/history.ts'
import type { State } from '../../../../src/shared/model/state.ts'
import {
  startSimulator,
  type SimCluster,
  type Simulator,
} from '../../../../src/server/sim/index.ts'
import { buildTestApp } from '../helpers.ts'
import { START_MS, createManualClock, getData } from '../sim/helpers.ts'

type Row = Record<string, number>
const MIN = 60_000
const TICK = 10_000

let sim: Simulator
let ctx: Awaited<ReturnType<typeof buildTestApp>>
let base: string
const clock = createManualClock(START_MS)

async function api<T>(path: string): Promise<T> {
  const res = await fetch(`${base}${path}`)
  if (res.status !== 200) throw new Error(`GET ${path}: ${res.status} ${await res.text()}`)
  return (await res.json()) as T
}

const state = () => api<State>('/api/state?format=internal')

/** Advances the simulator and the server together, one poll per simulated tick. */
async function run(ms: number): Promise<void> {
  const end = clock.now() + ms
  while (clock.now() < end) {
    clock.advance(TICK)
    sim.tick(clock.now())
    await ctx.app.poller.pollNow()
  }
}

async function addCluster(cluster: SimCluster): Promise<void> {
  const res = await fetch(`${base}/api/config/nodes`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      type: 'pve',
      name: cluster.name,
      host: cluster.url,
      tokenName: cluster.tokenId,
      tokenValue: cluster.tokenSecret,
      fingerprint: cluster.fingerprint,
      verifySSL: false,
    }),
  })
  expect(res.status).toBe(201)
}

async function majorOf(cluster: SimCluster): Promise<number> {
  const version = await getData<{ version: string }>(cluster, '/version')
  return Number(version.version.split('.')[0])
}

const rrd = (cluster: SimCluster, path: string, timeframe: string, cf: string) =>
  getData<Row[]>(cluster, `${path}/rrddata?timeframe=${timeframe}&cf=${cf}`)

/**
 * Every point of `answer`'s metric that lies in the source's rows equals the row's value in the
 * chart's units (within 1 %); a row without the key is a null. Returns how many points matched.
 */
function expectSourcePoints(
  answer: HistoryAnswer,
  metric: 'cpu' | 'memory',
  avgRows: Row[],
  maxRows: Row[],
  value: (row: Row) => number | undefined,
): number {
  const series = answer.series[metric]!
  const lastSourceTime = avgRows.at(-1)!.time!
  const byTime = new Map(avgRows.map((r, i) => [r.time!, [r, maxRows[i]!] as const]))
  let matched = 0
  series.time.forEach((t, i) => {
    if (t > lastSourceTime) return // our own newer minutes after the RRD's last row
    const rows = byTime.get(t)
    expect(rows, `a point at ${t} that the source does not have`).toBeDefined()
    const [avgRow, maxRow] = rows!
    const expected = value(avgRow)
    const expectedMax = value(maxRow)
    const got = series.avg[i]
    if (expected === undefined) expect(got, `avg at ${t}`).toBeNull()
    else expect(got! / expected, `avg at ${t}`).toBeCloseTo(1, 2)
    const gotMax = series.max?.[i]
    if (expectedMax === undefined) expect(gotMax ?? null, `max at ${t}`).toBeNull()
    else expect(gotMax! / expectedMax, `max at ${t}`).toBeCloseTo(1, 2)
    matched++
  })
  return matched
}

const pct = (used: string, total: string) => (row: Row) =>
  row[used] === undefined || !row[total] ? undefined : (row[used] / row[total]!) * 100
const cpuPct = (row: Row) => (row.cpu === undefined ? undefined : row.cpu * 100)

beforeAll(async () => {
  sim = await startSimulator({
    seed: 11,
    clusters: 2,
    nodesPerCluster: 2,
    guestsPerNode: 4,
    tickMs: 0,
    now: clock.now,
  })
  ctx = await buildTestApp({ pollIntervalMs: 3_600_000 }, { now: clock.now })
  await ctx.app.http.listen({ host: '127.0.0.1', port: 0 })
  base = `http://127.0.0.1:${(ctx.app.http.server.address() as { port: number }).port}`
  for (const cluster of sim.clusters) await addCluster(cluster)
  await run(3 * MIN)
})

afterAll(async () => {
  await ctx?.close()
  await sim?.stop()
})

describe('history against the simulator', () => {
  it('runs one PVE 8 and one PVE 9 cluster', async () => {
    expect((await Promise.all(sim.clusters.map(majorOf))).sort()).toEqual([8, 9])
  })

  const ranges: [HistoryRange, string, number][] = [
    ['1h', 'hour', 50],
    ['24h', 'day', 40],
    ['1y', 'year', 50],
  ]
  for (const [range, timeframe, least] of ranges) {
    it(`answers ${range} with the source's AVERAGE and MAX points for a guest and a node`, async () => {
      const live = await state()
      for (const cluster of sim.clusters) {
        const guest = live.vms.find((g) => g.instance === cluster.name && g.status === 'running')!
        const node = live.nodes.find((n) => n.instance === cluster.name && n.status === 'online')!
        const targets = [
          {
            id: guest.id,
            path: `/nodes/${guest.node}/qemu/${guest.vmid}`,
            memory: pct('mem', 'maxmem'),
          },
          { id: node.id, path: `/nodes/${node.name}`, memory: pct('memused', 'memtotal') },
        ]
        for (const target of targets) {
          const answer = await api<HistoryAnswer>(
            `/api/history/${encodeURIComponent(target.id)}?range=${range}&metrics=cpu,memory`,
          )
          expect(answer.resourceId).toBe(target.id)
          expect(answer.range).toBe(range)
          expect(answer.source).not.toBe('pulse')
          const avg = await rrd(cluster, target.path, timeframe, 'AVERAGE')
          const max = await rrd(cluster, target.path, timeframe, 'MAX')
          const what = `${cluster.name} ${target.id} ${range}`
          expect(expectSourcePoints(answer, 'cpu', avg, max, cpuPct), what).toBeGreaterThan(least)
          expect(
            expectSourcePoints(answer, 'memory', avg, max, target.memory),
            what,
          ).toBeGreaterThan(least)
        }
      }
    })
  }

  it("keeps an offline node's minutes a gap in its chart and its guests' charts", async () => {
    const live = await state()
    const cluster = sim.clusters[0]!
    const node = live.nodes.find((n) => n.instance === cluster.name && n.status === 'online')!
    const guest = [...live.vms, ...live.containers].find(
      (g) => g.instance === cluster.name && g.node === node.name && g.status === 'running',
    )!
    expect(guest, 'a running guest on the node').toBeDefined()
    const downFrom = Math.floor(clock.now() / MIN + 1) * 60
    sim.setNodeOnline(cluster.name, node.name, false)
    await run(5 * MIN)
    const downUntil = Math.floor(clock.now() / MIN) * 60
    sim.setNodeOnline(cluster.name, node.name, true)
    await run(4 * MIN)

    for (const id of [node.id, guest.id]) {
      const answer = await api<HistoryAnswer>(
        `/api/history/${encodeURIComponent(id)}?range=1h&metrics=cpu,memory`,
      )
      for (const metric of ['cpu', 'memory'] as const) {
        const series = answer.series[metric]!
        const inside = series.time
          .map((t, i) => [t, series.avg[i]] as const)
          .filter(([t]) => t > downFrom && t < downUntil)
        expect(inside.length, `${id} ${metric} minutes while offline`).toBeGreaterThanOrEqual(3)
        for (const [t, value] of inside) expect(value, `${id} ${metric} at ${t}`).toBeNull()
        const after = series.avg.filter((v, i) => series.time[i]! > downUntil + 60)
        expect(
          after.some((v) => v !== null && v > 0),
          `${id} ${metric} after`,
        ).toBe(true)
      }
    }
  })
})
