import { describe, expect, it } from 'vitest'
import type { PhysicalDisk, Storage } from '../../../../src/shared/model/state.ts'
import {
  Driver,
  instantConfig,
  kinds,
  makeGuest,
  makeNode,
  makeState,
  MB,
} from './engine-fixture.ts'
import { pbsServer } from './backup-fixture.ts'

const storage = (patch: Partial<Storage> = {}): Storage => ({
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
  total: 100,
  used: 50,
  free: 50,
  usage: 50,
  ...patch,
})

const pbs = pbsServer

const disk = (patch: Partial<PhysicalDisk> = {}): PhysicalDisk => ({
  id: 'lab-pve1--dev-sda',
  node: 'pve1',
  instance: 'lab',
  devPath: '/dev/sda',
  model: 'SSD',
  serial: 'S1',
  type: 'sata',
  size: 1,
  health: 'PASSED',
  wearout: 90,
  temperature: 0,
  rpm: 0,
  used: 'ZFS',
  lastChecked: 0,
  ...patch,
})

describe('guest metric alerts', () => {
  it('fires cpu, memory and disk alerts with the reference ids, types and messages', () => {
    const d = new Driver()
    const guest = makeGuest(104, {
      cpu: 0.853,
      memory: { usage: 88.4, used: 1, total: 2 },
      disk: { usage: 95, used: 1, total: 2 },
    })
    d.poll(makeState({ vms: [guest] }))
    expect(d.ids()).toEqual(['lab-pve1-104-cpu', 'lab-pve1-104-disk', 'lab-pve1-104-memory'])
    expect(d.active('lab-pve1-104-cpu')).toMatchObject({
      type: 'cpu',
      level: 'warning',
      resourceId: 'lab-pve1-104',
      resourceName: 'guest104',
      node: 'pve1',
      instance: 'lab',
      message: 'VM cpu at 85.3%',
      threshold: 80,
      acknowledged: false,
      metadata: { resourceType: 'VM', clearThreshold: 75, unit: '%' },
    })
    expect(d.active('lab-pve1-104-memory')?.message).toBe('VM memory at 88.4%')
  })

  it('is critical at trigger + 10, re-graded each poll; warning to critical is an escalation', () => {
    const d = new Driver()
    d.poll(makeState({ containers: [makeGuest(201, { type: 'lxc', cpu: 0.85 })] }))
    expect(d.active('lab-pve1-201-cpu')?.level).toBe('warning')
    expect(d.active('lab-pve1-201-cpu')?.message).toBe('Container cpu at 85.0%')
    expect(
      kinds(d.poll(makeState({ containers: [makeGuest(201, { type: 'lxc', cpu: 0.9 })] }))),
    ).toEqual(['escalated:lab-pve1-201-cpu'])
    expect(d.active('lab-pve1-201-cpu')?.level).toBe('critical')
    expect(d.poll(makeState({ containers: [makeGuest(201, { type: 'lxc', cpu: 0.82 })] }))).toEqual(
      [],
    )
    expect(d.active('lab-pve1-201-cpu')).toMatchObject({ level: 'warning', peak: 90 })
  })

  it('resolves only at or below clear (hysteresis) and keeps the peak while active', () => {
    const d = new Driver()
    d.poll(makeState({ vms: [makeGuest(1, { cpu: 0.86 })] }))
    expect(d.poll(makeState({ vms: [makeGuest(1, { cpu: 0.77 })] }))).toEqual([])
    expect(d.active('lab-pve1-1-cpu')).toMatchObject({ value: 77, peak: 86 })
    expect(kinds(d.poll(makeState({ vms: [makeGuest(1, { cpu: 0.75 })] })))).toEqual([
      'resolved:lab-pve1-1-cpu:resolved',
    ])
    expect(d.engine.recentlyResolved[0]).toMatchObject({
      id: 'lab-pve1-1-cpu',
      endReason: 'resolved',
    })
  })

  it('skips a disk usage of -1 and measures guest I/O in MB/s only when its trigger is on', () => {
    const config = instantConfig()
    const d = new Driver(config)
    const busy = makeGuest(1, { disk: { usage: -1, used: 0, total: 0 }, diskWrite: 300 * MB })
    d.poll(makeState({ vms: [busy] }))
    expect(d.ids()).toEqual([])
    // Configs are immutable (thresholds are cached per config object): a change is a new object.
    d.config = structuredClone(config)
    d.config.guestDefaults.diskWrite = { trigger: 150, clear: 145 }
    d.poll(makeState({ vms: [busy] }))
    expect(d.active('lab-pve1-1-diskWrite')).toMatchObject({
      value: 300,
      message: 'VM diskWrite at 300.0 MB/s',
      metadata: { unit: 'MB/s' },
    })
  })

  it('fires one alert per guest filesystem, keyed by mountpoint and device', () => {
    const d = new Driver()
    const guest = makeGuest(7, {
      disks: [
        { mountpoint: '/', device: '/dev/sda1', used: 95, total: 100 },
        { mountpoint: '/var/lib', used: 10, total: 100, usage: 10 },
        { mountpoint: '/data', device: 'sdb', used: 0, total: 100, usage: 93.1 },
      ],
    })
    d.poll(makeState({ vms: [guest] }))
    expect(d.ids()).toEqual(['lab-pve1-7-disk-data-sdb-disk', 'lab-pve1-7-disk-root-dev-sda1-disk'])
    expect(d.active('lab-pve1-7-disk-data-sdb-disk')).toMatchObject({
      type: 'disk',
      message: 'VM disk (/data) at 93.1%',
      metadata: { mountpoint: '/data', device: 'sdb' },
    })
  })

  it('raises powered-off for a stopped guest (not a template) with the configured severity', () => {
    const config = instantConfig()
    config.overrides['lab-pve1-2'] = { poweredOffSeverity: 'critical' }
    const d = new Driver(config)
    d.poll(
      makeState({
        vms: [
          makeGuest(1, { status: 'stopped' }),
          makeGuest(2, { status: 'stopped' }),
          makeGuest(3, { status: 'stopped', template: true }),
        ],
        containers: [makeGuest(4, { type: 'lxc', status: 'stopped', name: 'dns' })],
      }),
    )
    expect(d.ids()).toEqual([
      'guest-powered-off-lab-pve1-1',
      'guest-powered-off-lab-pve1-2',
      'guest-powered-off-lab-pve1-4',
    ])
    expect(d.active('guest-powered-off-lab-pve1-4')).toMatchObject({
      type: 'powered-off',
      level: 'warning',
      message: "Container 'dns' is powered off",
    })
    expect(d.active('guest-powered-off-lab-pve1-2')?.level).toBe('critical')
    d.poll(makeState({ vms: [makeGuest(1, { status: 'paused' }), makeGuest(2)] }))
    expect(kinds(d.last)).toContain('resolved:guest-powered-off-lab-pve1-1:resolved')
    expect(kinds(d.last)).toContain('resolved:guest-powered-off-lab-pve1-2:resolved')
  })
})

