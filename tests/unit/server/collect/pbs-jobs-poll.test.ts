// PBS jobs read by pollPbs from the PBS simulator over real HTTPS: the failed verify job with its
// log tail, the overdue GC, the disabled prune job, the monitor flags, failures and identity.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { AppError } from '../../../../src/shared/model/errors.ts'
import {
  createPbsMemory,
  markPbsDown,
  pollPbs,
  type PbsMemory,
  type PbsPollContext,
} from '../../../../src/server/collect/pbs-poll.ts'
import {
  ALL_PBS_JOB_KINDS,
  LOG_TAIL_LINES,
  readLogTail,
  type PbsJobFlags,
} from '../../../../src/server/collect/pbs-jobs-poll.ts'
import { createPveClient, type PveClient } from '../../../../src/server/collect/pve-client.ts'
import {
  startPbsSimulator,
  type PbsSimulator,
  type SimPbsServer,
} from '../../../../src/server/sim/pbs/index.ts'
import { START_MS, createManualClock } from '../sim/pbs/helpers.ts'

const NOW_SEC = START_MS / 1000

/** A client of the simulated PBS with its API token, pinned to its certificate. */
function tokenClient(pbs: SimPbsServer): PveClient {
  return createPveClient({
    host: pbs.url,
    product: 'pbs',
    auth: { kind: 'token', tokenId: pbs.tokenId, secret: pbs.tokenSecret },
    verifySSL: true,
    fingerprint: pbs.fingerprint,
  })
}
const NONE: PbsJobFlags = { sync: false, verify: false, prune: false, gc: false }

