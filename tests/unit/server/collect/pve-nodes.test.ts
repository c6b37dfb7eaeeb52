import { describe, expect, it } from 'vitest'
import { toPveNode } from '../../../../src/server/collect/pve-nodes.ts'
import { STANDALONE_CLUSTER, toClusterInfo } from '../../../../src/server/collect/pve-cluster.ts'
import { readFixture, readFixtureList } from './fixtures.ts'

const NOW = 1_760_000_000_000
const ctx = {
  instance: 'lab',
  host: 'https://10.0.0.1:8006',
  cluster: STANDALONE_CLUSTER,
  now: NOW,
}

function nodeEntry(fixture: string, name: string): Record<string, unknown> {
  const entry = readFixtureList(fixture).find((e) => e.type === 'node' && e.node === name)
  if (!entry) throw new Error(`no node ${name} in ${fixture}`)
  return entry
}

describe('toPveNode', () => {
  it('maps a resources node entry without detail', () => {
    const node = toPveNode(
      nodeEntry('cluster-resources__dirkthedaring-px.json', 'pve'),
      undefined,
      ctx,
    )
    expect(node).toMatchObject({
      id: 'lab-pve',
      name: 'pve',
      displayName: 'pve',
      host: 'https://10.0.0.1:8006',
      instance: 'lab',
      status: 'online',
      type: 'pve',
      uptime: 579546,
      cpu: 0.0749163879598662,
      cpuInfo: { cores: 6 },
      pveVersion: '',
      isClusterMember: false,
      clusterName: '',
      lastSeen: NOW,
    })
    expect(node.memory).toEqual({
      used: 17379082240,
      total: 33364914176,
      free: 33364914176 - 17379082240,
      usage: 52.09,
    })
    expect(node.disk.used).toBe(64552714240)
    expect(node.disk.total).toBe(101918625792)
    expect(node.disk.usage).toBe(63.34)
    expect(node.loadAverage).toBeUndefined()
    expect(node.temperature).toBeUndefined()
  })

  it('prefers memory.available from PVE 9 detail', () => {
    const detail = readFixture('node-status__yumaiia-pvexport-pve9.1.2.json')
    const node = toPveNode(
      nodeEntry('cluster-resources__dirkthedaring-px.json', 'pve'),
      detail,
      ctx,
    )
    expect(node.memory.total).toBe(16540520448)
    expect(node.memory.used).toBe(16540520448 - 3868946432)
    expect(node.memory.free).toBe(3868946432)
    expect(node.memory.usage).toBeCloseTo(76.61, 2)
    expect(node.memory.swapUsed).toBe(6283759616)
    expect(node.pveVersion).toBe('pve-manager/9.1.2/9d436f37a0ac4172')
    expect(node.kernelVersion).toBe('6.17.4-1-pve')
    expect(node.loadAverage).toEqual([1.74, 1.86, 1.5])
    expect(node.cpuInfo).toEqual({ cores: 4, model: 'Intel(R) N100', sockets: 1 })
    // The Proxmox UI's "Root Disk" figure: rootfs used / total (24.16 %), not used / (used + avail).
    expect(node.disk).toEqual({
      used: 24372563968,
      total: 100861726720,
      free: 71318425600,
      usage: 24.16,
    })
  })

  it('falls back to memory.used on PVE 8.4, where used and free do not add up to total', () => {
    const detail = readFixture('node-status__unidentified-k3s-checklist-pve8.4.14.json')
    const node = toPveNode(
      nodeEntry('cluster-resources__dirkthedaring-px.json', 'pve'),
      detail,
      ctx,
    )
    expect(node.memory.used).toBe(1952485376)
    expect(node.memory.total).toBe(33537990656)
    expect(node.loadAverage).toEqual([0.16, 0.1, 0.02])
    expect(node.kernelVersion).toBe('6.8.12-15-pve')
    expect(node.disk.free).toBe(1564672)
    // As Proxmox shows it: used / total, even with only 1.5 MB left for writers (root reserve).
    expect(node.disk.usage).toBe(95.28)
  })

  it('reads the kernel release from kversion on PVE 7.4', () => {
    const detail = readFixture('node-status__go-proxmox-pve7.4.json')
    const node = toPveNode(nodeEntry('cluster-resources__go-proxmox.json', 'node3'), detail, ctx)
    expect(node.kernelVersion).toBe('5.15.108-1-pve')
    expect(node.pveVersion).toBe('pve-manager/7.4-16/0f39f621')
    expect(node.memory.swapTotal).toBe(0)
  })

  it('marks a node with status unknown and no stats as not online, with zeros', () => {
    const node = toPveNode(
      nodeEntry('cluster-resources__heimdall-issue584.json', 'pve'),
      undefined,
      ctx,
    )
    expect(node.status).toBe('unknown')
    expect(node.cpu).toBe(0)
    expect(node.uptime).toBe(0)
    expect(node.memory).toEqual({ used: 0, total: 0, free: 0, usage: 0 })
  })

  it('takes cluster membership from /cluster/status', () => {
    const cluster = toClusterInfo(readFixture('cluster-status__go-proxmox.json'))
    const node = toPveNode(nodeEntry('cluster-resources__go-proxmox.json', 'node3'), undefined, {
      ...ctx,
      cluster,
    })
    expect(node.isClusterMember).toBe(true)
    expect(node.clusterName).toBe('clustername')
  })

  it('maps every node entry of the three-node fixture', () => {
    const nodes = readFixtureList(
      'cluster-resources-type-node__community-proxmox-ceph-osd.json',
    ).map((e) => toPveNode(e, undefined, ctx))
    expect(nodes.map((n) => n.id).sort()).toEqual([
      'lab-srv-proxmox-01',
      'lab-srv-proxmox-02',
      'lab-srv-proxmox-03',
    ])
    expect(
      nodes.every((n) => n.status === 'online' && n.memory.usage > 0 && n.memory.usage < 100),
    ).toBe(true)
  })

  it('clamps a cpu reading slightly above 1', () => {
    const node = toPveNode(
      { type: 'node', node: 'x', status: 'online', cpu: 1.02, maxcpu: '8' },
      undefined,
      ctx,
    )
    expect(node.cpu).toBe(1)
    expect(node.cpuInfo.cores).toBe(8)
  })
})
