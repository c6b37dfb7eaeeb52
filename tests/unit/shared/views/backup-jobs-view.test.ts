import { describe, expect, it } from 'vitest'
import type { BackupJob, PbsJob } from '../../../../src/shared/model/backup-health.ts'
import type { BackupTask } from '../../../../src/shared/model/state.ts'
import {
  createBackupJobsView,
  describeSelection,
  formatDuration,
  type BackupJobsInput,
} from '../../../../src/shared/views/backup-jobs-view.ts'
import {
  createGuestBackupView,
  jobSelects,
} from '../../../../src/shared/views/backup-guest-view.ts'
import { makeAlertConfig } from '../../../fixtures/alerts/alert-config.ts'
import { DAY, NOW, NOW_S, makeGuestBackup } from './backup-coverage-fixtures.ts'
import { makeGuest } from './guest-fixtures.ts'

function pveJob(patch: Partial<BackupJob> = {}): BackupJob {
  return {
    id: 'lab-backup-1',
    instance: 'lab',
    jobId: 'backup-1',
    schedule: '02:00',
    storage: 'pbs-main',
    enabled: true,
    nextRun: NOW_S + 3600,
    vmids: [],
    all: true,
    exclude: [],
    mode: 'snapshot',
    ...patch,
  }
}

function pbsJob(patch: Partial<PbsJob> = {}): PbsJob {
  return {
    id: 'pbs-main-verify-v1',
    pbs: 'pbs-main',
    instance: 'main',
    kind: 'verify',
    jobId: 'v1',
    store: 'store1',
    schedule: 'daily',
    enabled: true,
    nextRun: NOW_S + 3600,
    ...patch,
  }
}

const failedTask: BackupTask = {
  id: 'lab-UPID:pve1:1',
  node: 'pve1',
  instance: 'lab',
  type: 'vzdump',
  vmid: 0,
  status: 'job errors',
  startTime: NOW_S - 7200,
  endTime: NOW_S - 7000,
  jobId: 'backup-1',
  storage: 'pbs-main',
  guests: [
    { vmid: 101, ok: true },
    { vmid: 102, ok: false, error: 'no space left' },
  ],
  logTail: ['INFO: starting', 'ERROR: Backup of VM 102 failed - no space left'],
}

function input(patch: Partial<BackupJobsInput> = {}): BackupJobsInput {
  return {
    backupJobs: [
      pveJob({
        lastRun: {
          upid: 'UPID:pve1:1',
          state: 'failed',
          status: 'job errors',
          startTime: NOW_S - 7200,
          endTime: NOW_S - 7000,
          duration: 200,
        },
      }),
      pveJob({ id: 'lab-backup-2', jobId: 'backup-2', enabled: false, all: false, pool: 'prod' }),
    ],
    pbsJobs: [
      pbsJob({ nextRun: NOW_S - 2 * 3600, lastRun: undefined }),
      pbsJob({
        id: 'pbs-main-gc-store1',
        kind: 'gc',
        jobId: 'store1',
        logTail: ['TASK ERROR: permission denied'],
        lastRun: {
          upid: 'UPID:gc',
          state: 'failed',
          status: 'permission denied',
          startTime: NOW_S - 60,
          endTime: NOW_S - 15,
          duration: 45,
        },
      }),
    ],
    backupTasks: [failedTask, { ...failedTask, id: 'lab-ok', status: 'OK', logTail: undefined }],
    config: makeAlertConfig(),
    loaded: true,
    now: NOW,
    ...patch,
  }
}

describe('backup jobs view', () => {
  it("lists PVE jobs with their last run and the linked task's log tail", () => {
    const model = createBackupJobsView().compute(input(), {
      kind: 'backupJobs',
      problemsOnly: false,
    })
    expect(model.pveJobs.map((job) => [job.jobId, job.selection, job.enabled])).toEqual([
      ['backup-1', 'All guests', true],
      ['backup-2', 'Pool prod', false],
    ])
    expect(model.pveJobs[0]!.lastRun).toMatchObject({
      state: 'failed',
      durationText: '3m',
      logTail: failedTask.logTail,
    })
  })

  it('marks a PBS job overdue past the grace, and keeps the failed run log tail', () => {
    const model = createBackupJobsView().compute(input(), {
      kind: 'backupJobs',
      problemsOnly: false,
    })
    const [gc, verify] = model.pbsJobs
    expect(gc).toMatchObject({ kindLabel: 'Garbage collection', overdue: false })
    expect(gc!.lastRun).toMatchObject({
      durationText: '45s',
      logTail: ['TASK ERROR: permission denied'],
    })
    expect(verify).toMatchObject({ kind: 'verify', overdue: true, lastRun: null })
    const graceful = createBackupJobsView().compute(
      input({
        config: makeAlertConfig({
          backups: { ...makeAlertConfig().backups, overdueGraceMinutes: 180 },
        }),
      }),
      { kind: 'backupJobs', problemsOnly: false },
    )
    expect(graceful.pbsJobs[1]!.overdue).toBe(false)
  })

  it('lists the failed vzdump tasks with the failed guests, and filters to problems', () => {
    const view = createBackupJobsView()
    const all = view.compute(input(), { kind: 'backupJobs', problemsOnly: false })
    expect(all.failedTasks).toHaveLength(1)
    expect(all.failedTasks[0]).toMatchObject({
      guests: '102',
      jobId: 'backup-1',
      error: 'job errors',
    })
    const problems = view.compute(input(), { kind: 'backupJobs', problemsOnly: true })
    expect(problems.pveJobs.map((job) => job.jobId)).toEqual(['backup-1'])
    expect(problems.pbsJobs).toHaveLength(2)
  })

  it('describes selections and durations', () => {
    expect(describeSelection(pveJob({ all: true, exclude: [100, 101], node: 'pve2' }))).toBe(
      'All except 100, 101 on pve2',
    )
    expect(describeSelection(pveJob({ all: false, vmids: [5] }))).toBe('VMIDs 5')
    expect(formatDuration(0)).toBe('')
    expect(formatDuration(3700)).toBe('1h 1m')
  })
})

describe('guest backup view', () => {
  it("summarises one guest's newest backup, its jobs and its last job", () => {
    const guest = makeGuest(101)
    const summary = makeGuestBackup(101, { id: guest.id, newest: NOW_S - 4 * DAY })
    const model = createGuestBackupView().compute(
      {
        guestBackups: [summary],
        backupJobs: [pveJob(), pveJob({ jobId: 'backup-2', all: false, vmids: [999] })],
        guests: [guest],
        config: makeAlertConfig(),
        loaded: true,
        now: NOW,
      },
      { kind: 'guestBackup', guestId: guest.id },
    )
    expect(model.row).toMatchObject({ ageText: '4d ago', ageColour: 'yellow', overdue: 'warning' })
    expect(model.jobs.map((job) => job.jobId)).toEqual(['backup-1'])
  })

  it('selects by pool, vmids, all minus exclude, and node', () => {
    const guest = { instance: 'lab', vmid: 101, node: 'pve1', pool: 'prod' }
    expect(jobSelects(pveJob({ all: false, pool: 'prod' }), guest)).toBe(true)
    expect(jobSelects(pveJob({ all: true, exclude: [101] }), guest)).toBe(false)
    expect(jobSelects(pveJob({ node: 'pve2' }), guest)).toBe(false)
    expect(jobSelects(pveJob({ instance: 'other' }), guest)).toBe(false)
  })
})
