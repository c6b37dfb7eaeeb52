// No real /disks/zfs capture exists (fixtures/proxmox/SOURCES.md, "Not found"). The answers below
// follow PVE's own code path: API2/Disks/ZFS.pm parses `zpool status -P` into a tree whose first
// child is the pool row, then section rows (logs, cache, spares) without a state, and marks
// leaves with leaf:1 (reference/proxmox-api.md §2.12).
import { describe, expect, it } from 'vitest'
import type { Storage } from '../../../../src/shared/model/state.ts'
import { toStorageList } from '../../../../src/server/collect/pve-storage.ts'
import {
  attachZfsPools,
  readZfsPoolList,
  toZfsCount,
  toZfsPool,
} from '../../../../src/server/collect/pve-zfs.ts'
import { readFixture } from './fixtures.ts'

const POOL_LIST = [
  {
    name: 'rpool',
    size: 3835992244224,
    alloc: 912345678848,
    free: 2923646565376,
    frag: 7,
    dedup: 1,
    health: 'ONLINE',
  },
  { name: 'tank', size: 7999999999999, alloc: 1, free: 1, frag: 0, dedup: 1, health: 'DEGRADED' },
]

const DEGRADED_DETAIL = {
  name: 'tank',
  state: 'DEGRADED',
  status: 'One or more devices are faulted in response to persistent errors.',
  action: 'Replace the faulted device.',
  scan: 'scrub repaired 0B in 00:04:12 with 0 errors on Sun Jan 12 00:28:13 2025',
  errors: 'No known data errors',
  leaf: 0,
  children: [
    {
      name: 'tank',
      state: 'DEGRADED',
      read: 0,
      write: 0,
      cksum: 0,
      msg: '',
      leaf: 0,
      children: [
        {
          name: 'mirror-0',
          state: 'DEGRADED',
          read: 0,
          write: 0,
          cksum: 0,
          msg: '',
          leaf: 0,
          children: [
            {
              name: '/dev/disk/by-id/ata-A-part1',
              state: 'ONLINE',
              read: 0,
              write: 0,
              cksum: 0,
              msg: '',
              leaf: 1,
            },
            {
              name: '/dev/disk/by-id/ata-B-part1',
              state: 'FAULTED',
              read: 3,
              write: 1,
              cksum: '1.2K',
              msg: 'too many errors',
              leaf: 1,
            },
          ],
        },
      ],
    },
    {
      name: 'logs',
      msg: '',
      leaf: 0,
      children: [
        { name: '/dev/nvme0n1p4', state: 'ONLINE', read: 0, write: 0, cksum: 0, msg: '', leaf: 1 },
      ],
    },
    {
      name: 'spares',
      msg: '',
      leaf: 0,
      children: [{ name: '/dev/sdz', state: 'AVAIL', msg: '', leaf: 1 }],
    },
  ],
}

describe('toZfsPool', () => {
  it('flattens the tree without the pool row and section headers, summing error counts', () => {
    const pool = toZfsPool(DEGRADED_DETAIL, 'tank', 'DEGRADED')
    expect(pool).toMatchObject({
      name: 'tank',
      state: 'DEGRADED',
      status: 'One or more devices are faulted in response to persistent errors.',
      scan: 'scrub repaired 0B in 00:04:12 with 0 errors on Sun Jan 12 00:28:13 2025',
      errorsText: 'No known data errors',
      readErrors: 3,
      writeErrors: 1,
      checksumErrors: 1200,
    })
    expect(pool.devices.map((d) => [d.name, d.state, d.errors])).toEqual([
      ['mirror-0', 'DEGRADED', 0],
      ['/dev/disk/by-id/ata-A-part1', 'ONLINE', 0],
      ['/dev/disk/by-id/ata-B-part1', 'FAULTED', 1204],
      ['/dev/nvme0n1p4', 'ONLINE', 0],
      ['/dev/sdz', 'AVAIL', 0],
    ])
    expect(pool.devices[2]).toEqual({
      name: '/dev/disk/by-id/ata-B-part1',
      state: 'FAULTED',
      readErrors: 3,
      writeErrors: 1,
      checksumErrors: 1200,
      errors: 1204,
      message: 'too many errors',
    })
    expect(pool.devices[0]).not.toHaveProperty('message')
  })

  it('falls back to the list health when the detail is not an object', () => {
    expect(toZfsPool(null, 'rpool', 'ONLINE')).toEqual({
      name: 'rpool',
      state: 'ONLINE',
      readErrors: 0,
      writeErrors: 0,
      checksumErrors: 0,
      devices: [],
    })
  })

  it('reads zpool counts as numbers, numeric strings and abbreviations', () => {
    expect([
      toZfsCount(2),
      toZfsCount('7'),
      toZfsCount('1.5M'),
      toZfsCount('x'),
      toZfsCount(-1),
    ]).toEqual([2, 7, 1_500_000, 0, 0])
  })
})

describe('attachZfsPools', () => {
  const pools = new Map([['pve1', [toZfsPool(DEGRADED_DETAIL, 'tank')]]])

  it('attaches a pool through the storage config (dataset path) and by name otherwise', () => {
    const storage = toStorageList(readFixture('node-storage__unidentified-pve9-capture.json'), {
      instance: 'lab',
      node: 'pve1',
    })
    const config = new Map([['vmdata', 'tank']])
    const attached = attachZfsPools(storage, pools, config)
    expect(attached.find((s) => s.name === 'vmdata')?.zfsPool?.state).toBe('DEGRADED')
    // Non-zfspool entries keep their identity.
    expect(attached[0]).toBe(storage[0])
    // Without the config, 'vmdata' matches no pool called 'vmdata'.
    expect(attachZfsPools(storage, pools, new Map())[2]).not.toHaveProperty('zfsPool')
  })

  it('drops a pool that went away and keeps entries whose pool did not change', () => {
    const withPool: Storage = {
      id: 'lab-pve1-tank',
      name: 'tank',
      node: 'pve1',
      instance: 'lab',
      type: 'zfspool',
      content: 'images',
      status: 'available',
      shared: false,
      enabled: true,
      active: true,
      total: 1,
      used: 0,
      free: 1,
      usage: 0,
      zfsPool: pools.get('pve1')![0]!,
    }
    expect(attachZfsPools([withPool], pools, new Map())[0]).toBe(withPool)
    expect(attachZfsPools([withPool], new Map(), new Map())[0]).not.toHaveProperty('zfsPool')
  })
})

describe('readZfsPoolList', () => {
  it('reads pool names and health', () => {
    expect([...readZfsPoolList(POOL_LIST)]).toEqual([
      ['rpool', 'ONLINE'],
      ['tank', 'DEGRADED'],
    ])
    expect(readZfsPoolList('nope').size).toBe(0)
  })
})
