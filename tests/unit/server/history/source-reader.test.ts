// Reading Proxmox RRD on demand: the calls a chart makes (AVERAGE and MAX on the right path),
// identical reads in flight coalesced, frames cached until their timeframe's TTL, the
// per-endpoint allowance (2 in flight, a number a minute, then a 503 naming the endpoint), and
// an endpoint that is down named in the error. Proxmox is a real HTTPS stub on 127.0.0.1
// (tests/unit/server/collect/stub-pve.ts); each test scripts its answers; history-sim.test.ts runs
// against the simulator.
import { afterEach, describe, expect, it } from 'vitest'
import { AppError } from '../../../../src/shared/model/errors.ts'
import type { HistoryClient } from '../../../../src/server/collect/poller.ts'
import { createHistoryBudget, HISTORY_BUDGET } from '../../../../src/server/history/budget.ts'
import { CACHE_TTL_MS, createRrdCache } from '../../../../src/server/history/rrd-cache.ts'
import { createSourceReader } from '../../../../src/server/history/source-reader.ts'
import { LXC, NODE, NODE_HOUR, recorded, useRrdStub } from './history-fixture.ts'

let inFlight = 0
let peak = 0
const release: (() => void)[] = []
let hold = false

const rrd = useRrdStub(async () => {
  inFlight++
  peak = Math.max(peak, inFlight)
  if (hold) await new Promise<void>((resolve) => release.push(resolve))
  inFlight--
  return { body: { data: recorded(NODE_HOUR) } }
})
afterEach(() => {
  peak = 0
  hold = false
  release.splice(0).forEach((go) => go())
})

function setup(status: HistoryClient['status'] = 'connected', limits = HISTORY_BUDGET) {
  let clock = 1_000_000
  const now = () => clock
  const budget = createHistoryBudget(limits, now)
  const cache = createRrdCache(now)
  const endpoint: HistoryClient = {
    client: rrd().client,
    type: 'pve',
    status,
    error: 'Cannot reach lab: refused.',
  }
  const reader = createSourceReader({
    historyClient: (name) => (name === 'lab' ? endpoint : undefined),
    budget,
    cache,
  })
  return { reader, budget, cache, advance: (ms: number) => (clock += ms) }
}

/** Waits until the stub has seen `count` requests. */
async function seen(count: number): Promise<void> {
  while (rrd().stub.requests.length < count) await new Promise((resolve) => setTimeout(resolve, 5))
}

describe('source reader', () => {
  it('asks the RRD path of the resource for AVERAGE and MAX of the timeframe', async () => {
    const { reader } = setup()
    await reader.read(LXC, 'day')
    const paths = rrd()
      .stub.requests.map((r) => r.path)
      .sort()
    expect(paths).toEqual([
      '/api2/json/nodes/pve1/lxc/101/rrddata?timeframe=day&cf=AVERAGE',
      '/api2/json/nodes/pve1/lxc/101/rrddata?timeframe=day&cf=MAX',
    ])
  })

  it('coalesces identical reads in flight into one pair of calls', async () => {
    const { reader } = setup()
    hold = true
    const reads = [reader.read(NODE, 'hour'), reader.read(NODE, 'hour'), reader.read(NODE, 'hour')]
    await seen(2)
    hold = false
    release.splice(0).forEach((go) => go())
    const frames = await Promise.all(reads)
    expect(rrd().stub.requests).toHaveLength(2)
    expect(frames[1]).toBe(frames[0])
  })

  it('serves the cache until the timeframe TTL, then reads again', async () => {
    const { reader, cache, advance } = setup()
    await reader.read(NODE, 'hour')
    await reader.read(NODE, 'hour')
    expect(rrd().stub.requests).toHaveLength(2)
    expect(reader.cached(NODE, 'hour')).toBe(true)
    advance(CACHE_TTL_MS.hour)
    expect(reader.cached(NODE, 'hour')).toBe(false)
    await reader.read(NODE, 'hour')
    expect(rrd().stub.requests).toHaveLength(4)
    expect(cache.stats().entries).toBe(1)
    expect(cache.stats().bytes).toBeGreaterThan(0)
  })

  it('keeps at most 2 history calls in flight per endpoint', async () => {
    const { reader, budget } = setup()
    hold = true
    const reads = [reader.read(NODE, 'day'), reader.read(LXC, 'day')]
    await seen(2)
    expect(budget.stats().lab).toMatchObject({ inFlight: 2, queued: 2 })
    hold = false
    release.splice(0).forEach((go) => go())
    await Promise.all(reads)
    expect(peak).toBe(2)
    expect(budget.stats().lab).toMatchObject({ callsLastMinute: 4, total: 4, inFlight: 0 })
  })

  it('refuses with a 503 naming the endpoint once its minute is spent', async () => {
    const { reader, budget, advance } = setup('connected', {
      ...HISTORY_BUDGET,
      perMinute: 2,
      maxWaitMs: 50,
    })
    await reader.read(NODE, 'week')
    const err = await reader.read(LXC, 'week').catch((e: unknown) => e)
    expect(err).toBeInstanceOf(AppError)
    expect((err as AppError).status).toBe(503)
    expect((err as AppError).message).toMatch(/^History reads from lab are at their limit/)
    expect(budget.stats().lab!.refused).toBeGreaterThan(0)
    expect(rrd().stub.requests).toHaveLength(2)
    advance(60_000)
    expect(budget.remaining('lab')).toBe(2)
  })

  it('names the endpoint problem and calls nothing when the endpoint is down', async () => {
    const { reader } = setup('error')
    const err = (await reader.read(NODE, 'hour').catch((e: unknown) => e)) as AppError
    expect(err.code).toBe('HISTORY_UNAVAILABLE')
    expect(err.status).toBe(502)
    expect(err.message).toBe('History of lab-pve1 is unavailable: Cannot reach lab: refused.')
    const offline = await reader
      .read({ ...NODE, nodeDown: true }, 'hour')
      .catch((e: unknown) => e as AppError)
    expect(offline).toBeInstanceOf(AppError)
    expect(rrd().stub.requests).toHaveLength(0)
  })
})
