import { describe, expect, it } from 'vitest'
import {
  isIgnoredStorageBackup,
  normaliseBackups,
  toBackupGuestType,
} from '../../../../src/shared/views/backups-normalize.ts'
import { makeGuest } from './guest-fixtures.ts'
import { at, makePbsBackup, makeSnapshot, makeStorageBackup } from './backups-fixtures.ts'

const t = at(2024, 3, 2, 10)
const none = { storageBackups: [], guestSnapshots: [] }

describe('backup normalisation: ignored content', () => {
  it('ignores storage backups whose type is vztmpl or iso', () => {
    const vztmpl = makeStorageBackup(0, t, { type: 'vztmpl' as never, volid: 'local:x.tar.zst' })
    const iso = makeStorageBackup(0, t, { type: 'iso' as never, volid: 'local:y.iso' })
    const kept = makeStorageBackup(101, t)
    const { records } = normaliseBackups({
      ...none,
      storageBackups: [vztmpl, iso, kept],
      pbsBackups: [],
      guests: [],
    })
    expect(records.map((r) => r.vmid)).toEqual(['101'])
  })

  it('recognises template and ISO volumes by their volume id', () => {
    expect(
      isIgnoredStorageBackup(makeStorageBackup(0, t, { volid: 'local:vztmpl/debian.tar.zst' })),
    ).toBe(true)
    expect(isIgnoredStorageBackup(makeStorageBackup(0, t, { volid: 'nfs:iso/alpine.iso' }))).toBe(
      true,
    )
    // A backup whose file name merely mentions iso is still a backup.
    expect(
      isIgnoredStorageBackup(makeStorageBackup(5, t, { volid: 'local:backup/iso-builder.vma' })),
    ).toBe(false)
  })
})

describe('backup normalisation: duplicates of PBS backups', () => {
  it('skips a storage backup with the same vmid and timestamp as a PBS backup', () => {
    const { records } = normaliseBackups({
      ...none,
      storageBackups: [
        makeStorageBackup(101, t, { storage: 'pbs-main', isPBS: true }),
        makeStorageBackup(101, t + 1),
        makeStorageBackup(102, t),
      ],
      pbsBackups: [makePbsBackup('101', t)],
      guests: [],
    })
    expect(records.map((r) => `${r.backupType}:${r.vmid}:${r.backupTime}`).sort()).toEqual(
      [`local:101:${t + 1}`, `local:102:${t}`, `remote:101:${t}`].sort(),
    )
  })

  it('keeps snapshots even when a PBS backup has the same vmid and time', () => {
    const { records } = normaliseBackups({
      ...none,
      guestSnapshots: [makeSnapshot(101, t)],
      pbsBackups: [makePbsBackup('101', t)],
      guests: [],
    })
    expect(records.map((r) => r.backupType).sort()).toEqual(['remote', 'snapshot'])
  })
})

describe('backup normalisation: guest classes', () => {
  it('maps VMID 0 and type host to Host, vm/qemu to VM and anything else to LXC', () => {
    expect(toBackupGuestType('qemu', 0)).toBe('Host')
    expect(toBackupGuestType('lxc', '0')).toBe('Host')
    expect(toBackupGuestType('host', 'backup-host')).toBe('Host')
    expect(toBackupGuestType('qemu', 101)).toBe('VM')
    expect(toBackupGuestType('vm', '101')).toBe('VM')
    expect(toBackupGuestType('lxc', 200)).toBe('LXC')
    expect(toBackupGuestType('ct', '200')).toBe('LXC')
    expect(toBackupGuestType('unknown', 300)).toBe('LXC')
  })

  it('classifies each source record and flags host backups', () => {
    const data = normaliseBackups({
      ...none,
      guestSnapshots: [makeSnapshot(200, t, { type: 'lxc' })],
      storageBackups: [makeStorageBackup(0, t, { type: 'host' })],
      pbsBackups: [
        makePbsBackup('101', t),
        makePbsBackup('backup-host', t, { backupType: 'host' }),
        makePbsBackup('300', t, { backupType: 'ct' }),
      ],
      guests: [],
    })
    expect(data.records.map((r) => `${r.backupType}:${r.vmid}:${r.type}`)).toEqual([
      'snapshot:200:LXC',
      'local:0:Host',
      'remote:101:VM',
      'remote:backup-host:Host',
      'remote:300:LXC',
    ])
    expect(data.hasHost).toBe(true)
  })

  it('reports no host backups when there are none', () => {
    const data = normaliseBackups({
      ...none,
      storageBackups: [makeStorageBackup(101, t)],
      pbsBackups: [],
      guests: [],
    })
    expect(data.hasHost).toBe(false)
  })
})

