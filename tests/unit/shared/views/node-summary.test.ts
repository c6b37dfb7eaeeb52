import { describe, expect, it } from 'vitest'
import {
  computeNodeSummary,
  createNodeSummaryView,
  nextNodeSummarySort,
  type NodeSummaryInput,
} from '../../../../src/shared/views/node-summary.ts'
import {
  differsMaterially,
  nodeHref,
  pveVersionNumber,
} from '../../../../src/shared/views/node-summary-rows.ts'
import type {
  NodeSummaryRequest,
  NodeSummarySort,
} from '../../../../src/shared/views/node-summary-types.ts'
import type { Entity, PveNode } from '../../../../src/shared/model/state.ts'
import { makePbsBackup, makeSnapshot, makeStorageBackup } from './backups-fixtures.ts'
import { makeGuest, makeNode } from './guest-fixtures.ts'

function input(patch: Partial<NodeSummaryInput> = {}): NodeSummaryInput {
  return { nodes: [], guests: [], pbs: [], storage: [], physicalDisks: [], ...patch }
}

function request(patch: Partial<NodeSummaryRequest> = {}): NodeSummaryRequest {
  return { kind: 'nodeSummary', tab: 'dashboard', sort: null, ...patch }
}

function pbs(name: string, patch: Partial<Entity> = {}): Entity {
  return {
    id: `pbs-${name}`,
    name,
    host: `https://${name}.lab:8007`,
    status: 'healthy',
    uptime: 3 * 86_400,
    cpu: 6.4,
    memoryUsed: 4 * 1024 ** 3,
    memoryTotal: 16 * 1024 ** 3,
    version: '3.3.2',
    datastores: [
      { used: 1024 ** 4, total: 4 * 1024 ** 4 },
      { used: 1024 ** 4, total: 4 * 1024 ** 4 },
    ],
    ...patch,
  }
}

const names = (result: { rows: { name: string }[] }) => result.rows.map((row) => row.name)

const sortBy = (
  sort: NodeSummarySort,
  nodes: PveNode[],
  tab: NodeSummaryRequest['tab'] = 'dashboard',
) => names(computeNodeSummary(input({ nodes }), request({ tab, sort })))

describe('node summary order', () => {
  const nodes = [
    makeNode('pve10'),
    makeNode('pve2', { status: 'offline', uptime: 0 }),
    makeNode('Pve3'),
    makeNode('pve1'),
  ]

  it('puts hypervisor nodes before backup servers, online before offline, then names naturally', () => {
    const result = computeNodeSummary(
      input({ nodes, pbs: [pbs('vault'), pbs('archive', { status: 'offline' })] }),
      request({ tab: 'backups' }),
    )
    expect(names(result)).toEqual(['pve1', 'Pve3', 'pve10', 'pve2', 'vault', 'archive'])
  })

  it('sorts numeric columns descending and the name column ascending on the first click', () => {
    expect(nextNodeSummarySort(null, 'name')).toEqual({ key: 'name', direction: 'asc' })
    for (const key of ['uptime', 'cpu', 'memory', 'disk', 'temperature', 'vms'] as const) {
      expect(nextNodeSummarySort(null, key)).toEqual({ key, direction: 'desc' })
      expect(nextNodeSummarySort({ key: 'name', direction: 'asc' }, key)).toEqual({
        key,
        direction: 'desc',
      })
    }
  })

  it('cycles first direction, flipped direction, then the default order', () => {
    let sort: NodeSummarySort = null
    const seen: NodeSummarySort[] = []
    for (let i = 0; i < 4; i++) seen.push((sort = nextNodeSummarySort(sort, 'cpu')))
    expect(seen).toEqual([
      { key: 'cpu', direction: 'desc' },
      { key: 'cpu', direction: 'asc' },
      null,
      { key: 'cpu', direction: 'desc' },
    ])
    expect(nextNodeSummarySort({ key: 'name', direction: 'asc' }, 'name')).toEqual({
      key: 'name',
      direction: 'desc',
    })
    expect(nextNodeSummarySort({ key: 'name', direction: 'desc' }, 'name')).toBeNull()
  })

  it('sorts by a metric in both directions', () => {
    const loaded = [
      makeNode('a', { cpu: 0.5 }),
      makeNode('b', { cpu: 0.9 }),
      makeNode('c', { cpu: 0.1 }),
    ]
    expect(sortBy({ key: 'cpu', direction: 'desc' }, loaded)).toEqual(['b', 'a', 'c'])
    expect(sortBy({ key: 'cpu', direction: 'asc' }, loaded)).toEqual(['c', 'a', 'b'])
    expect(sortBy({ key: 'name', direction: 'desc' }, loaded)).toEqual(['c', 'b', 'a'])
  })

  it('keeps empty values last in both directions', () => {
    const mixed = [
      makeNode('off', { status: 'offline', uptime: 0, cpu: 0.99 }),
      makeNode('hot', { cpu: 0.2, temperature: { available: true, cpuPackage: 85 } }),
      makeNode('cold', { cpu: 0.1, temperature: { available: true, cpuPackage: 40 } }),
      makeNode('nodisk', { disk: { used: 0, total: 0, usage: -1 } }),
      makeNode('disk', { disk: { used: 5, total: 10, usage: 50 } }),
    ]
    for (const direction of ['asc', 'desc'] as const) {
      expect(sortBy({ key: 'cpu', direction }, mixed).at(-1)).toBe('off')
      expect(sortBy({ key: 'uptime', direction }, mixed).at(-1)).toBe('off')
      const byTemp = sortBy({ key: 'temperature', direction }, mixed)
      expect(byTemp.slice(0, 2)).toEqual(direction === 'asc' ? ['cold', 'hot'] : ['hot', 'cold'])
      const byDisk = sortBy({ key: 'disk', direction }, mixed)
      expect(byDisk.slice(-2)).toEqual(['nodisk', 'off'])
    }
  })
})

