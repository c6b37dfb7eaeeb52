// The simulator's backup jobs, guests in no job and vzdump task logs (issue 26), read over real
// HTTPS and parsed with the collector's own mappers, so linking works end to end.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSimulator } from '../../../../src/server/sim/index.ts'
import type { SimCluster, Simulator } from '../../../../src/server/sim/index.ts'
import { toBackupCoverage, toBackupJobs } from '../../../../src/server/collect/pve-backup-jobs.ts'
import { linkTaskToJob, TaskLogReader } from '../../../../src/server/collect/pve-task-logs.ts'
import { START_MS, callApi, getData } from './helpers.ts'

const DAY = 86_400

describe('simulated backup jobs and task logs', () => {
  let sim: Simulator
  let alpha: SimCluster

  beforeAll(async () => {
    sim = await startSimulator({
      seed: 3,
      clusters: 1,
      nodesPerCluster: 3,
      guestsPerNode: 40,
      tickMs: 0,
      now: () => START_MS,
    })
    alpha = sim.clusters[0]!
  })
  afterAll(async () => {
    await sim.stop()
  })

  async function readLog(node: string, upid: string, failed: boolean) {
    const reader = new TaskLogReader()
    const path = `/nodes/${node}/tasks/${encodeURIComponent(upid)}/log`
    while (reader.feed(await getData(alpha, `${path}?start=${reader.lines}&limit=50`)) === 50);
    return reader.summary(failed)
  }

  it('serves jobs that succeed, run late, are disabled or node-restricted, and guests in none', async () => {
    const jobs = toBackupJobs(await getData(alpha, '/cluster/backup'), alpha.name)
    const nowSec = START_MS / 1000
    const nightly = jobs[0]!
    expect(nightly).toMatchObject({ all: true, enabled: true, vmids: [] })
    expect(nightly.exclude.length).toBeGreaterThanOrEqual(5)
    expect(nightly.nextRun).toBeGreaterThan(nowSec)
    const late = jobs.find((j) => j.enabled && j.vmids.length > 0 && j.nextRun < nowSec)
    const disabled = jobs.find((j) => !j.enabled)
    const pinned = jobs.find((j) => j.node === alpha.nodeNames.at(-1))
    expect(late).toBeDefined()
    expect(disabled?.nextRun).toBeGreaterThan(nowSec)
    expect(pinned?.enabled).toBe(true)

    const coverage = toBackupCoverage(
      await getData(alpha, '/cluster/backup-info/not-backed-up'),
      alpha.name,
      0,
    )
    const uncovered = new Set(coverage.notBackedUp.map((g) => g.vmid))
    // Proxmox counts a disabled job as coverage; only excluded guests are in no job.
    for (const vmid of disabled!.vmids) expect(uncovered.has(vmid)).toBe(false)
    for (const vmid of uncovered) expect(nightly.exclude).toContain(vmid)
    const guests = await getData(alpha, '/cluster/resources?type=vm')
    const production = guests.filter(
      (g) =>
        uncovered.has(Number(g.vmid)) &&
        String(g.tags ?? '')
          .split(';')
          .includes('production'),
    )
    expect(production.length).toBeGreaterThanOrEqual(1)
  })

  it('logs each nightly run with its command, per-guest results and a failed guest', async () => {
    const jobs = toBackupJobs(await getData(alpha, '/cluster/backup'), alpha.name)
    const failures: { vmid: number; at: number; node: string }[] = []
    let linked = 0
    for (const node of alpha.nodeNames) {
      const tasks = await getData(alpha, `/nodes/${node}/tasks?typefilter=vzdump&limit=10`)
      for (const task of tasks.filter((t) => t.id === '')) {
        const failed = task.status === 'job errors'
        const summary = await readLog(node, String(task.upid), failed)
        const job = linkTaskToJob(jobs, summary.command, node)
        expect(job?.jobId).toBe(jobs[0]!.jobId)
        linked++
        expect(summary.guests.some((g) => !g.ok)).toBe(failed)
        if (failed) {
          expect(summary.logTail?.at(-1)).toBe('TASK ERROR: job errors')
          for (const g of summary.guests.filter((x) => !x.ok))
            failures.push({ vmid: g.vmid, at: Number(task.starttime), node })
        }
      }
    }
    expect(linked).toBeGreaterThan(0)
    expect(failures.length).toBeGreaterThan(0)
    // Some failed guest's newest backup is older than its failed run (a failed-backup alert stands).
    const standing = []
    for (const f of failures) {
      const path = `/nodes/${f.node}/storage/${jobs[0]!.storage}/content?content=backup&vmid=${f.vmid}`
      const volumes = await getData(alpha, path)
      if (Math.max(0, ...volumes.map((v) => Number(v.ctime))) < f.at) standing.push(f)
    }
    expect(standing.length).toBeGreaterThan(0)
  })

  it('keeps old, missing and orphaned backups on storage', async () => {
    const jobs = toBackupJobs(await getData(alpha, '/cluster/backup'), alpha.name)
    const node = alpha.nodeNames[0]!
    const volumes = await getData(
      alpha,
      `/nodes/${node}/storage/${jobs[0]!.storage}/content?content=backup`,
    )
    const guests = await getData(alpha, '/cluster/resources?type=vm')
    const live = new Set(guests.map((g) => Number(g.vmid)))
    const newest = new Map<number, number>()
    for (const v of volumes)
      newest.set(Number(v.vmid), Math.max(newest.get(Number(v.vmid)) ?? 0, Number(v.ctime)))
    const nowSec = START_MS / 1000
    expect([...newest.keys()].some((vmid) => !live.has(vmid))).toBe(true)
    expect([...newest].some(([vmid, at]) => live.has(vmid) && nowSec - at > 7 * DAY)).toBe(true)
    expect(guests.some((g) => g.template === 0 && !newest.has(Number(g.vmid)))).toBe(true)
  })

  it('pages a log like PVE and answers an unknown task with its missing file', async () => {
    const node = alpha.nodeNames[0]!
    const [task] = await getData(alpha, `/nodes/${node}/tasks?typefilter=vzdump&limit=1`)
    const path = `/nodes/${node}/tasks/${encodeURIComponent(String(task!.upid))}/log`
    const page = await getData(alpha, `${path}?start=1&limit=2`)
    expect(page.map((l) => l.n)).toEqual([2, 3])
    const reply = await callApi(alpha, `${path}?limit=0`)
    const body = reply.body as { data: unknown[]; total: number }
    expect(body.data).toHaveLength(body.total)
    const missing = await getData(
      alpha,
      `/nodes/${node}/tasks/${encodeURIComponent('UPID:x:00000001:00000001:00000001:vzdump::root@pam:')}/log`,
    )
    expect(missing).toEqual([{ n: 1, t: 'unable to open file - No such file or directory' }])
    expect((await callApi(alpha, `/nodes/${node}/tasks/nonsense/log`)).status).toBe(400)
  })
})
