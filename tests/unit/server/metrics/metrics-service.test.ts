// The /metrics builds and their chunks (metrics-service.ts, chunk-pool.ts) on the real live state,
// a real SQLite file and a real poller without endpoints: scrapes of one state share one build, a
// build's chunks are reused only after every answer writing them is done, and a text built from
// reused chunks is the same as one built from fresh buffers.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createPoller } from '../../../../src/server/collect/poller.ts'
import { createLiveState, type LiveState } from '../../../../src/server/live/live-state.ts'
import {
  createMetricsService,
  type MetricsService,
} from '../../../../src/server/metrics/metrics-service.ts'
import { openDatabase, type Db } from '../../../../src/server/store/db.ts'
import { createOutboxCounts } from '../../../../src/server/store/outbox-counts.ts'
import { makeCollected } from '../collected-fixture.ts'
import { makeTempDir } from '../temp-dir.ts'

let temp: ReturnType<typeof makeTempDir>
let db: Db
let live: LiveState

function service(): MetricsService {
  return createMetricsService({
    live,
    version: 'test',
    socketClients: () => 0,
    outbox: createOutboxCounts(db),
    endpoints: () => [],
    poller: createPoller({ onState: () => undefined }),
  })
}
const text = (parts: Buffer[]) => Buffer.concat(parts).toString()

beforeEach(() => {
  temp = makeTempDir()
  db = openDatabase(temp.dir)
  live = createLiveState({ now: () => 1_700_000_000_000, version: 'test', clientCount: () => 0 })
})
afterEach(() => {
  db.close()
  temp.cleanup()
})

describe('the metrics builds', () => {
  it('builds once per published state: two scrapes of it share the resource buffers', async () => {
    await live.applyCollected(makeCollected(3_000, 1))
    const metrics = service()
    const [a, b] = await Promise.all([metrics.scrape(), metrics.scrape()])
    const shared = a!.parts.filter((part) => b!.parts.includes(part))
    // Everything but the pulse_ part, which each scrape builds on its own.
    expect(shared.length).toBeGreaterThan(20)
    expect(text(a!.parts)).toBe(text(b!.parts))
    a!.done()
    b!.done()
  })

  it('reuses the chunks of a retired build only once its last answer is done', async () => {
    const metrics = service()
    await live.applyCollected(makeCollected(3_000, 1))
    const first = await metrics.scrape()
    const firstText = text(first.parts)

    // A new state retires the first build, but an answer is still writing it.
    await live.applyCollected(makeCollected(3_000, 2))
    expect(metrics.pool.pooled).toBe(0)
    const second = await metrics.scrape()
    expect(text(first.parts)).toBe(firstText)
    expect(text(second.parts)).not.toBe(firstText)

    first.done()
    await Promise.resolve()
    const pooled = metrics.pool.pooled
    expect(pooled).toBeGreaterThan(20)

    // The third build takes them, and its text is the one fresh buffers give.
    await live.applyCollected(makeCollected(3_000, 3))
    const third = await metrics.scrape()
    expect(metrics.pool.pooled).toBeLessThan(pooled)
    const fresh = await service().scrape()
    expect(text(third.parts)).toBe(text(fresh.parts))
    second.done()
    third.done()
    fresh.done()
  })

  it('calls done once per answer, whatever calls it twice', async () => {
    const metrics = service()
    await live.applyCollected(makeCollected(2_000, 1))
    const a = await metrics.scrape()
    const b = await metrics.scrape()
    await live.applyCollected(makeCollected(2_000, 2))
    a.done()
    a.done()
    await Promise.resolve()
    // b still reads the retired build: nothing may be given back yet.
    expect(metrics.pool.pooled).toBe(0)
    b.done()
    await Promise.resolve()
    expect(metrics.pool.pooled).toBeGreaterThan(0)
  })
})
