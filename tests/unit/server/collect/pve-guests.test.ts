import { describe, expect, it } from 'vitest'
import { toGuestSample } from '../../../../src/server/collect/pve-guests.ts'
import { readFixture, readFixtureList } from './fixtures.ts'

function sampleOf(fixture: string, id: string, instance = 'lab') {
  const entry = readFixtureList(fixture).find((e) => e.id === id)
  const sample = toGuestSample(entry, instance)
  if (!sample) throw new Error(`no guest ${id} in ${fixture}`)
  return sample
}

describe('toGuestSample', () => {
  it('reads the resource pool of a guest (backup jobs can select by pool)', () => {
    const [entry] = readFixtureList('cluster-resources-type-vm__france-nuage-plateforme.json')
    expect(toGuestSample(entry, 'lab')?.guest.pool).toBe('CephPool')
    expect(toGuestSample({ ...entry, pool: undefined }, 'lab')?.guest).not.toHaveProperty('pool')
  })

  it('maps a running VM with unknown disk usage and its counters', () => {
    const { guest, counters } = sampleOf('cluster-resources__dirkthedaring-px.json', 'qemu/100')
    expect(guest).toMatchObject({
      id: 'lab-pve-100',
      instance: 'lab',
      node: 'pve',
      vmid: 100,
      name: 'vm-test-01',
      type: 'qemu',
      status: 'running',
      uptime: 579398,
      cpu: 0.013426763498155,
      cpus: 2,
      diskStatusReason: 'no-data',
      diskRead: 0,
      diskWrite: 0,
      networkIn: 0,
      networkOut: 0,
      tags: [],
      template: false,
    })
    // Its freshness is its node's: a time on every guest would put every guest in every delta.
    expect(guest).not.toHaveProperty('lastSeen')
    expect(guest.memory).toEqual({
      used: 15037038592,
      total: 17179869184,
      free: 17179869184 - 15037038592,
      usage: 87.53,
    })
    expect(guest.disk).toEqual({ used: 0, total: 53687091200, usage: -1 })
    expect(counters).toEqual({
      netIn: 13957404640,
      netOut: 5775371384,
      diskRead: 12506161605120,
      diskWrite: 149433603584,
    })
  })

  it('uses node-vmid as the id when the instance is named like the node', () => {
    expect(sampleOf('cluster-resources__dirkthedaring-px.json', 'qemu/100', 'pve').guest.id).toBe(
      'pve-100',
    )
  })

  it('reports real rootfs usage for a running container', () => {
    const { guest } = sampleOf('cluster-resources__dougiteixeira-proxmoxve.json', 'lxc/100')
    expect(guest.type).toBe('lxc')
    expect(guest.disk).toEqual({
      used: 911167488,
      total: 2040373248,
      free: 2040373248 - 911167488,
      usage: 44.66,
    })
    expect(guest.diskStatusReason).toBeUndefined()
  })

  it('gives a stopped container zero uptime and unknown disk usage', () => {
    const { guest } = sampleOf('cluster-resources__dirkthedaring-px.json', 'lxc/103')
    expect(guest.status).toBe('stopped')
    expect(guest.uptime).toBe(0)
    expect(guest.memory.usage).toBe(0)
    expect(guest.disk.usage).toBe(-1)
  })

  it('marks a stopped template VM as vm-stopped and template', () => {
    const { guest } = sampleOf('cluster-resources__go-proxmox.json', 'qemu/101')
    expect(guest.template).toBe(true)
    expect(guest.diskStatusReason).toBe('vm-stopped')
    expect(guest.disk.usage).toBe(-1)
  })

  it('keeps a memory usage of 0 when maxmem is 0', () => {
    const sample = toGuestSample(
      { type: 'qemu', vmid: 1, node: 'n', status: 'running', mem: 5, maxmem: 0 },
      'lab',
    )
    expect(sample?.guest.memory.usage).toBe(0)
  })

  it('reads tags, lock and the HA pool entry without choking on extra keys', () => {
    const { guest } = sampleOf(
      'cluster-resources-type-vm__france-nuage-plateforme.json',
      'qemu/100',
    )
    expect(guest.name).toBe('proxmox-dev')
    const tagged = toGuestSample(
      { type: 'qemu', vmid: 7, node: 'n', status: 'running', tags: 'db; prod;;', lock: 'backup' },
      'lab',
    )
    expect(tagged?.guest.tags).toEqual(['db', 'prod'])
    expect(tagged?.guest.lock).toBe('backup')
  })

  it('accepts vmid, disk and maxdisk sent as strings', () => {
    const [entry] = readFixture('lxc-list__telegraf.json') as Array<Record<string, unknown>>
    const sample = toGuestSample({ ...entry, node: 'pve' }, 'lab')
    expect(sample?.guest.vmid).toBe(111)
    expect(sample?.guest.disk.used).toBe(744189952)
    expect(sample?.guest.disk.total).toBe(5217320960)
  })

  it('keeps a fractional cpu count', () => {
    const sample = toGuestSample(
      { type: 'lxc', vmid: 5, node: 'n', status: 'running', maxcpu: 1.5 },
      'lab',
    )
    expect(sample?.guest.cpus).toBe(1.5)
  })

  it('skips nodes, storage, sdn entries and guests without a vmid', () => {
    const all = readFixtureList('cluster-resources__dirkthedaring-px.json')
    const guests = all.map((e) => toGuestSample(e, 'lab')).filter(Boolean)
    expect(guests).toHaveLength(2)
    expect(toGuestSample({ type: 'qemu', node: 'n', vmid: 'N/A' }, 'lab')).toBeUndefined()
  })
})
