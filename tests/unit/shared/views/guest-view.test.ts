import { describe, expect, it } from 'vitest'
import { createGuestViewPipeline } from '../../../../src/shared/views/guest-view.ts'
import type {
  GuestRow,
  GuestViewRequest,
  GuestViewRow,
} from '../../../../src/shared/views/guest-view-types.ts'
import type { Guest, PveNode } from '../../../../src/shared/model/state.ts'
import { makeEstate, makeGuest, makeNode, makeRequest } from './guest-fixtures.ts'

const nodes = [makeNode('pve1'), makeNode('pve2')]

function compute(guests: Guest[], request: Partial<GuestViewRequest> = {}, nodeList = nodes) {
  return createGuestViewPipeline().compute(
    { guests, nodes: nodeList, lastUpdate: 1 },
    makeRequest(request),
  )
}

function guestRows(rows: GuestViewRow[]): GuestRow[] {
  return rows.filter((row): row is GuestRow => row.kind === 'guest')
}

const vmids = (rows: GuestViewRow[]) => guestRows(rows).map((row) => row.vmid)

describe('guest view filters', () => {
  const guests = [
    makeGuest(101, { type: 'qemu', status: 'running', name: 'web' }),
    makeGuest(102, { type: 'lxc', status: 'stopped', name: 'dns', node: 'pve2' }),
    makeGuest(103, { type: 'lxc', status: 'paused', name: 'cache', tags: ['Prod', 'db'] }),
  ]

  it('keeps only VMs or only containers by view mode', () => {
    expect(vmids(compute(guests, { viewMode: 'vm' }).rows)).toEqual([101])
    expect(vmids(compute(guests, { viewMode: 'lxc' }).rows)).toEqual([102, 103])
  })

  it('counts any status other than running as stopped', () => {
    expect(vmids(compute(guests, { statusMode: 'running' }).rows)).toEqual([101])
    expect(vmids(compute(guests, { statusMode: 'stopped' }).rows)).toEqual([102, 103])
  })

  it('restricts the view to the selected node id', () => {
    expect(vmids(compute(guests, { selectedNode: 'lab-pve2' }).rows)).toEqual([102])
  })

  it('matches search text case-insensitively against name, vmid, node, status and tags', () => {
    expect(vmids(compute(guests, { search: '  WEB ' }).rows)).toEqual([101])
    expect(vmids(compute(guests, { search: '102' }).rows)).toEqual([102])
    expect(vmids(compute(guests, { search: 'pve2' }).rows)).toEqual([102])
    expect(vmids(compute(guests, { search: 'paused' }).rows)).toEqual([103])
    expect(vmids(compute(guests, { search: 'prod' }).rows)).toEqual([103])
    expect(vmids(compute(guests, { search: 'nothing-like-this' }).rows)).toEqual([])
  })

  it('reports totals of all guests and of the matched ones', () => {
    const model = compute(guests, { viewMode: 'lxc' })
    expect(model.totals).toEqual({ guests: 3, running: 0, stopped: 2, matched: 2 })
    expect(compute(guests).totals).toEqual({ guests: 3, running: 1, stopped: 2, matched: 3 })
  })
})

describe('guest view sort', () => {
  const guests = [
    makeGuest(103, { name: 'beta', cpu: 0.5, disk: { used: 1, total: 10, usage: -1 } }),
    makeGuest(101, { name: 'Alpha', cpu: 0.9, disk: { used: 5, total: 10, usage: 50 } }),
    makeGuest(102, { name: '', cpu: 0.5, disk: { used: 9, total: 10, usage: 90 } }),
    makeGuest(104, { name: 'gamma', cpu: Number.NaN, disk: { used: 2, total: 10, usage: 20 } }),
  ]

  it('sorts text keys case-insensitively with empty names last in both directions', () => {
    expect(vmids(compute(guests, { sort: { key: 'name', direction: 'asc' } }).rows)).toEqual([
      101, 103, 104, 102,
    ])
    expect(vmids(compute(guests, { sort: { key: 'name', direction: 'desc' } }).rows)).toEqual([
      104, 103, 101, 102,
    ])
  })

  it('sorts cpu by fraction and breaks ties by vmid ascending in either direction', () => {
    expect(vmids(compute(guests, { sort: { key: 'cpu', direction: 'desc' } }).rows)).toEqual([
      101, 102, 103, 104,
    ])
    expect(vmids(compute(guests, { sort: { key: 'cpu', direction: 'asc' } }).rows)).toEqual([
      102, 103, 101, 104,
    ])
  })

  it('sorts stopped guests last by CPU in both directions: their CPU is shown as -', () => {
    const mixed = [
      makeGuest(201, { cpu: 0.4 }),
      makeGuest(202, { status: 'stopped', cpu: 0, uptime: 0 }),
      makeGuest(203, { cpu: 0.02 }),
    ]
    const sorted = (direction: 'asc' | 'desc') =>
      vmids(compute(mixed, { grouping: 'flat', sort: { key: 'cpu', direction } }).rows)
    expect(sorted('asc')).toEqual([203, 201, 202])
    expect(sorted('desc')).toEqual([201, 203, 202])
  })

  it('sorts disk by used percent and puts unavailable disks last', () => {
    expect(vmids(compute(guests, { sort: { key: 'disk', direction: 'asc' } }).rows)).toEqual([
      104, 101, 102, 103,
    ])
    expect(vmids(compute(guests, { sort: { key: 'disk', direction: 'desc' } }).rows)).toEqual([
      102, 101, 104, 103,
    ])
  })

  it('sorts vmid numerically', () => {
    const many = [makeGuest(1000), makeGuest(99), makeGuest(200)]
    expect(vmids(compute(many, { sort: { key: 'vmid', direction: 'asc' } }).rows)).toEqual([
      99, 200, 1000,
    ])
  })
})

