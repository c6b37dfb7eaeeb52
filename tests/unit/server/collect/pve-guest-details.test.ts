import { describe, expect, it } from 'vitest'
import { AppError } from '../../../../src/shared/model/errors.ts'
import {
  diskReasonFor,
  isPseudoFilesystem,
  mergeGuestDetails,
  readAgentResult,
  readLxcStatus,
  readQemuStatus,
  toAgentNetwork,
  toGuestFilesystems,
  toLxcNetwork,
  toOsInfo,
} from '../../../../src/server/collect/pve-guest-details.ts'
import { toGuestSample, toInactiveGuest } from '../../../../src/server/collect/pve-guests.ts'
import { readFixture, readFixtureList } from './fixtures.ts'

function agentResult(fixture: string): unknown {
  const answer = readAgentResult(readFixture(fixture))
  if (!answer.ok) throw new Error(`${fixture}: ${answer.reason}`)
  return answer.result
}

describe('readQemuStatus', () => {
  it('reads the agent flag, balloon size and the guest view of used memory (france-nuage)', () => {
    expect(
      readQemuStatus(readFixture('qemu-status-current__france-nuage-plateforme.json')),
    ).toEqual({
      running: true,
      uptime: 91908,
      agentEnabled: true,
      balloon: 1073741824,
      memoryUsed: 1020542976 - 599695360,
    })
  })

  it('reads the go-proxmox capture the same way', () => {
    const status = readQemuStatus(readFixture('qemu-status-current__go-proxmox.json'))
    expect(status).toMatchObject({ agentEnabled: true, balloon: 2097152000 })
    expect(status.memoryUsed).toBe(2015014912 - 887222272)
  })

  it('treats an omitted agent key as disabled and a missing ballooninfo as no balloon data', () => {
    expect(readQemuStatus({ status: 'running', uptime: '12', mem: 5 })).toEqual({
      running: true,
      uptime: 12,
      agentEnabled: false,
    })
  })

  it('accepts the agent flag as a config string', () => {
    expect(readQemuStatus({ agent: '1,fstrim_cloned_disks=1' }).agentEnabled).toBe(true)
    expect(readQemuStatus({ agent: 'enabled=1' }).agentEnabled).toBe(true)
    expect(readQemuStatus({ agent: '0' }).agentEnabled).toBe(false)
  })
})

describe('readLxcStatus', () => {
  it('reads swap and maxswap from a PVE 6.2 capture without envelope', () => {
    expect(
      readLxcStatus(readFixture('lxc-status-current__community-proxmox-inventory-pve6.2.json')),
    ).toEqual({ running: true, uptime: 6793736, swapUsed: 0, swapTotal: 1073741824 })
  })
})

describe('readAgentResult', () => {
  it('reports a QGA error inside a 200 answer as a failure with its description', () => {
    expect(
      readAgentResult(
        readFixture(
          'qemu-agent-network-get-interfaces-unsupported__community-proxmox-inventory-pve6.2.json',
        ),
      ),
    ).toEqual({ ok: false, reason: 'this feature or command is not currently supported' })
    expect(readAgentResult(null)).toEqual({ ok: false, reason: 'no result' })
  })
})

