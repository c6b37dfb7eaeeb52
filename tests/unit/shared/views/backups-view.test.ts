import { describe, expect, it } from 'vitest'
import { localDay } from '../../../../src/shared/views/backups-dates.ts'
import {
  formatDedupFactor,
  getBackupAgeColour,
  getBackupSizeColour,
  getBarColour,
  truncateText,
} from '../../../../src/shared/views/backups-format.ts'
import { nextBackupSort } from '../../../../src/shared/views/backups-sort.ts'
import type {
  BackupRow,
  BackupsViewRequest,
  BackupViewRow,
} from '../../../../src/shared/views/backups-types.ts'
import {
  createBackupsViewPipeline,
  type BackupsViewInput,
} from '../../../../src/shared/views/backups-view.ts'
import { makeGuest, makeNode } from './guest-fixtures.ts'
import {
  at,
  makeBackupsRequest,
  makePbsBackup,
  makePbsInstance,
  makeSnapshot,
  makeStorageBackup,
} from './backups-fixtures.ts'

const GIB = 1024 ** 3
const now = at(2024, 3, 2, 18)
const today = at(2024, 3, 2, 9)
const yesterday = at(2024, 3, 1, 9)
const older = at(2024, 2, 20, 9)

function makeInput(patch: Partial<BackupsViewInput> = {}): BackupsViewInput {
  return {
    guestSnapshots: [makeSnapshot(101, today, { name: 'snap-a' })],
    storageBackups: [
      makeStorageBackup(102, yesterday, { type: 'lxc', size: 30 * GIB, node: 'pve2' }),
      makeStorageBackup(0, older, { type: 'host', size: 1 * GIB }),
    ],
    pveReceived: true,
    pbsBackups: [
      makePbsBackup('101', yesterday + 60, { size: 60 * GIB, owner: 'backup@pbs' }),
      makePbsBackup('103', older, { backupType: 'ct', size: 4 * GIB, namespace: 'prod' }),
    ],
    pbs: [makePbsInstance('pbs1', [2.44, 3.06])],
    guests: [
      makeGuest(101, { name: 'web' }),
      makeGuest(102, { name: 'dns', type: 'lxc', node: 'pve2' }),
    ],
    nodes: [makeNode('pve1'), makeNode('pve2')],
    now: now * 1000,
    ...patch,
  }
}

function backupRows(rows: BackupViewRow[]): BackupRow[] {
  return rows.filter((row): row is BackupRow => row.kind === 'backup')
}

function run(request: Partial<BackupsViewRequest> = {}, input = makeInput()) {
  return createBackupsViewPipeline().compute(input, makeBackupsRequest(request))
}

const ids = (request: Partial<BackupsViewRequest> = {}, input = makeInput()) =>
  backupRows(run(request, input).rows).map((row) => `${row.classLabel}:${row.vmid}`)

describe('backups view filters', () => {
  it('maps view modes to record classes', () => {
    expect(ids({ viewMode: 'snapshot' })).toEqual(['Snapshot:101'])
    expect(ids({ viewMode: 'pve' }).sort()).toEqual(['PVE:0', 'PVE:102'])
    expect(ids({ viewMode: 'pbs' }).sort()).toEqual(['PBS:101', 'PBS:103'])
    expect(ids({ viewMode: 'all' })).toHaveLength(5)
  })

  it('filters by guest class', () => {
    expect(ids({ typeFilter: 'Host' })).toEqual(['PVE:0'])
    expect(ids({ typeFilter: 'LXC' }).sort()).toEqual(['PBS:103', 'PVE:102'])
    expect(ids({ typeFilter: 'VM' }).sort()).toEqual(['PBS:101', 'Snapshot:101'])
  })

  it('filters to a selected node; a selected PBS forces the remote view', () => {
    expect(ids({ selectedNode: 'lab-pve2' })).toEqual(['PVE:102'])
    expect(ids({ selectedNode: 'pbs-pbs1', viewMode: 'snapshot' }).sort()).toEqual([
      'PBS:101',
      'PBS:103',
    ])
  })

  it('filters to a namespace chosen in the selector', () => {
    const scope = { instance: 'pbs1', datastore: 'main', namespace: 'prod' }
    expect(ids({ scope })).toEqual(['PBS:103'])
    expect(ids({ scope: { ...scope, namespace: '' } })).toEqual(['PBS:101'])
  })

  it('restricts the list, not the chart, to the selected day', () => {
    const day = localDay(yesterday)
    const model = run({ selectedDay: day })
    expect(
      backupRows(model.rows)
        .map((row) => row.vmid)
        .sort(),
    ).toEqual(['101', '102'])
    expect(model.totals.matched).toBe(2)
    expect(model.chart.days.at(-1)).toBe(localDay(today))
    const total = model.chart.snapshot.concat(model.chart.pve, model.chart.pbs)
    expect(total.reduce((a, b) => a + b, 0)).toBe(5)
  })

  it('counts records, matches and classes and flags host backups', () => {
    const model = run({ search: '101' })
    expect(model.totals).toEqual({ records: 5, matched: 2, snapshot: 1, local: 0, remote: 1 })
    expect(model.hasHostBackups).toBe(true)
    expect(model.sources).toBe(3)
    expect(model.loaded).toBe(true)
  })

  it('reports no data loaded and no sources before anything arrives', () => {
    const model = run(
      {},
      makeInput({
        storageBackups: [],
        guestSnapshots: [],
        pveReceived: false,
        pbsBackups: [],
        pbs: [],
        nodes: [],
      }),
    )
    expect(model).toMatchObject({ loaded: false, sources: 0, rowCount: 0, dedupText: null })
  })
})