describe('guest view grouping', () => {
  const groupNodes: PveNode[] = [
    makeNode('zeta'),
    makeNode('alpha', { status: 'offline', uptime: 0 }),
    makeNode('beta'),
    makeNode('idle'),
  ]
  const guests = [
    makeGuest(1, { node: 'alpha' }),
    makeGuest(2, { node: 'zeta' }),
    makeGuest(3, { node: 'beta' }),
    makeGuest(4, { node: 'zeta' }),
  ]

  it('puts online nodes first, then orders by name, each header followed by its guests', () => {
    const model = compute(guests, { grouping: 'grouped' }, groupNodes)
    const shape = model.rows.map((row) => (row.kind === 'group' ? row.label : row.vmid))
    expect(shape).toEqual(['beta', 3, 'zeta', 2, 4, 'alpha', 1])
    expect(model.rowCount).toBe(7)
    const alpha = model.rows.find((row) => row.kind === 'group' && row.label === 'alpha')
    expect(alpha).toMatchObject({ online: false, guestCount: 1, nodeId: 'lab-alpha' })
  })

  it('omits nodes without matched guests', () => {
    const model = compute(guests, { grouping: 'grouped' }, groupNodes)
    expect(model.rows.some((row) => row.kind === 'group' && row.label === 'idle')).toBe(false)
  })

  it('lists guests without headers in flat mode', () => {
    const model = compute(guests, { grouping: 'flat' }, groupNodes)
    expect(model.rows.every((row) => row.kind === 'guest')).toBe(true)
    expect(model.rowCount).toBe(4)
  })
})

describe('guest rows', () => {
  it('formats an active guest and dashes out an inactive one', () => {
    const offline = makeNode('down', { status: 'online', uptime: 0 })
    const guests = [
      makeGuest(1, { uptime: 90_000, cpu: 0.421, diskWrite: 262_144, tags: ['a', 'b'] }),
      makeGuest(2, { node: 'down' }),
      makeGuest(3, { status: 'stopped' }),
    ]
    const rows = guestRows(compute(guests, {}, [...nodes, offline]).rows)
    expect(rows[0]).toMatchObject({
      active: true,
      typeLabel: 'VM',
      uptimeText: '1d 1h',
      uptimeShort: false,
      cpuPercent: 42.1,
      cpuText: '42%',
      memoryText: '50%',
      diskText: '25%',
      diskWriteText: '256 KB/s',
      diskReadText: '0 B/s',
      tags: ['a', 'b'],
      key: 'lab-pve1-1',
    })
    for (const row of rows.slice(1)) {
      expect(row).toMatchObject({
        active: false,
        uptimeText: '-',
        cpuText: '-',
        memoryText: '-',
        diskText: '-',
        diskWriteText: '-',
        networkInText: '-',
      })
    }
  })

  it('formats only the rows inside the window', () => {
    const { guests } = makeEstate(50, 2)
    const model = compute(guests, { window: { start: 10, count: 5 } })
    expect(model.start).toBe(10)
    expect(model.rowCount).toBe(50)
    expect(vmids(model.rows)).toEqual([110, 111, 112, 113, 114])
  })

  it('clamps a window beyond the end', () => {
    const { guests } = makeEstate(5, 1)
    const model = compute(guests, { window: { start: 3, count: 10 } })
    expect(vmids(model.rows)).toEqual([103, 104])
    expect(compute(guests, { window: { start: 99, count: 10 } }).rows).toEqual([])
  })
})

