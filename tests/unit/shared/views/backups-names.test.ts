import { describe, expect, it } from 'vitest'
import { normaliseBackups } from '../../../../src/shared/views/backups-normalize.ts'
import type { BackupRow, BackupsViewRequest } from '../../../../src/shared/views/backups-types.ts'
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

// Two clusters that both have a VMID 766 (issue 12): alpha's is log-11, bravo's db-staging-06.
// Alpha's guest arrives first, so any lookup by VMID alone finds log-11.
const t = at(2024, 3, 2, 10)
const guests = [
  makeGuest(766, { name: 'log-11', instance: 'alpha', node: 'a1' }),
  makeGuest(766, { name: 'db-staging-06', instance: 'bravo', node: 'b2' }),
  makeGuest(767, { name: 'only-in-alpha', instance: 'alpha', node: 'a1' }),
]
const alpha = { instance: 'alpha', node: 'a1' }
const bravo = { instance: 'bravo', node: 'b1' }

function makeInput(): BackupsViewInput {
  return {
    guestSnapshots: [
      makeSnapshot(766, t, { ...alpha, name: 'alpha-snap' }),
      makeSnapshot(766, t, { instance: 'bravo', node: 'b2', name: 'bravo-snap' }),
    ],
    storageBackups: [
      makeStorageBackup(766, t + 10, { ...alpha, volid: 'local:backup/a-766.vma.zst' }),
      // Shared storage listed from b1 while the guest runs on b2.
      makeStorageBackup(766, t + 20, { ...bravo, storage: 'nfs', volid: 'nfs:backup/b-766.vma' }),
    ],
    pveReceived: true,
    pbsBackups: [],
    pbs: [makePbsInstance('pbs1', [2])],
    guests,
    nodes: [makeNode('a1', { instance: 'alpha' }), makeNode('b1', { instance: 'bravo' })],
    now: (t + 3600) * 1000,
  }
}

function rows(request: Partial<BackupsViewRequest>, input = makeInput()): BackupRow[] {
  const model = createBackupsViewPipeline().compute(input, makeBackupsRequest(request))
  return model.rows.filter((row): row is BackupRow => row.kind === 'backup')
}

describe('backup names when one VMID exists in several clusters', () => {
  it('names snapshots and storage backups after the guest of their own instance', () => {
    const { records } = normaliseBackups({ ...makeInput(), pbsBackups: [] })
    expect(records.map((r) => `${r.instance}:${r.name}`)).toEqual([
      'alpha:log-11',
      'bravo:db-staging-06',
      'alpha:log-11',
      'bravo:db-staging-06',
    ])
  })

  it('leaves a backup unnamed rather than borrow a guest of another cluster', () => {
    const { records } = normaliseBackups({
      guestSnapshots: [makeSnapshot(767, t, bravo)],
      storageBackups: [makeStorageBackup(767, t, bravo)],
      pbsBackups: [],
      guests,
    })
    expect(records.map((r) => r.name)).toEqual(['', ''])
  })

  it('names a PBS backup after the guest of the instance its PVE-side twin comes from', () => {
    const twin = makeStorageBackup(766, t + 30, {
      ...bravo,
      storage: 'pbs-main',
      isPBS: true,
      volid: 'pbs-main:backup/vm/766/2024-03-02T10:00:30Z',
    })
    const { records } = normaliseBackups({
      guestSnapshots: [],
      storageBackups: [twin],
      pbsBackups: [makePbsBackup('766', t + 30), makePbsBackup('767', t + 30)],
      guests,
    })
    // 766: the twin says bravo. 767: only alpha has it, and no twin says otherwise.
    expect(records.map((r) => r.name)).toEqual(['db-staging-06', 'only-in-alpha'])
    const orphan = normaliseBackups({
      guestSnapshots: [],
      storageBackups: [{ ...twin, vmid: 767, volid: 'pbs-main:backup/vm/767/x' }],
      pbsBackups: [makePbsBackup('767', t + 30)],
      guests,
    })
    expect(orphan.records.map((r) => r.name)).toEqual([''])
  })

  it('finds by name only that guest’s backups', () => {
    expect(rows({ search: 'db-staging-06' }).map((r) => `${r.node}:${r.backupName}`)).toEqual([
      'b2:b-766.vma',
      'b2:bravo-snap',
    ])
    expect(rows({ search: 'log-11' }).map((r) => `${r.node}:${r.backupName}`)).toEqual([
      'a1:a-766.vma.zst',
      'a1:alpha-snap',
    ])
  })

  it('groups the two guests apart when grouping by guest', () => {
    const model = createBackupsViewPipeline().compute(
      makeInput(),
      makeBackupsRequest({ grouping: 'guest' }),
    )
    const groups = model.rows.filter((row) => row.kind === 'group')
    expect(groups.map((row) => [row.label, row.count]).sort()).toEqual([
      ['VM 766 · db-staging-06', 2],
      ['VM 766 · log-11', 2],
    ])
  })
})