describe('toGuestFilesystems', () => {
  it('keeps the Windows drive letters and drops System Reserved volumes without sizes', () => {
    const mapped = toGuestFilesystems(
      agentResult('qemu-agent-get-fsinfo-windows__pulse-issue1319.json'),
    )
    if (!('disks' in mapped)) throw new Error('expected disks')
    expect(mapped.disks.map((d) => [d.mountpoint, d.device, d.type])).toEqual([
      ['F:\\', '\\\\.\\PhysicalDrive2', 'NTFS'],
      ['E:\\', '\\\\.\\PhysicalDrive1', 'NTFS'],
      ['C:\\', '\\\\.\\PhysicalDrive0', 'NTFS'],
    ])
    expect(mapped.disks[2]).toMatchObject({
      used: 195096502272,
      total: 267789529088,
      free: 267789529088 - 195096502272,
      usage: 72.85,
    })
    expect(mapped.disk).toEqual({
      used: 10993242161152,
      total: 13132038656000,
      free: 13132038656000 - 10993242161152,
      usage: 83.71,
    })
  })

  it('filters pseudo filesystems and counts a device mounted twice once', () => {
    const fs = (mountpoint: string, type: string, dev: string, total = 1000, used = 100) => ({
      name: dev,
      mountpoint,
      type,
      'total-bytes': total,
      'used-bytes': used,
      disk: [{ dev }],
    })
    const mapped = toGuestFilesystems([
      fs('/', 'ext4', '/dev/sda1', 32_000, 8_000),
      fs('/boot/efi', 'vfat', '/dev/sda15'),
      fs('/snap/core/1', 'squashfs', '/dev/loop0'),
      fs('/run', 'tmpfs', 'tmpfs'),
      fs('/var/lib/docker/overlay2/abc/merged', 'overlay', 'overlay'),
      fs('/mnt/share', 'nfs4', 'nas.example.com:/share'),
      fs('/home', 'btrfs', '/dev/sdb1', 64_000, 1_000),
      fs('/srv', 'btrfs', '/dev/sdb1', 64_000, 1_000),
      fs('/data', 'xfs', '/dev/sdc1', 0, 0),
    ])
    if (!('disks' in mapped)) throw new Error('expected disks')
    expect(mapped.disks.map((d) => d.mountpoint)).toEqual(['/', '/home'])
    expect(mapped.disk).toEqual({ used: 9_000, total: 96_000, free: 87_000, usage: 9.38 })
  })

  it('says no-filesystems for an empty list and special-filesystems-only for a live ISO', () => {
    expect(toGuestFilesystems([])).toEqual({ reason: 'no-filesystems' })
    expect(
      toGuestFilesystems([
        { mountpoint: '/run/live/medium', type: 'iso9660', 'total-bytes': 9, 'used-bytes': 9 },
        { mountpoint: '/', type: 'overlay', 'total-bytes': 9, 'used-bytes': 1 },
      ]),
    ).toEqual({ reason: 'special-filesystems-only' })
  })

  it('knows fuse and network types by prefix', () => {
    expect(isPseudoFilesystem('fuse.sshfs', '/mnt/x')).toBe(true)
    expect(isPseudoFilesystem('cifs', '/mnt/x')).toBe(true)
    expect(isPseudoFilesystem('ext4', '/devices')).toBe(false)
    expect(isPseudoFilesystem('ext4', '/dev/shm')).toBe(true)
  })
})

describe('toAgentNetwork', () => {
  it('skips lo, keeps interfaces without addresses and lists routable addresses (PVE 6.2)', () => {
    const net = toAgentNetwork(
      agentResult('qemu-agent-network-get-interfaces__community-proxmox-inventory-pve6.2.json'),
    )
    expect(net.networkInterfaces.map((n) => n.name)).toEqual([
      'eth0',
      'eth1',
      'docker0',
      'datapath',
      'weave',
      'vethwe-datapath',
      'vethwe-bridge',
      'vxlan-6784',
      'vethwepl0dfe1fe',
      'vethweplf1e7715',
      'vethwepl9d244a1',
      'vethwepl2ca477b',
      'nomacorip',
    ])
    const raw = agentResult(
      'qemu-agent-network-get-interfaces__community-proxmox-inventory-pve6.2.json',
    ) as Array<Record<string, unknown>>
    const eth0 = raw.find((n) => n.name === 'eth0')!
    const eth0Ip = (eth0['ip-addresses'] as Array<Record<string, string>>)[0]!['ip-address']
    expect(net.networkInterfaces[0]).toEqual({
      name: 'eth0',
      mac: 'ff:ff:ff:ff:ff:ff',
      addresses: [eth0Ip],
      rxBytes: 1846743499,
      txBytes: 1287844926,
    })
    expect(net.networkInterfaces.at(-1)).toEqual({ name: 'nomacorip', addresses: [] })
    expect(net.ipAddresses).toHaveLength(4)
    expect(net.ipAddresses[0]).toBe(eth0Ip)
  })

  it('drops link-local addresses and the all-zero MAC (france-nuage)', () => {
    const net = toAgentNetwork(
      agentResult('qemu-agent-network-get-interfaces__france-nuage-plateforme.json'),
    )
    expect(net.networkInterfaces.map((n) => n.name)).toEqual(['enp6s18', 'vmbr0', 'CloudflareWARP'])
    const warp = net.networkInterfaces[2]!
    expect(warp.mac).toBeUndefined()
    expect(warp.addresses).toHaveLength(3)
    expect(net.ipAddresses).toHaveLength(3)
    expect(net.ipAddresses.some((ip) => ip.startsWith('fe80'))).toBe(false)
    expect(net.ipAddresses).toContain('2606:4700:cf1:1000::1a')
  })

  it('reads the PVE 9 capture with its statistics', () => {
    const net = toAgentNetwork(
      agentResult('qemu-agent-network-get-interfaces__unidentified-pve9-capture.json'),
    )
    expect(net.networkInterfaces).toHaveLength(1)
    expect(net.networkInterfaces[0]).toMatchObject({
      name: 'ens18',
      mac: 'bc:24:11:11:75:0e',
      rxBytes: 1644,
      txBytes: 1996,
    })
    expect(net.ipAddresses).toHaveLength(1)
  })

  it('skips a Windows loopback pseudo-interface by its addresses', () => {
    const net = toAgentNetwork([
      {
        name: 'Loopback Pseudo-Interface 1',
        'ip-addresses': [
          { 'ip-address': '::1', 'ip-address-type': 'ipv6', prefix: 128 },
          { 'ip-address': '127.0.0.1', 'ip-address-type': 'ipv4', prefix: 8 },
        ],
      },
    ])
    expect(net).toEqual({ networkInterfaces: [], ipAddresses: [] })
  })
})

