// The per-guest backup summary's rules (src/shared/views/guest-backups): newest, duplicates,
// PBS attribution, orphans, templates, verification.
import { describe, expect, it } from 'vitest'
import { summariseGuestBackups } from '../../../../../src/shared/views/guest-backups/summary.ts'
import { coverageRecord, inputs } from './fixtures.ts'
import { makeGuest } from '../guest-fixtures.ts'
import { makePbsBackup, makeStorageBackup } from '../backups-fixtures.ts'

const byId = (list: { id: string }[]) => new Map(list.map((item) => [item.id, item]))

describe('summariseGuestBackups', () => {
  it('summarises a guest never backed up as newest 0, count 0, no source', () => {
    const [summary] = summariseGuestBackups(inputs({ vms: [makeGuest(100)] }))
    expect(summary).toEqual({
      id: 'lab-pve1-100',
      instance: 'lab',
      node: 'pve1',
      vmid: 100,
      type: 'qemu',
      name: 'guest-100',
      template: false,
      orphaned: false,
      newest: 0,
      count: 0,
      coverage: 'unknown',
      verifyFailed: 0,
    })
  })

  it('takes the newest backup across PVE storage and PBS; snapshots never count', () => {
    const guest = makeGuest(100)
    const list = summariseGuestBackups(
      inputs({
        vms: [guest],
        storageBackups: [
          makeStorageBackup(100, 1000, { storage: 'nfs', size: 5 }),
          makeStorageBackup(100, 3000, { storage: 'local', size: 7 }),
        ],
        pbsBackups: [makePbsBackup('100', 2000, { comment: 'guest-100' })],
      }),
    )
    expect(list[0]).toMatchObject({
      newest: 3000,
      newestSource: 'pve',
      newestLocation: 'local',
      newestSize: 7,
      count: 3,
    })
    const pbsNewer = summariseGuestBackups(
      inputs({
        vms: [guest],
        storageBackups: [makeStorageBackup(100, 1000)],
        pbsBackups: [makePbsBackup('100', 4000, { size: 9 })],
      }),
    )
    expect(pbsNewer[0]).toMatchObject({
      newest: 4000,
      newestSource: 'pbs',
      newestLocation: 'pbs-pbs1:main',
      newestSize: 9,
      count: 2,
    })
  })

  it('counts a PBS storage listing on PVE and the PBS backup it shows once', () => {
    const list = summariseGuestBackups(
      inputs({
        vms: [makeGuest(100)],
        storageBackups: [
          makeStorageBackup(100, 5000, {
            storage: 'pbs-main',
            isPBS: true,
            volid: 'pbs-main:backup/vm/100/x',
          }),
        ],
        pbsBackups: [makePbsBackup('100', 5000)],
      }),
    )
    expect(list).toHaveLength(1)
    expect(list[0]).toMatchObject({ newest: 5000, count: 1 })
  })

  it('counts a PBS storage listing whose PBS is not monitored as a PVE backup', () => {
    const list = summariseGuestBackups(
      inputs({
        vms: [makeGuest(100)],
        storageBackups: [makeStorageBackup(100, 5000, { storage: 'pbs-main', isPBS: true })],
      }),
    )
    expect(list[0]).toMatchObject({ newest: 5000, count: 1, newestLocation: 'pbs-main' })
  })

  it('ignores host and unknown storage backups, ISOs and templates', () => {
    const list = summariseGuestBackups(
      inputs({
        vms: [makeGuest(100)],
        storageBackups: [
          makeStorageBackup(100, 5000, { type: 'unknown' }),
          makeStorageBackup(0, 5000, { type: 'host' }),
          makeStorageBackup(100, 5000, { volid: 'local:iso/x.iso' }),
        ],
      }),
    )
    expect(list).toHaveLength(1)
    expect(list[0]).toMatchObject({ newest: 0, count: 0 })
  })

  it('attributes a PBS backup as the Backups tab does: type, twin instance, comment', () => {
    const a = makeGuest(100, { instance: 'a', name: 'web' })
    const b = makeGuest(100, { instance: 'b', name: 'db' })
    const ct = makeGuest(100, { instance: 'c', type: 'lxc', name: 'ct' })
    const list = byId(
      summariseGuestBackups(
        inputs({
          vms: [a, b],
          containers: [ct],
          storageBackups: [
            // b's PBS storage lists the backup at 7000: its twin names instance b.
            makeStorageBackup(100, 7000, { instance: 'b', isPBS: true }),
          ],
          pbsBackups: [
            makePbsBackup('100', 6000, { comment: 'db' }), // the comment names b's guest
            makePbsBackup('100', 7000), // twin on b
            makePbsBackup('100', 5000), // neither: the first candidate (a)
            makePbsBackup('100', 4000, { backupType: 'ct' }), // the container
          ],
        }),
      ),
    )
    expect(list.get(a.id)).toMatchObject({ newest: 5000, count: 1 })
    expect(list.get(b.id)).toMatchObject({ newest: 7000, count: 2 })
    expect(list.get(ct.id)).toMatchObject({ newest: 4000, count: 1 })
  })

  it('summarises orphaned backups: PVE per instance, PBS per PBS, never host backups', () => {
    const list = summariseGuestBackups(
      inputs({
        vms: [makeGuest(100, { instance: 'a' })],
        storageBackups: [
          makeStorageBackup(100, 1000, { instance: 'b' }), // no guest 100 on b
          makeStorageBackup(101, 2000, { instance: 'a', type: 'lxc', storage: 'nfs' }),
        ],
        pbsBackups: [
          makePbsBackup('100', 3000), // guest vm/100 exists (on a): not an orphan
          makePbsBackup('200', 4000, { verification: 'failed', verified: false }),
          makePbsBackup('200', 3500),
          makePbsBackup('100', 3000, { backupType: 'ct' }), // no ct 100 anywhere
          makePbsBackup('backup-host', 3000, { backupType: 'host' }),
        ],
      }),
    )
    const orphans = list.filter((summary) => summary.orphaned)
    expect(orphans.map((summary) => summary.id)).toEqual([
      'orphan-a-ct-101',
      'orphan-b-vm-100',
      'orphan-pbs-pbs1-ct-100',
      'orphan-pbs-pbs1-vm-200',
    ])
    expect(orphans[0]).toMatchObject({
      instance: 'a',
      node: '',
      name: '',
      vmid: 101,
      type: 'lxc',
      newest: 2000,
      newestLocation: 'nfs',
      count: 1,
      coverage: 'unknown',
    })
    expect(orphans[3]).toMatchObject({
      instance: 'pbs-pbs1',
      vmid: 200,
      type: 'qemu',
      newest: 4000,
      count: 2,
      verifyFailed: 1,
    })
    expect(list[0]).toMatchObject({ id: 'a-pve1-100', newest: 3000 })
  })

  it('files a PBS backup whose twin instance has no such guest under that instance', () => {
    const list = summariseGuestBackups(
      inputs({
        vms: [makeGuest(100, { instance: 'a' })],
        storageBackups: [makeStorageBackup(100, 7000, { instance: 'b', isPBS: true })],
        pbsBackups: [makePbsBackup('100', 7000)],
      }),
    )
    expect(list.map((summary) => [summary.id, summary.count])).toEqual([
      ['a-pve1-100', 0],
      ['orphan-b-vm-100', 1],
    ])
  })

  it('counts PBS snapshots whose verification failed', () => {
    const list = summariseGuestBackups(
      inputs({
        vms: [makeGuest(100)],
        pbsBackups: [
          makePbsBackup('100', 1, { verification: 'failed', verified: false }),
          makePbsBackup('100', 2, { verification: 'failed', verified: false }),
          makePbsBackup('100', 3),
          makePbsBackup('100', 4, { verification: undefined, verified: false }),
        ],
      }),
    )
    expect(list[0]).toMatchObject({ verifyFailed: 2, count: 4 })
  })

  it('still summarises templates, marked as such', () => {
    const list = summariseGuestBackups(
      inputs({
        vms: [makeGuest(100, { template: true })],
        storageBackups: [makeStorageBackup(100, 10)],
        backupCoverage: [coverageRecord('lab')],
      }),
    )
    expect(list[0]).toMatchObject({ template: true, newest: 10, coverage: 'none' })
  })
})
