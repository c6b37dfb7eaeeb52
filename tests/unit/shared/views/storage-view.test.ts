// The storage tab view (spec 000 §2.3, §3, §5 storage and disk search, §8 texts, §9 colours).
import { describe, expect, it } from 'vitest'
import type {
  CephCluster,
  Entity,
  PhysicalDisk,
  PveNode,
  Storage,
  ZfsPool,
} from '../../../../src/shared/model/state.ts'
import { indexGuestNodes } from '../../../../src/shared/views/guest-nodes.ts'
import { CEPH_DERIVED_NOTE } from '../../../../src/shared/views/storage-ceph.ts'
import {
  diskHealth,
  diskTemperatureColour,
  noDisksText,
  ssdLifeColour,
} from '../../../../src/shared/views/storage-disks.ts'
import {
  matchesStorageSearch,
  parseStorageSearch,
  sortPoolRows,
  toMergedPoolRows,
  toNodePoolRows,
} from '../../../../src/shared/views/storage-pools.ts'
import type {
  StorageListRow,
  StoragePoolRow,
  StorageViewRequest,
} from '../../../../src/shared/views/storage-types.ts'
import {
  computeStorageView,
  createStorageView,
  type StorageViewInput,
} from '../../../../src/shared/views/storage-view.ts'
import { summarizeZfsErrors } from '../../../../src/shared/views/storage-zfs.ts'
import { makeNode } from './guest-fixtures.ts'

const TB = 1024 ** 4

function storage(node: string, name: string, patch: Partial<Storage> = {}): Storage {
  const instance = patch.instance ?? 'alpha'
  return {
    id: `${instance}-${node}-${name}`,
    name,
    node,
    instance,
    type: 'dir',
    content: 'backup,iso,vztmpl',
    status: 'available',
    shared: false,
    enabled: true,
    active: true,
    total: 4 * TB,
    used: 1 * TB,
    free: 3 * TB,
    usage: 25,
    ...patch,
  }
}

function disk(node: string, devPath: string, patch: Partial<PhysicalDisk> = {}): PhysicalDisk {
  const instance = patch.instance ?? 'alpha'
  return {
    id: `${instance}-${node}-${devPath}`,
    node,
    instance,
    devPath,
    model: 'SAMSUNG MZQL23T8HCLS-00A07',
    serial: `S64-${devPath.slice(5)}`,
    type: 'nvme',
    size: 3840755982336,
    health: 'PASSED',
    wearout: 90,
    temperature: 40,
    rpm: 0,
    used: 'ZFS',
    lastChecked: 0,
    ...patch,
  }
}

const DEGRADED: ZfsPool = {
  name: 'tank',
  state: 'DEGRADED',
  readErrors: 2,
  writeErrors: 0,
  checksumErrors: 41,
  devices: [
    {
      name: 'raidz1-0',
      state: 'DEGRADED',
      readErrors: 0,
      writeErrors: 0,
      checksumErrors: 0,
      errors: 0,
    },
    { name: 'ata-A', state: 'ONLINE', readErrors: 0, writeErrors: 0, checksumErrors: 0, errors: 0 },
    {
      name: 'ata-B',
      state: 'FAULTED',
      readErrors: 2,
      writeErrors: 0,
      checksumErrors: 41,
      errors: 43,
      message: 'too many errors',
    },
  ],
}

const NODES: PveNode[] = [
  makeNode('alpha-pve1', { instance: 'alpha', id: 'alpha-alpha-pve1' }),
  makeNode('alpha-pve2', { instance: 'alpha', id: 'alpha-alpha-pve2' }),
  makeNode('bravo-pve1', { instance: 'bravo', id: 'bravo-bravo-pve1' }),
  makeNode('bravo-pve2', { instance: 'bravo', id: 'bravo-bravo-pve2' }),
]
const INDEX = indexGuestNodes(NODES)

const asEntities = <T>(items: T[]) => items as unknown as Entity[]

function input(patch: Partial<Record<keyof StorageViewInput, unknown[]>> = {}): StorageViewInput {
  return {
    nodes: (patch.nodes as PveNode[]) ?? NODES,
    storage: asEntities(patch.storage ?? []),
    cephClusters: asEntities(patch.cephClusters ?? []),
    physicalDisks: asEntities(patch.physicalDisks ?? []),
  }
}