describe('node summary rows', () => {
  it('shows the Temp column only when some node reports temperature available', () => {
    const plain = computeNodeSummary(input({ nodes: [makeNode('pve1')] }), request())
    expect(plain.showTemperature).toBe(false)
    const hot = computeNodeSummary(
      input({
        nodes: [
          makeNode('pve1'),
          makeNode('pve2', { temperature: { available: true, cpuPackage: 74.6 } }),
        ],
      }),
      request(),
    )
    expect(hot.showTemperature).toBe(true)
    const [first, second] = hot.rows
    expect(first).toMatchObject({
      temperature: null,
      temperatureText: '-',
      temperatureColour: null,
    })
    expect(second).toMatchObject({
      temperature: 74.6,
      temperatureText: '75°C',
      temperatureColour: 'yellow',
    })
  })

  it('colours temperatures green below 70, yellow 70-79 and red from 80', () => {
    const nodes = [69.9, 70, 79.9, 80].map((cpuPackage, i) =>
      makeNode(`t${i}`, { temperature: { available: true, cpuPackage } }),
    )
    const rows = computeNodeSummary(input({ nodes }), request()).rows
    expect(rows.map((row) => row.temperatureColour)).toEqual(['green', 'yellow', 'yellow', 'red'])
  })

  it('counts VMs and containers per node on the dashboard, ignoring guests of unknown nodes', () => {
    const nodes = [makeNode('pve1'), makeNode('pve2'), makeNode('pve1', { instance: 'other' })]
    const guests = [
      makeGuest(100, { node: 'pve1', type: 'qemu' }),
      makeGuest(101, { node: 'pve1', type: 'lxc' }),
      makeGuest(102, { node: 'pve1', type: 'lxc' }),
      makeGuest(200, { node: 'pve2', type: 'qemu' }),
      makeGuest(300, { node: 'pve1', instance: 'other', type: 'qemu' }),
      makeGuest(900, { node: 'ghost', type: 'qemu' }),
    ]
    const result = computeNodeSummary(input({ nodes, guests }), request())
    expect(result.countColumns).toEqual([
      { key: 'vms', label: 'VMs' },
      { key: 'containers', label: 'Containers' },
    ])
    const byId = Object.fromEntries(result.rows.map((row) => [row.id, row.counts]))
    expect(byId).toEqual({
      'lab-pve1': { vms: 1, containers: 2 },
      'lab-pve2': { vms: 1, containers: 0 },
      'other-pve1': { vms: 1, containers: 0 },
    })
  })

  it('counts storage (shared entries on every listed node) and disks on the storage tab', () => {
    const nodes = [makeNode('pve1'), makeNode('pve2')]
    const storage: Entity[] = [
      { id: 'lab-pve1-local', node: 'pve1', instance: 'lab' },
      {
        id: 'lab-cluster-ceph',
        node: 'cluster',
        instance: 'lab',
        nodeIds: ['lab-pve1', 'lab-pve2'],
      },
    ]
    const physicalDisks: Entity[] = [
      { id: 'lab-pve2--dev-sda', node: 'pve2', instance: 'lab' },
      { id: 'lab-pve2--dev-sdb', node: 'pve2', instance: 'lab' },
    ]
    const result = computeNodeSummary(
      input({ nodes, storage, physicalDisks }),
      request({ tab: 'storage' }),
    )
    expect(result.countColumns.map((column) => column.label)).toEqual(['Storage', 'Disks'])
    expect(result.rows.map((row) => row.counts)).toEqual([
      { storage: 2, disks: 0 },
      { storage: 1, disks: 2 },
    ])
    expect(result.rows.some((row) => row.kind === 'pbs')).toBe(false)
  })

  it('includes backup servers on the backups tab only, with their own labels', () => {
    const data = input({ nodes: [makeNode('pve1')], pbs: [pbs('vault')] })
    expect(computeNodeSummary(data, request()).rows).toHaveLength(1)
    const backups = computeNodeSummary(data, request({ tab: 'backups' }))
    expect(backups).toMatchObject({ nameLabel: 'Node / PBS', diskLabel: 'Storage / Disk' })
    expect(backups.countColumns).toEqual([{ key: 'backups', label: 'Backups' }])
    expect(backups.rows[1]).toMatchObject({
      kind: 'pbs',
      online: true,
      cpuText: '6%',
      memoryPercent: 25,
      diskPercent: 25,
      uptimeText: '3d 0h',
      counts: { backups: 0 },
      badges: { type: 'PBS', version: '3.3.2', cluster: null, displayName: null },
    })
  })

  it('counts on the backups tab what the backups list holds for each node and backup server', () => {
    const nodes = [makeNode('pve1'), makeNode('pve2')]
    const pve = {
      guestSnapshots: [makeSnapshot(101, 1000), makeSnapshot(102, 1000, { node: 'pve2' })],
      storageBackups: [
        makeStorageBackup(101, 2000),
        makeStorageBackup(102, 2000, { node: 'pve2' }),
        // A template and an ISO are not backups (spec 000 §5).
        makeStorageBackup(0, 2000, {
          type: 'vztmpl' as never,
          volid: 'local:vztmpl/debian.tar.zst',
        }),
        makeStorageBackup(0, 2000, { volid: 'local:iso/debian.iso' }),
        // The same backup as the PBS one below (same vmid and time): counted once, on the PBS.
        makeStorageBackup(101, 3000, { storage: 'pbs-main', isPBS: true }),
        // A node nobody knows: not counted anywhere.
        makeStorageBackup(103, 2000, { node: 'gone' }),
      ],
    }
    const pbsBackups = [
      makePbsBackup('101', 3000),
      makePbsBackup('102', 3000),
      makePbsBackup('103', 3000),
    ]
    const data = input({ nodes, pbs: [pbs('pbs1')], ...pve, pbsBackups })
    const result = computeNodeSummary(data, request({ tab: 'backups' }))
    expect(result.rows.map((row) => [row.name, row.counts])).toEqual([
      ['pve1', { backups: 2 }],
      ['pve2', { backups: 2 }],
      ['pbs1', { backups: 3 }],
    ])
    // Other tabs do not count backups.
    expect(computeNodeSummary(data, request()).rows[0]!.counts).toEqual({ vms: 0, containers: 0 })
  })

  it("counts a shared storage's backups under their guests' nodes, not the node that listed them", () => {
    const nodes = [makeNode('pve1'), makeNode('pve2')]
    const guests = [makeGuest(101, { node: 'pve1' }), makeGuest(102, { node: 'pve2' })]
    // One NFS storage, listed through pve1: its backups belong to guests on both nodes.
    const shared = { storage: 'nfs', node: 'pve1' }
    const storageBackups = [
      makeStorageBackup(101, 2000, shared),
      makeStorageBackup(102, 2000, shared),
      makeStorageBackup(102, 2100, shared),
      // A guest that is gone: stays with the node that listed it.
      makeStorageBackup(104, 2000, shared),
    ]
    const data = input({ nodes, guests, storageBackups, guestSnapshots: [] })
    const result = computeNodeSummary(data, request({ tab: 'backups' }))
    expect(result.rows.map((row) => [row.name, row.counts])).toEqual([
      ['pve1', { backups: 2 }],
      ['pve2', { backups: 2 }],
    ])
  })

  it('links to the host when known, adding https:// when it has no scheme', () => {
    const nodes = [
      makeNode('a', { host: 'https://10.0.0.1:8006' }),
      makeNode('b', { host: 'pve-b.example.com:8006' }),
      makeNode('c', { host: '' }),
    ]
    const rows = computeNodeSummary(
      input({ nodes, pbs: [pbs('vault', { host: '' })] }),
      request({ tab: 'backups' }),
    ).rows
    expect(rows.map((row) => row.href)).toEqual([
      'https://10.0.0.1:8006',
      'https://pve-b.example.com:8006',
      'https://c:8006',
      'https://vault:8007',
    ])
    expect(nodeHref('http://pve.lab', 'pve', 8006)).toBe('http://pve.lab')
    expect(nodeHref(undefined, 'pbs1', 8007)).toBe('https://pbs1:8007')
  })

  it('shows the hypervisor version between the first and second slash, and the cluster', () => {
    expect(pveVersionNumber('pve-manager/8.2.4/faa83925c9641325')).toBe('8.2.4')
    expect(pveVersionNumber('8.1')).toBe('8.1')
    const rows = computeNodeSummary(
      input({
        nodes: [
          makeNode('a', { pveVersion: 'pve-manager/8.2.4/faa83925c9641325', clusterName: 'lab' }),
          makeNode('b', { isClusterMember: false, clusterName: '' }),
        ],
      }),
      request(),
    ).rows
    expect(rows.map((row) => row.badges)).toEqual([
      { type: 'PVE', version: '8.2.4', cluster: 'lab', displayName: null },
      { type: 'PVE', version: '8.3.1', cluster: 'Standalone', displayName: null },
    ])
  })

  it('badges a display name only when it differs materially from the name', () => {
    expect(differsMaterially('pve1', 'pve1')).toBe(false)
    expect(differsMaterially('pve1', ' PVE1 ')).toBe(false)
    expect(differsMaterially('pve1', '')).toBe(false)
    expect(differsMaterially('pve1', 'pve1.lab.example')).toBe(false)
    expect(differsMaterially('pve1.lab.example', 'pve1')).toBe(false)
    expect(differsMaterially('pve1', 'rack-3')).toBe(true)
    expect(differsMaterially('pve1', 'pve10')).toBe(true)
    const [row] = computeNodeSummary(
      input({ nodes: [makeNode('pve1', { displayName: 'Rack 3 top' })] }),
      request(),
    ).rows
    expect(row?.badges.displayName).toBe('Rack 3 top')
  })

  it('treats a hypervisor node with uptime 0 as offline and shows dashes', () => {
    const [row] = computeNodeSummary(
      input({ nodes: [makeNode('pve1', { status: 'online', uptime: 0 })] }),
      request(),
    ).rows
    expect(row).toMatchObject({
      online: false,
      uptimeText: '-',
      cpuPercent: -1,
      cpuText: '-',
      memoryText: '-',
      memoryDetail: '',
      diskText: '-',
    })
  })

  it('formats an online node with percent texts and used / total details', () => {
    const [row] = computeNodeSummary(
      input({
        nodes: [
          makeNode('pve1', {
            uptime: 1800,
            cpu: 0.234,
            memory: { usage: 42.9, used: 8 * 1024 ** 3, total: 16 * 1024 ** 3 },
            disk: { usage: 10, used: 10 * 1024 ** 3, total: 100 * 1024 ** 3 },
          }),
        ],
      }),
      request(),
    ).rows
    expect(row).toMatchObject({
      online: true,
      uptimeText: '30m',
      uptimeShort: true,
      cpuText: '23%',
      memoryText: '43%',
      memoryDetail: '8 GB / 16 GB',
      diskText: '10%',
      diskDetail: '10 GB / 100 GB',
    })
  })

  it('counts a backup server online when healthy or online, offline otherwise', () => {
    const rows = computeNodeSummary(
      input({
        pbs: [
          pbs('a', { status: 'healthy' }),
          pbs('b', { status: 'online' }),
          pbs('c', { status: 'offline' }),
        ],
      }),
      request({ tab: 'backups' }),
    ).rows
    expect(rows.map((row) => [row.name, row.online, row.cpuText])).toEqual([
      ['a', true, '6%'],
      ['b', true, '6%'],
      ['c', false, '-'],
    ])
  })
})

