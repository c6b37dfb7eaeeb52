import { describe, expect, it } from 'vitest'
import {
  buildGuestDetail,
  diskReasonText,
  parsePveMajor,
  permissionHint,
} from '../../../../src/shared/views/guest-detail.ts'
import { formatWindow, toGuestRow } from '../../../../src/shared/views/guest-rows.ts'
import { indexGuestNodes } from '../../../../src/shared/views/guest-nodes.ts'
import type { GuestLayout } from '../../../../src/shared/views/guest-group.ts'
import { makeGuest, makeNode } from './guest-fixtures.ts'

const GB = 1024 ** 3

describe('guest detail sections', () => {
  it('is null for a guest with nothing to show', () => {
    expect(buildGuestDetail(makeGuest(100))).toBeNull()
    expect(toGuestRow(makeGuest(100), true).detail).toBeNull()
  })

  it('shows OS name and version and the IP addresses in the overview', () => {
    const detail = buildGuestDetail(
      makeGuest(100, {
        osName: 'Ubuntu',
        osVersion: '24.04',
        ipAddresses: ['192.0.2.10', ' ', '2001:db8::10'],
      }),
    )!
    expect(detail.os).toBe('Ubuntu 24.04')
    expect(detail.ipAddresses).toEqual(['192.0.2.10', '2001:db8::10'])
    expect(detail.memory).toEqual([])
    expect(detail.filesystems).toEqual([])
    expect(detail.interfaces).toEqual([])
    expect(detail.diskReason).toBe('')
  })

  it('does not repeat a version that the pretty name already carries', () => {
    const guest = makeGuest(100, {
      osName: 'Debian GNU/Linux 12 (bookworm)',
      osVersion: '12 (bookworm)',
    })
    expect(buildGuestDetail(guest)!.os).toBe('Debian GNU/Linux 12 (bookworm)')
  })

  it('shows an OS name alone without a trailing space', () => {
    expect(buildGuestDetail(makeGuest(100, { osName: 'Debian' }))!.os).toBe('Debian')
  })

  it('adds a balloon line only when the balloon is above zero', () => {
    const memory = { usage: 50, used: 2 * GB, total: 4 * GB }
    expect(buildGuestDetail(makeGuest(1, { memory: { ...memory, balloon: 0 } }))).toBeNull()
    const detail = buildGuestDetail(makeGuest(1, { memory: { ...memory, balloon: 3 * GB } }))!
    expect(detail.memory).toEqual([
      { label: 'Used', text: '2 GB / 4 GB' },
      { label: 'Balloon', text: '3 GB' },
    ])
  })

  it('adds a swap line only when swap total is above zero', () => {
    const memory = { usage: 50, used: 2 * GB, total: 4 * GB }
    const none = makeGuest(1, { memory: { ...memory, swapUsed: 0, swapTotal: 0 } })
    expect(buildGuestDetail(none)).toBeNull()
    const detail = buildGuestDetail(
      makeGuest(1, { memory: { ...memory, swapUsed: GB / 2, swapTotal: GB } }),
    )!
    expect(detail.memory).toEqual([
      { label: 'Used', text: '2 GB / 4 GB' },
      { label: 'Swap', text: '512 MB / 1 GB' },
    ])
  })

  it('lists filesystems only when the guest has more than one disk', () => {
    const root = {
      mountpoint: '/',
      device: '/dev/sda1',
      type: 'ext4',
      used: 8 * GB,
      total: 10 * GB,
    }
    expect(buildGuestDetail(makeGuest(1, { disks: [root] }))).toBeNull()
    const data = { mountpoint: '', device: '/dev/sdb1', type: 'xfs', used: 95, total: 100 }
    const detail = buildGuestDetail(makeGuest(1, { disks: [root, data] }))!
    expect(detail.filesystems).toEqual([
      { mountpoint: '/', usedText: '8 GB / 10 GB', percent: 80, percentText: '80%', type: 'ext4' },
      {
        mountpoint: '/dev/sdb1',
        usedText: '95 B / 100 B',
        percent: 95,
        percentText: '95%',
        type: 'xfs',
      },
    ])
  })

  it('uses a disk usage field when given and clamps the bar', () => {
    const disks = [
      { mountpoint: '/', used: 1, total: 0, usage: 120 },
      { mountpoint: '/srv', used: 0, total: 0 },
    ]
    const [first, second] = buildGuestDetail(makeGuest(1, { disks }))!.filesystems
    expect(first).toMatchObject({ percent: 100, percentText: '120%', type: '' })
    expect(second).toMatchObject({ percent: 0, percentText: '0%' })
  })

  it('lists network interfaces with cumulative totals', () => {
    const detail = buildGuestDetail(
      makeGuest(1, {
        networkInterfaces: [
          {
            name: 'eth0',
            mac: 'bc:24:11:00:00:01',
            addresses: ['192.0.2.10/24'],
            rxBytes: 5 * GB,
            txBytes: 1536,
          },
          { name: 'eth1' },
        ],
      }),
    )!
    expect(detail.interfaces).toEqual([
      {
        name: 'eth0',
        mac: 'bc:24:11:00:00:01',
        addresses: ['192.0.2.10/24'],
        rxText: '5 GB',
        txText: '1.5 KB',
      },
      { name: 'eth1', mac: '', addresses: [], rxText: '0 B', txText: '0 B' },
    ])
  })
})