function request(patch: Partial<StorageViewRequest> = {}): StorageViewRequest {
  return {
    kind: 'storage',
    viewMode: 'node',
    search: '',
    diskSearch: '',
    sort: { key: 'name', direction: 'asc' },
    selectedNode: null,
    ...patch,
  }
}

const pools = (rows: StorageListRow[]) =>
  rows.filter((row): row is StoragePoolRow => row.kind === 'pool')
const names = (rows: StorageListRow[]) => pools(rows).map((row) => `${row.name}@${row.node}`)

/** Shared NFS seen by both alpha nodes (one pool reported twice) and local storage per node. */
const ESTATE: Storage[] = [
  storage('alpha-pve1', 'local', { total: 2 * TB, used: TB / 2, free: 1.5 * TB }),
  storage('alpha-pve2', 'local', { total: 4 * TB, used: TB, free: 3 * TB }),
  storage('alpha-pve1', 'nas', {
    type: 'nfs',
    shared: true,
    total: 16 * TB,
    used: 8 * TB,
    free: 8 * TB,
  }),
  storage('alpha-pve2', 'nas', {
    type: 'nfs',
    shared: true,
    total: 16 * TB,
    used: 8 * TB,
    free: 8 * TB,
  }),
  storage('alpha-pve2', 'tank', { type: 'zfspool', content: 'images,rootdir', zfsPool: DEGRADED }),
  storage('alpha-pve1', 'offline-nfs', {
    type: 'nfs',
    shared: true,
    status: 'inactive',
    total: 0,
    used: 0,
    free: 0,
  }),
]

describe('by node and by storage', () => {
  it('lists one row per entry under a header per node, with the Shared flag', () => {
    const result = computeStorageView(input({ storage: ESTATE }), request())
    expect(result.rows.filter((row) => row.kind === 'group').map((row) => row.key)).toEqual([
      'node:alpha-alpha-pve1',
      'node:alpha-alpha-pve2',
    ])
    expect(names(result.rows)).toEqual([
      'local@alpha-pve1',
      'nas@alpha-pve1',
      'offline-nfs@alpha-pve1',
      'local@alpha-pve2',
      'nas@alpha-pve2',
      'tank@alpha-pve2',
    ])
    expect(pools(result.rows).find((row) => row.name === 'nas')?.shared).toBe(true)
    expect(result.poolCount).toBe(6)
  })

  it('merges a shared storage into one row with every node, counts its size once, drops total 0', () => {
    const rows = toMergedPoolRows(ESTATE, INDEX)
    expect(rows.map((row) => `${row.name}@${row.node}`)).toEqual([
      'local@alpha-pve1',
      'local@alpha-pve2',
      'nas@alpha-pve1, alpha-pve2',
      'tank@alpha-pve2',
    ])
    const nas = rows.find((row) => row.name === 'nas')!
    expect(nas.nodes).toEqual(['alpha-pve1', 'alpha-pve2'])
    expect(nas.nodeIds).toEqual(['alpha-alpha-pve1', 'alpha-alpha-pve2'])
    expect(nas.total).toBe(16 * TB)
    expect(nas.used).toBe(8 * TB)
    expect(nas.usageText).toBe('50%')
    expect(nas.totalText).toBe('16 TB')
  })

  it('keeps same-named shared storage of different instances apart', () => {
    const rows = toMergedPoolRows(
      [
        storage('alpha-pve1', 'nas', { shared: true }),
        storage('bravo-pve1', 'nas', { shared: true, instance: 'bravo' }),
      ],
      INDEX,
    )
    expect(rows.map((row) => row.nodeIds)).toEqual([['alpha-alpha-pve1'], ['bravo-bravo-pve1']])
  })

  it('takes the largest report of a shared storage (a node that cannot reach it says 0)', () => {
    const rows = toMergedPoolRows(
      [
        storage('alpha-pve1', 'nas', {
          shared: true,
          total: 0,
          used: 0,
          free: 0,
          status: 'inactive',
        }),
        storage('alpha-pve2', 'nas', { shared: true, total: 8 * TB, used: 2 * TB, free: 6 * TB }),
      ],
      INDEX,
    )
    expect(rows).toHaveLength(1)
    expect(rows[0]).toMatchObject({ total: 8 * TB, status: 'available', usage: 25 })
  })

  it('filters by the node selected in the summary table, merged rows by any of their nodes', () => {
    const byNode = computeStorageView(
      input({ storage: ESTATE }),
      request({ selectedNode: 'alpha-alpha-pve2' }),
    )
    expect(names(byNode.rows)).toEqual(['local@alpha-pve2', 'nas@alpha-pve2', 'tank@alpha-pve2'])
    const merged = computeStorageView(
      input({ storage: ESTATE }),
      request({ viewMode: 'storage', selectedNode: 'alpha-alpha-pve2' }),
    )
    expect(names(merged.rows)).toEqual([
      'local@alpha-pve2',
      'nas@alpha-pve1, alpha-pve2',
      'tank@alpha-pve2',
    ])
  })
})

