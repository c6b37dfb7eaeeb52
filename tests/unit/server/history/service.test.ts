// The answers of /api/history: Proxmox RRD first, then our recent minutes newer than its last row
// ('mixed'); our store alone when the source cannot answer ('pulse'); a 502 naming the endpoint
// problem when neither can; an offline node's minutes stay gaps; the batch answers from our
// store where it covers the range and otherwise makes at most a few source reads. Proxmox is a
// real HTTPS stub on 127.0.0.1 (each test scripts its answers;
// history-sim.test.ts runs against the simulator);
// the recent store is a fake implementing the RecentStore interface (the real one is built on
// branch i25-store).
import { afterEach, describe, expect, it } from 'vitest'
import type { AppError } from '../../../../src/shared/model/errors.ts'
import { createEmptyState, type State } from '../../../../src/shared/model/state.ts'
import type { HistoryClient } from '../../../../src/server/collect/poller.ts'
import { createHistoryBudget } from '../../../../src/server/history/budget.ts'
import { createRrdCache } from '../../../../src/server/history/rrd-cache.ts'
import { BATCH_SOURCE_READS, createHistoryService } from '../../../../src/server/history/service.ts'
import { createSourceReader } from '../../../../src/server/history/source-reader.ts'
import type { RecentStore } from '../../../../src/server/history/types.ts'
import { makeCollected } from '../collected-fixture.ts'
import { fakeRecentStore, minutes, useRrdStub } from './history-fixture.ts'

// The source's newest row is 10 minutes old; rows every minute for the hour before.
const NOW_S = 1_785_200_000
const SOURCE_LAST = NOW_S - 600
const rrdRows = (cf: string) =>
  Array.from({ length: 60 }, (_, i) => ({
    time: SOURCE_LAST - (59 - i) * 60,
    cpu: cf === 'MAX' ? 0.5 : 0.25,
    maxcpu: 4,
    memused: 50,
    memtotal: 100,
  }))

let status: HistoryClient['status'] = 'connected'
const rrd = useRrdStub((req) => {
  const cf = new URL(req.path, 'https://x').searchParams.get('cf') ?? 'AVERAGE'
  return { body: { data: rrdRows(cf) } }
})
afterEach(() => {
  status = 'connected'
})

function stateWith(mutate?: (state: State) => void): State {
  const state: State = { ...createEmptyState(NOW_S * 1000, 'test'), ...makeCollected(40, 0) }
  mutate?.(state)
  return state
}

function service(recent: RecentStore, state = stateWith()) {
  const now = () => NOW_S * 1000
  const budget = createHistoryBudget(undefined, now)
  const endpoint = (): HistoryClient => ({
    client: rrd().client,
    type: 'pve',
    status,
    error: 'Cannot reach lab: connection refused.',
  })
  const reader = createSourceReader({
    historyClient: (name) => (name === 'lab' ? endpoint() : undefined),
    budget,
    cache: createRrdCache(now),
  })
  return Object.assign(createHistoryService({ state: () => state, reader, recent, now }), {
    budget,
  })
}