describe('guest disk unavailable reasons', () => {
  it.each([
    ['agent-not-running', 'Guest agent not running. Install and start qemu-guest-agent in the VM.'],
    ['agent-timeout', 'Guest agent timeout. Agent may need to be restarted.'],
    ['agent-disabled', 'Guest agent is disabled in VM configuration. Enable it in VM Options.'],
    ['no-filesystems', 'No filesystems found. VM may be booting or using a Live ISO.'],
    [
      'special-filesystems-only',
      'Only special filesystems detected (ISO/squashfs). This is normal for Live systems.',
    ],
    ['agent-error', 'Error communicating with guest agent.'],
    ['no-data', 'No disk data available from the hypervisor API.'],
    [undefined, 'Disk stats unavailable. Guest agent may not be installed.'],
    ['something-new', 'Disk stats unavailable. Guest agent may not be installed.'],
  ])('explains %s exactly', (code, text) => {
    expect(diskReasonText({ type: 'qemu', diskStatusReason: code })).toBe(text)
  })

  it('uses the short default text for a container', () => {
    expect(diskReasonText({ type: 'lxc' })).toBe('Disk stats unavailable')
  })

  it('names the permission by the major PVE version of the node', () => {
    const denied = { type: 'qemu', diskStatusReason: 'permission-denied' } as const
    const v8 = diskReasonText(denied, 8)
    expect(v8).toContain('VM.Monitor')
    expect(v8).not.toContain('VM.GuestAgent.Audit')
    expect(diskReasonText(denied, 7)).toContain('VM.Monitor')
    const v9 = diskReasonText(denied, 9)
    expect(v9).toContain('VM.GuestAgent.Audit')
    expect(v9).not.toContain('VM.Monitor')
    const unknown = diskReasonText(denied)
    expect(unknown).toContain('VM.Monitor')
    expect(unknown).toContain('VM.GuestAgent.Audit')
    expect(permissionHint(undefined)).toBe(unknown)
  })

  it.each([
    ['pve-manager/9.0.3/a1b2c3d4', 9],
    ['pve-manager/8.3.1/abc', 8],
    ['8.4.0', 8],
    ['', undefined],
    ['pve-manager/unknown', undefined],
    [undefined, undefined],
  ])('reads the major version of %j as %j', (version, major) => {
    expect(parsePveMajor(version)).toBe(major)
  })
})

describe('toGuestRow with details', () => {
  it('exposes the guest id and the node-vmid metadata keys', () => {
    const row = toGuestRow(makeGuest(101, { node: 'pve2' }), true)
    expect(row.id).toBe('lab-pve2-101')
    expect(row.nodeVmidKey).toBe('pve2-101')
    const noId = toGuestRow(makeGuest(102, { id: '', instance: 'pve1', node: 'pve1' }), true)
    expect(noId.id).toBe('pve1-102')
    expect(noId.key).toBe('pve1-102')
  })

  it('explains an unavailable disk on the row and in the detail of an active guest', () => {
    const guest = makeGuest(1, {
      disk: { usage: -1, used: 0, total: 0 },
      diskStatusReason: 'agent-timeout',
    })
    const row = toGuestRow(guest, true)
    expect(row.diskText).toBe('-')
    expect(row.diskReason).toBe('Guest agent timeout. Agent may need to be restarted.')
    expect(row.detail?.diskReason).toBe(row.diskReason)
  })

  it('keeps the reason off the panel of an inactive guest', () => {
    const guest = makeGuest(1, { status: 'stopped', disk: { usage: -1, used: 0, total: 0 } })
    const row = toGuestRow(guest, false)
    expect(row.diskReason).toBe('Disk stats unavailable. Guest agent may not be installed.')
    expect(row.detail).toBeNull()
  })

  it('has no reason when disk usage is known', () => {
    expect(toGuestRow(makeGuest(1), true).diskReason).toBeUndefined()
  })

  it('takes the permission hint from the parent node version in formatWindow', () => {
    const denied = { disk: { usage: -1, used: 0, total: 0 }, diskStatusReason: 'permission-denied' }
    const guests = [
      makeGuest(1, { node: 'old', ...denied }),
      makeGuest(2, { node: 'new', ...denied }),
      makeGuest(3, { node: 'gone', ...denied }),
    ]
    const nodes = indexGuestNodes([
      makeNode('old', { pveVersion: 'pve-manager/8.2.4/faa83925' }),
      makeNode('new', { pveVersion: 'pve-manager/9.0.3/025864202ebb6109' }),
    ])
    const layout: GuestLayout = { entries: Int32Array.from([0, 1, 2]), groups: [] }
    const { rows } = formatWindow(guests, layout, nodes, { start: 0, count: 3 })
    const reasons = rows.map((row) => (row.kind === 'guest' ? row.diskReason : ''))
    expect(reasons[0]).toContain('VM.Monitor permission (Proxmox VE 8)')
    expect(reasons[1]).toContain('VM.GuestAgent.Audit permission (Proxmox VE 9)')
    expect(reasons[2]).toContain('VM.Monitor')
    expect(reasons[2]).toContain('VM.GuestAgent.Audit')
  })
})