describe('storage search', () => {
  const rows = toNodePoolRows(ESTATE, INDEX)
  const find = (search: string) =>
    rows
      .filter((row) => matchesStorageSearch(row, parseStorageSearch(search)))
      .map((row) => `${row.name}@${row.node}`)

  it('splits node: terms from words', () => {
    expect(parseStorageSearch('  node:PVE2  nfs Shared ')).toEqual({
      nodes: ['pve2'],
      words: ['nfs', 'shared'],
    })
    expect(parseStorageSearch('node:')).toEqual({ nodes: [], words: [] })
  })

  it('needs every word to match name, node, type, content or status', () => {
    expect(find('nfs')).toEqual(['nas@alpha-pve1', 'nas@alpha-pve2', 'offline-nfs@alpha-pve1'])
    expect(find('nfs inactive')).toEqual(['offline-nfs@alpha-pve1'])
    expect(find('ROOTDIR')).toEqual(['tank@alpha-pve2'])
    expect(find('zfspool nfs')).toEqual([])
  })

  it('node:<name> keeps rows on that node, combined with words', () => {
    expect(find('node:alpha-pve2')).toEqual([
      'local@alpha-pve2',
      'nas@alpha-pve2',
      'tank@alpha-pve2',
    ])
    expect(find('node:alpha-pve2 nas')).toEqual(['nas@alpha-pve2'])
    expect(find('node:charlie')).toEqual([])
  })

  it('matches a merged row by any of its nodes, and pbsNames when present', () => {
    const merged = toMergedPoolRows(ESTATE, INDEX)
    const nas = merged.find((row) => row.name === 'nas')!
    expect(matchesStorageSearch(nas, parseStorageSearch('node:alpha-pve2'))).toBe(true)
    const pbs = toNodePoolRows(
      [{ ...storage('alpha-pve1', 'backup', { type: 'pbs' }), pbsNames: ['pbs-main'] } as Storage],
      INDEX,
    )[0]!
    expect(matchesStorageSearch(pbs, parseStorageSearch('pbs-main'))).toBe(true)
    expect(matchesStorageSearch(pbs, parseStorageSearch('pbs-other'))).toBe(false)
  })

  it('says which search found nothing', () => {
    const result = computeStorageView(input({ storage: ESTATE }), request({ search: ' zzz ' }))
    expect(result.poolsEmpty).toEqual({
      title: 'No storage found',
      description: 'No storage matches your search "zzz"',
    })
    expect(computeStorageView(input(), request()).poolsEmpty?.title).toBe('No storage configured')
  })
})