describe('history answers', () => {
  it('appends our minutes newer than the source last row, as mixed', async () => {
    const recent = fakeRecentStore({ 'lab-pve1': { cpu: minutes(NOW_S - 60, 30, () => 40) } })
    const answer = await service(recent).answer('lab-pve1', '1h', ['cpu', 'memory'])
    expect(answer).toMatchObject({ resourceId: 'lab-pve1', range: '1h', source: 'mixed' })
    expect(answer.stepSeconds).toBe(60)
    const cpu = answer.series.cpu!
    const fromSource = cpu.time.filter((t) => t <= SOURCE_LAST)
    expect(fromSource[0]).toBeGreaterThanOrEqual(NOW_S - 3600)
    expect(cpu.avg[fromSource.length - 1]).toBe(25)
    expect(cpu.max![fromSource.length - 1]).toBe(50)
    // Our minutes after the source's last row only, none duplicated.
    const ours = cpu.time.slice(fromSource.length)
    expect(ours[0]).toBeGreaterThan(SOURCE_LAST)
    expect(ours.at(-1)).toBe(NOW_S - 60)
    expect(cpu.avg.at(-1)).toBe(40)
    // Memory came from the source only.
    expect(answer.series.memory!.avg.every((v) => v === 50)).toBe(true)
    expect(rrd().stub.requests).toHaveLength(2)
  })

  it('answers from our store alone when the endpoint is down, and 502 when we have nothing', async () => {
    status = 'error'
    const recent = fakeRecentStore({ 'lab-pve1': { cpu: minutes(NOW_S - 60, 30, () => 40) } })
    const answer = await service(recent).answer('lab-pve1', '1h', ['cpu'])
    expect(answer.source).toBe('pulse')
    expect(answer.series.cpu!.avg.every((v) => v === 40)).toBe(true)
    const err = (await service(fakeRecentStore({}))
      .answer('lab-pve1', '1h', ['cpu'])
      .catch((e: unknown) => e)) as AppError
    expect(err.status).toBe(502)
    expect(err.message).toContain('Cannot reach lab: connection refused.')
    expect(rrd().stub.requests).toHaveLength(0)
  })

  it('keeps an offline node a gap: no line through it, no zero', async () => {
    // pve2 is offline now; it was offline for minutes 10-19 of our store's half hour too.
    const state = stateWith((s) => {
      s.nodes = s.nodes.map((n) => (n.name === 'pve2' ? { ...n, status: 'offline' } : n))
    })
    const offline = (i: number) => (i >= 10 && i < 20 ? null : 30)
    const recent = fakeRecentStore({ 'lab-pve2': { cpu: minutes(NOW_S - 60, 30, offline) } })
    const answer = await service(recent, state).answer('lab-pve2', '1h', ['cpu'])
    expect(answer.source).toBe('pulse')
    const cpu = answer.series.cpu!
    expect(cpu.time).toHaveLength(30)
    expect(cpu.avg.slice(10, 20)).toEqual(Array(10).fill(null))
    expect(cpu.max!.slice(10, 20)).toEqual(Array(10).fill(null))
    expect(cpu.avg.filter((v) => v === 0)).toEqual([])
    // The source was not asked: an offline node's API cannot answer for it.
    expect(rrd().stub.requests).toHaveLength(0)
  })

  it('marks a void between the source and our minutes with a gap', async () => {
    // Our store starts 40 minutes after the source's last row (a restart in between).
    const recent = fakeRecentStore({ 'lab-pve1': { cpu: minutes(NOW_S + 1800, 5, () => 40) } })
    const answer = await service(recent).answer('lab-pve1', '1h', ['cpu'])
    const cpu = answer.series.cpu!
    const at = cpu.time.indexOf(SOURCE_LAST)
    expect(cpu.time[at + 1]).toBe(SOURCE_LAST + 60)
    expect(cpu.avg[at + 1]).toBeNull()
    expect(cpu.avg[at + 2]).toBe(40)
  })

  it('names the parameter for an unknown resource and a metric its kind lacks', async () => {
    const history = service(fakeRecentStore({}))
    const unknown = (await history.answer('nope', '1h').catch((e: unknown) => e)) as AppError
    expect(unknown.status).toBe(404)
    expect(unknown.message).toMatch(/^resourceId: nope /)
    const wrong = (await history
      .answer('lab-pve1-100', '1h', ['load'])
      .catch((e: unknown) => e)) as AppError
    expect(wrong.status).toBe(400)
    expect(wrong.message).toMatch(/^metrics: a guest has no metric "load"/)
  })

  it('answers a batch from our store where it covers the range, in the order asked', async () => {
    const data = Object.fromEntries(
      ['lab-pve1-100', 'lab-pve2-101', 'lab-pve1'].map((id, n) => [
        id,
        { cpu: minutes(NOW_S - 60, 60, () => n) },
      ]),
    )
    const history = service(fakeRecentStore(data, 120))
    const batch = await history.batch(
      ['lab-pve2-101', 'unknown-id', 'lab-pve1-100', 'lab-pve1'],
      '1h',
      ['cpu'],
    )
    expect(batch.items.map((i) => [i.resourceId, i.source])).toEqual([
      ['lab-pve2-101', 'pulse'],
      ['lab-pve1-100', 'pulse'],
      ['lab-pve1', 'pulse'],
    ])
    expect(batch.items[0]!.series.cpu!.avg[0]).toBe(1)
    expect(rrd().stub.requests).toHaveLength(0)
  })

  it('reads the source for at most a few ids of a batch our store does not cover', async () => {
    const history = service(fakeRecentStore({}, 30))
    const ids = makeCollected(40, 0)
      .vms.map((g) => g.id)
      .slice(0, 10)
    const batch = await history.batch(ids, '1h', ['cpu'])
    expect(batch.items).toHaveLength(BATCH_SOURCE_READS)
    expect(batch.items.every((i) => i.source === 'proxmox')).toBe(true)
    expect(rrd().stub.requests).toHaveLength(2 * BATCH_SOURCE_READS)
    // Those now cached are free: the next batch adds a few more.
    const again = await history.batch(ids, '1h', ['cpu'])
    expect(again.items).toHaveLength(2 * BATCH_SOURCE_READS)
  })

  it('leaves ids out of a batch rather than wait when the endpoint has no calls left', async () => {
    const history = service(fakeRecentStore({}, 30))
    const { vms, containers } = makeCollected(40, 0)
    const ids = [...vms, ...containers].map((g) => g.id)
    // Spend the minute's allowance (60 calls: 30 reads of 2) with single answers.
    for (const id of ids.slice(0, 30)) await history.answer(id, '24h', ['cpu'])
    expect(rrd().stub.requests).toHaveLength(60)
    const batch = await history.batch(ids.slice(30, 36), '24h', ['cpu'])
    expect(batch.items).toEqual([])
    expect(rrd().stub.requests).toHaveLength(60)
    // Nothing was queued for the allowance and refused: the batch did not wait for it.
    expect(history.budget.stats().lab).toMatchObject({ queued: 0, refused: 0 })
  })
})