describe('PBS jobs against the PBS simulator', () => {
  const clock = createManualClock(START_MS)
  let sim: PbsSimulator
  let client: PveClient

  beforeAll(async () => {
    sim = await startPbsSimulator({ seed: 8, tickMs: 0, now: clock.now })
    client = tokenClient(sim.servers[0]!)
  })
  afterAll(async () => {
    await client.close()
    await sim.stop()
  })
  afterEach(() => clock.set(START_MS))

  function context(memory: PbsMemory, overrides: Partial<PbsPollContext> = {}): PbsPollContext {
    return {
      instance: 'backup1',
      host: sim.servers[0]!.url,
      call: (path, query, signal, timeoutMs, each) =>
        client.get(path, query, signal, timeoutMs, each),
      memory,
      now: START_MS,
      pollIntervalMs: 10_000,
      jobs: ALL_PBS_JOB_KINDS,
      warn: () => {},
      ...overrides,
    }
  }

  // Paths asked for, without the query.
  function recording(paths: string[], fail?: (path: string) => AppError | undefined) {
    const call: PbsPollContext['call'] = (path, query, signal, timeoutMs, each) => {
      paths.push(path)
      const error = fail?.(path)
      return error ? Promise.reject(error) : client.get(path, query, signal, timeoutMs, each)
    }
    return call
  }

  it('shows the failed verify job with its log tail, the overdue GC and the disabled prune job', async () => {
    const { jobs } = await pollPbs(context(createPbsMemory()))
    const byId = new Map(jobs.map((j) => [j.id, j]))
    expect([...byId.keys()].sort()).toEqual([
      'pbs-backup1-gc-main',
      'pbs-backup1-gc-offsite',
      'pbs-backup1-prune-p-main',
      'pbs-backup1-prune-p-offsite',
      'pbs-backup1-sync-s-offsite',
      'pbs-backup1-verify-v-weekly',
    ])
    const verify = byId.get('pbs-backup1-verify-v-weekly')!
    expect(verify.lastRun).toMatchObject({
      state: 'failed',
      status: 'verification failed - please check the log for details',
    })
    expect(verify.lastRun!.upid).toMatch(/:verificationjob:main\\x3av\\x2dweekly:root@pam:$/)
    expect(verify.lastRun!.endTime - verify.lastRun!.startTime).toBe(verify.lastRun!.duration)
    expect(verify.logTail!.length).toBeLessThanOrEqual(LOG_TAIL_LINES)
    expect(verify.logTail!.at(-1)).toBe(
      'TASK ERROR: verification failed - please check the log for details',
    )
    expect(verify.logTail).toContain('Failed to verify the following snapshots/groups:')

    const gc = byId.get('pbs-backup1-gc-offsite')!
    expect(gc.nextRun).toBeLessThan(NOW_SEC - 3600)
    expect(gc.lastRun!.startTime).toBeLessThan(gc.nextRun)
    expect(gc.lastRun!.state).toBe('ok')
    expect(byId.get('pbs-backup1-prune-p-offsite')).toMatchObject({ enabled: false, nextRun: 0 })
    expect(byId.get('pbs-backup1-sync-s-offsite')).toMatchObject({
      remoteStore: 'main',
      lastRun: { state: 'ok' },
    })
    expect(byId.get('pbs-backup1-sync-s-offsite')!.logTail).toBeUndefined()
  })

  it('the snapshots the failed verify run found broken carry verification failed', async () => {
    const { backups } = await pollPbs(context(createPbsMemory()))
    const failed = backups.filter((b) => b.verification === 'failed')
    expect(failed.filter((b) => b.datastore === 'main').length).toBeGreaterThan(0)
    expect(failed.every((b) => !b.verified)).toBe(true)
  })

  it('reads no job endpoint of a kind whose monitor flag is off', async () => {
    for (const kind of ['sync', 'verify', 'prune', 'gc'] as const) {
      const paths: string[] = []
      const flags = { ...ALL_PBS_JOB_KINDS, [kind]: false }
      const { jobs } = await pollPbs(
        context(createPbsMemory(), { call: recording(paths), jobs: flags }),
      )
      expect(jobs.some((j) => j.kind === kind)).toBe(false)
      expect(jobs.length).toBeGreaterThan(0)
      const endpoint = {
        sync: '/admin/sync',
        verify: '/admin/verify',
        prune: '/admin/prune',
        gc: '/admin/gc',
      }
      expect(paths).not.toContain(endpoint[kind])
    }
    const paths: string[] = []
    const { jobs } = await pollPbs(
      context(createPbsMemory(), { call: recording(paths), jobs: NONE }),
    )
    expect(jobs).toEqual([])
    expect(
      paths.filter((p) => p.startsWith('/admin/') && !p.startsWith('/admin/datastore')),
    ).toEqual([])
    expect(paths).not.toContain('/nodes/localhost/tasks')
  })

  it('reads the jobs every 60 s and keeps unchanged jobs as the same objects', async () => {
    const memory = createPbsMemory()
    const first = await pollPbs(context(memory))
    const paths: string[] = []
    const second = await pollPbs(
      context(memory, { now: START_MS + 10_000, call: recording(paths) }),
    )
    expect(paths).not.toContain('/admin/verify')
    expect(second.jobs).toBe(first.jobs)
    const third = await pollPbs(context(memory, { now: START_MS + 60_000, call: recording(paths) }))
    expect(paths).toContain('/admin/verify')
    // Nothing changed in a minute: every job is the same object; the log was not read again.
    third.jobs.forEach((job, i) => expect(job).toBe(first.jobs[i]))
    expect(paths.some((p) => p.endsWith('/log'))).toBe(false)
  })

  it('keeps the last good jobs of a kind whose call fails, marking nothing else down', async () => {
    const memory = createPbsMemory()
    const good = await pollPbs(context(memory))
    const warnings: string[] = []
    const broken = await pollPbs(
      context(memory, {
        now: START_MS + 60_000,
        warn: (_o, msg) => warnings.push(msg),
        call: recording([], (p) =>
          p === '/admin/verify'
            ? new AppError('PVE_FORBIDDEN', { host: 'x', reason: 'permission check failed' })
            : undefined,
        ),
      }),
    )
    expect(broken.jobs.filter((j) => j.kind === 'verify')).toEqual(
      good.jobs.filter((j) => j.kind === 'verify'),
    )
    expect(broken.instance.connectionHealth).toBe('healthy')
    expect(warnings).toEqual(['PBS verify jobs failed'])
  })

  it('treats a missing /admin/prune (PBS before 2.2.2) as no prune jobs, and falls back to the per-store GC', async () => {
    const paths: string[] = []
    const notFound = (p: string) =>
      p === '/admin/prune' || p === '/admin/gc'
        ? new AppError('PVE_HTTP', { host: 'x', status: 404, reason: 'Path not found' })
        : undefined
    const warnings: string[] = []
    const { jobs } = await pollPbs(
      context(createPbsMemory(), {
        call: recording(paths, notFound),
        warn: (_o, msg) => warnings.push(msg),
      }),
    )
    expect(jobs.some((j) => j.kind === 'prune')).toBe(false)
    expect(paths).toContain('/admin/datastore/main/gc')
    expect(jobs.filter((j) => j.kind === 'gc').map((j) => j.store)).toEqual(['main', 'offsite'])
    expect(warnings).toEqual([])
  })

  it('a server that is down keeps its last jobs', async () => {
    const memory = createPbsMemory()
    const { jobs } = await pollPbs(context(memory))
    markPbsDown(memory, new AppError('PVE_UNREACHABLE', { host: 'x', reason: 'timed out' }))
    expect(memory.last!.jobs).toBe(jobs)
    expect(memory.last!.instance.status).toBe('offline')
  })
})

describe('the log tail of a long task log', () => {
  it('finds the end of a log of over 5,000 lines in a few small reads', async () => {
    const guests = Array.from({ length: 6000 }, (_, i) => ({
      vmid: 1000 + i,
      type: 'qemu' as const,
      name: `vm-${i}`,
    }))
    const sim = await startPbsSimulator({ seed: 3, tickMs: 0, now: () => START_MS, guests })
    const client = tokenClient(sim.servers[0]!)
    try {
      const [verify] = (await client.get('/admin/verify')) as Array<Record<string, string>>
      const upid = verify!['last-run-upid']!
      const full = (await client.get(`/nodes/localhost/tasks/${encodeURIComponent(upid)}/log`, {
        limit: 0,
      })) as Array<{ n: number; t: string }>
      expect(full.length).toBeGreaterThan(5000)
      let calls = 0
      const tail = await readLogTail(
        {
          call: (path, query) => {
            calls++
            return client.get(path, query)
          },
        },
        upid,
      )
      expect(tail).toEqual(full.slice(-LOG_TAIL_LINES).map((l) => l.t))
      expect(calls).toBeLessThan(30)
    } finally {
      await client.close()
      await sim.stop()
    }
  })
})
