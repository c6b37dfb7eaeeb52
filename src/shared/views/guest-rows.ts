// Window stage of the guest pipeline: format only the rows the UI asked for.
import type { Guest } from '../model/state.ts'
import { formatBytes, formatRate } from '../format/bytes.ts'
import { formatPercent, toPercent } from '../format/percent.ts'
import { formatUptime, isShortUptime } from '../format/uptime.ts'
import type { GuestRow, GuestViewRow, ViewWindow } from './guest-view-types.ts'
import type { GuestLayout } from './guest-group.ts'
import { findGuestNode, isGuestActive, type GuestNodeIndex } from './guest-nodes.ts'
import { getDiskPercent } from './guest-sort.ts'
import { guestKey } from '../model/guest-key.ts'
import type { GuestAlertIndex, GuestAlertState } from './guest-alerts.ts'
import { buildGuestDetail, diskReasonText } from './guest-detail.ts'
import { finiteOr } from '../model/coerce.ts'

// Hot path (every row in view): strict, one typeof check.
const toNumber = (value: unknown): number => finiteOr(value, 0)

/**
 * One guest as a display row; inactive guests get '-' for uptime and every metric text.
 * `pveMajor` (the parent node's major PVE version) picks the permission hint of a disk reason.
 */
export function toGuestRow(
  guest: Guest,
  active: boolean,
  alert: GuestAlertState | null = null,
  pveMajor?: number,
): GuestRow {
  const cpuPercent = toPercent(guest.cpu)
  const memoryPercent = toNumber(guest.memory?.usage)
  const diskPercent = getDiskPercent(guest)
  const dash = (text: string) => (active ? text : '-')
  const key = guestKey(guest)
  const diskReason = diskPercent < 0 ? diskReasonText(guest, pveMajor) : undefined
  const row: GuestRow = {
    kind: 'guest',
    key,
    id: guest.id || key,
    nodeVmidKey: `${guest.node}-${guest.vmid}`,
    name: guest.name ?? '',
    typeLabel: guest.type === 'lxc' ? 'LXC' : 'VM',
    vmid: guest.vmid,
    node: guest.node,
    status: guest.status,
    active,
    tags: Array.isArray(guest.tags) ? guest.tags : [],
    uptimeText: dash(formatUptime(guest.uptime)),
    uptimeShort: active && isShortUptime(guest.uptime),
    cpuPercent,
    cpuText: dash(formatPercent(cpuPercent)),
    memoryPercent,
    memoryText: dash(formatPercent(memoryPercent)),
    diskPercent,
    diskText: diskPercent < 0 ? '-' : dash(formatPercent(diskPercent)),
    diskReadText: dash(formatRate(toNumber(guest.diskRead))),
    diskWriteText: dash(formatRate(toNumber(guest.diskWrite))),
    networkInText: dash(formatRate(toNumber(guest.networkIn))),
    networkOutText: dash(formatRate(toNumber(guest.networkOut))),
    diskRead: toNumber(guest.diskRead),
    diskWrite: toNumber(guest.diskWrite),
    networkIn: toNumber(guest.networkIn),
    networkOut: toNumber(guest.networkOut),
    alert,
    diskReason,
    // A stopped guest's missing disk stats are expected, so only active guests explain them.
    detail: buildGuestDetail(guest, active && diskReason ? diskReason : ''),
  }
  if (active && guest.memory?.total) {
    row.memoryDetail = `${formatBytes(guest.memory.used)} / ${formatBytes(guest.memory.total)}`
  }
  if (active && diskPercent >= 0 && guest.disk?.total) {
    row.diskDetail = `${formatBytes(guest.disk.used)} / ${formatBytes(guest.disk.total)}`
  }
  return row
}

/** The layout rows inside `window` (clamped to the layout), formatted. */
export function formatWindow(
  guests: readonly Guest[],
  layout: GuestLayout,
  nodes: GuestNodeIndex,
  window: ViewWindow,
  alerts: GuestAlertIndex = new Map(),
): { start: number; rows: GuestViewRow[] } {
  const total = layout.entries.length
  const start = Math.min(Math.max(0, Math.floor(window.start) || 0), total)
  const end = Math.min(total, start + Math.max(0, Math.floor(window.count) || 0))
  const rows: GuestViewRow[] = []
  for (let i = start; i < end; i++) {
    const entry = layout.entries[i]!
    if (entry < 0) {
      rows.push(layout.groups[-entry - 1]!)
      continue
    }
    const guest = guests[entry]!
    const node = findGuestNode(nodes, guest)
    const active = isGuestActive(guest, node)
    rows.push(toGuestRow(guest, active, alerts.get(guest.id) ?? null, node?.pveMajor))
  }
  return { start, rows }
}