describe('guest view memoization', () => {
  it('reruns only the window stage when only the window changes, at 100k guests', () => {
    const { guests, nodes: estateNodes } = makeEstate(100_000, 50)
    const pipeline = createGuestViewPipeline()
    const input = { guests, nodes: estateNodes, lastUpdate: 1 }
    const request = makeRequest({ grouping: 'grouped', sort: { key: 'cpu', direction: 'desc' } })
    const first = pipeline.compute(input, { ...request, search: 'svc-1' })
    const runsBefore = { ...pipeline.runs }
    const second = pipeline.compute(input, {
      ...request,
      search: 'svc-1',
      window: { start: 500, count: 60 },
    })
    expect(pipeline.runs.filter).toBe(runsBefore.filter)
    expect(pipeline.runs.sort).toBe(runsBefore.sort)
    expect(pipeline.runs.group).toBe(runsBefore.group)
    expect(pipeline.runs.window).toBe(runsBefore.window + 1)
    expect(second.totals).toEqual(first.totals)
    expect(second.rowCount).toBe(first.rowCount)
    expect(second.rows).toHaveLength(60)
  })

  it('returns the identical model when nothing changed', () => {
    const { guests, nodes: estateNodes } = makeEstate(100, 2)
    const pipeline = createGuestViewPipeline()
    const input = { guests, nodes: estateNodes, lastUpdate: 1 }
    const first = pipeline.compute(input, makeRequest())
    expect(pipeline.compute({ ...input }, makeRequest())).toBe(first)
  })

  it('sorts once per key and direction, and a search change filters the cached order', () => {
    const { guests, nodes: estateNodes } = makeEstate(1000, 4)
    const pipeline = createGuestViewPipeline()
    const input = { guests, nodes: estateNodes, lastUpdate: 1 }
    const byName = makeRequest({ sort: { key: 'name', direction: 'asc' } })
    pipeline.compute(input, makeRequest())
    pipeline.compute(input, byName)
    expect(pipeline.runs.sort).toBe(2)
    pipeline.compute(input, { ...byName, search: 'svc' })
    pipeline.compute(input, { ...byName, search: 'svc-1' })
    pipeline.compute(input, makeRequest())
    expect(pipeline.runs.sort).toBe(2)
    expect(pipeline.runs.filter).toBe(5)
  })

  it('keeps text ranks and node slots across a metrics-only stamp, re-sorts numbers', () => {
    const { guests, nodes: estateNodes } = makeEstate(1000, 4)
    const pipeline = createGuestViewPipeline()
    const stamp = { data: 1, structure: 1, identity: 1, placement: 1, labels: 1 }
    const byName = makeRequest({ sort: { key: 'name', direction: 'asc' } })
    const byCpu = makeRequest({ sort: { key: 'cpu', direction: 'desc' } })
    pipeline.compute({ guests, nodes: estateNodes, lastUpdate: 1, stamp }, byName)
    pipeline.compute({ guests, nodes: estateNodes, lastUpdate: 1, stamp }, byCpu)
    const before = { ...pipeline.runs }
    // A poll changed metrics in place: only `data` moves.
    for (const guest of guests) guest.cpu = 1 - guest.cpu
    const next = { guests: [...guests], nodes: estateNodes, lastUpdate: 2 }
    const cpuModel = pipeline.compute({ ...next, stamp: { ...stamp, data: 2 } }, byCpu)
    pipeline.compute({ ...next, stamp: { ...stamp, data: 2 } }, byName)
    expect(pipeline.runs.tie).toBe(before.tie)
    expect(pipeline.runs.slots).toBe(before.slots)
    // The cpu order was rebuilt (from the live columns); name ranks and name order were not.
    expect(pipeline.runs.values).toBe(before.values)
    expect(pipeline.runs.sort).toBe(before.sort + 1)
    const cpus = cpuModel.rows.flatMap((row) => (row.kind === 'guest' ? [row.cpuPercent] : []))
    expect(cpus.length).toBeGreaterThan(0)
  })

  it('recompiles the matcher once per search text, not per row', () => {
    const { guests, nodes: estateNodes } = makeEstate(1000, 4)
    const pipeline = createGuestViewPipeline()
    const input = { guests, nodes: estateNodes, lastUpdate: 1 }
    pipeline.compute(input, makeRequest({ search: 'svc' }))
    pipeline.compute({ ...input, guests: [...guests] }, makeRequest({ search: 'svc' }))
    expect(pipeline.runs.matcher).toBe(1)
    expect(pipeline.runs.filter).toBe(2)
  })
})
