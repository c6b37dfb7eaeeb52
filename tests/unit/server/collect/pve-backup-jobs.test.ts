// Parsing of /cluster/backup, /cluster/backup-info/not-backed-up and vzdump task logs against the
// recorded answers in tests/fixtures/proxmox/pve (sources in tests/fixtures/proxmox/SOURCES.md),
// and the job linking heuristic.
import { describe, expect, it } from 'vitest'
import type { BackupJob } from '../../../../src/shared/model/backup-health.ts'
import type { BackupTask } from '../../../../src/shared/model/state.ts'
import {
  parseVmidList,
  toBackupCoverage,
  toBackupJobs,
} from '../../../../src/server/collect/pve-backup-jobs.ts'
import {
  lastRunOf,
  linkTaskToJob,
  LOG_LINE_MAX,
  LOG_TAIL_LINES,
  parseVzdumpCommand,
  TaskLogReader,
} from '../../../../src/server/collect/pve-task-logs.ts'
import { readFixture } from './fixtures.ts'

describe('GET /cluster/backup', () => {
  it('maps the recorded jobs: pool and vmid selections, node, disabled, next-run', () => {
    const jobs = toBackupJobs(readFixture('cluster-backup__cv4pve-admin-issue48.json'), 'lab')
    expect(jobs).toEqual([
      {
        id: 'lab-6e3db65d0e925f0314fbbdadf9c8808801be0c85:2',
        instance: 'lab',
        jobId: '6e3db65d0e925f0314fbbdadf9c8808801be0c85:2',
        schedule: 'fri 09:00',
        storage: 'local-templ-iso',
        enabled: false,
        nextRun: 1687503600,
        vmids: [102],
        all: false,
        exclude: [],
        node: 'pve-1',
        mode: 'snapshot',
      },
      {
        id: 'lab-a44de41ac2062aca2fcf6c9d3157519f21075123:1',
        instance: 'lab',
        jobId: 'a44de41ac2062aca2fcf6c9d3157519f21075123:1',
        schedule: '21:04',
        storage: 'pve-backup',
        enabled: true,
        nextRun: 1687201440,
        pool: 'backup-24h',
        vmids: [],
        all: false,
        exclude: [],
        mode: 'snapshot',
      },
    ])
  })

  it('tolerates a legacy job without type and reads all, exclude, vmid lists and comment', () => {
    const jobs = toBackupJobs(readFixture('cluster-backup__constructed-pve-manager.json'), 'lab')
    expect(jobs[0]).toMatchObject({
      jobId: 'backup-7f3a2c1d-9e4b',
      enabled: true,
      all: true,
      exclude: [105, 9000],
      vmids: [],
      mode: 'stop',
    })
    expect(jobs[1]).toMatchObject({ vmids: [101, 102, 103], comment: 'databases', enabled: true })
  })

  it('skips entries that are not vzdump jobs or have no id', () => {
    expect(toBackupJobs([{ schedule: 'daily' }, { id: 'x', type: 'sync' }, 7], 'lab')).toEqual([])
    expect(toBackupJobs({ errors: 'x' }, 'lab')).toEqual([])
  })

  it('parses vmid lists in the shapes PVE sends', () => {
    expect(parseVmidList('101,102')).toEqual([101, 102])
    expect(parseVmidList('101 102,101')).toEqual([101, 102])
    expect(parseVmidList(105)).toEqual([105])
    expect(parseVmidList(['7', 8, 'x'])).toEqual([7, 8])
    expect(parseVmidList(undefined)).toEqual([])
  })
})

describe('GET /cluster/backup-info/not-backed-up', () => {
  it('maps the guests of the instance to one coverage record, by vmid', () => {
    const raw = readFixture('cluster-backup-info-not-backed-up__constructed-pve-manager.json')
    expect(toBackupCoverage(raw, 'lab', 1234)).toEqual({
      id: 'lab',
      instance: 'lab',
      collectedAt: 1234,
      notBackedUp: [
        { vmid: 105, type: 'qemu', name: 'win-build-02' },
        { vmid: 203, type: 'lxc', name: 'scratch-ct' },
        { vmid: 9000, type: 'qemu' },
      ],
    })
  })
})

function readLog(name: string, failed: boolean) {
  const reader = new TaskLogReader()
  reader.feed(readFixture(name))
  return reader.summary(failed)
}

