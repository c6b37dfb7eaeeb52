// The PBS job mappers on recorded answers (tests/fixtures/proxmox/pbs, see SOURCES.md): real
// /admin/verify, /admin/prune and /admin/gc answers of a PBS ('golem', October 2026), and answers
// constructed from the source facts where no recording was found (sync jobs, the task list, a
// failed verify log, snapshots with each verification state).
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { toPbsBackups } from '../../../../src/server/collect/pbs-backups.ts'
import {
  taskMatchesJob,
  toGcJobs,
  toPbsTasks,
  toPruneJobs,
  toSyncJobs,
  toVerifyJobs,
  upidStart,
  withTaskRun,
} from '../../../../src/server/collect/pbs-jobs.ts'

const DIR = path.join(process.cwd(), 'tests/fixtures/proxmox/pbs')
const fixture = (name: string): unknown => JSON.parse(readFileSync(path.join(DIR, name), 'utf8'))
const source = { instance: 'golem' }

describe('PBS job mappers on recorded answers', () => {
  it('reads the start time a PBS UPID encodes', () => {
    const upid =
      'UPID:golem:000030B1:000082AF:0000000F:6AC223A0:verificationjob:erebor\\x3aweekly:root@pam:'
    expect(upidStart(upid)).toBe(1_791_108_000)
    expect(upidStart('UPID:pve1:0000ABCD:00012345:6543F1A0:vzdump::root@pam:')).toBe(0)
    expect(upidStart('nonsense')).toBe(0)
  })

  it('maps a verify job with its last run: start from the UPID, end and state from the status', () => {
    const [job] = toVerifyJobs(fixture('admin-verify__gerrrt-homelab.json'), source)
    expect(job).toEqual({
      id: 'pbs-golem-verify-weekly',
      pbs: 'pbs-golem',
      instance: 'golem',
      kind: 'verify',
      jobId: 'weekly',
      store: 'erebor',
      schedule: 'sun 03:00',
      enabled: true,
      nextRun: 1_791_712_800,
      lastRun: {
        upid: 'UPID:golem:000030B1:000082AF:0000000F:6AC223A0:verificationjob:erebor\\x3aweekly:root@pam:',
        state: 'ok',
        status: 'OK',
        startTime: 1_791_108_000,
        endTime: 1_791_110_495,
        duration: 2495,
        node: 'localhost',
      },
    })
  })

  it('maps prune jobs, a disabled one without next-run', () => {
    const [job] = toPruneJobs(fixture('admin-prune__gerrrt-homelab.json'), source)
    expect(job).toMatchObject({
      id: 'pbs-golem-prune-daily',
      kind: 'prune',
      store: 'erebor',
      schedule: 'daily',
      enabled: true,
      nextRun: 1_791_183_600,
      lastRun: { state: 'ok', startTime: 1_791_097_200, endTime: 1_791_097_200, duration: 0 },
    })
    const [disabled] = toPruneJobs(
      [{ id: 'p2', store: 's', schedule: 'daily', disable: true }],
      source,
    )
    expect(disabled).toMatchObject({ enabled: false, nextRun: 0 })
    expect(disabled!.lastRun).toBeUndefined()
  })

  it('maps the GC status: the duration PBS reports, and a GC that never ran (upid null)', () => {
    const [gc] = toGcJobs(fixture('admin-gc__gerrrt-homelab.json'), source)
    expect(gc).toMatchObject({
      id: 'pbs-golem-gc-erebor',
      kind: 'gc',
      jobId: 'erebor',
      store: 'erebor',
      schedule: 'sat 03:00',
      nextRun: 1_791_626_400,
      lastRun: {
        state: 'ok',
        startTime: 1_791_118_031,
        endTime: 1_791_118_715,
        duration: 684,
      },
    })
    const [never] = toGcJobs(fixture('admin-gc-never-run__gerrrt-homelab.json'), source)
    expect(never).toMatchObject({ jobId: 'erebor', schedule: 'sat 03:00', nextRun: 1_791_626_400 })
    expect(never!.lastRun).toBeUndefined()
    // The per-store endpoint answers one object, maybe without `store`.
    const [one] = toGcJobs({ upid: null, 'disk-bytes': 0 }, source, 'main')
    expect(one).toMatchObject({ id: 'pbs-golem-gc-main', store: 'main', schedule: '', nextRun: 0 })
  })

  it('maps sync jobs: remote, failed last run with its error text, and one never run', () => {
    const jobs = toSyncJobs(fixture('admin-sync__constructed.json'), source)
    expect(jobs.map((j) => j.jobId)).toEqual(['s-nas01-pull', 's-local-copy', 's-never'])
    expect(jobs[0]).toMatchObject({
      remote: 'Zentrale',
      remoteStore: 'NAS01',
      comment: 'pull from the head office',
      lastRun: {
        state: 'failed',
        status: 'client error (Connect): deadline elapsed',
        startTime: 1_787_143_244,
        endTime: 1_787_143_304,
        duration: 60,
      },
    })
    expect(jobs[1]!.remote).toBeUndefined()
    expect(jobs[1]!.lastRun?.state).toBe('ok')
    expect(jobs[2]!.lastRun).toBeUndefined()
  })

  it('a job status with a UPID and no state is a run in progress', () => {
    const [job] = toVerifyJobs(
      [
        {
          id: 'v',
          store: 's',
          'last-run-upid': 'UPID:pbs:1:2:3:6AC223A0:verificationjob:s\\x3av:root@pam:',
        },
      ],
      source,
    )
    expect(job!.lastRun).toMatchObject({ state: 'running', startTime: 1_791_108_000, endTime: 0 })
  })

  it('parses the task list and matches tasks to their jobs by worker type and id', () => {
    const tasks = toPbsTasks(fixture('node-tasks__constructed.json'))
    expect(tasks).toHaveLength(5)
    const [verify] = toVerifyJobs(fixture('admin-verify__gerrrt-homelab.json'), source)
    const [prune] = toPruneJobs(fixture('admin-prune__gerrrt-homelab.json'), source)
    const [gc] = toGcJobs(fixture('admin-gc__gerrrt-homelab.json'), source)
    const matched = (job: typeof verify) =>
      tasks.filter((t) => taskMatchesJob(t, job!)).map((t) => t.workerType)
    expect(matched(verify)).toEqual(['verificationjob'])
    expect(matched(prune)).toEqual(['prunejob'])
    expect(matched(gc)).toEqual(['garbage_collection'])
    // A manual verify_snapshot task is no run of the verify job.
    const sync = toSyncJobs(
      [{ id: 'offsite-push', store: 'elw-backup', remote: 'Zentrale', 'remote-store': 'NAS01' }],
      source,
    )[0]!
    expect(
      taskMatchesJob(
        {
          upid: 'x',
          workerType: 'syncjob',
          workerId: 'Zentrale:NAS01:elw-backup::offsite-push',
          start: 1,
        },
        sync,
      ),
    ).toBe(true)
  })

  it('completes a job from the task list: a newer running task wins, the named task fills the end', () => {
    const [verify] = toVerifyJobs(fixture('admin-verify__gerrrt-homelab.json'), source)
    const running = {
      upid: 'UPID:golem:000030B1:000082AF:00000020:6ACB5E20:verificationjob:erebor\\x3aweekly:root@pam:',
      workerType: 'verificationjob',
      workerId: 'erebor:weekly',
      start: 1_791_712_800,
    }
    expect(withTaskRun(verify!, [running]).lastRun).toMatchObject({
      state: 'running',
      upid: running.upid,
      startTime: 1_791_712_800,
      endTime: 0,
    })
    // A GC status from before PBS 3.2 names the task only: the list gives its end and state.
    const [gc] = toGcJobs(
      {
        upid: 'UPID:golem:000030B1:000082AF:00000010:6AC24ACF:garbage_collection:erebor:root@pam:',
      },
      source,
      'erebor',
    )
    expect(gc!.lastRun?.state).toBe('running')
    const done = withTaskRun(gc!, toPbsTasks(fixture('node-tasks__constructed.json')))
    expect(done.lastRun).toMatchObject({ state: 'ok', endTime: 1_791_118_715, duration: 684 })
  })

  it('reads each snapshot verification state as PBS answers it: ok, failed or absent', () => {
    const at = { instance: 'golem', datastore: 'erebor', namespace: '' }
    const backups = toPbsBackups(fixture('snapshots-verification__constructed.json'), at)
    expect(backups.map((b) => [b.verification, b.verified])).toEqual([
      ['failed', false],
      ['ok', true],
      [undefined, false],
    ])
    const [real] = toPbsBackups([fixture('snapshot-verified__gerrrt-homelab.json')], at)
    expect(real).toMatchObject({
      vmid: '152',
      verification: 'ok',
      verified: true,
      encrypted: false,
    })
  })
})
