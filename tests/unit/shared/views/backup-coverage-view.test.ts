import { describe, expect, it } from 'vitest'
import type { GuestBackup } from '../../../../src/shared/model/backup-health.ts'
import {
  backupAgeLevel,
  resolveBackupLimits,
} from '../../../../src/shared/views/backup-alert-limits.ts'
import {
  DEFAULT_COVERAGE_REQUEST,
  type BackupCoverageRequest,
  type CoverageSortKey,
} from '../../../../src/shared/views/backup-coverage-types.ts'
import {
  createBackupCoveragePipeline,
  formatCoverageCounts,
  type BackupCoverageInput,
} from '../../../../src/shared/views/backup-coverage-view.ts'
import { makeAlertConfig } from '../../../fixtures/alerts/alert-config.ts'
import {
  DAY,
  NOW,
  NOW_S,
  makeGuestBackup,
  randomEstate,
  randomGuestBackup,
  seeded,
} from './backup-coverage-fixtures.ts'

const config = makeAlertConfig()

function input(guestBackups: GuestBackup[], patch: Partial<BackupCoverageInput> = {}) {
  return { guestBackups, guests: [], config, loaded: true, now: NOW, ...patch }
}
const request = (patch: Partial<BackupCoverageRequest> = {}): BackupCoverageRequest => ({
  ...DEFAULT_COVERAGE_REQUEST,
  window: { start: 0, count: 1000 },
  ...patch,
})

const mixed = () => [
  makeGuestBackup(101, { name: 'fresh' }),
  makeGuestBackup(102, { name: 'warn', newest: NOW_S - 4 * DAY }),
  makeGuestBackup(103, { name: 'crit', newest: NOW_S - 10 * DAY }),
  makeGuestBackup(104, { name: 'never', newest: 0, count: 0 }),
  makeGuestBackup(105, {
    name: 'failed',
    lastJob: { state: 'failed', time: NOW_S - 7200, taskId: 't', error: 'no space' },
  }),
  makeGuestBackup(106, { name: 'nojob', coverage: 'none' }),
  makeGuestBackup(107, { name: 'tmpl', template: true, newest: NOW_S - 40 * DAY }),
  makeGuestBackup(108, {
    id: 'orphan-lab-vm-108',
    name: '',
    node: '',
    orphaned: true,
    coverage: 'unknown',
    newest: NOW_S - 20 * DAY,
  }),
]

