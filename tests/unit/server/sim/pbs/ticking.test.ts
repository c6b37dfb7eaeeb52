import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startPbsSimulator } from '../../../../../src/server/sim/pbs/index.ts'
import type { PbsSimulator, SimPbsServer } from '../../../../../src/server/sim/pbs/index.ts'
import { HOUR_MS, START_MS, callPbs, createManualClock, getPbsData } from './helpers.ts'

type Entry = Record<string, unknown>

/** Snapshot times per group key ('vm/101'). */
function byGroup(snapshots: Entry[]): Map<string, number[]> {
  const out = new Map<string, number[]>()
  for (const s of snapshots) {
    const key = `${String(s['backup-type'])}/${String(s['backup-id'])}`
    const list = out.get(key) ?? []
    list.push(s['backup-time'] as number)
    out.set(key, list)
  }
  return out
}

describe('PBS simulator over time', () => {
  const clock = createManualClock(START_MS)
  let sim: PbsSimulator
  let pbs: SimPbsServer

  beforeAll(async () => {
    sim = await startPbsSimulator({ seed: 21, tickMs: 0, now: clock.now })
    pbs = sim.servers[0]!
  })
  afterAll(async () => {
    await sim.stop()
  })

  it('adds one snapshot per group once the nightly window has passed, then prunes', async () => {
    const path = '/admin/datastore/main/snapshots?ns=prod'
    const before = byGroup(await getPbsData(pbs, path))
    // 14:00 -> 04:00 next day: the prod job (from 01:00) is done, the 05:30 prune has not run.
    clock.set(START_MS + 14 * HOUR_MS)
    sim.tick()
    const after = byGroup(await getPbsData(pbs, path))
    let grown = 0
    for (const [key, times] of before) {
      const now = after.get(key) ?? []
      const newest = Math.max(...now)
      expect(newest).toBeGreaterThanOrEqual(Math.max(...times))
      if (now.length === times.length + 1) grown++
      // A new snapshot is from tonight's window.
      if (newest > Math.max(...times)) {
        expect(newest * 1000).toBeGreaterThan(START_MS + 10 * HOUR_MS)
        expect(newest * 1000).toBeLessThan(START_MS + 14 * HOUR_MS)
      }
    }
    // About 2% of runs fail; nearly every group got its snapshot.
    expect(grown).toBeGreaterThan(before.size * 0.8)
    // After the prune run the retention (keep-daily 7, keep-weekly 4) holds again.
    clock.set(START_MS + 17 * HOUR_MS)
    sim.tick()
    const pruned = byGroup(await getPbsData(pbs, path))
    for (const times of pruned.values()) expect(times.length).toBeLessThanOrEqual(7 + 4 + 1)
  })

  it('moves GC, usage and tasks with the clock', async () => {
    const [usage] = await getPbsData(pbs, '/status/datastore-usage')
    const gc = usage!['gc-status'] as Entry
    // At 07:00 the day's 06:00 GC has run: its UPID carries its start time.
    const upidStart = parseInt(String(gc.upid).split(':')[5]!, 16)
    expect(upidStart).toBe(Math.floor((START_MS + 16 * HOUR_MS) / 1000))
    const tasks = await getPbsData(pbs, '/nodes/localhost/tasks?typefilter=backup&limit=0')
    expect(tasks.some((t) => (t.starttime as number) * 1000 > START_MS)).toBe(true)
  })

  it('stops answering while unreachable and comes back on the same URL', async () => {
    await sim.setReachable('pbs1', false)
    await expect(callPbs(pbs, '/version')).rejects.toThrow()
    await sim.setReachable('pbs1', true)
    expect((await callPbs(pbs, '/version')).status).toBe(200)
    await expect(sim.setReachable('pbs9', false)).rejects.toThrow(/pbs9/)
  })

  it('fails content reads of one datastore on request while the other keeps answering', async () => {
    sim.setDatastoreError('pbs1', 'offsite', 'unable to open chunk store - EIO: I/O error')
    const failing = await callPbs(pbs, '/admin/datastore/offsite/snapshots')
    expect(failing.status).toBe(500)
    expect(failing.text).toBe('unable to open chunk store - EIO: I/O error')
    expect((await callPbs(pbs, '/admin/datastore/offsite/namespace')).status).toBe(500)
    expect((await callPbs(pbs, '/admin/datastore/main/snapshots')).status).toBe(200)
    expect((await callPbs(pbs, '/status/datastore-usage')).status).toBe(200)
    sim.setDatastoreError('pbs1', 'offsite', undefined)
    expect((await callPbs(pbs, '/admin/datastore/offsite/snapshots')).status).toBe(200)
  })

  it('serves several instances, each with its own port and token secret', async () => {
    const multi = await startPbsSimulator({ seed: 3, instances: 2, tickMs: 0, now: clock.now })
    try {
      expect(multi.servers.map((s) => s.name)).toEqual(['pbs1', 'pbs2'])
      expect(multi.servers[0]!.url).not.toBe(multi.servers[1]!.url)
      expect(multi.servers[0]!.tokenSecret).not.toBe(multi.servers[1]!.tokenSecret)
      const before = multi.requestCount()
      await getPbsData(multi.servers[1]!, '/version')
      expect(multi.requestCount()).toBe(before + 1)
    } finally {
      await multi.stop()
    }
  })
})