describe('toLxcNetwork', () => {
  it('reads the PVE 8 inet/hwaddr shape', () => {
    const raw = readFixtureList('lxc-interfaces__go-proxmox.json')
    const eth0 = raw.find((n) => n.name === 'eth0')!
    const ipv4 = String(eth0.inet).split('/')[0]!
    const net = toLxcNetwork(raw)
    expect(net.networkInterfaces).toEqual([
      { name: 'eth0', mac: 'bc:24:11:89:67:07', addresses: [ipv4, 'fe80::be24:11ff:fe89:6707'] },
    ])
    expect(net.ipAddresses).toEqual([ipv4])
  })

  it('prefers the PVE 9 ip-addresses list and hardware-address', () => {
    const net = toLxcNetwork([
      {
        name: 'eth0',
        hwaddr: 'bc:24:11:0a:33:7f',
        'hardware-address': 'bc:24:11:0a:33:7f',
        inet: '127.0.10.52/24',
        'ip-addresses': [
          { 'ip-address': '127.0.10.52', 'ip-address-type': 'inet', prefix: 24 },
          { 'ip-address': '2001:db8::52', 'ip-address-type': 'inet6', prefix: 64 },
        ],
      },
    ])
    expect(net.networkInterfaces[0]).toEqual({
      name: 'eth0',
      mac: 'bc:24:11:0a:33:7f',
      addresses: ['127.0.10.52', '2001:db8::52'],
    })
    // 127.x is loopback: never a guest address to show.
    expect(net.ipAddresses).toEqual(['2001:db8::52'])
  })
})

describe('toOsInfo', () => {
  it('takes pretty-name and version, falling back to name and version-id', () => {
    expect(
      toOsInfo({
        id: 'debian',
        name: 'Debian GNU/Linux',
        'pretty-name': 'Debian GNU/Linux 12 (bookworm)',
        version: '12 (bookworm)',
        'version-id': '12',
      }),
    ).toEqual({ osName: 'Debian GNU/Linux 12 (bookworm)', osVersion: '12' })
    expect(toOsInfo({ id: 'mswindows', name: 'Microsoft Windows', 'version-id': '2022' })).toEqual({
      osName: 'Microsoft Windows',
      osVersion: '2022',
    })
    expect(toOsInfo('nonsense')).toEqual({})
  })
})

