import { describe, expect, it } from 'vitest'
import type { Transition } from '../../../../src/server/alerts/engine-types.ts'
import type { AlertConfig, AlertRule } from '../../../../src/shared/model/alerts.ts'
import { DEMO_BACKUP_RULE } from '../../../../src/server/demo-alerts.ts'
import { Driver, instantConfig, kinds, makeGuest } from './engine-fixture.ts'
import { backupState, DAY_S, NOW_S, orphan, summary } from './backup-fixture.ts'

/** The backup transitions only (an unreachable source also raises its offline alert). */
const backupKinds = (t: Transition[]) => kinds(t).filter((k) => k.includes(':backup-'))

const web = makeGuest(101, { name: 'web01' })
const ct = makeGuest(201, { name: 'dns', type: 'lxc' })

function withConfig(patch: (c: AlertConfig) => void): AlertConfig {
  const config = instantConfig()
  patch(config)
  return config
}

/** The demo's rule (tags:production, notBackedUp), at priority 10. */
function rule(patch: Partial<AlertRule> = {}): AlertRule {
  return { ...DEMO_BACKUP_RULE, id: 'r1', priority: 10, ...patch }
}

describe('backup age alerts', () => {
  it('fires a warning past the warning days, escalates past the critical days, resolves on a new backup', () => {
    const d = new Driver()
    d.poll(backupState([web], [summary(web, { newest: NOW_S - 4 * DAY_S })]))
    expect(d.active('backup-age-lab-pve1-101')).toMatchObject({
      type: 'backup-age',
      level: 'warning',
      resourceId: 'lab-pve1-101',
      resourceName: 'web01',
      node: 'pve1',
      instance: 'lab',
      message: "VM 'web01' (101): last backup 4.0 days ago",
      value: 4,
      threshold: 3,
      metadata: { resourceType: 'VM', unit: 'days' },
    })
    const t = d.poll(backupState([web], [summary(web, { newest: NOW_S - 9.2 * DAY_S })]))
    expect(kinds(t)).toEqual(['escalated:backup-age-lab-pve1-101'])
    expect(d.active('backup-age-lab-pve1-101')).toMatchObject({
      level: 'critical',
      threshold: 7,
      message: "VM 'web01' (101): last backup 9.2 days ago",
    })
    expect(kinds(d.poll(backupState([web])))).toEqual(['resolved:backup-age-lab-pve1-101:resolved'])
  })

  it('counts a guest never backed up as over both levels, and is off for templates', () => {
    const d = new Driver()
    const tpl = makeGuest(900, { name: 'tpl', template: true, status: 'stopped' })
    d.poll(backupState([ct, tpl], [summary(ct, { newest: 0 }), summary(tpl, { newest: 0 })]))
    expect(d.ids()).toEqual(
      ['backup-age-lab-pve1-201', 'guest-powered-off-lab-pve1-900'].slice(0, 1),
    )
    expect(d.active('backup-age-lab-pve1-201')).toMatchObject({
      level: 'critical',
      threshold: 7,
      message: "Container 'dns' (201) has never been backed up",
      metadata: { resourceType: 'Container' },
    })
  })

  it('raises no age alert for a guest never backed up that no enabled job selects', () => {
    // That guest is the 'not backed up' kind (opt-in): an estate that backs nothing up does not
    // turn every guest critical. An enabled job selecting it makes "never" an age alert again.
    const d = new Driver()
    for (const coverage of ['none', 'disabled', 'unknown'] as const) {
      d.poll(backupState([ct], [summary(ct, { newest: 0, coverage })]))
      expect(d.ids(), coverage).toEqual([])
    }
    d.poll(backupState([ct], [summary(ct, { newest: 0, coverage: 'enabled' })]))
    expect(d.ids()).toEqual(['backup-age-lab-pve1-201'])
    const t = d.poll(backupState([ct], [summary(ct, { newest: 0, coverage: 'none' })]))
    expect(kinds(t)).toEqual(['resolved:backup-age-lab-pve1-201:resolved'])
  })

  it('follows the guest override, then the matching rule, then the defaults', () => {
    const old = (g = web) => summary(g, { newest: NOW_S - 5 * DAY_S })
    const prod = makeGuest(102, { name: 'db', tags: ['production'] })
    const config = withConfig((c) => {
      c.customRules = [rule({ backup: { ageWarningDays: 1, ageCriticalDays: 2 } })]
      c.overrides = { 'lab-pve1-101': { backup: { ageWarningDays: 10, ageCriticalDays: 20 } } }
    })
    const d = new Driver(config)
    const other = makeGuest(103, { name: 'other' })
    d.poll(backupState([web, prod, other], [old(), old(prod), old(other)]))
    expect(d.active('backup-age-lab-pve1-101')).toBeUndefined()
    expect(d.active('backup-age-lab-pve1-102')).toMatchObject({ level: 'critical', threshold: 2 })
    expect(d.active('backup-age-lab-pve1-103')).toMatchObject({ level: 'warning', threshold: 3 })
  })

  it('matches rules against every guest of a large estate whose backups are all old', () => {
    // A summary's guest is found at its own index, or (summaries of an older guest list) by id,
    // gathered in steps of 10,000 guests: the last ones count too.
    const guests = Array.from({ length: 25_000 }, (_, i) =>
      makeGuest(100 + i, { name: `g${i}`, tags: i === 24_000 ? ['production'] : [] }),
    )
    const config = withConfig((c) => {
      c.customRules = [rule({ backup: { ageWarningDays: 1, ageCriticalDays: 2 } })]
    })
    const d = new Driver(config)
    d.poll(
      backupState(
        guests,
        guests.map((g) => summary(g, { newest: NOW_S - 5 * DAY_S })),
      ),
    )
    expect(d.ids()).toHaveLength(25_000)
    const rules = () => {
      expect(d.active('backup-age-lab-pve1-24100')).toMatchObject({
        level: 'critical',
        threshold: 2,
      })
      expect(d.active('backup-age-lab-pve1-24101')).toMatchObject({
        level: 'warning',
        threshold: 3,
      })
    }
    rules()
    const astray = guests.map((g) => summary(g, { newest: NOW_S - 5 * DAY_S })).reverse()
    expect(d.poll(backupState(guests, astray))).toEqual([])
    rules()
  })

  it('ends open alerts as disabled when the guest, its backups or the whole kind is switched off', () => {
    const state = backupState([web, ct], [summary(web, { newest: 0 }), summary(ct, { newest: 0 })])
    const d = new Driver()
    d.poll(state)
    expect(d.ids()).toEqual(['backup-age-lab-pve1-101', 'backup-age-lab-pve1-201'])
    const off = withConfig((c) => {
      c.overrides = {
        'lab-pve1-101': { backup: { enabled: false } },
        'lab-pve1-201': { disabled: true },
      }
    })
    expect(kinds(d.save(state, off)).sort()).toEqual([
      'resolved:backup-age-lab-pve1-101:disabled',
      'resolved:backup-age-lab-pve1-201:disabled',
    ])
    d.config = instantConfig()
    d.poll(state)
    expect(d.ids()).toHaveLength(2)
    const none = withConfig((c) => (c.backups.enabled = false))
    expect(kinds(d.save(state, none)).sort()).toEqual([
      'resolved:backup-age-lab-pve1-101:disabled',
      'resolved:backup-age-lab-pve1-201:disabled',
    ])
  })

  it('waits the guest delay, or the per-kind delay of metricTimeThresholds', () => {
    const state = backupState([web], [summary(web, { newest: 0 })])
    const d = new Driver(withConfig((c) => (c.timeThresholds.guest = 60)))
    d.poll(state)
    expect(d.ids()).toEqual([])
    expect(d.engine.pending.has('backup-age-lab-pve1-101')).toBe(true)
    d.poll(state, d.time + 60_000)
    expect(d.ids()).toEqual(['backup-age-lab-pve1-101'])
    const e = new Driver(
      withConfig((c) => {
        c.timeThresholds.guest = 60
        c.metricTimeThresholds = { guest: { 'backup-age': 0 } }
      }),
    )
    e.poll(state)
    expect(e.ids()).toEqual(['backup-age-lab-pve1-101'])
  })

  it('is not touched by the guest loop: a stopped guest keeps its backup alert', () => {
    const d = new Driver(withConfig((c) => (c.disableAllGuestsOffline = true)))
    d.poll(backupState([web], [summary(web, { newest: 0 })]))
    const stopped = { ...web, status: 'stopped' as const }
    expect(d.poll(backupState([stopped], [summary(stopped, { newest: 0 })]))).toEqual([])
    expect(d.ids()).toEqual(['backup-age-lab-pve1-101'])
  })
})

