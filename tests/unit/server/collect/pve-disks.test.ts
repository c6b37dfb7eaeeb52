import { describe, expect, it } from 'vitest'
import {
  normalizeDiskType,
  readSmartTemperature,
  toPhysicalDisk,
  toPhysicalDisks,
} from '../../../../src/server/collect/pve-disks.ts'
import { readFixture, readFixtureList } from './fixtures.ts'

const NOW = 1_760_000_000_000
const ctx = { instance: 'lab', node: 'pve1', now: NOW }
const DISKS = 'disks-list__community-proxmox-ceph-osd.json'

describe('toPhysicalDisks', () => {
  it('maps QEMU virtual disks: N/A wearout, rpm -1, vendor padding, missing used', () => {
    const disks = toPhysicalDisks(readFixture(DISKS), ctx)
    expect(disks).toHaveLength(3)
    expect(disks[0]).toEqual({
      id: 'lab-pve1-/dev/sda',
      node: 'pve1',
      instance: 'lab',
      devPath: '/dev/sda',
      model: 'QEMU_HARDDISK',
      serial: 'drive-scsi0',
      type: 'unknown',
      size: 34359738368,
      health: 'OK',
      wearout: -1,
      temperature: 0,
      rpm: 0,
      used: 'BIOS boot',
      lastChecked: NOW,
    })
    expect(disks[1]).toMatchObject({ devPath: '/dev/sdb', used: '', size: 17179869184 })
    expect(disks[2]).toMatchObject({ devPath: '/dev/sdc', used: 'LVM', type: 'unknown' })
  })

  it('fills temperatures by device path', () => {
    const disks = toPhysicalDisks(readFixture(DISKS), ctx, new Map([['/dev/sdb', 41]]))
    expect(disks.map((d) => d.temperature)).toEqual([0, 41, 0])
    expect(toPhysicalDisks({}, ctx)).toEqual([])
  })

  it('reads numbers sent as strings and uppercases health', () => {
    const [sda] = readFixtureList(DISKS)
    const disk = toPhysicalDisk(
      { ...sda, type: 'hdd', wearout: '97', rpm: '7200', health: 'passed', size: '1000' },
      ctx,
    )
    expect(disk).toMatchObject({ wearout: 97, rpm: 7200, health: 'PASSED', size: 1000 })
    expect(toPhysicalDisk({ ...sda, health: undefined }, ctx)?.health).toBe('UNKNOWN')
    expect(toPhysicalDisk({ model: 'x' }, ctx)).toBeUndefined()
  })
})

describe('normalizeDiskType', () => {
  const [sda] = readFixtureList(DISKS)

  it('keeps nvme, and keeps ssd and hdd without a transport hint', () => {
    expect(normalizeDiskType({ ...sda, type: 'nvme', devpath: '/dev/nvme0n1' })).toBe('nvme')
    expect(normalizeDiskType({ devpath: '/dev/nvme1n1', type: 'unknown' })).toBe('nvme')
    expect(normalizeDiskType({ ...sda, type: 'ssd', health: 'PASSED' })).toBe('ssd')
    expect(normalizeDiskType({ ...sda, type: 'hdd', health: 'PASSED' })).toBe('hdd')
    expect(normalizeDiskType({ ...sda, type: 'usb' })).toBe('usb')
  })

  it('tells SATA from SAS by vendor, by-id link and SMART health', () => {
    expect(normalizeDiskType({ ...sda, type: 'ssd', vendor: 'ATA     ' })).toBe('sata')
    expect(
      normalizeDiskType({ type: 'hdd', by_id_link: '/dev/disk/by-id/ata-ST4000VN008_ZGY1' }),
    ).toBe('sata')
    expect(normalizeDiskType({ type: 'hdd', health: 'OK', vendor: 'SEAGATE' })).toBe('sas')
    // QEMU's virtual SCSI disks answer "OK" too: an unknown type is not promoted to SAS.
    expect(normalizeDiskType(sda!)).toBe('unknown')
  })
})

describe('readSmartTemperature', () => {
  it('reads attribute 194 of an ATA disk (space-padded ids, free-text raw)', () => {
    expect(readSmartTemperature(readFixture('disks-smart-ata-hdd__pve-storage-test.json'))).toBe(31)
  })

  it('reads the Temperature line of NVMe text output', () => {
    expect(readSmartTemperature(readFixture('disks-smart-nvme__pve-storage-test.json'))).toBe(32)
  })

  it('reads the Current Drive Temperature line of SAS text output', () => {
    expect(readSmartTemperature(readFixture('disks-smart-sas__pve-storage-test.json'))).toBe(20)
  })

  it('falls back to attribute 190 and ignores implausible or missing values', () => {
    const ata = readFixture('disks-smart-ata-hdd__pve-storage-test.json') as {
      attributes: Array<Record<string, unknown>>
    }
    const without194 = { ...ata, attributes: ata.attributes.filter((a) => a.id !== '194') }
    expect(readSmartTemperature(without194)).toBe(31) // 190: "31 (Min/Max 20/33)"
    const bogus = { attributes: [{ id: '194', raw: '4294967295' }] }
    expect(readSmartTemperature(bogus)).toBeUndefined()
    expect(
      readSmartTemperature({ health: 'PASSED', type: 'text', text: 'nothing' }),
    ).toBeUndefined()
    expect(readSmartTemperature(undefined)).toBeUndefined()
  })
})
