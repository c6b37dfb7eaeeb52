// The history service against the real simulator (src/server/sim, branch i25-sim merged): a
// chart's points equal the simulator's rrddata, AVERAGE and MAX, for the hour, day and year, on a
// PVE 8 cluster (70 points per range) and a PVE 9 one (1,440 per archive); a node that was offline
// stays a gap; a storage that fills steadily gets "full in N days". Real HTTPS on 127.0.0.1,
// through the app's own poller and its client per endpoint.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  RANGE_SECONDS,
  RANGE_TIMEFRAME,
  type HistoryRange,
  type HistorySeries,
} from '../../../../src/shared/model/history.ts'
import { createEmptyState, type State } from '../../../../src/shared/model/state.ts'
import {
  createPoller,
  type CollectedState,
  type Poller,
} from '../../../../src/server/collect/poller.ts'
import {
  createEmptyRecentStore,
  createHistoryParts,
  type HistoryParts,
} from '../../../../src/server/history/history-parts.ts'
import {
  startSimulator,
  type SimCluster,
  type Simulator,
} from '../../../../src/server/sim/index.ts'
import { getData, START_MS } from '../sim/helpers.ts'

const MIN = 60_000
let t = START_MS
let sim: Simulator
let poller: Poller
let state: State
let parts: HistoryParts

async function poll(): Promise<void> {
  await poller.pollNow()
}

beforeAll(async () => {
  sim = await startSimulator({
    seed: 9,
    clusters: 2,
    nodesPerCluster: 3,
    guestsPerNode: 6,
    tickMs: 0,
    now: () => t,
  })
  for (let i = 0; i < 5; i++) sim.tick((t += MIN))
  let collected: CollectedState | undefined
  poller = createPoller({ now: () => t, onState: (s) => (collected = s) })
  poller.setEndpoints(
    sim.clusters.map((cluster, index) => ({
      id: `sim-${index}`,
      name: cluster.name,
      type: 'pve' as const,
      host: cluster.url,
      auth: { kind: 'token' as const, tokenId: cluster.tokenId, secret: cluster.tokenSecret },
      verifySSL: false,
    })),
  )
  await poll()
  state = { ...createEmptyState(t, 'test'), ...collected! }
  parts = createHistoryParts({
    state: () => state,
    historyClient: (instance) => poller.historyClient(instance),
    recent: createEmptyRecentStore(),
    now: () => t,
  })
}, 60_000)
afterAll(async () => {
  await poller?.stop()
  await sim?.stop()
})

type Row = Record<string, number>
const rrd = (cluster: SimCluster, path: string, tf: string, cf: string) =>
  getData<Row[]>(cluster, `${path}/rrddata?timeframe=${tf}&cf=${cf}`)

/** Our series against the source's rows: same times, values within 1 %, gaps where keys are omitted. */
function expectSame(
  series: HistorySeries,
  rows: Row[],
  cf: 'avg' | 'max',
  value: (r: Row) => number | undefined,
) {
  expect(series.time).toEqual(rows.map((r) => r.time))
  const ours = cf === 'avg' ? series.avg : series.max!
  rows.forEach((row, i) => {
    const want = value(row)
    if (want === undefined) expect(ours[i], `${row.time}`).toBeNull()
    else
      expect(Math.abs(ours[i]! - want), `${row.time}`).toBeLessThanOrEqual(
        Math.abs(want) * 0.01 + 1e-9,
      )
  })
}

const cpuOf = (r: Row) => (r.cpu === undefined ? undefined : r.cpu * 100)
const memOf = (r: Row) => (r.mem === undefined || !r.maxmem ? undefined : (r.mem / r.maxmem) * 100)

describe('history against the simulator', () => {
  const ranges: HistoryRange[] = ['1h', '24h', '1y']
  it.each([
    ['PVE 8', 0],
    ['PVE 9', 1],
  ])('equals the rrddata of a %s guest for the hour, day and year', async (_label, index) => {
    const cluster = sim.clusters[index]!
    const guest = state.vms.find((g) => g.instance === cluster.name && g.status === 'running')!
    const path = `/nodes/${guest.node}/qemu/${guest.vmid}`
    for (const range of ranges) {
      const answer = await parts.service.answer(guest.id, range, ['cpu', 'memory'])
      expect(answer.source, range).toBe('proxmox')
      const since = Math.floor(t / 1000) - RANGE_SECONDS[range]
      const tf = RANGE_TIMEFRAME[range]
      const avg = (await rrd(cluster, path, tf, 'AVERAGE')).filter((r) => r.time! >= since)
      const max = (await rrd(cluster, path, tf, 'MAX')).filter((r) => r.time! >= since)
      expect(avg.length, range).toBeGreaterThan(1)
      expectSame(answer.series.cpu!, avg, 'avg', cpuOf)
      expectSame(answer.series.cpu!, max, 'max', cpuOf)
      expectSame(answer.series.memory!, avg, 'avg', memOf)
    }
  })

  it("keeps a node's offline minutes a gap", async () => {
    const cluster = sim.clusters[1]!
    const name = cluster.nodeNames[1]!
    sim.setNodeOnline(cluster.name, name, false)
    const downFrom = t / 1000 + 60
    for (let i = 0; i < 4; i++) sim.tick((t += MIN))
    sim.setNodeOnline(cluster.name, name, true)
    const downTo = t / 1000
    for (let i = 0; i < 3; i++) sim.tick((t += MIN))
    parts.cache.clear()
    const answer = await parts.service.answer(`${cluster.name}-${name}`, '1h', ['cpu'])
    const cpu = answer.series.cpu!
    const inGap = cpu.time.map((time, i) => [time, cpu.avg[i]] as const)
    const gap = inGap.filter(([time]) => time >= downFrom && time <= downTo)
    expect(gap).toHaveLength(4)
    expect(gap.every(([, v]) => v === null)).toBe(true)
    const after = inGap.filter(([time]) => time > downTo)
    expect(after.length).toBeGreaterThan(0)
    expect(after.every(([, v]) => typeof v === 'number' && v > 0)).toBe(true)
  })

  it('forecasts "full in N days" for a simulated storage that fills steadily', async () => {
    await poll()
    expect(state.storage.length).toBeGreaterThan(0)
    // Read every storage: one per endpoint per tick.
    for (let i = 0; i < state.storage.length; i++) await parts.forecasts.tick()
    const next = { ...state }
    parts.decorate(next)
    const forecasted = next.storage.filter((s) => s.forecast)
    expect(forecasted.length).toBeGreaterThan(0)
    for (const s of forecasted) {
      expect(s.forecast!.fullInDays).toBeGreaterThanOrEqual(0)
      expect(s.forecast!.fullInDays).toBeLessThanOrEqual(365)
    }
  })
})
