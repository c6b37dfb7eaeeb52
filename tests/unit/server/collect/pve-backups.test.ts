import { describe, expect, it } from 'vitest'
import {
  planBackupListings,
  reuseRecords,
  sameRecords,
  toBackupTask,
  toBackupTasks,
  toGuestSnapshots,
  toStorageBackup,
  toStorageBackups,
} from '../../../../src/server/collect/pve-backups.ts'
import { toStorage } from '../../../../src/server/collect/pve-storage.ts'
import { readFixture, readFixtureList } from './fixtures.ts'

const pbsCtx = { instance: 'lab', node: 'pve1', storage: 'datastore', storageType: 'pbs' }
const dirCtx = { instance: 'lab', node: 'pve1', storage: 'nas', storageType: 'nfs' }

describe('toStorageBackups', () => {
  it('maps a PBS storage listing', () => {
    const list = toStorageBackups(
      readFixture('storage-content-backup-pbs__community-proxmox.json'),
      pbsCtx,
    )
    expect(list).toHaveLength(2)
    expect(list[0]).toEqual({
      id: 'lab-pve1-datastore:backup/vm/931/2023-12-14T04:34:34Z',
      storage: 'datastore',
      node: 'pve1',
      instance: 'lab',
      type: 'qemu',
      vmid: 931,
      ctime: 1702528474,
      size: 273804166061,
      format: 'pbs-vm',
      protected: false,
      volid: 'datastore:backup/vm/931/2023-12-14T04:34:34Z',
      isPBS: true,
      verified: false,
    })
  })

  it('recognises a PBS volume by its volid and reads type and ctime from it', () => {
    const [entry] = readFixtureList('storage-content-backup-pbs__community-proxmox.json')
    const { subtype: _s, format: _f, ctime: _c, vmid: _v, ...bare } = entry!
    expect(toStorageBackup(bare, dirCtx)).toMatchObject({
      type: 'qemu',
      vmid: 931,
      ctime: Date.parse('2023-12-14T04:34:34Z') / 1000,
      isPBS: true,
      format: '',
    })
  })

  // No capture of a vzdump file listing exists (SOURCES.md, "Not found"); these entries use the
  // fields of reference/proxmox-api.md §2.8.
  it('maps file backups: type from the volid, notes first line, protection, verification, keys', () => {
    const entries = [
      {
        volid: 'nas:backup/vzdump-lxc-2311-2025_01_14-01_07_12.tar.zst',
        content: 'backup',
        format: 'tar.zst',
        size: '734003200',
        ctime: 1736816832,
        vmid: '2311',
        notes: 'cache-07\nsecond line',
        protected: 1,
      },
      {
        volid: 'nas:backup/vzdump-qemu-1204-2025_01_14-01_00_04.vma.zst',
        content: 'backup',
        format: 'vma.zst',
        size: 1,
        ctime: 1,
        verification: { state: 'ok', upid: 'UPID:x' },
        encrypted: 'aa:bb',
      },
      { volid: 'nas:backup/host-backup.pxar', content: 'backup', vmid: 0, size: 1, ctime: 1 },
      { volid: 'nas:backup/odd-name.bin', content: 'backup', vmid: 7, size: 1, ctime: 1 },
      { volid: 'nas:vztmpl/debian-12.tar.zst', content: 'vztmpl', size: 1 },
      { volid: 'nas:iso/x.iso', content: 'iso', size: 1 },
    ]
    const list = toStorageBackups(entries, dirCtx)
    expect(list.map((b) => [b.type, b.vmid])).toEqual([
      ['lxc', 2311],
      ['qemu', 1204],
      ['host', 0],
      ['unknown', 7],
    ])
    expect(list[0]).toMatchObject({
      size: 734003200,
      notes: 'cache-07',
      protected: true,
      isPBS: false,
      verified: false,
    })
    expect(list[1]).toMatchObject({ verified: true, encryption: 'aa:bb', protected: false })
    expect(list[1]).not.toHaveProperty('notes')
  })
})