describe('vzdump task logs', () => {
  it('reads the command and the per-guest result of a recorded successful log', () => {
    const summary = readLog('task-log-vzdump__community-general-proxmox-backup.json', false)
    expect(summary.command).toEqual({
      vmids: [100],
      all: false,
      exclude: [],
      node: 'node1',
      storage: 'backup',
      mode: 'snapshot',
    })
    expect(summary.guests).toEqual([{ vmid: 100, ok: true }])
    expect(summary.logTail).toBeUndefined()
  })

  it('reads the failed guest and keeps the last lines of a recorded failed log', () => {
    const summary = readLog('task-log-vzdump-failed__check-pve-issue85-pve9.1.7.json', true)
    expect(summary.guests).toEqual([
      { vmid: 111, ok: false, error: "VM 111 qmp command 'backup' failed - got timeout" },
    ])
    expect(summary.logTail).toHaveLength(LOG_TAIL_LINES - 4)
    expect(summary.logTail?.at(-1)).toBe('TASK ERROR: job errors')
  })

  it('keeps 20 tail lines, each capped, of a long failed log', () => {
    const reader = new TaskLogReader()
    const lines = Array.from({ length: 100 }, (_, i) => ({
      n: i + 1,
      t: `INFO: ${'x'.repeat(i * 10)}`,
    }))
    reader.feed(lines)
    const tail = reader.summary(true).logTail!
    expect(tail).toHaveLength(LOG_TAIL_LINES)
    expect(tail.every((t) => t.length <= LOG_LINE_MAX)).toBe(true)
    expect(tail.at(-1)!.endsWith('…')).toBe(true)
  })

  it("puts a failed guest's ERROR line that scrolled out of the tail first, then a gap", () => {
    // A multi-guest run: the guest that failed early, then many guests' INFO lines.
    const reader = new TaskLogReader()
    const error =
      "ERROR: Backup of VM 104 failed - VM 104 qmp command 'backup' failed - got timeout"
    const lines = [
      'INFO: Starting Backup of VM 104 (qemu)',
      error,
      ...Array.from({ length: 60 }, (_, i) => `INFO: Finished Backup of VM ${200 + i} (00:00:47)`),
      'TASK ERROR: job errors',
    ].map((t, i) => ({ n: i + 1, t }))
    reader.feed(lines)
    const tail = reader.summary(true).logTail!
    expect(tail.slice(0, 2)).toEqual([error, '…'])
    expect(tail).toHaveLength(LOG_TAIL_LINES + 2)
    expect(tail.at(-1)).toBe('TASK ERROR: job errors')
    // An ERROR line still in the tail is not repeated.
    const near = new TaskLogReader()
    near.feed([error, 'TASK ERROR: job errors'].map((t, i) => ({ n: i + 1, t })))
    expect(near.summary(true).logTail).toEqual([error, 'TASK ERROR: job errors'])
  })

  it('parses a scheduled all-guests command with exclusions and quoted options', () => {
    const line =
      "INFO: starting new backup job: vzdump --exclude 105,9000 --notes-template '{{guestname}} x' --all 1 --quiet 1 --storage pbs --mode snapshot"
    expect(parseVzdumpCommand(line)).toEqual({
      vmids: [],
      all: true,
      exclude: [105, 9000],
      storage: 'pbs',
      mode: 'snapshot',
    })
    expect(parseVzdumpCommand('INFO: something else')).toBeUndefined()
  })
})

const job = (over: Partial<BackupJob>): BackupJob => ({
  id: `lab-${over.jobId ?? 'j'}`,
  instance: 'lab',
  jobId: 'j',
  schedule: '01:00',
  storage: 'pbs',
  enabled: true,
  nextRun: 0,
  vmids: [],
  all: false,
  exclude: [],
  mode: 'snapshot',
  ...over,
})

describe('linking a task to its job', () => {
  const nightly = job({ jobId: 'nightly', all: true, exclude: [105, 9000] })
  const dbs = job({ jobId: 'dbs', vmids: [101, 102, 103], storage: 'local' })
  const pool = job({ jobId: 'pool', pool: 'tenant-a' })
  const pinned = job({ jobId: 'pinned', all: true, node: 'pve2', storage: 'local' })
  const off = job({ jobId: 'off', vmids: [101], storage: 'local', enabled: false })
  const jobs = [off, nightly, dbs, pool, pinned]
  const link = (line: string, node = 'pve1') =>
    linkTaskToJob(jobs, parseVzdumpCommand(`vzdump ${line}`), node)?.jobId

  it('links by storage and selection, the exclusions in any order', () => {
    expect(link('--all 1 --exclude 9000,105 --storage pbs --mode snapshot')).toBe('nightly')
    expect(link('--all 1 --exclude 105 --storage pbs')).toBeUndefined()
    expect(link('--all 1 --exclude 105,9000 --storage nas')).toBeUndefined()
  })

  it('links a vmid list that is a subset of the job, and prefers an enabled job', () => {
    expect(link('102 103 --storage local --mode snapshot')).toBe('dbs')
    expect(link('101 --storage local')).toBe('dbs')
    expect(link('101 104 --storage local')).toBeUndefined()
  })

  it('falls back to a disabled job when only it matches', () => {
    expect(
      linkTaskToJob([off], parseVzdumpCommand('vzdump 101 --storage local'), 'pve1')?.jobId,
    ).toBe('off')
  })

  it('links a pool job by its pool and respects a node restriction', () => {
    expect(link('--pool tenant-a --storage pbs')).toBe('pool')
    expect(link('--all 1 --storage local', 'pve2')).toBe('pinned')
    expect(link('--all 1 --storage local', 'pve1')).toBeUndefined()
  })

  it('gives a job the failure of any node in its newest run', () => {
    const task = (node: string, start: number, status: string): BackupTask => ({
      id: `lab-UPID:${node}:${start}`,
      node,
      instance: 'lab',
      type: 'vzdump',
      vmid: 0,
      status,
      startTime: start,
      endTime: start + 60,
    })
    const run = lastRunOf([
      task('pve1', 1000, 'OK'),
      task('pve2', 1003, 'job errors'),
      task('pve1', 1000 + 86_400, 'OK'),
      task('pve2', 1000 + 86_405, 'OK'),
      task('pve3', 1000 + 86_401, 'job errors'),
    ])
    expect(run).toMatchObject({
      state: 'failed',
      upid: 'UPID:pve3:87401',
      node: 'pve3',
      duration: 60,
    })
    expect(lastRunOf([task('pve1', 5, 'WARNINGS: 1')])).toMatchObject({ state: 'warning' })
    expect(lastRunOf([])).toBeUndefined()
  })
})
