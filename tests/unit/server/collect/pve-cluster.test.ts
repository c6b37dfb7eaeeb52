import { describe, expect, it } from 'vitest'
import { toClusterInfo } from '../../../../src/server/collect/pve-cluster.ts'
import { readFixture } from './fixtures.ts'

describe('toClusterInfo', () => {
  it('reads the cluster name and every member of a recorded cluster', () => {
    const info = toClusterInfo(readFixture('cluster-status__go-proxmox.json'))
    expect(info.isCluster).toBe(true)
    expect(info.clusterName).toBe('clustername')
    expect(info.members.map((m) => m.name).sort()).toEqual(['node1', 'node2', 'node3', 'node4'])
    expect(info.members.find((m) => m.name === 'node1')).toEqual({
      name: 'node1',
      ip: '192.168.1.1',
      online: true,
    })
  })

  it('treats a single node entry with nodeid 0 and no cluster entry as standalone', () => {
    const info = toClusterInfo([
      {
        type: 'node',
        id: 'node/pve',
        name: 'pve',
        nodeid: 0,
        ip: '10.0.0.5',
        local: 1,
        online: 1,
        level: '',
      },
    ])
    expect(info).toEqual({
      clusterName: '',
      isCluster: false,
      members: [{ name: 'pve', ip: '10.0.0.5', online: true }],
    })
  })

  it('reads offline members and ignores malformed entries', () => {
    const info = toClusterInfo([
      { type: 'cluster', name: 'lab', quorate: 1 },
      { type: 'node', name: 'a', online: 0 },
      null,
      { type: 'node' },
    ])
    expect(info.members).toEqual([{ name: 'a', online: false }])
  })

  it('returns an empty standalone answer for a body that is not a list', () => {
    expect(toClusterInfo({ nope: true })).toEqual({
      clusterName: '',
      isCluster: false,
      members: [],
    })
  })
})
