// Coverage (job selection, reference/proxmox-api-backups-history.md §1.2) and the last job result
// of the per-guest backup summary.
import { describe, expect, it } from 'vitest'
import type { BackupJob } from '../../../../../src/shared/model/backup-health.ts'
import type { BackupTask } from '../../../../../src/shared/model/state.ts'
import { backupJobSelects } from '../../../../../src/shared/views/guest-backups/job-selection.ts'
import { summariseGuestBackups } from '../../../../../src/shared/views/guest-backups/summary.ts'
import { makeGuest } from '../guest-fixtures.ts'
import { coverageRecord, inputs } from './fixtures.ts'

function makeJob(patch: Partial<BackupJob> = {}): BackupJob {
  return {
    id: 'lab-backup-1',
    instance: 'lab',
    jobId: 'backup-1',
    schedule: '21:00',
    storage: 'local',
    enabled: true,
    nextRun: 0,
    vmids: [],
    all: false,
    exclude: [],
    mode: 'snapshot',
    ...patch,
  }
}

function makeTask(patch: Partial<BackupTask> = {}): BackupTask {
  return {
    id: 'lab-UPID:1',
    node: 'pve1',
    instance: 'lab',
    type: 'vzdump',
    vmid: 100,
    status: 'OK',
    startTime: 1000,
    endTime: 1100,
    ...patch,
  }
}

describe('backupJobSelects', () => {
  const guest = makeGuest(100, { pool: 'prod', node: 'pve1' })

  it('selects by pool before vmids and all', () => {
    expect(backupJobSelects(makeJob({ pool: 'prod' }), guest)).toBe(true)
    expect(backupJobSelects(makeJob({ pool: 'dev', vmids: [100], all: true }), guest)).toBe(false)
  })

  it('selects by the vmid list before all', () => {
    expect(backupJobSelects(makeJob({ vmids: [100, 101] }), guest)).toBe(true)
    expect(backupJobSelects(makeJob({ vmids: [101], all: true }), guest)).toBe(false)
  })

  it('selects all guests but the excluded ones', () => {
    expect(backupJobSelects(makeJob({ all: true }), guest)).toBe(true)
    expect(backupJobSelects(makeJob({ all: true, exclude: [100] }), guest)).toBe(false)
  })

  it('selects nothing without pool, vmids or all', () => {
    expect(backupJobSelects(makeJob(), guest)).toBe(false)
  })

  it('restricts a job with a node to the guests on that node', () => {
    expect(backupJobSelects(makeJob({ all: true, node: 'pve2' }), guest)).toBe(false)
    expect(backupJobSelects(makeJob({ vmids: [100], node: 'pve1' }), guest)).toBe(true)
    expect(backupJobSelects(makeJob({ pool: 'prod', node: 'pve2' }), guest)).toBe(false)
  })
})

describe('coverage', () => {
  const guest = makeGuest(100)
  const coverage = (jobs: BackupJob[], read = true) =>
    summariseGuestBackups(
      inputs({
        vms: [guest],
        backupJobs: jobs,
        backupCoverage: read ? [coverageRecord('lab')] : [],
      }),
    )[0]!.coverage

  it('is enabled when an enabled job selects the guest', () => {
    expect(coverage([makeJob({ all: true, enabled: false }), makeJob({ vmids: [100] })])).toBe(
      'enabled',
    )
  })

  it('is disabled when only disabled jobs select it', () => {
    expect(coverage([makeJob({ all: true, enabled: false }), makeJob({ vmids: [7] })])).toBe(
      'disabled',
    )
  })

  it('is none when no job selects it, and unknown before the instance jobs were read', () => {
    expect(coverage([makeJob({ vmids: [7] })])).toBe('none')
    expect(coverage([])).toBe('none')
    expect(coverage([makeJob({ all: true })], false)).toBe('unknown')
  })

  it('reads only the jobs of the guest instance', () => {
    const other = makeJob({ instance: 'other', all: true })
    expect(coverage([other])).toBe('none')
  })
})

