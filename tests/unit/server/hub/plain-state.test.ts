import { describe, expect, it } from 'vitest'
import { createPlainStateConverter } from '../../../../src/server/hub/plain-state.ts'
import { createEmptyState, type StorageBackup } from '../../../../src/shared/model/state.ts'

// 2025-10-11T02:00:00Z in epoch seconds.
const T = 1_760_148_000

function storageBackup(vmid: number): StorageBackup {
  const volid = `local:backup/vzdump-qemu-${vmid}.vma.zst`
  return {
    id: `lab-pve1-${volid}`,
    storage: 'local',
    node: 'pve1',
    instance: 'lab',
    type: 'qemu',
    vmid,
    ctime: T,
    size: 1,
    format: 'vma.zst',
    protected: false,
    volid,
    isPBS: false,
    verified: false,
  }
}

describe('plain dialect state', () => {
  it('groups the PVE backup collections as pveBackups and keeps their identity while unchanged', () => {
    const convert = createPlainStateConverter()
    const state = { ...createEmptyState(0, 'test'), storageBackups: [storageBackup(101)] }
    const first = convert(state)
    expect(first.pveBackups.storageBackups).toEqual([
      { ...storageBackup(101), time: '2025-10-11T02:00:00Z' },
    ])
    expect(first).not.toHaveProperty('storageBackups')
    expect(first).not.toHaveProperty('guestSnapshots')
    expect(first).not.toHaveProperty('backupTasks')
    // A new publication with the same arrays: the same object.
    expect(convert({ ...state, lastUpdate: 1 }).pveBackups).toBe(first.pveBackups)
  })

  it('converts only the records that changed when a list changed', () => {
    const convert = createPlainStateConverter()
    const kept = storageBackup(101)
    const state = { ...createEmptyState(0, 'test'), storageBackups: [kept] }
    const first = convert(state).pveBackups.storageBackups
    const next = convert({ ...state, storageBackups: [kept, storageBackup(102)] })
    expect(next.pveBackups.storageBackups[0]).toBe(first[0])
    expect(next.pveBackups.storageBackups[1]).toMatchObject({ vmid: 102 })
  })
})
