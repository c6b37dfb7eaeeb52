import { describe, expect, it } from 'vitest'
import {
  ALERT_HISTORY_RANGES,
  ALERT_HISTORY_SEVERITIES,
  BACKUPS_SORT_KEYS,
  DASHBOARD_GROUPING_MODES,
  DASHBOARD_SORT_KEYS,
  DASHBOARD_STATUS_MODES,
  DASHBOARD_VIEW_MODES,
  PREF_FIELDS,
  SORT_DIRECTIONS,
  STORAGE_SORT_KEYS,
  STORAGE_VIEW_MODES,
  checkPrefs,
  defaultPrefs,
  validatePrefs,
  type PrefKey,
  type Prefs,
} from '../../../../src/shared/prefs/schema.ts'
import {
  GUEST_GROUPINGS,
  GUEST_SORT_KEYS,
  GUEST_STATUS_MODES,
  GUEST_VIEW_MODES,
} from '../../../../src/shared/views/guest-view-types.ts'
import {
  STORAGE_SORT_KEYS as STORAGE_VIEW_SORT_KEYS,
  STORAGE_VIEW_MODES as STORAGE_VIEW_LAYOUTS,
} from '../../../../src/shared/views/storage-types.ts'
import { BACKUP_SORT_KEYS } from '../../../../src/shared/views/backups-types.ts'
import {
  HISTORY_RANGES,
  HISTORY_SEVERITIES,
} from '../../../../src/shared/views/alert-history-types.ts'

const DEFAULTS: Prefs = {
  dashboardViewMode: 'all',
  dashboardStatusMode: 'all',
  dashboardGroupingMode: 'grouped',
  dashboardShowFilters: true,
  tableTrends: false,
  dashboardSortKey: 'vmid',
  dashboardSortDirection: 'asc',
  dashboardSearchHistory: [],
  storageViewMode: 'node',
  storageSortKey: 'name',
  storageSortDirection: 'asc',
  storageSearchHistory: [],
  backupsSearchHistory: [],
  backupsSortKey: 'backupTime',
  backupsSortDirection: 'desc',
  backupsUseRelativeTime: false,
  alertHistoryRange: '7d',
  alertHistorySeverity: 'all',
}

/** A valid non-default value for every field. */
const CUSTOM: Prefs = {
  dashboardViewMode: 'lxc',
  dashboardStatusMode: 'stopped',
  dashboardGroupingMode: 'flat',
  dashboardShowFilters: false,
  tableTrends: true,
  dashboardSortKey: 'networkOut',
  dashboardSortDirection: 'desc',
  dashboardSearchHistory: ['cpu>80', 'tags:prod'],
  storageViewMode: 'storage',
  storageSortKey: 'usage',
  storageSortDirection: 'desc',
  storageSearchHistory: ['node:pve1'],
  backupsSearchHistory: ['pbs:main:store:'],
  backupsSortKey: 'size',
  backupsSortDirection: 'asc',
  backupsUseRelativeTime: true,
  alertHistoryRange: '30d',
  alertHistorySeverity: 'critical',
}

/** Values each field must refuse. */
const INVALID: Record<PrefKey, unknown[]> = {
  dashboardViewMode: ['banana', 'VM', '', 1, null, true, ['vm'], {}],
  dashboardStatusMode: ['paused', 'Running', 0, null, false],
  dashboardGroupingMode: ['list', 'node', 2, null],
  dashboardShowFilters: ['true', 'false', 1, 0, null, {}],
  tableTrends: ['yes', 1, null, []],
  dashboardSortKey: ['ctime', 'CPU', 'toString', 3, null],
  dashboardSortDirection: ['up', 'ASC', -1, null],
  dashboardSearchHistory: [
    'cpu>80',
    null,
    {},
    [1, 2],
    ['ok', null],
    ['ok', ''],
    [' padded '],
    ['Web', 'web'],
    Array.from({ length: 11 }, (_, i) => `term ${i}`),
  ],
  storageViewMode: ['pool', 'Node', 0, null, ['node']],
  storageSortKey: ['vmid', 'Usage', 'constructor', 1, null],
  storageSortDirection: ['down', 'DESC', 1, null],
  storageSearchHistory: [42, [true]],
  backupsSearchHistory: ['x', [{}]],
  backupsSortKey: ['time', 'BackupTime', 'valueOf', 0, null],
  backupsSortDirection: ['up', 'Desc', null],
  backupsUseRelativeTime: ['true', 1, null],
  alertHistoryRange: ['7', '1y', 'All', 7, null],
  alertHistorySeverity: ['info', 'Critical', '', 0, null],
}

