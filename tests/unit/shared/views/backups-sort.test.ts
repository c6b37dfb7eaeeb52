import { describe, expect, it } from 'vitest'
import { indexRecords } from '../../../../src/shared/views/backups-normalize.ts'
import { getBackupSortValues, sortBackups } from '../../../../src/shared/views/backups-sort.ts'
import type { BackupRecord } from '../../../../src/shared/views/backups-types.ts'

function record(backupTime: number, patch: Partial<BackupRecord> = {}): BackupRecord {
  return {
    backupType: 'remote',
    vmid: '101',
    name: '',
    type: 'VM',
    node: 'pbs1',
    instance: 'pbs1',
    backupTime,
    backupName: '',
    description: '',
    status: 'ok',
    size: 0,
    storage: '',
    datastore: 'main',
    namespace: '',
    verified: false,
    protected: false,
    encrypted: false,
    owner: '',
    ...patch,
  }
}

function order(times: number[], direction: 'asc' | 'desc') {
  const data = indexRecords(times.map((t) => record(t)))
  return [...sortBackups(data, getBackupSortValues(data, 'backupTime'), direction)]
}

describe('sorting backups by time', () => {
  it('orders by time in both directions and keeps equal times in their original order', () => {
    const times = [1_700_000_300, 1_700_000_100, 1_700_000_300, 1_700_000_200]
    expect(order(times, 'desc')).toEqual([0, 2, 3, 1])
    expect(order(times, 'asc')).toEqual([1, 3, 0, 2])
  })

  it('gives the same order for times the packed keys cannot hold (fractions, negatives)', () => {
    const times = [10.5, -3, 10.5, 7]
    expect(order(times, 'desc')).toEqual([0, 2, 3, 1])
    expect(order(times, 'asc')).toEqual([1, 3, 0, 2])
  })

  it('sorts other keys with empty values last and ties newest first', () => {
    const data = indexRecords([
      record(100, { owner: 'b' }),
      record(300, { owner: '' }),
      record(200, { owner: 'a' }),
      record(400, { owner: 'a' }),
    ])
    const values = getBackupSortValues(data, 'owner')
    expect([...sortBackups(data, values, 'asc')]).toEqual([3, 2, 0, 1])
    expect([...sortBackups(data, values, 'desc')]).toEqual([0, 3, 2, 1])
  })

  it('sorts numeric VMIDs by value and host names after them', () => {
    const data = indexRecords([
      record(1, { vmid: '1000' }),
      record(1, { vmid: 'gateway' }),
      record(1, { vmid: '99' }),
      record(1, { vmid: 'alpha-host' }),
    ])
    const values = getBackupSortValues(data, 'vmid')
    expect([...sortBackups(data, values, 'asc')].map((i) => data.records[i]!.vmid)).toEqual([
      '99',
      '1000',
      'alpha-host',
      'gateway',
    ])
  })
})