describe('backups view sorting and grouping', () => {
  it('sorts by time descending by default, grouped by date with day headers', () => {
    const model = run()
    expect(model.rows.map((row) => (row.kind === 'group' ? row.label : row.vmid))).toEqual([
      'Today',
      '101',
      'Yesterday',
      '101',
      '102',
      'February 20th',
      '0',
      '103',
    ])
    expect(model.rowCount).toBe(8)
  })

  it('sorts by size with empty sizes last in both directions', () => {
    const flat = (direction: 'asc' | 'desc') =>
      backupRows(run({ sort: { key: 'size', direction }, grouping: 'guest' }).rows)
    const bySize = (direction: 'asc' | 'desc') =>
      flat(direction)
        .map((row) => row.size)
        .filter((size) => size > 0)
    expect(bySize('desc')).toEqual([60, 30, 4, 1].map((n) => n * GIB))
    expect(bySize('asc')).toEqual([1, 4, 30, 60].map((n) => n * GIB))
  })

  it('sorts text keys with empty values last', () => {
    const owners = backupRows(run({ sort: { key: 'owner', direction: 'asc' } }).rows)
    // Grouped by date, newest day first; inside a day by owner, snapshots (no owner) last.
    expect(owners.map((row) => row.owner)).toEqual(['', 'backup@pbs', '', 'root@pam', ''])
  })

  it('orders days newest first when sorting by another key', () => {
    const labels = run({ sort: { key: 'vmid', direction: 'asc' } })
      .rows.filter((row) => row.kind === 'group')
      .map((row) => row.label)
    expect(labels).toEqual(['Today', 'Yesterday', 'February 20th'])
  })

  it('groups by guest in the order of each guest’s first record', () => {
    const model = run({ grouping: 'guest' })
    const groups = model.rows.filter((row) => row.kind === 'group')
    expect(groups.map((row) => [row.label, row.count])).toEqual([
      ['VM 101 · web', 2],
      ['LXC 102 · dns', 1],
      ['Host 0', 1],
      ['LXC 103', 1],
    ])
  })

  it('starts time and size descending on a header click and every other key ascending', () => {
    const from = { key: 'name', direction: 'asc' } as const
    expect(nextBackupSort(from, 'backupTime')).toEqual({ key: 'backupTime', direction: 'desc' })
    expect(nextBackupSort(from, 'size')).toEqual({ key: 'size', direction: 'desc' })
    for (const key of [
      'node',
      'vmid',
      'backupType',
      'storage',
      'verified',
      'type',
      'owner',
    ] as const) {
      expect(nextBackupSort({ key: 'size', direction: 'desc' }, key).direction).toBe('asc')
    }
    expect(nextBackupSort(from, 'name')).toEqual({ key: 'name', direction: 'desc' })
  })
})