describe('node, PBS and storage alerts', () => {
  it('fires node cpu, memory, disk and temperature (cpuPackage, else cpuMax)', () => {
    const d = new Driver()
    const node = makeNode('pve1', {
      cpu: 0.83,
      memory: { usage: 90, used: 9, total: 10 },
      disk: { usage: 95, used: 9, total: 10 },
      temperature: { available: true, cpuMax: 82 },
    })
    d.poll(makeState({ nodes: [node] }))
    expect(d.ids()).toEqual([
      'lab-pve1-cpu',
      'lab-pve1-disk',
      'lab-pve1-memory',
      'lab-pve1-temperature',
    ])
    expect(d.active('lab-pve1-cpu')?.message).toBe('Node cpu at 83.0%')
    expect(d.active('lab-pve1-temperature')).toMatchObject({
      message: 'Node temperature at 82.0°C',
      metadata: { resourceType: 'Node', unit: '°C' },
    })
  })

  it('raises node-offline as critical connectivity and holds the node metrics stale', () => {
    const d = new Driver()
    d.poll(makeState({ nodes: [makeNode('pve1', { cpu: 0.9 })] }))
    d.poll(makeState({ nodes: [makeNode('pve1', { status: 'offline', cpu: 0 })] }))
    expect(kinds(d.last)).toEqual(['fired:node-offline-lab-pve1'])
    expect(d.active('node-offline-lab-pve1')).toMatchObject({
      type: 'connectivity',
      level: 'critical',
      message: "Node 'pve1' is offline",
    })
    expect(d.active('lab-pve1-cpu')).toMatchObject({ stale: true, value: 90 })
    d.poll(makeState({ nodes: [makeNode('pve1', { connectionHealth: 'error' })] }))
    expect(d.active('node-offline-lab-pve1')).toBeDefined()
    d.poll(makeState())
    expect(kinds(d.last).sort()).toEqual([
      'resolved:lab-pve1-cpu:resolved',
      'resolved:node-offline-lab-pve1:resolved',
    ])
  })

  it('uses nodeDefaults for PBS cpu/memory (already percent) and raises PBS offline', () => {
    const d = new Driver()
    d.poll(
      makeState({
        pbs: [pbs({ cpu: 81, memory: 20 })],
        connectionHealth: { lab: true, 'pbs-vault': true },
      }),
    )
    expect(d.active('pbs-vault-cpu')).toMatchObject({
      message: 'PBS cpu at 81.0%',
      node: 'https://vault:8007',
      instance: 'vault',
      metadata: { resourceType: 'PBS' },
    })
    d.poll(makeState({ pbs: [pbs({ status: 'offline' })] }))
    expect(d.active('pbs-offline-pbs-vault')).toMatchObject({
      type: 'offline',
      level: 'critical',
      message: 'PBS instance vault is offline',
    })
    expect(d.active('pbs-vault-cpu')?.stale).toBe(true)
  })

  it('fires storage usage only while available, and storage-offline when unavailable', () => {
    const d = new Driver()
    d.poll(makeState({ storage: [storage({ usage: 88 })] }))
    expect(d.active('lab-pve1-tank-usage')?.message).toBe('Storage at 88.0%')
    d.poll(makeState({ storage: [storage({ status: 'inactive', active: false, usage: 0 })] }))
    expect(d.active('storage-offline-lab-pve1-tank')).toMatchObject({
      type: 'offline',
      level: 'warning',
      message: 'Storage tank on node pve1 is unavailable',
    })
    expect(d.active('lab-pve1-tank-usage')).toMatchObject({ stale: true, value: 88 })
  })

  it('holds storage of an offline node as stale rather than unavailable', () => {
    const d = new Driver()
    const nodes = [makeNode('pve1', { status: 'offline' })]
    d.poll(makeState({ nodes, storage: [storage({ status: 'inactive', active: false })] }))
    expect(d.active('storage-offline-lab-pve1-tank')).toBeUndefined()
  })

  it('raises ZFS pool state, pool errors and failed devices', () => {
    const d = new Driver()
    const zfsPool = {
      name: 'tank',
      state: 'DEGRADED',
      readErrors: 0,
      writeErrors: 2,
      checksumErrors: 1,
      devices: [
        {
          name: 'sda',
          state: 'ONLINE',
          readErrors: 0,
          writeErrors: 0,
          checksumErrors: 0,
          errors: 0,
        },
        {
          name: 'sdb',
          state: 'FAULTED',
          readErrors: 3,
          writeErrors: 0,
          checksumErrors: 0,
          errors: 3,
        },
      ],
    }
    d.poll(makeState({ storage: [storage({ zfsPool })] }))
    expect(d.ids()).toEqual([
      'zfs-device-lab-pve1-tank-sdb',
      'zfs-pool-errors-lab-pve1-tank',
      'zfs-pool-state-lab-pve1-tank',
    ])
    expect(d.active('zfs-pool-state-lab-pve1-tank')?.level).toBe('warning')
    expect(d.active('zfs-device-lab-pve1-tank-sdb')?.level).toBe('critical')
    d.poll(makeState({ storage: [storage({ zfsPool: { ...zfsPool, state: 'FAULTED' } })] }))
    expect(kinds(d.last)).toEqual(['escalated:zfs-pool-state-lab-pve1-tank'])
    const healthy = { ...zfsPool, state: 'ONLINE', writeErrors: 0, checksumErrors: 0, devices: [] }
    d.poll(makeState({ storage: [storage({ zfsPool: healthy })] }))
    expect(d.ids()).toEqual([])
  })

  it('raises disk health (critical) and SSD wearout under 10% (warning)', () => {
    const d = new Driver()
    d.poll(
      makeState({
        physicalDisks: [
          disk({ health: 'FAILED' }),
          disk({ id: 'lab-pve1--dev-sdb', devPath: '/dev/sdb', wearout: 5 }),
          disk({ id: 'lab-pve1--dev-sdc', devPath: '/dev/sdc', wearout: -1, health: 'UNKNOWN' }),
          disk({ id: 'lab-pve1--dev-sdd', devPath: '/dev/sdd', wearout: 0, health: '' }),
        ],
      }),
    )
    expect(d.ids()).toEqual(['disk-health-lab-pve1-/dev/sda', 'disk-wearout-lab-pve1-/dev/sdb'])
    expect(d.active('disk-health-lab-pve1-/dev/sda')).toMatchObject({
      level: 'critical',
      type: 'disk-health',
      metadata: { resourceType: 'Disk', diskPath: '/dev/sda' },
    })
    expect(d.active('disk-wearout-lab-pve1-/dev/sdb')?.level).toBe('warning')
  })
})