describe('allowed values', () => {
  it('match the view protocol lists they mirror', () => {
    expect(DASHBOARD_VIEW_MODES).toEqual(GUEST_VIEW_MODES)
    expect(DASHBOARD_STATUS_MODES).toEqual(GUEST_STATUS_MODES)
    expect(DASHBOARD_GROUPING_MODES).toEqual(GUEST_GROUPINGS)
    expect(DASHBOARD_SORT_KEYS).toEqual(GUEST_SORT_KEYS)
    expect(SORT_DIRECTIONS).toEqual(['asc', 'desc'])
    expect(STORAGE_VIEW_MODES).toEqual(STORAGE_VIEW_LAYOUTS)
    expect(STORAGE_SORT_KEYS).toEqual(STORAGE_VIEW_SORT_KEYS)
    expect(BACKUPS_SORT_KEYS).toEqual(BACKUP_SORT_KEYS)
    expect(ALERT_HISTORY_RANGES).toEqual(HISTORY_RANGES)
    expect(ALERT_HISTORY_SEVERITIES).toEqual(HISTORY_SEVERITIES)
  })

  it('defaults to the spec Reset view with the filter bar shown and empty histories', () => {
    expect(defaultPrefs()).toEqual(DEFAULTS)
    expect(Object.keys(PREF_FIELDS).sort()).toEqual(Object.keys(DEFAULTS).sort())
  })

  it('hands out a fresh object each time', () => {
    const prefs = defaultPrefs()
    prefs.dashboardViewMode = 'vm'
    expect(defaultPrefs().dashboardViewMode).toBe('all')
  })
})

describe('validatePrefs', () => {
  it('keeps every valid value', () => {
    expect(validatePrefs(CUSTOM)).toEqual(CUSTOM)
    expect(checkPrefs(CUSTOM).rejected).toEqual([])
  })

  it('accepts every allowed enum value', () => {
    for (const mode of DASHBOARD_VIEW_MODES) {
      expect(validatePrefs({ dashboardViewMode: mode }).dashboardViewMode).toBe(mode)
    }
    for (const mode of DASHBOARD_STATUS_MODES) {
      expect(validatePrefs({ dashboardStatusMode: mode }).dashboardStatusMode).toBe(mode)
    }
    for (const key of DASHBOARD_SORT_KEYS) {
      expect(validatePrefs({ dashboardSortKey: key }).dashboardSortKey).toBe(key)
    }
  })

  it.each(Object.keys(INVALID) as PrefKey[])(
    'replaces an invalid %s with its default and keeps the other fields',
    (key) => {
      for (const bad of INVALID[key]) {
        const result = checkPrefs({ ...CUSTOM, [key]: bad })
        expect(result.prefs).toEqual({ ...CUSTOM, [key]: DEFAULTS[key] })
        expect(result.rejected).toEqual([key])
      }
    },
  )

  it('falls back field by field when several fields are bad', () => {
    const result = checkPrefs({
      ...CUSTOM,
      dashboardViewMode: 'banana',
      dashboardShowFilters: 'no',
      storageSearchHistory: [1],
    })
    expect(result.prefs).toEqual({
      ...CUSTOM,
      dashboardViewMode: 'all',
      dashboardShowFilters: true,
      storageSearchHistory: [],
    })
    expect(result.rejected.sort()).toEqual(
      ['dashboardShowFilters', 'dashboardViewMode', 'storageSearchHistory'].sort(),
    )
  })

  it.each([null, undefined, 0, 42, 'prefs', true, [], [CUSTOM], () => CUSTOM])(
    'gives all defaults for a value that is not an object: %s',
    (raw) => {
      expect(validatePrefs(raw)).toEqual(DEFAULTS)
      expect(checkPrefs(raw).rejected).toEqual([])
    },
  )

  it('gives defaults for missing fields without reporting them', () => {
    const result = checkPrefs({ dashboardGroupingMode: 'flat' })
    expect(result.prefs).toEqual({ ...DEFAULTS, dashboardGroupingMode: 'flat' })
    expect(result.rejected).toEqual([])
  })

  it('ignores unknown keys and inherited properties', () => {
    const raw = Object.create({ dashboardViewMode: 'vm' }) as Record<string, unknown>
    raw.somethingElse = 'x'
    raw.darkMode = true
    raw.__proto__ = { dashboardStatusMode: 'running' }
    const prefs = validatePrefs(raw)
    expect(prefs).toEqual(DEFAULTS)
    expect(Object.keys(prefs)).not.toContain('somethingElse')
  })

  it('reads JSON round-trips, including the parsed forms of garbage', () => {
    expect(validatePrefs(JSON.parse(JSON.stringify(CUSTOM)))).toEqual(CUSTOM)
    expect(validatePrefs(JSON.parse('null'))).toEqual(DEFAULTS)
    expect(validatePrefs(JSON.parse('[1,2,3]'))).toEqual(DEFAULTS)
    expect(validatePrefs(JSON.parse('"dashboard"'))).toEqual(DEFAULTS)
    expect(validatePrefs(JSON.parse('{"__proto__":{"dashboardViewMode":"vm"}}'))).toEqual(DEFAULTS)
  })

  it('returns history copies, so the input array is never shared', () => {
    const history = ['a', 'b']
    const prefs = validatePrefs({ dashboardSearchHistory: history })
    expect(prefs.dashboardSearchHistory).toEqual(history)
    expect(prefs.dashboardSearchHistory).not.toBe(history)
  })

  it('accepts a history of exactly ten entries', () => {
    const ten = Array.from({ length: 10 }, (_, i) => `term ${i}`)
    expect(validatePrefs({ backupsSearchHistory: ten }).backupsSearchHistory).toEqual(ten)
  })
})
