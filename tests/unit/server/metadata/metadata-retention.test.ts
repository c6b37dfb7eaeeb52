// Metadata of guests gone for good is pruned (issue 24 #8): a record whose guest has been absent
// from a fully connected estate for METADATA_RETENTION_MS is removed by the sweep that runs with
// the polls (at most every METADATA_SWEEP_EVERY_MS). Real app and SQLite file, a fake clock
// (polls are published by hand, so the clock alone decides when the sweep is due; each poll
// waits for the sweep it started).
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  METADATA_RETENTION_MS,
  METADATA_SWEEP_EVERY_MS,
} from '../../../../src/server/metadata/metadata-retention.ts'
import { buildTestApp } from '../helpers.ts'
import { estate, guestIds } from './metadata-state.ts'

const DAY = 24 * 60 * 60_000
let clock = Date.UTC(2026, 0, 5, 12, 0, 0)
let tick = 0
let ctx: Awaited<ReturnType<typeof buildTestApp>>
beforeEach(async () => {
  clock = Date.UTC(2026, 0, 5, 12, 0, 0)
  tick = 0
  ctx = await buildTestApp({}, { now: () => clock })
})
afterEach(async () => {
  await ctx.close()
})

const BASE = '/api/guests/metadata'
const kept = async () =>
  Object.keys((await ctx.app.http.inject({ method: 'GET', url: BASE })).json() as object).sort()
/** A poll `after` ms later with guests `without` gone (or the endpoint down). */
const pollAfter = async (after: number, options: Parameters<typeof estate>[2] = {}) => {
  clock += after
  await ctx.app.live.applyCollected(estate(4, ++tick, options))
  await ctx.app.metadataRetention.settled()
}

const A = guestIds(0)
const B = guestIds(1)
const C = guestIds(2)

beforeEach(async () => {
  await pollAfter(0)
  const res = await ctx.app.http.inject({
    method: 'POST',
    url: `${BASE}/batch`,
    payload: {
      updates: {
        [A.id]: { customUrl: 'https://a.example.com' },
        [B.nodeVmid]: { customUrl: 'https://b.example.com' },
        [C.id]: { description: 'c' },
      },
    },
  })
  expect(res.statusCode).toBe(200)
})

describe('pruning metadata of guests gone for good', () => {
  it('states its period: 30 days, swept hourly', () => {
    expect(METADATA_RETENTION_MS).toBe(30 * DAY)
    expect(METADATA_SWEEP_EVERY_MS).toBe(60 * 60_000)
  })

  it('removes a record once its guest has been absent for 30 days, by guest id or node-vmid', async () => {
    const gone = { without: [A.id, B.id] }
    await pollAfter(METADATA_SWEEP_EVERY_MS, gone)
    await pollAfter(METADATA_RETENTION_MS - 1, gone)
    expect(await kept()).toEqual([B.nodeVmid, A.id, C.id].sort())
    await pollAfter(METADATA_SWEEP_EVERY_MS, gone)
    expect(await kept()).toEqual([C.id])
  })

  it('forgets the absence of a guest that comes back', async () => {
    await pollAfter(METADATA_SWEEP_EVERY_MS, { without: [A.id] })
    await pollAfter(20 * DAY)
    await pollAfter(METADATA_SWEEP_EVERY_MS, { without: [A.id] })
    await pollAfter(20 * DAY, { without: [A.id] })
    expect(await kept()).toContain(A.id)
    await pollAfter(METADATA_RETENTION_MS - 20 * DAY, { without: [A.id] })
    expect(await kept()).not.toContain(A.id)
  })

  it('counts nobody absent while an endpoint is down', async () => {
    await pollAfter(METADATA_SWEEP_EVERY_MS, { without: [A.id, B.id, C.id], down: true })
    await pollAfter(METADATA_RETENTION_MS + DAY, { without: [A.id, B.id, C.id], down: true })
    expect(await kept()).toHaveLength(3)
    // Back up with the guests: nothing was marked, nothing goes.
    await pollAfter(METADATA_SWEEP_EVERY_MS)
    await pollAfter(METADATA_RETENTION_MS + DAY)
    expect(await kept()).toHaveLength(3)
  })

  it('sweeps at most once an hour', async () => {
    await pollAfter(METADATA_SWEEP_EVERY_MS, { without: [A.id] })
    // Absent from here on, but the next sweeps are due only an hour later each: the record
    // stays until 30 days after the sweep that first saw it missing.
    await pollAfter(METADATA_RETENTION_MS - 1, { without: [A.id] })
    expect(await kept()).toContain(A.id)
    await pollAfter(1, { without: [A.id] })
    expect(await kept()).toContain(A.id)
    await pollAfter(METADATA_SWEEP_EVERY_MS, { without: [A.id] })
    expect(await kept()).not.toContain(A.id)
  })
})