describe('sort', () => {
  const rows = toNodePoolRows(ESTATE, INDEX)
  const order = (key: Parameters<typeof sortPoolRows>[1], direction: 'asc' | 'desc') =>
    sortPoolRows(rows, key, direction).map((row) => `${row.name}@${row.node}`)

  it('sorts by usage both ways with total-0 (empty) rows last', () => {
    expect(order('usage', 'desc')).toEqual([
      'nas@alpha-pve1',
      'nas@alpha-pve2',
      'local@alpha-pve1',
      'local@alpha-pve2',
      'tank@alpha-pve2',
      'offline-nfs@alpha-pve1',
    ])
    expect(order('usage', 'asc').at(-1)).toBe('offline-nfs@alpha-pve1')
    expect(order('total', 'asc').at(-1)).toBe('offline-nfs@alpha-pve1')
    expect(order('free', 'desc').at(-1)).toBe('offline-nfs@alpha-pve1')
  })

  it('sorts text keys naturally, ties by name then node', () => {
    expect(order('type', 'asc')).toEqual([
      'local@alpha-pve1',
      'local@alpha-pve2',
      'nas@alpha-pve1',
      'nas@alpha-pve2',
      'offline-nfs@alpha-pve1',
      'tank@alpha-pve2',
    ])
    expect(order('status', 'desc')[0]).toBe('offline-nfs@alpha-pve1')
    expect(order('name', 'desc')[0]).toBe('tank@alpha-pve2')
    expect(order('node', 'desc').slice(0, 3)).toEqual([
      'local@alpha-pve2',
      'nas@alpha-pve2',
      'tank@alpha-pve2',
    ])
  })

  it('orders node groups by name, reversed for a node sort descending', () => {
    const result = computeStorageView(
      input({ storage: ESTATE }),
      request({ sort: { key: 'node', direction: 'desc' } }),
    )
    expect(result.rows[0]).toMatchObject({ kind: 'group', label: 'alpha-pve2' })
  })
})

describe('ZFS errors', () => {
  it('summarises error counts and the unhealthy devices', () => {
    expect(summarizeZfsErrors(DEGRADED)).toEqual({
      pool: 'tank',
      state: 'DEGRADED',
      readErrors: 2,
      writeErrors: 0,
      checksumErrors: 41,
      devices: [
        { name: 'raidz1-0', state: 'DEGRADED', errors: 0, message: '' },
        { name: 'ata-B', state: 'FAULTED', errors: 43, message: 'too many errors' },
      ],
    })
  })

  it('is null for a healthy pool or none, and flags errors on an ONLINE pool', () => {
    const healthy: ZfsPool = {
      ...DEGRADED,
      state: 'ONLINE',
      readErrors: 0,
      checksumErrors: 0,
      devices: [],
    }
    expect(summarizeZfsErrors(healthy)).toBeNull()
    expect(summarizeZfsErrors(undefined)).toBeNull()
    expect(summarizeZfsErrors({ ...healthy, writeErrors: 3 })?.writeErrors).toBe(3)
  })

  it('lists the pool in the banner issues with its node', () => {
    const result = computeStorageView(input({ storage: ESTATE }), request())
    expect(result.zfsIssues).toHaveLength(1)
    expect(result.zfsIssues[0]).toMatchObject({
      storage: 'tank',
      node: 'alpha-pve2',
      checksumErrors: 41,
    })
    const tank = pools(result.rows).find((row) => row.name === 'tank')!
    expect(tank.zfsErrors?.state).toBe('DEGRADED')
  })
})

