// pollPveSlow's backup jobs, coverage and task logs, cycle by cycle. `call` is a data replay: it
// answers each path from a table (the recorded /cluster/backup capture, and logs in the recorded
// shape [{n, t}]); it stands in for none of our own code. Every path it is not given fails.
import { describe, expect, it } from 'vitest'
import { AppError } from '../../../../src/shared/model/errors.ts'
import {
  createPveSlowMemory,
  pollPveSlow,
  type PveSlowResult,
} from '../../../../src/server/collect/pve-slow.ts'
import { LOG_MAX_LINES, LOG_READS_PER_NODE } from '../../../../src/server/collect/pve-slow-jobs.ts'
import { readFixture } from './fixtures.ts'

const NOW = 1_760_000_000_000
type Query = Record<string, string | number> | undefined
type Answer = (query: Query) => unknown

const fail = (status: number) => () => {
  throw new AppError('PVE_HTTP', { host: 'lab', status, reason: 'refused' })
}

const JOBS = [
  {
    id: 'backup-nightly',
    type: 'vzdump',
    schedule: '01:00',
    all: 1,
    exclude: '105',
    storage: 'pbs',
    mode: 'snapshot',
    'next-run': 1_760_058_000,
  },
  ...(readFixture('cluster-backup__cv4pve-admin-issue48.json') as object[]),
]

function upid(node: string, i: number): string {
  return `UPID:${node}:0000${i}:00000001:${(1_759_900_000 + i).toString(16)}:vzdump::root@pam:`
}

function task(node: string, i: number, status: string) {
  return {
    upid: upid(node, i),
    node,
    type: 'vzdump',
    id: '',
    user: 'root@pam',
    starttime: 1_759_900_000 + i,
    endtime: 1_759_900_100 + i,
    status,
  }
}

// A log in PVE's shape: `start` lines skipped, `limit` lines at most, n 1-based.
function logAnswer(lines: string[]): Answer {
  return (q) => {
    const start = Number(q?.start ?? 0)
    const limit = Number(q?.limit ?? 50)
    return lines.slice(start, start + limit).map((t, k) => ({ n: start + k + 1, t }))
  }
}

const NIGHTLY_FAILED = [
  'INFO: starting new backup job: vzdump --all 1 --exclude 105 --storage pbs --mode snapshot --quiet 1',
  'INFO: Starting Backup of VM 100 (qemu)',
  'INFO: Finished Backup of VM 100 (00:01:02)',
  'INFO: Starting Backup of VM 101 (lxc)',
  "ERROR: Backup of VM 101 failed - command 'lxc-freeze -n 101' failed: exit code 1",
  'INFO: Backup job finished with errors',
  'TASK ERROR: job errors',
]

function harness(answers: Record<string, Answer>) {
  const calls: { path: string; query: Query }[] = []
  const memory = createPveSlowMemory()
  const warnings: string[] = []
  const nodes = [{ name: 'pve1', online: true }]
  const cycle = (n: number): Promise<PveSlowResult> =>
    pollPveSlow({
      instance: 'lab',
      call: async (path, query) => {
        calls.push({ path, query })
        await Promise.resolve()
        return (answers[path] ?? fail(501))(query)
      },
      nodes,
      guests: [],
      resources: [],
      memory,
      now: NOW + n * 10_000,
      pollIntervalMs: 10_000,
      warn: (obj, msg) => warnings.push(`${msg} ${JSON.stringify(obj)}`),
    })
  return { calls, cycle, warnings, answers }
}

const tasksPath = '/nodes/pve1/tasks'
const logPath = (i: number) => `/nodes/pve1/tasks/${encodeURIComponent(upid('pve1', i))}/log`

