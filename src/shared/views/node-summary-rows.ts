// Rows of the node summary (spec 000 §2.1): counts per node and one formatted row per hypervisor
// node or backup server. Pure.
import type {
  Entity,
  Guest,
  GuestSnapshot,
  PbsBackup,
  PveNode,
  StorageBackup,
} from '../model/state.ts'
import { formatBytes } from '../format/bytes.ts'
import { formatPercent, toPercent } from '../format/percent.ts'
import { getNodeTemperatureColour } from '../format/thresholds.ts'
import { formatUptime, isShortUptime } from '../format/uptime.ts'
import {
  createPbsDuplicateCheck,
  indexGuestHomes,
  isIgnoredStorageBackup,
  storageBackupNode,
  type BackupNodeCounts,
} from './backups-normalize.ts'
import { findGuestNode, isNodeOnline, type GuestNodeIndex } from './guest-nodes.ts'
import type { NodeCountKey, NodeSummaryRow, NodeSummaryTab } from './node-summary-types.ts'
import { finiteOr } from '../model/coerce.ts'

// Our own wire values are typed numbers: strict, no parsing (src/shared/model/coerce.ts).
const num = (value: unknown): number => finiteOr(value, 0)

/** Counts per node id; a node without any entry has all counts 0. */
export type NodeCounts = ReadonlyMap<string, Partial<Record<NodeCountKey, number>>>

/** A row and the raw values only sorting needs. */
export interface NodeSummaryEntry {
  row: NodeSummaryRow
  /** Seconds, NaN when offline (empty values sort last). */
  uptime: number
}

/** Default web UI ports: hypervisor 8006, backup server 8007. */
const PVE_PORT = 8006
const PBS_PORT = 8007

/** The collections the count columns read; each tab passes only its own (others stay empty). */
export interface CountSources {
  guests: readonly Guest[]
  storage: readonly Entity[]
  disks: readonly Entity[]
  storageBackups: readonly StorageBackup[]
  guestSnapshots: readonly GuestSnapshot[]
  pbsBackups: readonly PbsBackup[]
}

/**
 * Count what the tab shows per node, in one pass over each collection: dashboard VMs and
 * containers, storage tab storage entries and physical disks, backups tab the records the backups
 * list holds for the node (its snapshots and storage backups, by the §5 rules) or for the backup
 * server (its PBS backups). Entries matched to no known node are ignored.
 */
export function countByNode(
  tab: NodeSummaryTab,
  sources: CountSources,
  index: GuestNodeIndex,
): NodeCounts {
  const { guests, storage, disks } = sources
  const counts = new Map<string, Partial<Record<NodeCountKey, number>>>()
  const bump = (nodeId: string, key: NodeCountKey) => {
    let entry = counts.get(nodeId)
    if (!entry) counts.set(nodeId, (entry = {}))
    entry[key] = (entry[key] ?? 0) + 1
  }
  if (tab === 'dashboard') {
    let lastNode: string | undefined
    let lastInstance: string | undefined
    let current: { vms: number; containers: number } | undefined
    for (const guest of guests) {
      // Guests mostly arrive node by node: look the node up only when it changes.
      if (guest.node !== lastNode || guest.instance !== lastInstance) {
        lastNode = guest.node
        lastInstance = guest.instance
        const node = findGuestNode(index, guest)
        current = undefined
        if (node) {
          current = counts.get(node.id) as typeof current
          if (!current) counts.set(node.id, (current = { vms: 0, containers: 0 }))
        }
      }
      if (!current) continue
      if (guest.type === 'lxc') current.containers++
      else current.vms++
    }
  } else if (tab === 'storage') {
    for (const entry of storage) {
      // Shared storage is one entry (node 'cluster') listing the ids of every node it is on.
      const ids = entry.nodeIds
      if (Array.isArray(ids) && ids.length > 0) {
        for (const id of new Set(ids)) if (typeof id === 'string') bump(id, 'storage')
        continue
      }
      const node = findGuestNode(index, locate(entry))
      if (node) bump(node.id, 'storage')
    }
    for (const disk of disks) {
      const node = findGuestNode(index, locate(disk))
      if (node) bump(node.id, 'disks')
    }
  } else {
    countBackups(sources, index, counts)
  }
  return counts
}

