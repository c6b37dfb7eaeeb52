// The expandable detail panel of a guest row (spec 000 §2.2), formatted in the worker for the rows
// in the requested window only. Pure; no regex is compiled per row.
import type { Guest, GuestDisk } from '../model/state.ts'
import { formatBytes } from '../format/bytes.ts'
import { formatPercent } from '../format/percent.ts'
import { finiteOr } from '../model/coerce.ts'

const num = (value: unknown): number => finiteOr(value, 0)

/** A labelled line of the Memory section, e.g. { label: 'Swap', text: '1 GB / 2 GB' }. */
export interface GuestDetailLine {
  label: string
  text: string
}

/** One filesystem of a guest with more than one disk. `percent` drives the 80/90 bar. */
export interface GuestFilesystemDetail {
  mountpoint: string
  /** 'used / total'. */
  usedText: string
  percent: number
  percentText: string
  /** Filesystem type ('ext4', 'xfs'), '' when unknown. */
  type: string
}

/** One network interface; RX/TX are cumulative totals since boot, not rates. */
export interface GuestInterfaceDetail {
  name: string
  mac: string
  addresses: string[]
  rxText: string
  txText: string
}

/** Already-formatted content of the detail panel; empty strings and arrays mean "no section". */
export interface GuestDetail {
  /** OS name and version, e.g. 'Ubuntu 24.04'. */
  os: string
  ipAddresses: string[]
  /** Used/total, then balloon and swap lines; empty unless a balloon or swap line exists. */
  memory: GuestDetailLine[]
  /** Only when the guest has more than one disk. */
  filesystems: GuestFilesystemDetail[]
  interfaces: GuestInterfaceDetail[]
  /** Why disk usage is unavailable (spec 000 §8), for an active guest with disk usage -1. */
  diskReason: string
}

/** The guest-agent disk reasons of spec 000 §8, by `diskStatusReason` code. */
export const DISK_REASON_TEXTS: Readonly<Record<string, string>> = {
  'agent-not-running': 'Guest agent not running. Install and start qemu-guest-agent in the VM.',
  'agent-timeout': 'Guest agent timeout. Agent may need to be restarted.',
  'agent-disabled': 'Guest agent is disabled in VM configuration. Enable it in VM Options.',
  'no-filesystems': 'No filesystems found. VM may be booting or using a Live ISO.',
  'special-filesystems-only':
    'Only special filesystems detected (ISO/squashfs). This is normal for Live systems.',
  'agent-error': 'Error communicating with guest agent.',
  'no-data': 'No disk data available from the hypervisor API.',
}

export const DISK_REASON_DEFAULT_VM = 'Disk stats unavailable. Guest agent may not be installed.'
export const DISK_REASON_DEFAULT_CONTAINER = 'Disk stats unavailable'

/** Major version from a node's pveVersion ('pve-manager/9.0.3/abc' or '8.3.1'); undefined if none. */
export function parsePveMajor(pveVersion: unknown): number | undefined {
  if (typeof pveVersion !== 'string' || !pveVersion) return undefined
  const slash = pveVersion.indexOf('/')
  const major = parseInt(slash >= 0 ? pveVersion.slice(slash + 1) : pveVersion, 10)
  return Number.isFinite(major) && major > 0 ? major : undefined
}

/** The permission hint of spec 000 §6: VM.Monitor up to PVE 8, VM.GuestAgent.Audit from 9. */
export function permissionHint(pveMajor: number | undefined): string {
  const lead = 'Permission denied. The monitoring user or token needs the'
  if (pveMajor === undefined) {
    return `${lead} VM.Monitor permission (Proxmox VE 8) or the VM.GuestAgent.Audit permission (Proxmox VE 9).`
  }
  if (pveMajor >= 9) return `${lead} VM.GuestAgent.Audit permission (Proxmox VE ${pveMajor}).`
  return `${lead} VM.Monitor permission (Proxmox VE ${pveMajor}).`
}