describe('Ceph rows', () => {
  const CEPH: Storage[] = [
    storage('bravo-pve1', 'ceph-vm', { instance: 'bravo', type: 'rbd', shared: true }),
    storage('bravo-pve2', 'ceph-vm', { instance: 'bravo', type: 'rbd', shared: true }),
    storage('bravo-pve1', 'cephfs', {
      instance: 'bravo',
      type: 'cephfs',
      shared: true,
      used: 2 * TB,
      free: 2 * TB,
    }),
    storage('bravo-pve1', 'local', { instance: 'bravo' }),
  ]
  const cluster: CephCluster = {
    id: 'bravo-fsid',
    instance: 'bravo',
    name: 'Ceph',
    fsid: 'fsid',
    health: 'HEALTH_WARN',
    healthMessage: '1 osds down',
    totalBytes: 8 * TB,
    usedBytes: 2 * TB,
    availableBytes: 6 * TB,
    usagePercent: 25,
    numMons: 3,
    numMgrs: 2,
    numOsds: 12,
    numOsdsUp: 11,
    numOsdsIn: 12,
    numPGs: 640,
    pools: [
      { id: 1, name: '.mgr', storedBytes: 1024, availableBytes: TB },
      { id: 2, name: 'ceph-vm', storedBytes: TB, availableBytes: TB },
      { id: 3, name: 'cephfs_data', storedBytes: TB, availableBytes: TB },
    ],
    services: [{ type: 'osd', running: 11, total: 12, message: 'Offline: osd.7' }],
    lastUpdated: 1_760_210_031_000,
  }

  it('links Ceph-type rows to the live cluster of the same instance, at most 2 pools', () => {
    const result = computeStorageView(input({ storage: CEPH, cephClusters: [cluster] }), request())
    const rows = pools(result.rows)
    expect(rows.find((row) => row.name === 'local')?.ceph).toBeNull()
    const ceph = rows.find((row) => row.name === 'ceph-vm')!.ceph!
    expect(ceph).toMatchObject({
      derived: false,
      note: null,
      health: 'HEALTH_WARN',
      numOsdsUp: 11,
      numPGs: 640,
      poolCount: 3,
      lastUpdated: 1_760_210_031_000,
    })
    expect(ceph.pools.map((pool) => pool.name)).toEqual(['.mgr', 'ceph-vm'])
  })

  it('derives a cluster when none is live: 2 OSDs and 128 PGs per entry, 1-3 monitors', () => {
    const result = computeStorageView(input({ storage: CEPH }), request())
    const ceph = pools(result.rows).find((row) => row.name === 'cephfs')!.ceph!
    expect(ceph).toMatchObject({
      derived: true,
      note: CEPH_DERIVED_NOTE,
      numOsds: 6,
      numOsdsUp: 6,
      numPGs: 384,
      numMons: 2,
      health: 'HEALTH_OK',
      poolCount: 2,
    })
    expect(CEPH_DERIVED_NOTE).toBe(
      'Derived from storage metrics – live Ceph telemetry unavailable.',
    )
    const many = Array.from({ length: 5 }, (_, i) =>
      storage(`bravo-pve${i + 1}`, 'ceph-vm', { instance: 'bravo', type: 'rbd', shared: true }),
    )
    const five = computeStorageView(input({ storage: many }), request({ viewMode: 'storage' }))
    expect(pools(five.rows)[0]!.ceph).toMatchObject({ numMons: 3, numOsds: 10, numPGs: 640 })
  })

  it('does not use a cluster of another instance', () => {
    const other = { ...cluster, instance: 'charlie' }
    const result = computeStorageView(input({ storage: CEPH, cephClusters: [other] }), request())
    expect(pools(result.rows).find((row) => row.name === 'ceph-vm')!.ceph!.derived).toBe(true)
  })
})