describe('pollPveSlow: backup jobs, coverage and task logs', () => {
  it('collects jobs and coverage, links the failed task and gives it guests and a log tail', async () => {
    const h = harness({
      '/cluster/backup': () => JOBS,
      '/cluster/backup-info/not-backed-up': () => [{ vmid: 105, type: 'qemu', name: 'db' }],
      [tasksPath]: () => [task('pve1', 1, 'job errors')],
      [logPath(1)]: logAnswer(NIGHTLY_FAILED),
    })
    const r = await h.cycle(1)
    expect(r.backupJobs.map((j) => [j.jobId, j.enabled])).toEqual([
      ['backup-nightly', true],
      ['6e3db65d0e925f0314fbbdadf9c8808801be0c85:2', false],
      ['a44de41ac2062aca2fcf6c9d3157519f21075123:1', true],
    ])
    expect(r.backupCoverage).toEqual([
      {
        id: 'lab',
        instance: 'lab',
        collectedAt: NOW + 10_000,
        notBackedUp: [{ vmid: 105, type: 'qemu', name: 'db' }],
      },
    ])
    const [t] = r.backupTasks
    expect(t).toMatchObject({
      jobId: 'backup-nightly',
      storage: 'pbs',
      guests: [
        { vmid: 100, ok: true },
        { vmid: 101, ok: false, error: "command 'lxc-freeze -n 101' failed: exit code 1" },
      ],
      logTail: NIGHTLY_FAILED,
    })
    expect(r.backupJobs[0]?.lastRun).toMatchObject({
      state: 'failed',
      status: 'job errors',
      upid: upid('pve1', 1),
    })

    // An ended task's log is read once; unchanged data keeps every identity.
    const again = await h.cycle(10)
    expect(h.calls.filter((c) => c.path === logPath(1))).toHaveLength(1)
    expect(again.backupTasks).toBe(r.backupTasks)
    expect(again.backupJobs).toBe(r.backupJobs)
    expect(again.backupCoverage).toBe(r.backupCoverage)
  })

  it('reads at most the line bound of a 30,000-line log, in pages', async () => {
    const lines = Array.from({ length: 30_000 }, (_, i) => `INFO: line ${i}`)
    const h = harness({
      [tasksPath]: () => [task('pve1', 1, 'OK')],
      [logPath(1)]: logAnswer(lines),
    })
    const r = await h.cycle(1)
    const reads = h.calls.filter((c) => c.path === logPath(1))
    const asked = reads.reduce((sum, c) => sum + Number(c.query?.limit), 0)
    expect(asked).toBe(LOG_MAX_LINES)
    expect(reads.length).toBeGreaterThan(1)
    expect(r.backupTasks[0]?.logTail).toBeUndefined()
  })

  it('reads at most the per-cycle cap of a node with 100 ended tasks, failed ones first', async () => {
    const tasks = Array.from({ length: 100 }, (_, i) =>
      task('pve1', i, i % 10 === 3 ? 'job errors' : 'OK'),
    )
    const answers: Record<string, Answer> = { [tasksPath]: () => tasks }
    for (let i = 0; i < 100; i++) answers[logPath(i)] = logAnswer(['TASK OK'])
    const h = harness(answers)
    await h.cycle(1)
    const first = h.calls.filter((c) => c.path.endsWith('/log')).map((c) => c.path)
    expect(first).toHaveLength(LOG_READS_PER_NODE)
    // The 10 failed tasks come first, newest first.
    expect(first).toEqual([93, 83, 73, 63, 53, 43].map(logPath))
    await h.cycle(2)
    expect(h.calls.filter((c) => c.path.endsWith('/log'))).toHaveLength(2 * LOG_READS_PER_NODE)
  })

  it('keeps the last jobs, coverage and logs when calls fail, and retries a failed log', async () => {
    let down = false
    const h = harness({
      '/cluster/backup': () => (down ? fail(500)() : JOBS),
      '/cluster/backup-info/not-backed-up': () => (down ? fail(500)() : []),
      [tasksPath]: () => [task('pve1', 1, 'job errors'), task('pve1', 2, 'OK')],
      [logPath(1)]: logAnswer(NIGHTLY_FAILED),
      [logPath(2)]: () => (down ? fail(500)() : ['TASK OK'].map((t) => ({ n: 1, t }))),
    })
    down = true
    const r1 = await h.cycle(1)
    expect(r1.backupJobs).toEqual([])
    const failed = (r: PveSlowResult) => r.backupTasks.find((t) => t.status === 'job errors')
    expect(failed(r1)?.guests).toHaveLength(2)
    down = false
    const r2 = await h.cycle(20)
    expect(r2.backupJobs).toHaveLength(3)
    expect(failed(r2)?.jobId).toBe('backup-nightly')
    expect(h.calls.filter((c) => c.path === logPath(2))).toHaveLength(2)
    down = true
    const r3 = await h.cycle(40)
    expect(r3.backupJobs).toBe(r2.backupJobs)
    expect(r3.backupCoverage).toBe(r2.backupCoverage)
    expect(h.warnings.filter((w) => w.startsWith('backupJobs refresh failed'))).toHaveLength(2)
  })

  it('goes on without jobs when /cluster/backup is forbidden (no Sys.Audit)', async () => {
    const h = harness({
      '/cluster/backup': fail(403),
      [tasksPath]: () => [task('pve1', 1, 'job errors')],
      [logPath(1)]: logAnswer(NIGHTLY_FAILED),
    })
    const r = await h.cycle(1)
    expect(r.backupJobs).toEqual([])
    expect(r.backupTasks[0]).toMatchObject({ storage: 'pbs', logTail: NIGHTLY_FAILED })
    expect(r.backupTasks[0]?.jobId).toBeUndefined()
  })
})