/** Backups per node and per backup server (`pbs-<instance>`, the backup server's id). */
function countBackups(
  sources: CountSources,
  index: GuestNodeIndex,
  counts: Map<string, Partial<Record<NodeCountKey, number>>>,
): void {
  // Backups arrive node by node: look the node up only when it changes.
  let lastNode: string | undefined
  let lastInstance: string | undefined
  let current: { backups: number } | undefined
  const add = (item: { node: string; instance: string }) => {
    if (item.node !== lastNode || item.instance !== lastInstance) {
      lastNode = item.node
      lastInstance = item.instance
      const node = findGuestNode(index, item)
      current = undefined
      if (node) {
        current = counts.get(node.id) as typeof current
        if (!current) counts.set(node.id, (current = { backups: 0 }))
      }
    }
    if (current) current.backups++
  }
  for (const snapshot of sources.guestSnapshots) add(snapshot)
  const isDuplicate = createPbsDuplicateCheck(sources.pbsBackups, sources.storageBackups)
  const homes = indexGuestHomes(sources.guests)
  for (const backup of sources.storageBackups) {
    if (isIgnoredStorageBackup(backup) || isDuplicate(backup)) continue
    add({ instance: backup.instance, node: storageBackupNode(homes, backup) })
  }
  let lastServer: string | undefined
  let server: { backups: number } | undefined
  for (const backup of sources.pbsBackups) {
    if (backup.instance !== lastServer) {
      lastServer = backup.instance
      const id = `pbs-${backup.instance}`
      server = counts.get(id) as typeof server
      if (!server) counts.set(id, (server = { backups: 0 }))
    }
    server!.backups++
  }
}

/**
 * The Backups counts from the normalised records' counts per place (kept current per change by
 * the incremental normaliser): the same as countByNode's backups tab, without a pass over every
 * backup.
 */
export function countBackupsByPlace(places: BackupNodeCounts, index: GuestNodeIndex): NodeCounts {
  const counts = new Map<string, Partial<Record<NodeCountKey, number>>>()
  for (const [instance, byNode] of places.pve) {
    for (const [node, count] of byNode) {
      const found = findGuestNode(index, { instance, node })
      if (!found) continue
      const entry = counts.get(found.id) ?? {}
      entry.backups = (entry.backups ?? 0) + count
      counts.set(found.id, entry)
    }
  }
  for (const [instance, count] of places.pbs) counts.set(`pbs-${instance}`, { backups: count })
  return counts
}

/** A hypervisor node as a row; offline nodes show '-' for every metric. */
export function toPveEntry(
  node: PveNode,
  counts: NodeCounts,
  keys: readonly NodeCountKey[],
): NodeSummaryEntry {
  const online = isNodeOnline(node)
  const name = text(node.name) || node.id
  const displayName = text(node.displayName).trim()
  const cpu = usageCell(online ? toPercent(num(node.cpu)) : -1)
  const memory = usageCell(online ? usagePercent(node.memory) : -1)
  const disk = usageCell(online ? usagePercent(node.disk) : -1)
  const temperature = online ? readTemperature(node) : null
  const row: NodeSummaryRow = {
    id: node.id,
    kind: 'pve',
    name,
    href: nodeHref(node.host, name, PVE_PORT),
    online,
    uptimeText: online ? formatUptime(num(node.uptime)) : '-',
    uptimeShort: online && isShortUptime(num(node.uptime)),
    cpuPercent: cpu.percent,
    cpuText: cpu.text,
    memoryPercent: memory.percent,
    memoryText: memory.text,
    memoryDetail: online ? usageDetail(node.memory?.used, node.memory?.total) : '',
    diskPercent: disk.percent,
    diskText: disk.text,
    diskDetail: online ? usageDetail(node.disk?.used, node.disk?.total) : '',
    temperature,
    temperatureText: temperature === null ? '-' : `${Math.round(temperature)}°C`,
    temperatureColour: temperature === null ? null : getNodeTemperatureColour(temperature),
    badges: {
      type: 'PVE',
      version: pveVersionNumber(text(node.pveVersion)),
      cluster: node.isClusterMember && text(node.clusterName) ? node.clusterName : 'Standalone',
      displayName: differsMaterially(name, displayName) ? displayName : null,
    },
    counts: pickCounts(counts.get(node.id), keys),
  }
  return { row, uptime: online ? num(node.uptime) : NaN }
}