describe('backups view window and memoization', () => {
  it('sends only the requested window of rows', () => {
    const model = run({ window: { start: 2, count: 3 } })
    expect(model.start).toBe(2)
    expect(model.rows.map((row) => row.key)).toHaveLength(3)
    expect(model.rows[0]).toMatchObject({ kind: 'group', label: 'Yesterday', count: 2 })
  })

  it('returns the same model for the same input and request', () => {
    const pipeline = createBackupsViewPipeline()
    const input = makeInput()
    const request = makeBackupsRequest()
    const first = pipeline.compute(input, request)
    expect(pipeline.compute({ ...input }, { ...request, scope: null })).toBe(first)
    expect(pipeline.runs.normalise).toBe(1)
  })

  it('normalises once per data change and sorts once per key and direction', () => {
    const pipeline = createBackupsViewPipeline()
    const input = makeInput()
    pipeline.compute(input, makeBackupsRequest())
    pipeline.compute(input, makeBackupsRequest({ search: 'web' }))
    pipeline.compute(input, makeBackupsRequest({ search: 'web', viewMode: 'pbs' }))
    pipeline.compute(
      input,
      makeBackupsRequest({ search: 'web', viewMode: 'pbs', window: { start: 1, count: 2 } }),
    )
    expect(pipeline.runs.normalise).toBe(1)
    expect(pipeline.runs.sort).toBe(1)
    // Scrolling reruns neither the filter nor the chart.
    expect(pipeline.runs.filter).toBe(3)
    expect(pipeline.runs.chart).toBe(3)
    pipeline.compute(input, makeBackupsRequest({ search: 'web', viewMode: 'pbs', range: 7 }))
    expect(pipeline.runs.filter).toBe(3)
    expect(pipeline.runs.chart).toBe(4)
    pipeline.compute({ ...input, pbsBackups: [...input.pbsBackups] }, makeBackupsRequest())
    expect(pipeline.runs.normalise).toBe(2)
    expect(pipeline.runs.sort).toBe(2)
  })
})

describe('backups display rules', () => {
  const DAY = 86_400

  it('colours backup ages green, yellow, orange and red', () => {
    expect(getBackupAgeColour(3 * DAY - 1)).toBe('green')
    expect(getBackupAgeColour(3 * DAY)).toBe('yellow')
    expect(getBackupAgeColour(7 * DAY)).toBe('orange')
    expect(getBackupAgeColour(30 * DAY - 1)).toBe('orange')
    expect(getBackupAgeColour(30 * DAY)).toBe('red')
  })

  it('colours sizes green, yellow, orange and red, and no size grey', () => {
    expect(getBackupSizeColour(5 * GIB - 1)).toBe('green')
    expect(getBackupSizeColour(5 * GIB)).toBe('yellow')
    expect(getBackupSizeColour(20 * GIB)).toBe('orange')
    expect(getBackupSizeColour(50 * GIB)).toBe('red')
    expect(getBackupSizeColour(0)).toBe('grey')
  })

  it('colours chart bars by count', () => {
    expect([0, 1, 5, 6, 10, 11].map(getBarColour)).toEqual([
      'none',
      'blue',
      'blue',
      'green',
      'green',
      'violet',
    ])
  })

  it('truncates details at 35 characters and local names at 30', () => {
    expect(truncateText('x'.repeat(35), 35)).toBe('x'.repeat(35))
    expect(truncateText('x'.repeat(36), 35)).toBe(`${'x'.repeat(32)}...`)
    const name = 'vzdump-qemu-102-2024_03_01-09_00_00.vma.zst'
    const input = makeInput({
      guestSnapshots: [],
      storageBackups: [
        makeStorageBackup(102, yesterday, {
          volid: `local:backup/${name}`,
          notes: 'n'.repeat(40),
        }),
      ],
      pbsBackups: [],
    })
    const row = backupRows(run({}, input).rows)[0]!
    expect(row.backupName).toBe(`${name.slice(0, 27)}...`)
    expect(row.backupNameFull).toBe(name)
    expect(row.details).toHaveLength(35)
    expect(row.detailsFull).toBe('n'.repeat(40))
  })

  it('averages the deduplication factor over datastores that report one, to 1 decimal', () => {
    expect(
      formatDedupFactor([makePbsInstance('a', [2.44, 3.06]), makePbsInstance('b', [undefined, 1])]),
    ).toBe('2.2x')
    expect(formatDedupFactor([makePbsInstance('a', [undefined])])).toBeNull()
    expect(run().dedupText).toBe('2.8x')
  })

  it('shows location and size text per class', () => {
    const rows = backupRows(run().rows)
    const byLabel = (label: string, vmid: string) =>
      rows.find((row) => row.classLabel === label && row.vmid === vmid)!
    expect(byLabel('Snapshot', '101')).toMatchObject({ location: 'pve1', sizeText: '-' })
    expect(byLabel('PVE', '102')).toMatchObject({ location: 'local', sizeText: '30 GB' })
    expect(byLabel('PBS', '103')).toMatchObject({ location: 'main/prod', sizeColour: 'green' })
  })
})