describe('lastJob', () => {
  const guest = makeGuest(100)
  const lastJob = (tasks: BackupTask[]) =>
    summariseGuestBackups(inputs({ vms: [guest], backupTasks: tasks }))[0]!.lastJob

  it('takes the newest single-guest task of the guest instance', () => {
    expect(
      lastJob([
        makeTask({ id: 'lab-a', startTime: 2000, endTime: 2100, status: 'OK', jobId: 'backup-1' }),
        makeTask({ id: 'lab-b', startTime: 1000, endTime: 1100, status: 'boom', error: 'boom' }),
        makeTask({ id: 'x-c', instance: 'x', startTime: 9000, endTime: 9100 }),
        makeTask({ id: 'lab-d', vmid: 101, startTime: 9000, endTime: 9100 }),
      ]),
    ).toEqual({ state: 'ok', time: 2100, taskId: 'lab-a', jobId: 'backup-1' })
  })

  it('reads a failed single-guest task with its error, and a running one at its start', () => {
    expect(lastJob([makeTask({ status: 'unable to open', error: 'unable to open' })])).toEqual({
      state: 'failed',
      time: 1100,
      taskId: 'lab-UPID:1',
      error: 'unable to open',
    })
    expect(lastJob([makeTask({ status: 'running', endTime: 0, startTime: 3000 })])).toEqual({
      state: 'running',
      time: 3000,
      taskId: 'lab-UPID:1',
    })
    expect(lastJob([makeTask({ status: 'WARNINGS: 2' })])?.state).toBe('warning')
  })

  it('reads the guest entry of a job task: its own failure, or ok inside a failed job', () => {
    const task = makeTask({
      vmid: 0,
      status: 'job errors',
      error: 'job errors',
      guests: [
        { vmid: 100, ok: false, error: 'no space left' },
        { vmid: 101, ok: true },
      ],
    })
    expect(lastJob([task])).toEqual({
      state: 'failed',
      time: 1100,
      taskId: 'lab-UPID:1',
      error: 'no space left',
    })
    const other = summariseGuestBackups(inputs({ vms: [makeGuest(101)], backupTasks: [task] }))
    expect(other[0]!.lastJob).toEqual({ state: 'ok', time: 1100, taskId: 'lab-UPID:1' })
    const unnamed = summariseGuestBackups(inputs({ vms: [makeGuest(102)], backupTasks: [task] }))
    expect(unnamed[0]!.lastJob).toBeUndefined()
  })

  it("reads each guest's own entry in a node's job task of a thousand guests", () => {
    // Past a few entries a task's list is looked up by vmid: the same answers as a scan.
    const guests = Array.from({ length: 1000 }, (_, i) => ({
      vmid: 1000 + i,
      ok: i % 7 !== 0,
      ...(i % 7 === 0 ? { error: `disk ${i} full` } : {}),
    }))
    // A vmid logged twice (a retried guest): the first entry counts, as it always did.
    guests.push({ vmid: 1001, ok: false, error: 'retried' })
    const task = makeTask({ vmid: 0, status: 'job errors', error: 'job errors', guests })
    const vms = [makeGuest(1000), makeGuest(1001), makeGuest(1700), makeGuest(5000)]
    const byVmid = new Map(
      summariseGuestBackups(inputs({ vms, backupTasks: [task] })).map((s) => [s.vmid, s.lastJob]),
    )
    expect(byVmid.get(1000)).toEqual({
      state: 'failed',
      time: 1100,
      taskId: 'lab-UPID:1',
      error: 'disk 0 full',
    })
    expect(byVmid.get(1001)?.state).toBe('ok')
    expect(byVmid.get(1700)).toEqual({
      state: 'failed',
      time: 1100,
      taskId: 'lab-UPID:1',
      error: 'disk 700 full',
    })
    expect(byVmid.get(5000)).toBeUndefined()
  })
})