describe('backup normalisation: names and fields', () => {
  const guests = [
    makeGuest(101, { name: 'web-1', node: 'pve1' }),
    makeGuest(101, { name: 'other-cluster-web', node: 'pve9', instance: 'far' }),
    makeGuest(102, { name: 'db-1', node: 'pve2' }),
  ]

  it('resolves names from the guest on the same node first, then by vmid in the same instance', () => {
    const { records } = normaliseBackups({
      ...none,
      guestSnapshots: [makeSnapshot(101, t, { node: 'pve9', instance: 'far' })],
      storageBackups: [makeStorageBackup(102, t), makeStorageBackup(999, t)],
      pbsBackups: [makePbsBackup('101', t + 5)],
      guests,
    })
    expect(records.map((r) => r.name)).toEqual(['other-cluster-web', 'db-1', '', 'web-1'])
  })

  it("puts a storage backup on its guest's node (shared storage lists it from one node)", () => {
    const { records, nodeIds } = normaliseBackups({
      ...none,
      storageBackups: [
        makeStorageBackup(102, t, { storage: 'nfs' }),
        makeStorageBackup(999, t, { storage: 'nfs' }),
      ],
      pbsBackups: [],
      guests,
    })
    expect(records.map((r) => r.node)).toEqual(['pve2', 'pve1'])
    expect(nodeIds).toEqual(['lab-pve2', 'lab-pve1'])
  })

  it('names a PBS backup after a guest of its type, the one its comment names when VMIDs repeat', () => {
    const estate = [
      makeGuest(170, { name: 'kafka-vm', node: 'pve1' }),
      makeGuest(170, { name: 'elastic-ct', node: 'pve1', type: 'lxc' }),
      makeGuest(170, { name: 'web-ct', node: 'pve9', instance: 'far', type: 'lxc' }),
    ]
    const { records } = normaliseBackups({
      ...none,
      pbsBackups: [
        makePbsBackup('170', t, { backupType: 'ct', comment: 'web-ct' }),
        makePbsBackup('170', t + 1, { backupType: 'ct', comment: 'hand-written note' }),
        makePbsBackup('170', t + 2, { backupType: 'vm' }),
        makePbsBackup('171', t + 3, { backupType: 'ct' }),
      ],
      guests: estate,
    })
    expect(records.map((r) => r.name)).toEqual(['web-ct', 'elastic-ct', 'kafka-vm', ''])
  })

  it('names a PBS host backup after its host', () => {
    const { records } = normaliseBackups({
      ...none,
      pbsBackups: [makePbsBackup('backup-host', t, { backupType: 'host' })],
      guests,
    })
    expect(records[0]).toMatchObject({ name: 'backup-host', type: 'Host', vmid: 'backup-host' })
  })

  it('fills the normalised record of each class', () => {
    const { records } = normaliseBackups({
      ...none,
      guestSnapshots: [makeSnapshot(101, t, { name: 'before-upgrade', description: 'pre 8.2' })],
      storageBackups: [
        makeStorageBackup(101, t + 60, {
          notes: 'nightly',
          protected: true,
          encryption: '1',
          volid: 'local:backup/vzdump-qemu-101-2024_03_02-10_01_00.vma.zst',
        }),
      ],
      pbsBackups: [
        makePbsBackup('101', t + 120, {
          namespace: 'prod/eu',
          comment: 'weekly',
          encrypted: true,
          verified: false,
          verification: 'failed',
        }),
      ],
      guests,
    })
    expect(records[0]).toMatchObject({
      backupType: 'snapshot',
      backupName: 'before-upgrade',
      description: 'pre 8.2',
      node: 'pve1',
      size: 0,
    })
    expect(records[1]).toMatchObject({
      backupType: 'local',
      backupName: 'vzdump-qemu-101-2024_03_02-10_01_00.vma.zst',
      description: 'nightly',
      storage: 'local',
      protected: true,
      encrypted: true,
    })
    expect(records[2]).toMatchObject({
      backupType: 'remote',
      node: 'pbs1',
      datastore: 'main',
      namespace: 'prod/eu',
      description: 'weekly',
      owner: 'root@pam',
      status: 'failed',
      verified: false,
      encrypted: true,
      backupName: `vm/101/${new Date((t + 120) * 1000).toISOString().replace('.000Z', 'Z')}`,
    })
  })

  it('gives no records before PVE backup data arrives and without PBS backups', () => {
    expect(normaliseBackups({ ...none, pbsBackups: [], guests }).records).toEqual([])
  })
})