describe('node summary memo', () => {
  it('returns the identical result while inputs keep their identity', () => {
    const view = createNodeSummaryView()
    const data = input({ nodes: [makeNode('pve1')], guests: [makeGuest(100)] })
    const first = view.compute(data, request())
    expect(view.compute({ ...data }, request())).toBe(first)
    expect(view.runs).toEqual({ index: 1, counts: 1, rows: 1, sort: 1, model: 1 })
  })

  it('reruns only the stages whose inputs changed', () => {
    const view = createNodeSummaryView()
    const data = input({ nodes: [makeNode('pve1')], guests: [makeGuest(100)] })
    const first = view.compute(data, request())
    // Storage is not counted on the dashboard: a new storage array changes nothing.
    expect(view.compute({ ...data, storage: [{ id: 's' }] }, request())).toBe(first)
    const sorted = view.compute(data, request({ sort: { key: 'cpu', direction: 'desc' } }))
    expect(sorted).not.toBe(first)
    expect(view.runs).toMatchObject({ index: 1, counts: 1, rows: 1, sort: 2 })
    const more = view.compute({ ...data, guests: [makeGuest(100), makeGuest(101)] }, request())
    expect(more.rows[0]?.counts).toEqual({ vms: 2, containers: 0 })
    expect(view.runs).toMatchObject({ index: 1, counts: 2, rows: 2 })
  })

  it('keeps the guest counts when only node metrics change, recounts when a node is added', () => {
    const view = createNodeSummaryView()
    const guests = [makeGuest(100), makeGuest(101, { node: 'pve2' })]
    view.compute(input({ nodes: [makeNode('pve1')], guests }), request())
    // A poll: same nodes, new objects with new metrics.
    const polled = view.compute(
      input({ nodes: [makeNode('pve1', { cpu: 0.9 })], guests }),
      request(),
    )
    expect(view.runs).toMatchObject({ index: 2, counts: 1, rows: 2 })
    expect(polled.rows[0]?.cpuText).toBe('90%')
    const grown = view.compute(
      input({ nodes: [makeNode('pve1'), makeNode('pve2')], guests }),
      request(),
    )
    expect(view.runs.counts).toBe(2)
    expect(grown.rows.map((row) => row.counts)).toEqual([
      { vms: 1, containers: 0 },
      { vms: 1, containers: 0 },
    ])
  })

  it('counts 100,000 guests over 1,000 nodes correctly', () => {
    const nodes = Array.from({ length: 1000 }, (_, i) => makeNode(`n${i}`))
    const guests = Array.from({ length: 100_000 }, (_, i) =>
      makeGuest(i, { node: `n${i % 1000}`, type: Math.floor(i / 1000) % 4 === 0 ? 'lxc' : 'qemu' }),
    )
    const result = computeNodeSummary(input({ nodes, guests }), request())
    expect(result.rows).toHaveLength(1000)
    for (const row of result.rows) expect(row.counts).toEqual({ vms: 75, containers: 25 })
  })
})
