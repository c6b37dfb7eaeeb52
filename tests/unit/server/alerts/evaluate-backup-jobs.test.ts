import { describe, expect, it } from 'vitest'
import type { PbsJob } from '../../../../src/shared/model/backup-health.ts'
import type { Transition } from '../../../../src/server/alerts/engine-types.ts'
import { Driver, instantConfig, kinds } from './engine-fixture.ts'
import { backupState, DAY_S, NOW_S, pbsJob, pbsServer } from './backup-fixture.ts'

const jobKinds = (t: Transition[]) => kinds(t).filter((k) => k.includes(':pbs-job-'))
const jobs = (...list: PbsJob[]) => backupState([], [], { pbsJobs: list })
const failedRun = {
  upid: 'UPID:vault:2',
  state: 'failed' as const,
  status: 'verification failed - 2 snapshots',
  startTime: NOW_S - 600,
  endTime: NOW_S - 500,
  duration: 100,
}

describe('PBS job alerts', () => {
  it('fires critical when the last run failed, warning on warnings, resolves on the next good run', () => {
    const d = new Driver()
    d.poll(jobs(pbsJob({ lastRun: failedRun })))
    expect(d.active('pbs-job-failed-pbs-vault-verify-v1')).toMatchObject({
      type: 'pbs-job-failed',
      level: 'critical',
      resourceId: 'pbs-vault',
      resourceName: 'vault',
      node: 'vault',
      instance: 'vault',
      message:
        "PBS vault: Verify job 'v1' (datastore main) failed (verification failed - 2 snapshots)",
      metadata: { resourceType: 'PBS' },
    })
    const running = { ...failedRun, state: 'running' as const, status: 'running' }
    expect(d.poll(jobs(pbsJob({ lastRun: running })))).toEqual([])
    const warned = { ...failedRun, state: 'warning' as const, status: 'WARNINGS: 2' }
    d.poll(jobs(pbsJob({ lastRun: warned })))
    expect(d.active('pbs-job-failed-pbs-vault-verify-v1')).toMatchObject({
      level: 'warning',
      message: "PBS vault: Verify job 'v1' (datastore main) ended with warnings (WARNINGS: 2)",
    })
    expect(kinds(d.poll(jobs(pbsJob())))).toEqual([
      'resolved:pbs-job-failed-pbs-vault-verify-v1:resolved',
    ])
  })

  it('fires overdue past next run plus the grace with no run since, resolves on the next run', () => {
    const late = pbsJob({
      kind: 'sync',
      id: 'pbs-vault-sync-s1',
      jobId: 's1',
      nextRun: NOW_S - 3601,
      lastRun: { ...pbsJob().lastRun!, startTime: NOW_S - DAY_S, endTime: NOW_S - DAY_S + 60 },
    })
    const d = new Driver()
    d.poll(jobs({ ...late, nextRun: NOW_S - 3000 }))
    expect(d.ids()).toEqual([])
    d.poll(jobs(late))
    expect(d.active('pbs-job-overdue-pbs-vault-sync-s1')).toMatchObject({
      level: 'warning',
      threshold: 60,
      message: `PBS vault: Sync job 's1' (datastore main) is overdue: due ${new Date((NOW_S - 3601) * 1000).toISOString().slice(0, 16).replace('T', ' ')} UTC, no run since`,
    })
    const ran = {
      ...late,
      nextRun: NOW_S + DAY_S,
      lastRun: { ...late.lastRun!, startTime: NOW_S, endTime: NOW_S + 5 },
    }
    expect(kinds(d.poll(jobs(ran)))).toEqual([
      'resolved:pbs-job-overdue-pbs-vault-sync-s1:resolved',
    ])
  })

  it('never calls a disabled or unscheduled job overdue, and uses the configured grace', () => {
    const late = pbsJob({ nextRun: NOW_S - 7200 })
    const d = new Driver()
    d.poll(jobs({ ...late, enabled: false }, { ...late, id: 'pbs-vault-gc-main', schedule: '' }))
    expect(d.ids()).toEqual([])
    const config = instantConfig()
    config.backups.overdueGraceMinutes = 180
    d.config = config
    d.poll(jobs(late))
    expect(d.ids()).toEqual([])
  })

  it('an unreachable PBS holds its job alerts stale and resolves nothing', () => {
    const d = new Driver()
    d.poll(jobs(pbsJob({ lastRun: failedRun })))
    const unreachable = backupState([], [], {
      pbsJobs: [pbsJob()],
      connectionHealth: { lab: true, 'pbs-vault': false },
    })
    expect(jobKinds(d.poll(unreachable))).toEqual([])
    expect(d.active('pbs-job-failed-pbs-vault-verify-v1')?.stale).toBe(true)
    const offline = backupState([], [], { pbsJobs: [], pbs: [pbsServer({ status: 'offline' })] })
    expect(jobKinds(d.poll(offline))).toEqual([])
    expect(d.active('pbs-job-failed-pbs-vault-verify-v1')).toBeDefined()
  })

  it('is switched off by the PBS override, by pbsJobs, and ends as removed with the job', () => {
    const d = new Driver()
    const state = jobs(pbsJob({ lastRun: failedRun }))
    d.poll(state)
    const off = instantConfig()
    off.overrides = { 'pbs-vault': { backup: { enabled: false } } }
    expect(kinds(d.save(state, off))).toEqual([
      'resolved:pbs-job-failed-pbs-vault-verify-v1:disabled',
    ])
    d.config = instantConfig()
    d.poll(state)
    const none = instantConfig()
    none.backups.pbsJobs = false
    expect(kinds(d.save(state, none))).toEqual([
      'resolved:pbs-job-failed-pbs-vault-verify-v1:disabled',
    ])
    d.config = instantConfig()
    d.poll(state)
    expect(kinds(d.poll(jobs()))).toEqual(['resolved:pbs-job-failed-pbs-vault-verify-v1:removed'])
  })

  it('waits the PBS delay (timeThresholds.pbs, or per kind)', () => {
    const config = instantConfig()
    config.timeThresholds.pbs = 30
    const d = new Driver(config)
    const state = jobs(pbsJob({ lastRun: failedRun }))
    d.poll(state)
    expect(d.ids()).toEqual([])
    d.poll(state, d.time + 30_000)
    expect(d.ids()).toEqual(['pbs-job-failed-pbs-vault-verify-v1'])
    const perKind = instantConfig()
    perKind.timeThresholds.pbs = 30
    perKind.metricTimeThresholds = { pbs: { 'pbs-job-failed': 0 } }
    const e = new Driver(perKind)
    e.poll(state)
    expect(e.ids()).toEqual(['pbs-job-failed-pbs-vault-verify-v1'])
  })

  it('PBS evaluation leaves job alerts alone when the PBS itself is disabled for metrics', () => {
    const d = new Driver()
    const state = jobs(pbsJob({ lastRun: failedRun }))
    d.poll(state)
    const config = instantConfig()
    config.disableAllPBS = true
    expect(kinds(d.save(state, config))).toEqual([])
    expect(d.ids()).toEqual(['pbs-job-failed-pbs-vault-verify-v1'])
  })
})
