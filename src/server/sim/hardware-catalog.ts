// Disk models a simulated node may carry, with the identifiers each kind of drive reports.

import type { Rng } from './prng.ts'
import { createHex } from './prng.ts'
import type { SimDisk } from './model.ts'

/** One drive model and how it identifies itself. */
export interface DiskModel {
  type: SimDisk['type']
  model: string
  size: number
  /** Space-padded sysfs vendor for SATA/SAS; 'unknown' for NVMe. */
  vendor: string
  serialPrefix: string
  rpm: number
  sas?: boolean
}

/** Datacenter and prosumer NVMe drives (boot mirrors, Ceph OSDs). */
export const NVME_MODELS: readonly DiskModel[] = [
  {
    type: 'nvme',
    model: 'SAMSUNG MZQL21T9HCJR-00A07',
    size: 1920383410176,
    vendor: 'unknown',
    serialPrefix: 'S64GNE0R',
    rpm: 0,
  },
  {
    type: 'nvme',
    model: 'SAMSUNG MZQL23T8HCLS-00A07',
    size: 3840755982336,
    vendor: 'unknown',
    serialPrefix: 'S64HNE0T',
    rpm: 0,
  },
  {
    type: 'nvme',
    model: 'Micron_7450_MTFDKCC3T8TFR',
    size: 3840755982336,
    vendor: 'unknown',
    serialPrefix: '2231',
    rpm: 0,
  },
  {
    type: 'nvme',
    model: 'KIOXIA KCD8XRUG1T92',
    size: 1920383410176,
    vendor: 'unknown',
    serialPrefix: 'X2K0A0',
    rpm: 0,
  },
  {
    type: 'nvme',
    model: 'Samsung SSD 980 PRO 1TB',
    size: 1000204886016,
    vendor: 'unknown',
    serialPrefix: 'S5GXNF0R',
    rpm: 0,
  },
]

/** SATA SSDs (boot disks on older or smaller nodes). */
export const SSD_MODELS: readonly DiskModel[] = [
  {
    type: 'ssd',
    model: 'Samsung SSD 870 EVO 1TB',
    size: 1000204886016,
    vendor: 'ATA     ',
    serialPrefix: 'S6PUNX0T',
    rpm: 0,
  },
  {
    type: 'ssd',
    model: 'INTEL SSDSC2KB480G8',
    size: 480103981056,
    vendor: 'ATA     ',
    serialPrefix: 'PHYF',
    rpm: 0,
  },
  {
    type: 'ssd',
    model: 'Micron_5300_MTFDDAK960TDS',
    size: 960197124096,
    vendor: 'ATA     ',
    serialPrefix: '2049',
    rpm: 0,
  },
]

/** Spinning disks for bulk ZFS pools, SATA and SAS. */
export const HDD_MODELS: readonly DiskModel[] = [
  {
    type: 'hdd',
    model: 'WDC WD80EFZZ-68BTXN0',
    size: 8001563222016,
    vendor: 'ATA     ',
    serialPrefix: 'WD-CA',
    rpm: 5400,
  },
  {
    type: 'hdd',
    model: 'ST16000NM001G-2KK103',
    size: 16000900661248,
    vendor: 'ATA     ',
    serialPrefix: 'ZL2',
    rpm: 7200,
  },
  {
    type: 'hdd',
    model: 'TOSHIBA MG08ACA16TE',
    size: 16000900661248,
    vendor: 'ATA     ',
    serialPrefix: 'X0K0A',
    rpm: 7200,
  },
  {
    type: 'hdd',
    model: 'ST4000NM0023',
    size: 4000787030016,
    vendor: 'SEAGATE ',
    serialPrefix: 'Z1Z',
    rpm: 7200,
    sas: true,
  },
]

/** A USB stick left in a node after installation: no SMART, health UNKNOWN. */
export const USB_MODEL: DiskModel = {
  type: 'usb',
  model: 'Cruzer_Blade',
  size: 15693664256,
  vendor: 'SanDisk ',
  serialPrefix: '4C5300',
  rpm: 0,
}

/** Creates one disk of a model at a device path with fresh identifiers. */
export function createDisk(rng: Rng, model: DiskModel, devpath: string, used: string): SimDisk {
  const serial = `${model.serialPrefix}${createHex(rng, 12 - Math.min(8, model.serialPrefix.length)).toUpperCase()}`
  const flash = model.type === 'nvme' || model.type === 'ssd'
  const underscored = model.model.replace(/ /g, '_')
  const byId =
    model.type === 'nvme'
      ? `nvme-${underscored}_${serial}`
      : model.sas === true
        ? `scsi-35000c500${createHex(rng, 8)}`
        : model.type === 'usb'
          ? `usb-SanDisk_${underscored}_${serial}-0:0`
          : `ata-${underscored}_${serial}`
  return {
    devpath,
    type: model.type,
    model: model.model,
    serial,
    vendor: model.vendor,
    wwn:
      model.type === 'nvme'
        ? `eui.${createHex(rng, 32)}`
        : model.type === 'usb'
          ? 'unknown'
          : `0x5${createHex(rng, 15)}`,
    size: model.size,
    // smartctl's "Rotation Rate" is a regex capture in PVE, so some HDDs report it as a string.
    rpm: model.type === 'hdd' && rng.chance(0.4) ? String(model.rpm) : model.rpm,
    health: model.type === 'usb' ? 'UNKNOWN' : model.sas === true ? 'OK' : 'PASSED',
    wearout: flash ? rng.int(62, 100) : 'N/A',
    used,
    sas: model.sas === true,
    osdid: -1,
    tempBase:
      model.type === 'nvme'
        ? rng.int(34, 46)
        : model.type === 'hdd'
          ? rng.int(30, 40)
          : rng.int(27, 36),
    powerOnHours: rng.int(2000, 42_000),
    byId,
  }
}