describe('toBackupTasks', () => {
  const recorded = readFixtureList('node-tasks__community-proxmox-pve6.4.json')

  it('keeps only vzdump tasks', () => {
    expect(toBackupTasks(recorded, 'lab', 'iaclab-01-01')).toEqual([])
  })

  // The only task capture (PVE 6.4) holds srvreload tasks; the same entries retyped as vzdump
  // exercise the status, endtime and id handling.
  it('maps finished, failed and running vzdump tasks', () => {
    const [ok, failed] = recorded
    const running: Record<string, unknown> = {
      ...ok,
      type: 'vzdump',
      id: '',
      starttime: 1629100000,
    }
    delete running.status
    const tasks = toBackupTasks(
      [{ ...ok, type: 'vzdump', id: '' }, { ...failed, type: 'vzdump', id: '104' }, running],
      'lab',
      'fallback',
    )
    expect(tasks.map((t) => [t.status, t.vmid, t.endTime])).toEqual([
      ['running', 0, 0],
      ['OK', 0, 1629092710],
      ["command 'ifreload -a' failed: exit code 1", 104, 1627975785],
    ])
    expect(tasks[1]).toEqual({
      id: 'lab-UPID:iaclab-01-01:00000DD3:1C419D88:6119FB65:srvreload:networking:root@pam:',
      node: 'iaclab-01-01',
      instance: 'lab',
      type: 'vzdump',
      vmid: 0,
      status: 'OK',
      startTime: 1629092709,
      endTime: 1629092710,
    })
    expect(tasks[2]?.error).toBe("command 'ifreload -a' failed: exit code 1")
    expect(tasks[0]).not.toHaveProperty('error')
    expect(
      toBackupTask({ type: 'vzdump', status: 'WARNINGS: 2', upid: 'U' }, 'lab', 'n'),
    ).toMatchObject({
      node: 'n',
      status: 'WARNINGS: 2',
      error: 'WARNINGS: 2',
    })
  })
})

describe('toGuestSnapshots', () => {
  // No snapshot capture exists (SOURCES.md); the shape is reference/proxmox-api.md §2.9.
  it("drops the 'current' entry and sorts by time", () => {
    const raw = [
      { name: 'current', description: 'You are here!', parent: 'pre-upgrade', running: 1 },
      {
        name: 'pre-upgrade',
        snaptime: '1759335730',
        description: 'before 24.04\n',
        parent: 'base',
        vmstate: 1,
      },
      { name: 'base', snaptime: 1700000000, description: '' },
    ]
    const snaps = toGuestSnapshots(raw, { instance: 'lab', node: 'pve1', type: 'qemu', vmid: 104 })
    expect(snaps).toEqual([
      {
        id: 'lab-pve1-104-base',
        name: 'base',
        node: 'pve1',
        instance: 'lab',
        type: 'qemu',
        vmid: 104,
        time: 1700000000,
        vmstate: false,
      },
      {
        id: 'lab-pve1-104-pre-upgrade',
        name: 'pre-upgrade',
        node: 'pve1',
        instance: 'lab',
        type: 'qemu',
        vmid: 104,
        time: 1759335730,
        description: 'before 24.04',
        parent: 'base',
        vmstate: true,
      },
    ])
  })
})

describe('planBackupListings', () => {
  const storage = (node: string, fields: Record<string, unknown>) =>
    toStorage({ enabled: 1, active: 1, content: 'backup', ...fields }, { instance: 'lab', node })!

  it('lists shared storage once, from the first online node where it is available', () => {
    const views = new Map([
      [
        'pve1',
        [
          storage('pve1', { storage: 'pbs', type: 'pbs', shared: 1, active: 0 }),
          storage('pve1', { storage: 'local', type: 'dir' }),
        ],
      ],
      [
        'pve2',
        [
          storage('pve2', { storage: 'pbs', type: 'pbs', shared: 1 }),
          storage('pve2', { storage: 'local', type: 'dir' }),
        ],
      ],
      [
        'pve3',
        [
          storage('pve3', { storage: 'local', type: 'dir' }),
          storage('pve3', { storage: 'lvm', content: 'images' }),
        ],
      ],
    ])
    const nodes = [
      { name: 'pve1', online: true },
      { name: 'pve2', online: true },
      { name: 'pve3', online: false },
    ]
    const plan = planBackupListings(nodes, (n) => views.get(n))
    expect([...plan].map(([key, t]) => [key, t.node])).toEqual([
      ['shared:pbs', 'pve2'],
      ['pve1/local', 'pve1'],
      ['pve2/local', 'pve2'],
      ['pve3/local', undefined],
    ])
  })
})

describe('sameRecords', () => {
  it('compares flat records field by field', () => {
    expect(sameRecords([{ a: 1, b: 'x' }], [{ a: 1, b: 'x' }])).toBe(true)
    expect(sameRecords([{ a: 1 }], [{ a: 2 }])).toBe(false)
    expect(sameRecords([{ a: 1 }], [{ a: 1, b: 1 }])).toBe(false)
    expect(sameRecords(undefined, [])).toBe(false)
  })
})

describe('reuseRecords', () => {
  it('keeps the previous object of every unchanged record, so the diff skips it', () => {
    const a = { id: 'a', size: 1 }
    const b = { id: 'b', size: 2 }
    const next = [
      { id: 'a', size: 1 },
      { id: 'b', size: 3 },
      { id: 'c', size: 4 },
    ]
    const out = reuseRecords([a, b], next)
    expect(out[0]).toBe(a)
    expect(out[1]).toBe(next[1])
    expect(out[2]).toBe(next[2])
    expect(out).toEqual(next)
  })

  it('returns the new list itself when nothing could be reused', () => {
    const next = [{ id: 'a', size: 2 }]
    expect(reuseRecords(undefined, next)).toBe(next)
    expect(reuseRecords([{ id: 'a', size: 1 }], next)).toBe(next)
  })
})
