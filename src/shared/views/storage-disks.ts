// Physical disk rows (spec 000 §2.3 Physical Disks, §3 Physical disk, §5 Disk search, §8 texts,
// §9 disk health, SSD life and temperature colours). Pure.
import { formatBytes } from '../format/bytes.ts'
import type { Colour } from '../format/thresholds.ts'
import type { PhysicalDisk } from '../model/state.ts'
import type { GuestNodeIndex } from './guest-nodes.ts'
import { storageNodeId } from './storage-pools.ts'
import type { DiskRow } from './storage-types.ts'
import { textOr as str, toNumber as num } from '../model/coerce.ts'

/** Health values that count as healthy. */
const HEALTHY = ['PASSED', 'OK', 'GOOD']

/** Spec 000 §9: healthy, 'LOW LIFE' (healthy with wearout 1-9), 'FAILED', else 'UNKNOWN'. */
export function diskHealth(health: string, wearout: number): { label: string; colour: Colour } {
  const value = (health ?? '').trim().toUpperCase()
  if (HEALTHY.includes(value)) {
    if (wearout >= 1 && wearout <= 9) return { label: 'LOW LIFE', colour: 'orange' }
    return { label: value, colour: 'green' }
  }
  if (value === 'FAILED') return { label: 'FAILED', colour: 'red' }
  return { label: 'UNKNOWN', colour: 'grey' }
}

/** SSD life bar colour (only for wearout > 0): 50+ green, 20+ yellow, 10+ orange, else red. */
export function ssdLifeColour(wearout: number): Colour | null {
  if (!(wearout > 0)) return null
  if (wearout >= 50) return 'green'
  if (wearout >= 20) return 'yellow'
  if (wearout >= 10) return 'orange'
  return 'red'
}

/** Disk temperature colour: red above 70, yellow above 60, else green; null when unknown (0). */
export function diskTemperatureColour(celsius: number): Colour | null {
  if (!(celsius > 0)) return null
  if (celsius > 70) return 'red'
  if (celsius > 60) return 'yellow'
  return 'green'
}

const TYPE_LABELS: Record<string, string> = {
  nvme: 'NVMe',
  sata: 'SATA',
  sas: 'SAS',
  ssd: 'SSD',
  hdd: 'HDD',
  usb: 'USB',
}

/** One disk formatted for display. */
export function toDiskRow(disk: PhysicalDisk, index: GuestNodeIndex): DiskRow {
  const wearout = typeof disk.wearout === 'number' ? disk.wearout : num(disk.wearout)
  const health = diskHealth(str(disk.health), wearout)
  const temperature = num(disk.temperature)
  const type = str(disk.type).toLowerCase()
  const lifeColour = ssdLifeColour(wearout)
  return {
    key: str(disk.id) || `${str(disk.instance)}-${str(disk.node)}-${str(disk.devPath)}`,
    node: str(disk.node),
    nodeId: storageNodeId(index, str(disk.instance), str(disk.node)),
    devPath: str(disk.devPath),
    model: str(disk.model),
    serial: str(disk.serial),
    typeLabel: TYPE_LABELS[type] ?? (type ? type.toUpperCase() : '-'),
    fs: str(disk.used) || '-',
    healthLabel: health.label,
    healthColour: health.colour,
    lifePercent: lifeColour ? Math.min(100, wearout) : null,
    lifeColour,
    temperatureText: temperature > 0 ? `${Math.round(temperature)}°C` : '-',
    temperatureColour: diskTemperatureColour(temperature),
    sizeText: formatBytes(num(disk.size)),
  }
}

const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' })

/** Every disk as a row, by node then device path. */
export function toDiskRows(disks: readonly PhysicalDisk[], index: GuestNodeIndex): DiskRow[] {
  return disks
    .map((disk) => toDiskRow(disk, index))
    .sort((a, b) => collator.compare(a.node, b.node) || collator.compare(a.devPath, b.devPath))
}

/** Disks of the selected node (if any) whose model, devPath, serial or node contains `search`. */
export function filterDiskRows(
  rows: readonly DiskRow[],
  selectedNode: string | null,
  search: string,
): DiskRow[] {
  const term = search.trim().toLowerCase()
  return rows.filter((row) => {
    if (selectedNode !== null && row.nodeId !== selectedNode) return false
    if (!term) return true
    return [row.model, row.devPath, row.serial, row.node].some((field) =>
      field.toLowerCase().includes(term),
    )
  })
}

/** 'No physical disks found' with ' for node {name}' and ' matching "{term}"' when they apply. */
export function noDisksText(nodeName: string | null, search: string): string {
  const term = search.trim()
  return (
    'No physical disks found' +
    (nodeName ? ` for node ${nodeName}` : '') +
    (term ? ` matching "${term}"` : '')
  )
}