describe('not backed up alerts', () => {
  const prod = makeGuest(102, { name: 'db', tags: ['production'] })

  it('is off by default and on through a rule; says whether no job or only disabled jobs select it', () => {
    const states = backupState(
      [web, prod, ct],
      [
        summary(web, { coverage: 'none' }),
        summary(prod, { coverage: 'disabled' }),
        summary(ct, { coverage: 'unknown' }),
      ],
    )
    const d = new Driver()
    d.poll(states)
    expect(d.ids()).toEqual([])
    d.config = withConfig((c) => (c.customRules = [rule()]))
    d.poll(states)
    expect(d.ids()).toEqual(['backup-uncovered-lab-pve1-102'])
    expect(d.active('backup-uncovered-lab-pve1-102')).toMatchObject({
      type: 'backup-uncovered',
      level: 'warning',
      message: "VM 'db' (102) is only in disabled backup jobs",
    })
    d.config = withConfig((c) => (c.backups.notBackedUp = true))
    d.poll(states)
    expect(d.active('backup-uncovered-lab-pve1-101')?.message).toBe(
      "VM 'web01' (101) is in no backup job",
    )
    expect(d.active('backup-uncovered-lab-pve1-201')).toBeUndefined()
  })

  it('holds on unknown coverage, resolves when an enabled job covers the guest', () => {
    const d = new Driver(
      withConfig((c) => (c.overrides = { 'lab-pve1-101': { backup: { notBackedUp: true } } })),
    )
    d.poll(backupState([web], [summary(web, { coverage: 'none' })]))
    expect(d.ids()).toEqual(['backup-uncovered-lab-pve1-101'])
    expect(d.poll(backupState([web], [summary(web, { coverage: 'unknown' })]))).toEqual([])
    expect(d.ids()).toEqual(['backup-uncovered-lab-pve1-101'])
    expect(kinds(d.poll(backupState([web])))).toEqual([
      'resolved:backup-uncovered-lab-pve1-101:resolved',
    ])
  })
})