describe('backup coverage view', () => {
  it('sorts worst first: failed, never, critical, warning, no job, then oldest first', () => {
    const model = createBackupCoveragePipeline().compute(input(mixed()), request())
    expect(model.rows.map((row) => row.name)).toEqual([
      'failed',
      'never',
      'crit',
      'warn',
      'nojob',
      'tmpl',
      'Orphaned 108',
      'fresh',
    ])
    expect(model.rows[1]).toMatchObject({ ageText: 'never', ageColour: 'red', newestText: '' })
    expect(model.rows[2]).toMatchObject({ overdue: 'critical', ageColour: 'orange' })
    expect(model.rows[0]!.lastJob).toMatchObject({ state: 'failed', error: 'no space' })
  })

  it('counts the line on top; templates are shown but never overdue', () => {
    const model = createBackupCoveragePipeline().compute(input(mixed()), request())
    expect(model.counts).toMatchObject({
      guests: 7,
      backedUp24h: 3,
      overdue: 2,
      never: 1,
      noJob: 1,
      failed24h: 1,
      orphaned: 1,
    })
    expect(model.countsText).toBe(
      '3 of 7 guests backed up in the last 24 h; 2 overdue; 1 in no job; 1 failed last night',
    )
    expect(formatCoverageCounts({ ...model.counts, guests: 2025, backedUp24h: 1912 }, true)).toBe(
      '1,912 of 2,025 guests backed up in the last 24 h; 2 overdue; 1 in no job; 1 failed last night',
    )
    expect(model.rows.find((row) => row.name === 'tmpl')!.overdue).toBeNull()
  })

  it('filters by chip and by search terms', () => {
    const view = createBackupCoveragePipeline()
    const names = (patch: Partial<BackupCoverageRequest>) =>
      view.compute(input(mixed()), request(patch)).rows.map((row) => row.name)
    expect(names({ filter: 'overdue' })).toEqual(['crit', 'warn'])
    expect(names({ filter: 'never' })).toEqual(['never'])
    expect(names({ filter: 'noJob' })).toEqual(['nojob'])
    expect(names({ filter: 'failed' })).toEqual(['failed'])
    expect(names({ filter: 'orphaned' })).toEqual(['Orphaned 108'])
    expect(names({ search: 'WARN' })).toEqual(['warn'])
    expect(names({ search: '103 crit' })).toEqual(['crit'])
  })

  it("uses the guest's own override for overdue, as the alert engine does", () => {
    const withOverride = makeAlertConfig({
      overrides: { 'lab-pve1-101': { backup: { ageWarningDays: 0, ageCriticalDays: 0 } } },
    })
    const rows = [
      makeGuestBackup(101, { newest: NOW_S - 20 * DAY }),
      makeGuestBackup(102, { newest: NOW_S - 20 * DAY }),
    ]
    const model = createBackupCoveragePipeline().compute(
      input(rows, { config: withOverride }),
      request({ filter: 'overdue' }),
    )
    expect(model.rows.map((row) => row.vmid)).toEqual([102])
  })

  it('says nothing about overdue while the alert config is unknown', () => {
    const model = createBackupCoveragePipeline().compute(
      input(mixed(), { config: null }),
      request(),
    )
    expect(model.limitsKnown).toBe(false)
    expect(model.counts.overdue).toBe(0)
    expect(model.countsText).not.toContain('overdue')
  })

  it('returns only the rows in the window, with the total', () => {
    const estate = randomEstate(500, 7)
    const model = createBackupCoveragePipeline().compute(
      input(estate),
      request({ window: { start: 100, count: 20 } }),
    )
    const full = createBackupCoveragePipeline().compute(input(estate), request())
    expect(model.rowCount).toBe(500)
    expect(model.start).toBe(100)
    expect(model.rows).toEqual(full.rows.slice(100, 120))
  })

  it('counts equal a from-scratch count over random estates', () => {
    for (let seed = 1; seed <= 20; seed++) {
      const estate = randomEstate(300, seed)
      const model = createBackupCoveragePipeline().compute(input(estate), request())
      const limits = resolveBackupLimits(config)
      const guests = estate.filter((g) => !g.orphaned)
      const level = (g: GuestBackup) =>
        g.template ? null : backupAgeLevel(limits, g.newest, NOW_S)
      expect(model.counts).toEqual({
        guests: guests.length,
        backedUp24h: guests.filter((g) => g.newest >= NOW_S - DAY).length,
        overdue: guests.filter((g) => g.newest > 0 && level(g) !== null).length,
        never: guests.filter((g) => g.newest === 0 && !g.template).length,
        noJob: guests.filter((g) => g.coverage === 'none' || g.coverage === 'disabled').length,
        failed: guests.filter((g) => g.lastJob?.state === 'failed').length,
        failed24h: guests.filter(
          (g) => g.lastJob?.state === 'failed' && g.lastJob.time >= NOW_S - DAY,
        ).length,
        orphaned: estate.length - guests.length,
      })
    }
  })

  it('a flush that touches none of its inputs recomputes nothing', () => {
    const view = createBackupCoveragePipeline()
    const estate = randomEstate(200, 3)
    const first = view.compute(input(estate), request())
    const runs = { ...view.runs }
    // A later flush in the same minute, with the same arrays.
    const again = view.compute(input(estate, { now: NOW + 20_000 }), request())
    expect(again).toBe(first)
    expect(view.runs).toEqual(runs)
  })

  it('a 1 % change derives only the changed rows and sorts like a rebuild, for every sort', () => {
    const keys: CoverageSortKey[] = ['worst', 'name', 'newest', 'lastJob', 'coverage', 'size']
    for (const key of keys) {
      for (const direction of ['asc', 'desc'] as const) {
        const random = seeded(key.length * 31 + direction.length)
        let estate = randomEstate(1000, 11)
        const view = createBackupCoveragePipeline()
        const req = request({ sort: { key, direction }, window: { start: 0, count: 1000 } })
        view.compute(input(estate), req)
        for (let round = 0; round < 3; round++) {
          estate = estate.slice()
          for (let k = 0; k < 10; k++) {
            const at = Math.floor(random() * estate.length)
            estate[at] = randomGuestBackup(random, at, round + 1)
          }
          // One removed, one added.
          estate.splice(Math.floor(random() * estate.length), 1)
          estate.push(randomGuestBackup(random, 5000 + round, round))
          const carried = view.compute(input(estate, { now: NOW + round * 3 * 3600_000 }), req)
          expect(view.derived).toBeLessThanOrEqual(11)
          const rebuilt = createBackupCoveragePipeline().compute(
            input(estate, { now: NOW + round * 3 * 3600_000 }),
            req,
          )
          expect(carried.rows.map((row) => row.id)).toEqual(rebuilt.rows.map((row) => row.id))
          expect(carried.counts).toEqual(rebuilt.counts)
        }
      }
    }
  })

  it('is not loaded until the summaries arrived', () => {
    const model = createBackupCoveragePipeline().compute(input([], { loaded: false }), request())
    expect(model.loaded).toBe(false)
  })
})