describe('diskReasonFor', () => {
  const http = (reason: string) =>
    new AppError('PVE_HTTP', { host: 'pve.example.com', status: 500, reason })

  it('maps the PVE agent errors to the spec 000 §8 codes', () => {
    expect(diskReasonFor(http('QEMU guest agent is not running'))).toBe('agent-not-running')
    expect(diskReasonFor(http('No QEMU guest agent configured'))).toBe('agent-disabled')
    expect(diskReasonFor(http("VM 101 qmp command 'guest-get-fsinfo' failed - got timeout"))).toBe(
      'agent-timeout',
    )
    expect(diskReasonFor(http('VM 101 is not running'))).toBe('vm-stopped')
    expect(diskReasonFor(http('something odd'))).toBe('agent-error')
    expect(
      diskReasonFor(
        new AppError('PVE_FORBIDDEN', { host: 'h', reason: 'Permission check failed' }),
      ),
    ).toBe('permission-denied')
    expect(diskReasonFor(new AppError('PVE_TIMEOUT', { host: 'h', ms: 4000 }))).toBe(
      'agent-timeout',
    )
    expect(diskReasonFor(new AppError('PVE_UNREACHABLE', { host: 'h', reason: 'x' }))).toBe(
      'agent-error',
    )
    expect(diskReasonFor(new Error('boom'))).toBe('agent-error')
  })
})

describe('mergeGuestDetails', () => {
  function runningVm() {
    const entry = readFixtureList('cluster-resources__dirkthedaring-px.json').find(
      (e) => e.id === 'qemu/100',
    )
    return toGuestSample(entry, 'lab')!.guest
  }

  it('fills disk, disks, addresses, OS and balloon memory and clears the reason', () => {
    const guest = runningVm()
    const fs = toGuestFilesystems(
      agentResult('qemu-agent-get-fsinfo-windows__pulse-issue1319.json'),
    )
    mergeGuestDetails(guest, {
      agentEnabled: true,
      balloon: 8 * 1024 ** 3,
      memoryUsed: 4 * 1024 ** 3,
      ...fs,
      networkInterfaces: [{ name: 'eth0', addresses: ['2001:db8::1'] }],
      ipAddresses: ['2001:db8::1'],
      osName: 'Windows Server 2022 Standard',
      osVersion: '2022',
    })
    expect(guest.diskStatusReason).toBeUndefined()
    expect(guest.disk.usage).toBe(83.71)
    expect(guest.disks).toHaveLength(3)
    expect(guest.memory).toEqual({
      used: 4 * 1024 ** 3,
      total: 17179869184,
      free: 17179869184 - 4 * 1024 ** 3,
      usage: 25,
      balloon: 8 * 1024 ** 3,
    })
    expect(guest).toMatchObject({
      ipAddresses: ['2001:db8::1'],
      osName: 'Windows Server 2022 Standard',
      osVersion: '2022',
    })
  })

  it('keeps disk usage at -1 and sets the reason when the agent gave no filesystems', () => {
    const guest = runningVm()
    mergeGuestDetails(guest, { agentEnabled: false, diskStatusReason: 'agent-disabled' })
    expect(guest.disk.usage).toBe(-1)
    expect(guest.diskStatusReason).toBe('agent-disabled')
    expect(guest.memory.used).toBe(15037038592)
  })

  it('gives an inactive guest no live values and no agent data', () => {
    const guest = runningVm()
    mergeGuestDetails(guest, {
      ...toGuestFilesystems(agentResult('qemu-agent-get-fsinfo-windows__pulse-issue1319.json')),
      ipAddresses: ['2001:db8::1'],
      osName: 'x',
    })
    const inactive = toInactiveGuest({ ...guest, networkIn: 5 })
    expect(inactive).toMatchObject({ status: 'unknown', cpu: 0, uptime: 0, networkIn: 0 })
    expect(inactive.memory.used).toBe(0)
    expect(inactive.disk.usage).toBe(-1)
    expect(inactive.disks).toBeUndefined()
    expect(inactive.ipAddresses).toBeUndefined()
    expect(inactive.osName).toBeUndefined()
  })
})

describe('toGuestSample on a node that does not answer', () => {
  it('reports a listed running guest as unknown, without usage and without a disk reason', () => {
    const entry = readFixtureList('cluster-resources__dirkthedaring-px.json').find(
      (e) => e.id === 'qemu/100',
    )
    const { guest } = toGuestSample(entry, 'lab', false)!
    expect(guest).toMatchObject({ status: 'unknown', cpu: 0, uptime: 0 })
    expect(guest.memory.used).toBe(0)
    expect(guest.diskStatusReason).toBeUndefined()
  })
})