describe('physical disks', () => {
  it('applies the health rules of spec 000 §9', () => {
    expect(diskHealth('PASSED', 90)).toEqual({ label: 'PASSED', colour: 'green' })
    expect(diskHealth('ok', -1)).toEqual({ label: 'OK', colour: 'green' })
    expect(diskHealth('GOOD', 0).label).toBe('GOOD')
    expect(diskHealth('PASSED', 1).label).toBe('LOW LIFE')
    expect(diskHealth('OK', 9).label).toBe('LOW LIFE')
    expect(diskHealth('PASSED', 10).label).toBe('PASSED')
    expect(diskHealth('FAILED', 6)).toEqual({ label: 'FAILED', colour: 'red' })
    expect(diskHealth('UNKNOWN', 50)).toEqual({ label: 'UNKNOWN', colour: 'grey' })
    expect(diskHealth('', 50).label).toBe('UNKNOWN')
  })

  it('colours SSD life only when wearout > 0, and temperatures above 60 and 70', () => {
    expect([100, 50, 49, 20, 19, 10, 9, 1].map(ssdLifeColour)).toEqual([
      'green',
      'green',
      'yellow',
      'yellow',
      'orange',
      'orange',
      'red',
      'red',
    ])
    expect(ssdLifeColour(0)).toBeNull()
    expect(ssdLifeColour(-1)).toBeNull()
    expect([71, 70, 61, 60, 35].map(diskTemperatureColour)).toEqual([
      'red',
      'yellow',
      'yellow',
      'green',
      'green',
    ])
    expect(diskTemperatureColour(0)).toBeNull()
  })

  const DISKS = [
    disk('alpha-pve2', '/dev/sdd', {
      model: 'ST16000NM001G',
      type: 'sata',
      health: 'FAILED',
      wearout: -1,
      serial: 'ZL20C4',
    }),
    disk('alpha-pve1', '/dev/nvme0n1', { wearout: 6, temperature: 65 }),
    disk('bravo-pve1', '/dev/nvme0n1', {
      instance: 'bravo',
      model: 'Samsung SSD 980 PRO',
      temperature: 0,
    }),
  ]

  it('formats rows by node then device, with health, life and temperature', () => {
    const result = computeStorageView(input({ physicalDisks: DISKS }), request())
    expect(result.disks.map((row) => `${row.node}:${row.devPath}`)).toEqual([
      'alpha-pve1:/dev/nvme0n1',
      'alpha-pve2:/dev/sdd',
      'bravo-pve1:/dev/nvme0n1',
    ])
    expect(result.disks[0]).toMatchObject({
      healthLabel: 'LOW LIFE',
      lifePercent: 6,
      lifeColour: 'red',
      temperatureText: '65°C',
      temperatureColour: 'yellow',
      typeLabel: 'NVMe',
      nodeId: 'alpha-alpha-pve1',
    })
    expect(result.disks[1]).toMatchObject({
      healthLabel: 'FAILED',
      lifePercent: null,
      typeLabel: 'SATA',
    })
    expect(result.disks[2]).toMatchObject({ temperatureText: '-', temperatureColour: null })
    expect(result.disksEmpty).toBeNull()
  })

  it('searches model, devPath, serial and node, and filters by the selected node', () => {
    const find = (patch: Partial<StorageViewRequest>) =>
      computeStorageView(input({ physicalDisks: DISKS }), request(patch)).disks.map(
        (row) => `${row.node}:${row.devPath}`,
      )
    expect(find({ diskSearch: 'samsung ssd' })).toEqual(['bravo-pve1:/dev/nvme0n1'])
    expect(find({ diskSearch: 'SDD' })).toEqual(['alpha-pve2:/dev/sdd'])
    expect(find({ diskSearch: 'zl20' })).toEqual(['alpha-pve2:/dev/sdd'])
    expect(find({ diskSearch: 'bravo' })).toEqual(['bravo-pve1:/dev/nvme0n1'])
    expect(find({ selectedNode: 'alpha-alpha-pve1' })).toEqual(['alpha-pve1:/dev/nvme0n1'])
  })

  it('composes the empty text from the node and the search', () => {
    expect(noDisksText(null, '')).toBe('No physical disks found')
    expect(noDisksText('pve1', '')).toBe('No physical disks found for node pve1')
    expect(noDisksText(null, ' wd ')).toBe('No physical disks found matching "wd"')
    expect(noDisksText('pve1', 'wd')).toBe('No physical disks found for node pve1 matching "wd"')
    const result = computeStorageView(
      input({ physicalDisks: DISKS }),
      request({ selectedNode: 'bravo-bravo-pve2', diskSearch: 'x' }),
    )
    expect(result.disksEmpty).toBe('No physical disks found for node bravo-pve2 matching "x"')
  })
})

describe('memoization', () => {
  it('returns the same result when inputs keep their identity, and reruns only what changed', () => {
    const view = createStorageView()
    const data = input({ storage: ESTATE, physicalDisks: [disk('alpha-pve1', '/dev/sda')] })
    const first = view.compute(data, request())
    expect(view.compute({ ...data }, request())).toBe(first)
    // New node objects with the same names (a metrics poll) do not rebuild rows.
    const polled = { ...data, nodes: NODES.map((node) => ({ ...node, cpu: 0.5 })) }
    expect(view.compute(polled, request())).toBe(first)
    expect(view.runs.pools).toBe(1)
    const searched = view.compute(polled, request({ search: 'nas' }))
    expect(searched).not.toBe(first)
    expect(view.runs).toMatchObject({ pools: 1, filter: 2, disks: 1, diskFilter: 1 })
  })
})
