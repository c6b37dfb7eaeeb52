// Issue 26 on the plain (reference) dialect: each PBS instance carries the reference's five job
// lists, and neither the plain /ws nor the plain GET /api/state carries our own collections
// (backupJobs, backupCoverage, pbsJobs, guestBackups); the internal format does.
import { afterEach, describe, expect, it } from 'vitest'
import { createPlainStateConverter } from '../../../../src/server/hub/plain-state.ts'
import type { CollectedState } from '../../../../src/server/collect/poller.ts'
import type { PbsJob } from '../../../../src/shared/model/backup-health.ts'
import { createEmptyState, type PbsInstance } from '../../../../src/shared/model/state.ts'
import { withBackups } from '../timed-collected-fixture.ts'
import { startHubHarness, type HubHarness } from './hub-harness.ts'

// 2025-10-11T02:00:00Z
const T = 1_760_148_000
const OURS = ['backupJobs', 'backupCoverage', 'pbsJobs', 'guestBackups']

function job(kind: PbsJob['kind'], jobId: string, extra: Partial<PbsJob> = {}): PbsJob {
  return {
    id: `pbs-vault-${kind}-${jobId}`,
    pbs: 'pbs-vault',
    instance: 'vault',
    kind,
    jobId,
    store: 'main',
    schedule: 'daily',
    enabled: true,
    nextRun: T + 86_400,
    lastRun: {
      upid: `UPID:vault:1:2:3:68E9BA80:x:${jobId}:root@pam:`,
      state: 'ok',
      status: 'OK',
      startTime: T,
      endTime: T + 60,
      duration: 60,
      node: 'localhost',
    },
    ...extra,
  }
}

const JOBS: PbsJob[] = [
  job('sync', 's-offsite', { remote: 'far', remoteStore: 'main' }),
  job('verify', 'v-weekly', {
    lastRun: {
      upid: 'UPID:vault:1:2:3:68E9BA80:verificationjob:main\\x3av\\x2dweekly:root@pam:',
      state: 'failed',
      status: 'verification failed - please check the log for details',
      startTime: T,
      endTime: T + 3600,
      duration: 3600,
    },
    logTail: ['TASK ERROR: verification failed - please check the log for details'],
  }),
  job('prune', 'p-off', { enabled: false, nextRun: 0, lastRun: undefined }),
  job('gc', 'main', { nextRun: T - 7200 }),
]

function vault(): PbsInstance {
  return {
    id: 'pbs-vault',
    name: 'vault',
    host: 'https://127.0.0.1:8007',
    status: 'online',
    version: '3.3.2',
    cpu: 1,
    memory: 2,
    memoryUsed: 1,
    memoryTotal: 2,
    uptime: 3,
    datastores: [],
    connectionHealth: 'healthy',
    lastSeen: T * 1000,
  }
}

describe('plain dialect: PBS jobs', () => {
  it('carries the five job lists in the reference form inside each PBS instance', () => {
    const convert = createPlainStateConverter()
    const plain = convert({ ...createEmptyState(0, 't'), pbs: [vault()], pbsJobs: JOBS })
    const [pbs] = plain.pbs
    expect(pbs!.backupJobs).toEqual([])
    expect(pbs!.syncJobs).toEqual([
      {
        id: 's-offsite',
        store: 'main',
        remote: 'far',
        status: 'ok',
        lastSync: '2025-10-11T02:01:00Z',
        nextRun: '2025-10-12T02:00:00Z',
        schedule: 'daily',
        duration: 60,
      },
    ])
    expect(pbs!.verifyJobs).toEqual([
      {
        id: 'v-weekly',
        store: 'main',
        status: 'failed',
        lastVerify: '2025-10-11T03:00:00Z',
        nextRun: '2025-10-12T02:00:00Z',
        error: 'verification failed - please check the log for details',
        schedule: 'daily',
        duration: 3600,
      },
    ])
    expect(pbs!.pruneJobs).toEqual([
      {
        id: 'p-off',
        store: 'main',
        status: 'disabled',
        lastPrune: '0001-01-01T00:00:00Z',
        nextRun: '0001-01-01T00:00:00Z',
        schedule: 'daily',
        duration: 0,
      },
    ])
    expect(pbs!.garbageJobs).toMatchObject([
      {
        id: 'main',
        status: 'ok',
        lastGarbage: '2025-10-11T02:01:00Z',
        nextRun: '2025-10-11T00:00:00Z',
      },
    ])
    expect(pbs!.lastSeen).toBe('2025-10-11T02:00:00Z')
    for (const key of OURS) expect(plain).not.toHaveProperty(key)
  })

  it('converts again only what changed', () => {
    const convert = createPlainStateConverter()
    const state = { ...createEmptyState(0, 't'), pbs: [vault()], pbsJobs: JOBS }
    const first = convert(state).pbs
    // Same instance and jobs: the same output objects.
    expect(convert({ ...state, lastUpdate: 1 }).pbs).toBe(first)
    // One job changed: its list is new, the other lists and their jobs are the same objects.
    const changed = [...JOBS.slice(0, 3), job('gc', 'main', { nextRun: T })]
    const [next] = convert({ ...state, pbsJobs: changed }).pbs
    expect(next!.syncJobs).toBe(first[0]!.syncJobs)
    expect(next!.verifyJobs).toBe(first[0]!.verifyJobs)
    expect(next!.garbageJobs).not.toBe(first[0]!.garbageJobs)
    expect(next!.garbageJobs[0]!.nextRun).toBe('2025-10-11T02:00:00Z')
    // A PBS without jobs has five empty lists.
    const [bare] = convert({ ...state, pbsJobs: [] }).pbs
    expect([bare!.syncJobs, bare!.verifyJobs, bare!.pruneJobs, bare!.garbageJobs]).toEqual([
      [],
      [],
      [],
      [],
    ])
  })
})

let harness: HubHarness | undefined
afterEach(async () => {
  await harness?.close()
  harness = undefined
})

describe('plain /ws and GET /api/state: PBS jobs and our collections', () => {
  it('the plain forms carry the job lists and none of our collections; the internal form does', async () => {
    harness = await startHubHarness({ warn: () => {} })
    const collected: CollectedState = {
      ...withBackups(1),
      pbsJobs: JOBS.map((j) => ({ ...j, pbs: 'pbs-vault' })),
    }
    await harness.live.applyCollected(collected)
    const client = await harness.connect('/ws')
    await client.waitFor((m) => m.some((x) => x.type === 'initialState'))
    const initial = client.messages.find((m) => m.type === 'initialState')!.data as Record<
      string,
      unknown
    >
    const states = [
      initial,
      JSON.parse((await harness.hub.stateJson('plain')).body.toString()) as Record<string, unknown>,
    ]
    for (const state of states) {
      for (const key of OURS) expect(state).not.toHaveProperty(key)
      const [pbs] = state.pbs as Array<Record<string, unknown>>
      expect(pbs).toMatchObject({ backupJobs: [] })
      expect((pbs!.verifyJobs as unknown[]).length).toBe(1)
      expect((pbs!.syncJobs as unknown[]).length).toBe(1)
    }
    const internal = JSON.parse(
      (await harness.hub.stateJson('internal')).body.toString(),
    ) as Record<string, unknown>
    expect((internal.pbsJobs as unknown[]).length).toBe(4)
    expect(internal).toHaveProperty('backupJobs')
    client.ws.close()
  })
})
