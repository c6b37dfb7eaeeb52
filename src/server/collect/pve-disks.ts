// Maps /nodes/{n}/disks/list entries to PhysicalDisk and reads disk temperatures from
// /nodes/{n}/disks/smart (reference/proxmox-api.md §1.6 and §2.11, wire-protocol.md §2.6). Pure.
import type { PhysicalDisk } from '../../shared/model/state.ts'
import { isRecord, toNumber, toOptionalNumber, toOptionalString } from './coerce.ts'

/** Where a disk list was read, and when. */
export interface DiskContext {
  instance: string
  node: string
  now: number
}

/** Physical disk id per the state type: `<instance>-<node>-<devPath>`. */
export function toDiskId(instance: string, node: string, devPath: string): string {
  return `${instance}-${node}-${devPath}`
}

/**
 * PVE's type (hdd, ssd, nvme, usb, unknown), told apart into sata/sas when the entry hints at the
 * transport: SATA drives show the SCSI vendor "ATA" or an ata-/scsi-SATA_ by-id link; SAS drives
 * answer SMART with "OK" instead of "PASSED". NVMe and USB stay as they are.
 */
export function normalizeDiskType(entry: Record<string, unknown>): string {
  const devPath = toOptionalString(entry.devpath) ?? ''
  const raw = (toOptionalString(entry.type) ?? 'unknown').toLowerCase()
  if (raw === 'nvme' || devPath.startsWith('/dev/nvme')) return 'nvme'
  if (raw !== 'hdd' && raw !== 'ssd' && raw !== 'unknown') return raw
  const vendor = (toOptionalString(entry.vendor) ?? '').trim().toUpperCase()
  const byId = toOptionalString(entry.by_id_link) ?? ''
  if (vendor === 'ATA' || /\/(ata-|scsi-SATA_)/.test(byId)) return 'sata'
  // Only for real drive types: QEMU's virtual SCSI disks also answer "OK".
  if (raw !== 'unknown' && (toOptionalString(entry.health) ?? '').toUpperCase() === 'OK') {
    return 'sas'
  }
  return raw
}

/** Maps one disks/list entry; undefined without a devpath. `temperature` comes from SMART. */
export function toPhysicalDisk(
  entry: unknown,
  ctx: DiskContext,
  temperature = 0,
): PhysicalDisk | undefined {
  if (!isRecord(entry)) return undefined
  const devPath = toOptionalString(entry.devpath)
  if (!devPath) return undefined
  // "N/A" (HDDs, virtual disks) and anything non-numeric is unknown wear.
  const wearout = toOptionalNumber(entry.wearout)
  return {
    id: toDiskId(ctx.instance, ctx.node, devPath),
    node: ctx.node,
    instance: ctx.instance,
    devPath,
    model: (toOptionalString(entry.model) ?? '').trim(),
    serial: (toOptionalString(entry.serial) ?? '').trim(),
    type: normalizeDiskType(entry),
    size: toNumber(entry.size),
    health: (toOptionalString(entry.health) ?? 'UNKNOWN').trim().toUpperCase(),
    wearout: wearout === undefined ? -1 : wearout,
    temperature,
    // rpm is 0 for flash and -1 (or missing) when unknown; unknown reads as 0 here too.
    rpm: Math.max(0, toNumber(entry.rpm)),
    used: toOptionalString(entry.used) ?? '',
    lastChecked: ctx.now,
  }
}

/** Maps a disks/list answer; `temperatures` (devPath -> Celsius) fills what SMART told us. */
export function toPhysicalDisks(
  raw: unknown,
  ctx: DiskContext,
  temperatures?: ReadonlyMap<string, number>,
): PhysicalDisk[] {
  const out: PhysicalDisk[] = []
  for (const entry of Array.isArray(raw) ? raw : []) {
    const disk = toPhysicalDisk(entry, ctx)
    if (!disk) continue
    disk.temperature = temperatures?.get(disk.devPath) ?? 0
    out.push(disk)
  }
  return out
}

// A plausible drive temperature in Celsius; anything else is a misread raw value.
function plausible(value: number | undefined): number | undefined {
  return value !== undefined && value > 0 && value < 150 ? value : undefined
}

/**
 * Celsius from a disks/smart answer, or undefined. ATA: attribute 194 (Temperature_Celsius), else
 * 190 (Airflow), whose raw text starts with the value ("31 (0 17 0 0 0)"). NVMe and SAS answer
 * as text: "Temperature: 32 Celsius" or "Current Drive Temperature: 20 C".
 */
export function readSmartTemperature(smart: unknown): number | undefined {
  if (!isRecord(smart)) return undefined
  if (Array.isArray(smart.attributes)) {
    for (const id of [194, 190]) {
      const attr = smart.attributes.find(
        (a) => isRecord(a) && toOptionalNumber(a.id) === id, // id is space-padded ("  1")
      )
      const raw = isRecord(attr) ? (toOptionalString(attr.raw) ?? '') : ''
      const value = plausible(toOptionalNumber(/^\s*(\d+)/.exec(raw)?.[1]))
      if (value !== undefined) return value
    }
  }
  const text = toOptionalString(smart.text)
  if (text) {
    const match = /^\s*(?:Current Drive )?Temperature:\s*(\d+)\s*(?:Celsius|C)\b/m.exec(text)
    return plausible(toOptionalNumber(match?.[1]))
  }
  return undefined
}