describe('failed backup job and verification alerts', () => {
  const failedJob = {
    state: 'failed' as const,
    time: NOW_S - 600,
    taskId: 'lab-UPID:1',
    error: 'ERROR: Backup of VM 101 failed - storage full',
  }

  it('fires critical on a failed job and resolves on a later successful backup', () => {
    const d = new Driver()
    d.poll(backupState([web], [summary(web, { newest: NOW_S - DAY_S, lastJob: failedJob })]))
    expect(d.active('backup-failed-lab-pve1-101')).toMatchObject({
      type: 'backup-failed',
      level: 'critical',
      message: "VM 'web01' (101): backup job failed: ERROR: Backup of VM 101 failed - storage full",
    })
    expect(
      kinds(d.poll(backupState([web], [summary(web, { newest: NOW_S, lastJob: failedJob })]))),
    ).toEqual(['resolved:backup-failed-lab-pve1-101:resolved'])
  })

  it('keeps the alert while the next job runs, resolves on an ok job, obeys failedJobs', () => {
    const d = new Driver()
    d.poll(backupState([web], [summary(web, { newest: NOW_S - DAY_S, lastJob: failedJob })]))
    const running = { ...failedJob, state: 'running' as const, time: NOW_S }
    expect(
      d.poll(backupState([web], [summary(web, { newest: NOW_S - DAY_S, lastJob: running })])),
    ).toEqual([])
    expect(d.ids()).toEqual(['backup-failed-lab-pve1-101'])
    const off = withConfig((c) => (c.backups.failedJobs = false))
    expect(
      kinds(
        d.save(
          backupState([web], [summary(web, { newest: NOW_S - DAY_S, lastJob: failedJob })]),
          off,
        ),
      ),
    ).toEqual(['resolved:backup-failed-lab-pve1-101:disabled'])
    d.config = instantConfig()
    d.poll(backupState([web], [summary(web, { newest: NOW_S - DAY_S, lastJob: failedJob })]))
    const ok = { ...failedJob, state: 'ok' as const, error: undefined }
    expect(
      kinds(d.poll(backupState([web], [summary(web, { newest: NOW_S - DAY_S, lastJob: ok })]))),
    ).toEqual(['resolved:backup-failed-lab-pve1-101:resolved'])
  })

  it('fires on failed verification and resolves when none fail, not while a PBS is unreachable', () => {
    const d = new Driver()
    d.poll(backupState([web], [summary(web, { verifyFailed: 2 })]))
    expect(d.active('backup-verify-failed-lab-pve1-101')).toMatchObject({
      level: 'critical',
      value: 2,
      message: "VM 'web01' (101): 2 backups failed verification",
    })
    const down = { connectionHealth: { lab: true, 'pbs-vault': false } }
    expect(backupKinds(d.poll(backupState([web], [summary(web)], down)))).toEqual([])
    expect(d.active('backup-verify-failed-lab-pve1-101')).toBeDefined()
    expect(backupKinds(d.poll(backupState([web])))).toEqual([
      'resolved:backup-verify-failed-lab-pve1-101:resolved',
    ])
  })
})