/** A backup server (spec 000 §3: cpu in percent, memoryUsed/memoryTotal, datastores) as a row. */
export function toPbsEntry(
  pbs: Entity,
  counts: NodeCounts,
  keys: readonly NodeCountKey[],
): NodeSummaryEntry {
  const status = text(pbs.status)
  const online = status === 'healthy' || status === 'online'
  const name = text(pbs.name) || pbs.id
  const uptime = num(pbs.uptime)
  const memoryUsed = num(pbs.memoryUsed)
  const memoryTotal = num(pbs.memoryTotal)
  // The wire also carries `memory` as a percent; used / total is preferred when both are known.
  const memoryPercent =
    memoryTotal > 0 ? (memoryUsed / memoryTotal) * 100 : usagePercent({ usage: pbs.memory })
  let diskUsed = 0
  let diskTotal = 0
  for (const store of Array.isArray(pbs.datastores) ? (pbs.datastores as unknown[]) : []) {
    const datastore = store as { used?: unknown; total?: unknown } | null
    diskUsed += num(datastore?.used)
    diskTotal += num(datastore?.total)
  }
  const cpu = usageCell(online ? num(pbs.cpu) : -1)
  const memory = usageCell(online ? memoryPercent : -1)
  const disk = usageCell(online && diskTotal > 0 ? (diskUsed / diskTotal) * 100 : -1)
  const row: NodeSummaryRow = {
    id: pbs.id,
    kind: 'pbs',
    name,
    href: nodeHref(pbs.host, name, PBS_PORT),
    online,
    uptimeText: online ? formatUptime(uptime) : '-',
    uptimeShort: online && isShortUptime(uptime),
    cpuPercent: cpu.percent,
    cpuText: cpu.text,
    memoryPercent: memory.percent,
    memoryText: memory.text,
    memoryDetail: online ? usageDetail(memoryUsed, memoryTotal) : '',
    diskPercent: disk.percent,
    diskText: disk.text,
    diskDetail: online ? usageDetail(diskUsed, diskTotal) : '',
    temperature: null,
    temperatureText: '-',
    temperatureColour: null,
    // A backup server has no cluster: no cluster badge rather than a misleading 'Standalone'.
    badges: { type: 'PBS', version: text(pbs.version).trim(), cluster: null, displayName: null },
    counts: pickCounts(counts.get(pbs.id), keys),
  }
  return { row, uptime: online ? uptime : NaN }
}

/**
 * Link to a node's own web interface: its host when known (https:// added when the host has no
 * scheme), else https://<name>:8006 for a hypervisor node or :8007 for a backup server.
 */
export function nodeHref(host: unknown, name: string, port: number): string {
  const known = text(host).trim()
  if (known) return /^[a-z][a-z\d+.-]*:\/\//i.test(known) ? known : `https://${known}`
  return `https://${name}:${port}`
}

/** '8.2.4' from 'pve-manager/8.2.4/faa83925c9641325'; text without a '/' is returned as is. */
export function pveVersionNumber(pveVersion: string): string {
  const parts = pveVersion.trim().split('/')
  return parts.length > 1 ? (parts[1] ?? '') : (parts[0] ?? '')
}

/**
 * Whether a display name is worth a badge beside the name. It is not when it is empty, equal to
 * the name ignoring case and surrounding space, or only the fully qualified form of the name (or
 * the name the FQDN of it): 'pve1' vs 'PVE1' or 'pve1.lab.example' says nothing new, 'rack-3'
 * does.
 */
export function differsMaterially(name: string, displayName: string): boolean {
  const a = name.trim().toLowerCase()
  const b = displayName.trim().toLowerCase()
  if (!b || a === b) return false
  return !b.startsWith(`${a}.`) && !a.startsWith(`${b}.`)
}

/** A percent for a bar and its text; -1 and '-' when unknown. */
function usageCell(percent: number): { percent: number; text: string } {
  if (!Number.isFinite(percent) || percent < 0) return { percent: -1, text: '-' }
  return { percent, text: formatPercent(percent) }
}

/** Usage percent: `usage` when reported, else used / total; -1 when neither is known. */
function usagePercent(usage: { usage?: unknown; used?: unknown; total?: unknown } | undefined) {
  const reported = usage?.usage
  if (typeof reported === 'number' && Number.isFinite(reported) && reported >= 0) return reported
  const total = num(usage?.total)
  return total > 0 ? (num(usage?.used) / total) * 100 : -1
}

function usageDetail(used: unknown, total: unknown): string {
  const max = num(total)
  return max > 0 ? `${formatBytes(num(used))} / ${formatBytes(max)}` : ''
}

function readTemperature(node: PveNode): number | null {
  const temperature = node.temperature
  if (!temperature?.available) return null
  const value = temperature.cpuPackage ?? temperature.cpuMax
  return finiteOr(value, null)
}

function pickCounts(
  found: Partial<Record<NodeCountKey, number>> | undefined,
  keys: readonly NodeCountKey[],
): Partial<Record<NodeCountKey, number>> {
  const out: Partial<Record<NodeCountKey, number>> = {}
  for (const key of keys) out[key] = found?.[key] ?? 0
  return out
}

function locate(entity: Entity): Pick<Guest, 'instance' | 'node'> {
  return { instance: text(entity.instance), node: text(entity.node) }
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : ''
}
