import { describe, expect, it } from 'vitest'
import { normaliseBackups } from '../../../../src/shared/views/backups-normalize.ts'
import {
  formatPbsTerm,
  inPbsScope,
  parseBackupSearch,
} from '../../../../src/shared/views/backups-search.ts'
import { createBackupsViewPipeline } from '../../../../src/shared/views/backups-view.ts'
import type { BackupRow } from '../../../../src/shared/views/backups-types.ts'
import { makeGuest } from './guest-fixtures.ts'
import {
  at,
  makeBackupsRequest,
  makePbsBackup,
  makeSnapshot,
  makeStorageBackup,
} from './backups-fixtures.ts'

const t = at(2024, 3, 2, 10)
const sources = {
  guestSnapshots: [makeSnapshot(101, t, { name: 'pre-upgrade', description: 'Kernel 6.8' })],
  storageBackups: [makeStorageBackup(102, t + 1, { storage: 'nas-backups', node: 'pve2' })],
  pveReceived: true,
  pbsBackups: [
    makePbsBackup('103', t + 2, { datastore: 'main', namespace: '' }),
    makePbsBackup('104', t + 3, { datastore: 'main', namespace: 'prod' }),
    makePbsBackup('105', t + 4, { datastore: 'offsite', namespace: 'prod' }),
    makePbsBackup('106', t + 5, { instance: 'pbs2', datastore: 'main', namespace: '' }),
  ],
  pbs: [],
  guests: [makeGuest(101, { name: 'web-frontend' }), makeGuest(104, { name: 'db-main' })],
  nodes: [],
  now: t * 1000,
}

function search(text: string): string[] {
  const model = createBackupsViewPipeline().compute(sources, makeBackupsRequest({ search: text }))
  return model.rows
    .filter((row): row is BackupRow => row.kind === 'backup')
    .map((row) => row.vmid)
    .sort()
}

describe('backup search: plain terms', () => {
  it('matches vmid, name, node, backup name, description, storage, datastore and namespace', () => {
    expect(search('101')).toEqual(['101'])
    expect(search('WEB-front')).toEqual(['101'])
    expect(search('pve2')).toEqual(['102'])
    expect(search('pre-upgrade')).toEqual(['101'])
    expect(search('kernel')).toEqual(['101'])
    expect(search('nas-backups')).toEqual(['102'])
    expect(search('offsite')).toEqual(['105'])
    expect(search('prod')).toEqual(['104', '105'])
  })

  it('requires every term to match and matches all for an empty search', () => {
    expect(search('prod main')).toEqual(['104'])
    expect(search('   ')).toHaveLength(6)
    expect(search('no-such-thing')).toEqual([])
  })

  it('does not match fields outside the search list (owner)', () => {
    expect(search('root@pam')).toEqual([])
  })

  it('narrows a longer term from a shorter one without losing matches', () => {
    const pipeline = createBackupsViewPipeline()
    const ids = (text: string) =>
      pipeline
        .compute(sources, makeBackupsRequest({ search: text }))
        .rows.filter((row): row is BackupRow => row.kind === 'backup')
        .map((row) => row.vmid)
        .sort()
    // 'd': pre-upgrade, vzdump-…, db-main and the namespace 'prod'.
    expect(ids('d')).toEqual(['101', '102', '104', '105'])
    expect(ids('db')).toEqual(['104'])
    expect(ids('d')).toEqual(['101', '102', '104', '105'])
  })
})

describe('backup search: the pbs: term', () => {
  it('filters to one datastore and namespace; an empty namespace is the root', () => {
    expect(search('pbs:pbs1:main:')).toEqual(['103'])
    expect(search('pbs:pbs1:main:prod')).toEqual(['104'])
    expect(search('pbs:pbs1:offsite:prod')).toEqual(['105'])
    expect(search('pbs:pbs2:main:')).toEqual(['106'])
  })

  it('treats a missing namespace as the root and an instance-only term as all of it', () => {
    expect(search('pbs:pbs1:main')).toEqual(['103'])
    expect(search('pbs:pbs1')).toEqual(['103', '104', '105'])
  })

  it('ignores case and combines with plain terms', () => {
    expect(search('PBS:PBS1:MAIN:PROD')).toEqual(['104'])
    expect(search('pbs:pbs1:main:prod db')).toEqual(['104'])
    expect(search('pbs:pbs1:main:prod web')).toEqual([])
  })

  it('never matches snapshots or PVE storage backups', () => {
    const data = normaliseBackups(sources)
    const scope = parseBackupSearch('pbs:lab:local:').scopes[0]!
    expect(data.records.filter((record) => inPbsScope(record, scope))).toEqual([])
  })

  it('parses the term into its parts and formats a scope back into one', () => {
    expect(parseBackupSearch('web pbs:pbs1:main:a/b')).toEqual({
      terms: ['web'],
      scopes: [{ instance: 'pbs1', datastore: 'main', namespace: 'a/b' }],
    })
    expect(formatPbsTerm({ instance: 'pbs1', datastore: 'main', namespace: '' })).toBe(
      'pbs:pbs1:main:',
    )
  })
})