describe('orphaned backups', () => {
  it('is off by default; on, one summary per instance with the count; resolves when gone', () => {
    const summaries = [
      summary(web),
      orphan('pbs-vault', 500),
      orphan('pbs-vault', 501),
      orphan('lab', 600),
    ]
    const d = new Driver()
    d.poll(backupState([web], summaries))
    expect(d.ids()).toEqual([])
    d.config = withConfig((c) => (c.backups.orphaned = true))
    d.poll(backupState([web], summaries))
    expect(d.ids()).toEqual(['backup-orphaned-lab', 'backup-orphaned-pbs-vault'])
    expect(d.active('backup-orphaned-pbs-vault')).toMatchObject({
      level: 'warning',
      value: 2,
      resourceId: 'pbs-vault',
      message: '2 backup groups on PBS vault belong to no monitored guest',
      metadata: { resourceType: 'PBS' },
    })
    expect(d.active('backup-orphaned-lab')?.message).toBe(
      '1 backup group on lab belongs to no monitored guest',
    )
    expect(kinds(d.poll(backupState([web], [summary(web), orphan('lab', 600)])))).toEqual([
      'resolved:backup-orphaned-pbs-vault:resolved',
    ])
  })
})

describe('backup alert truth rules', () => {
  const old = summary(web, { newest: 0 })

  it('keeps open backup alerts until backups were read and while the summaries are not built', () => {
    const d = new Driver()
    d.poll(backupState([web], [old]))
    expect(d.ids()).toEqual(['backup-age-lab-pve1-101'])
    expect(d.poll(backupState([web], [], { backupsCollectedAt: 0 }))).toEqual([])
    expect(d.poll(backupState([web], []))).toEqual([])
    expect(d.ids()).toEqual(['backup-age-lab-pve1-101'])
    expect(d.active('backup-age-lab-pve1-101')?.stale).toBeUndefined()
  })

  it('fires nothing before the backups were read', () => {
    const d = new Driver()
    d.poll(backupState([web], [old], { backupsCollectedAt: 0 }))
    expect(d.ids()).toEqual([])
  })

  it("holds a guest's backup alerts stale while its instance is unhealthy", () => {
    const d = new Driver()
    d.poll(backupState([web], [old]))
    const t = d.poll(
      backupState([web], [summary(web)], { connectionHealth: { lab: false, 'pbs-vault': true } }),
    )
    expect(backupKinds(t)).toEqual([])
    expect(d.active('backup-age-lab-pve1-101')?.stale).toBe(true)
  })

  it('fires and worsens no age alert of an instance whose backups are pending; a newer backup still resolves', () => {
    // A listing that timed out at its first try: the guests' backups are unknown, not absent.
    const pending = { backupsPending: ['lab'] }
    const ctOld = summary(ct, { newest: NOW_S - 4 * DAY_S })
    const d = new Driver()
    expect(backupKinds(d.poll(backupState([web, ct], [old, ctOld], pending)))).toEqual([])
    expect(d.ids()).toEqual([])
    d.poll(backupState([web, ct], [old, ctOld]))
    expect(d.ids()).toEqual(['backup-age-lab-pve1-101', 'backup-age-lab-pve1-201'])
    const later = [
      summary(web, { newest: NOW_S - DAY_S }),
      summary(ct, { newest: NOW_S - 9 * DAY_S }),
    ]
    expect(backupKinds(d.poll(backupState([web, ct], later, pending)))).toEqual([
      'resolved:backup-age-lab-pve1-101:resolved',
    ])
    expect(d.active('backup-age-lab-pve1-201')).toMatchObject({ level: 'warning', value: 4 })
    expect(backupKinds(d.poll(backupState([web, ct], later)))).toEqual([
      'escalated:backup-age-lab-pve1-201',
    ])
  })

  it('counts a PBS not read yet as unreachable: no age alert fires, no verification alert resolves', () => {
    const d = new Driver()
    d.poll(backupState([web], [summary(web, { verifyFailed: 1 })]))
    const pending = { backupsPending: ['pbs-vault'] }
    const t = d.poll(backupState([web, ct], [summary(web), summary(ct, { newest: 0 })], pending))
    expect(backupKinds(t)).toEqual([])
    expect(d.ids()).toEqual(['backup-verify-failed-lab-pve1-101'])
    expect(
      backupKinds(d.poll(backupState([web, ct], [summary(web), summary(ct, { newest: 0 })]))),
    ).toEqual([
      'resolved:backup-verify-failed-lab-pve1-101:resolved',
      'fired:backup-age-lab-pve1-201',
    ])
  })

  it('keeps an orphans alert of a source whose listings are pending', () => {
    const d = new Driver(withConfig((c) => (c.backups.orphaned = true)))
    d.poll(backupState([web], [summary(web), orphan('lab', 600)]))
    expect(d.ids()).toEqual(['backup-orphaned-lab'])
    expect(
      backupKinds(d.poll(backupState([web], [summary(web)], { backupsPending: ['lab'] }))),
    ).toEqual([])
    expect(d.ids()).toEqual(['backup-orphaned-lab'])
    expect(backupKinds(d.poll(backupState([web], [summary(web)])))).toEqual([
      'resolved:backup-orphaned-lab:resolved',
    ])
  })

  it("ends a deleted guest's backup alerts as removed when its instance answered", () => {
    const d = new Driver()
    d.poll(backupState([web, ct], [old, summary(ct)]))
    expect(kinds(d.poll(backupState([ct])))).toEqual(['resolved:backup-age-lab-pve1-101:removed'])
  })
})
