import { describe, expect, it } from 'vitest'
import {
  markStorageUnknown,
  normalizeContent,
  readZfsPoolNames,
  storageFromResources,
  toStorage,
  toStorageFromResource,
  toStorageList,
} from '../../../../src/server/collect/pve-storage.ts'
import { readFixture, readFixtureList } from './fixtures.ts'

const ctx = { instance: 'lab', node: 'pve1' }

describe('toStorageList', () => {
  it('maps a PVE 9 /nodes/{n}/storage answer, sorted by name, with sorted content', () => {
    const list = toStorageList(readFixture('node-storage__unidentified-pve9-capture.json'), ctx)
    expect(list.map((s) => s.name)).toEqual(['local', 'local-lvm', 'vmdata'])
    expect(list[0]).toEqual({
      id: 'lab-pve1-local',
      name: 'local',
      node: 'pve1',
      instance: 'lab',
      type: 'dir',
      content: 'backup,import,iso,vztmpl',
      status: 'available',
      shared: false,
      enabled: true,
      active: true,
      total: 23215472640,
      used: 11240329216,
      free: 11975143424,
      usage: 48.42,
    })
    // lvmthin: `avail` is not total - used; it is taken as PVE reports it.
    expect(list[1]).toMatchObject({
      type: 'lvmthin',
      content: 'images,rootdir',
      free: 3913305765,
      usage: 73.12,
    })
    expect(list[2]).toMatchObject({ type: 'zfspool', usage: 0.01, free: 103501454336 })
  })

  it('reads 0/1 and string booleans and tells disabled from inactive', () => {
    const base = { storage: 'nas', type: 'nfs', content: 'backup', total: 0, used: 0, avail: 0 }
    expect(toStorage({ ...base, enabled: 0, active: 0, shared: 1 }, ctx)).toMatchObject({
      status: 'disabled',
      enabled: false,
      active: false,
      shared: true,
      usage: 0,
    })
    expect(toStorage({ ...base, enabled: '1', active: '0', shared: '0' }, ctx)).toMatchObject({
      status: 'inactive',
      enabled: true,
      active: false,
      shared: false,
    })
  })

  it('reads numbers sent as strings and skips entries without a name', () => {
    const storage = toStorage(
      { storage: 's', total: '1000', used: '250', enabled: 1, active: 1 },
      ctx,
    )
    expect(storage).toMatchObject({ total: 1000, used: 250, free: 750, usage: 25, type: 'unknown' })
    expect(toStorage({ type: 'dir' }, ctx)).toBeUndefined()
    expect(toStorageList({ not: 'a list' }, ctx)).toEqual([])
  })
})

describe('toStorageFromResource', () => {
  it('maps a resources entry of shared NFS storage', () => {
    const [nfs] = readFixtureList('cluster-resources-type-storage__cv4pve-diag-issue52.json')
    expect(toStorageFromResource(nfs!, 'lab')).toEqual({
      id: 'lab-enterprise-truenas-backups',
      name: 'truenas-backups',
      node: 'enterprise',
      instance: 'lab',
      type: 'nfs',
      content: 'backup',
      status: 'available',
      shared: true,
      enabled: true,
      active: true,
      total: 2037808889856,
      used: 180708442112,
      free: 2037808889856 - 180708442112,
      usage: 8.87,
    })
  })

  it('maps PVE 6.2 entries without content or plugintype, filled from the last good entry', () => {
    const entries = readFixtureList(
      'cluster-resources-type-storage__cv4pve-autosnap-issue68-pve6.2.json',
    )
    const bare = toStorageFromResource(entries[0]!, 'lab')
    expect(bare).toMatchObject({ name: 'local-lvm', type: 'unknown', content: '', usage: 36.22 })
    const last = toStorage(
      { storage: 'local-lvm', type: 'lvmthin', content: 'rootdir,images', enabled: 1, active: 1 },
      { instance: 'lab', node: 'xxx-svr' },
    )
    const filled = toStorageFromResource(entries[0]!, 'lab', last)
    expect(filled).toMatchObject({ type: 'lvmthin', content: 'images,rootdir', used: 665223261532 })
  })

  it('reads status unknown without disk fields as unknown and empty', () => {
    const entries = readFixtureList('cluster-resources__heimdall-issue584.json').filter(
      (e) => e.type === 'storage',
    )
    const mapped = entries.map((e) => toStorageFromResource(e, 'lab'))
    expect(mapped.map((s) => [s?.name, s?.status, s?.active, s?.total, s?.usage])).toEqual([
      ['local', 'unknown', false, 0, 0],
      ['local-lvm', 'unknown', false, 0, 0],
    ])
    expect(mapped[0]?.content).toBe('backup,iso,vztmpl')
  })

  it('picks one node out of a full /cluster/resources list', () => {
    const resources = readFixtureList('cluster-resources__go-proxmox.json')
    const node2 = storageFromResources(resources, 'lab', 'node2')
    expect(node2.map((s) => s.id)).toEqual([
      'lab-node2-cloud-init',
      'lab-node2-local',
      'lab-node2-local-zfs',
    ])
    expect(node2[2]).toMatchObject({ type: 'zfspool', used: 25294921728, total: 962664386560 })
  })
})

describe('helpers', () => {
  it('sorts and de-duplicates content lists', () => {
    expect(normalizeContent('iso,vztmpl,snippets,import,backup')).toBe(
      'backup,import,iso,snippets,vztmpl',
    )
    expect(normalizeContent(' images , images,rootdir,')).toBe('images,rootdir')
    expect(normalizeContent(undefined)).toBe('')
  })

  it('marks an offline node storage unknown without touching the originals', () => {
    const list = toStorageList(readFixture('node-storage__unidentified-pve9-capture.json'), ctx)
    const marked = markStorageUnknown(list)
    expect(marked.map((s) => s.status)).toEqual(['unknown', 'unknown', 'unknown'])
    expect(marked[0]!.total).toBe(23215472640)
    expect(list[0]!.status).toBe('available')
  })

  it('reads zfspool pools from the storage config, dataset paths cut at the first slash', () => {
    const config = readFixture('storage-config__unidentified-k3s-checklist-pve8.4.14.json')
    expect([...readZfsPoolNames(config)]).toEqual([['local-zfs', 'gaia-pool-01']])
    const withDataset = [{ storage: 'local-zfs', type: 'zfspool', pool: 'rpool/data' }]
    expect(readZfsPoolNames(withDataset).get('local-zfs')).toBe('rpool')
    expect(readZfsPoolNames(null).size).toBe(0)
  })
})