/** Why a guest's disk usage is unavailable (spec 000 §8), from its diskStatusReason code. */
export function diskReasonText(
  guest: Pick<Guest, 'type' | 'diskStatusReason'>,
  pveMajor?: number,
): string {
  const code = guest.diskStatusReason
  if (code === 'permission-denied') return permissionHint(pveMajor)
  const known = code ? DISK_REASON_TEXTS[code] : undefined
  if (known) return known
  return guest.type === 'lxc' ? DISK_REASON_DEFAULT_CONTAINER : DISK_REASON_DEFAULT_VM
}

/**
 * The detail panel of a guest, or null when it has nothing to show. `diskReason` is the text of
 * {@link diskReasonText} when the disk is unavailable, '' otherwise.
 */
export function buildGuestDetail(guest: Guest, diskReason = ''): GuestDetail | null {
  const os = joinText(guest.osName, guest.osVersion)
  const ipAddresses = strings(guest.ipAddresses)
  const memory = memoryLines(guest)
  const disks = Array.isArray(guest.disks) ? guest.disks : []
  const filesystems = disks.length > 1 ? disks.map(toFilesystem) : []
  const interfaces = Array.isArray(guest.networkInterfaces)
    ? guest.networkInterfaces.filter((nic) => nic && typeof nic === 'object').map(toInterface)
    : []
  if (
    !os &&
    ipAddresses.length === 0 &&
    memory.length === 0 &&
    filesystems.length === 0 &&
    interfaces.length === 0 &&
    !diskReason
  ) {
    return null
  }
  return { os, ipAddresses, memory, filesystems, interfaces, diskReason }
}

function memoryLines(guest: Guest): GuestDetailLine[] {
  const memory = guest.memory
  if (!memory) return []
  const balloon = num(memory.balloon)
  const swapTotal = num(memory.swapTotal)
  if (balloon <= 0 && swapTotal <= 0) return []
  const lines: GuestDetailLine[] = []
  const total = num(memory.total)
  if (total > 0) lines.push({ label: 'Used', text: usedOf(num(memory.used), total) })
  if (balloon > 0) lines.push({ label: 'Balloon', text: formatBytes(balloon) })
  if (swapTotal > 0) lines.push({ label: 'Swap', text: usedOf(num(memory.swapUsed), swapTotal) })
  return lines
}

function toFilesystem(disk: GuestDisk): GuestFilesystemDetail {
  const used = num(disk?.used)
  const total = num(disk?.total)
  const usage = disk?.usage
  const raw =
    typeof usage === 'number' && Number.isFinite(usage) && usage >= 0
      ? usage
      : total > 0
        ? (used / total) * 100
        : 0
  const percent = Math.min(100, Math.max(0, raw))
  return {
    mountpoint: text(disk?.mountpoint) || text(disk?.device) || '-',
    usedText: usedOf(used, total),
    percent,
    percentText: formatPercent(raw),
    type: text(disk?.type),
  }
}

function toInterface(nic: NonNullable<Guest['networkInterfaces']>[number]): GuestInterfaceDetail {
  return {
    name: text(nic.name) || '-',
    mac: text(nic.mac),
    addresses: strings(nic.addresses),
    rxText: formatBytes(num(nic.rxBytes)),
    txText: formatBytes(num(nic.txBytes)),
  }
}

function usedOf(used: number, total: number): string {
  return `${formatBytes(used)} / ${formatBytes(total)}`
}

/** "Debian GNU/Linux" + "12 (bookworm)"; a name that already says its version is shown alone. */
function joinText(a: unknown, b: unknown): string {
  const first = text(a)
  const second = text(b)
  if (first && second && first.toLowerCase().includes(second.toLowerCase())) return first
  return first && second ? `${first} ${second}` : first || second
}

function strings(value: unknown): string[] {
  if (!Array.isArray(value)) return []
  const out: string[] = []
  for (const item of value) {
    const trimmed = text(item)
    if (trimmed) out.push(trimmed)
  }
  return out
}

function text(value: unknown): string {
  return typeof value === 'string' ? value.trim() : ''
}
