// Maps a /cluster/resources node entry plus optional /nodes/{n}/status detail to a PveNode
// (reference/proxmox-api.md §2.3-2.4, wire-protocol.md §2.2). Pure.
import type { DiskUsage, MemoryUsage, NodeStatus, PveNode } from '../../shared/model/state.ts'
import {
  clampNumber,
  isRecord,
  toNumber,
  toOptionalNumber,
  toOptionalString,
  toPercent,
} from './coerce.ts'
import type { ClusterInfo } from './pve-cluster.ts'

/** Where a node entry comes from. */
export interface NodeContext {
  /** Instance (endpoint) name. */
  instance: string
  /** Endpoint URL, e.g. https://pve1.example.com:8006. */
  host: string
  cluster: ClusterInfo
  /** Epoch ms of the sample. */
  now: number
}

/** Node id per wire-protocol §0.3: `<instance>-<node>`. */
export function toNodeId(instance: string, node: string): string {
  return `${instance}-${node}`
}

/** The node name of a resources entry, or undefined when it is not a usable node entry. */
export function readNodeName(entry: unknown): string | undefined {
  if (!isRecord(entry) || entry.type !== 'node') return undefined
  return toOptionalString(entry.node)
}

/** Only 'online' counts as online; an offline or unknown node carries no stats. */
export function toNodeStatus(value: unknown): NodeStatus {
  return value === 'online' ? 'online' : value === 'offline' ? 'offline' : 'unknown'
}

/** Builds a PveNode; `detail` is the unwrapped /nodes/{n}/status body when we have one. */
export function toPveNode(
  entry: Record<string, unknown>,
  detail: unknown,
  ctx: NodeContext,
): PveNode {
  const name = toOptionalString(entry.node) ?? 'unknown'
  const status = toNodeStatus(entry.status)
  const info = isRecord(detail) ? detail : undefined
  const cpuinfo = isRecord(info?.cpuinfo) ? info.cpuinfo : undefined
  const model = toOptionalString(cpuinfo?.model)
  const sockets = toOptionalNumber(cpuinfo?.sockets)
  const loadavg = Array.isArray(info?.loadavg) ? info.loadavg.map((v) => toNumber(v)) : undefined
  const kernelVersion = readKernelVersion(info)
  return {
    id: toNodeId(ctx.instance, name),
    name,
    displayName: name,
    host: ctx.host,
    instance: ctx.instance,
    status,
    type: 'pve',
    uptime: status === 'online' ? toNumber(entry.uptime, toNumber(info?.uptime)) : 0,
    cpu: status === 'online' ? clampNumber(toNumber(entry.cpu, toNumber(info?.cpu)), 0, 1) : 0,
    memory: readMemory(entry, info),
    disk: readDisk(entry, info),
    ...(loadavg ? { loadAverage: loadavg } : {}),
    cpuInfo: {
      // Without detail, maxcpu (logical threads) is the best count we have.
      cores: toNumber(cpuinfo?.cores, toNumber(entry.maxcpu)),
      ...(model ? { model } : {}),
      ...(sockets !== undefined ? { sockets } : {}),
    },
    pveVersion: toOptionalString(info?.pveversion) ?? '',
    ...(kernelVersion ? { kernelVersion } : {}),
    isClusterMember: ctx.cluster.isCluster,
    clusterName: ctx.cluster.clusterName,
    lastSeen: ctx.now,
  }
}

// PVE 9 reports memory.available; used = total - available excludes page cache (and on most
// versions ZFS ARC), which matches what people expect. Older versions: trust `used`.
function readMemory(
  entry: Record<string, unknown>,
  info: Record<string, unknown> | undefined,
): MemoryUsage {
  const memory = isRecord(info?.memory) ? info.memory : undefined
  const swap = isRecord(info?.swap) ? info.swap : undefined
  const total = toNumber(memory?.total, toNumber(entry.maxmem))
  const available = toOptionalNumber(memory?.available)
  const used =
    memory && total > 0
      ? available !== undefined
        ? clampNumber(total - available, 0, total)
        : toNumber(memory.used)
      : toNumber(entry.mem)
  const swapTotal = toOptionalNumber(swap?.total)
  const swapUsed = toOptionalNumber(swap?.used)
  return {
    usage: toPercent(used, total),
    used,
    total,
    free: Math.max(0, total - used),
    ...(swapTotal !== undefined ? { swapTotal } : {}),
    ...(swapUsed !== undefined ? { swapUsed } : {}),
  }
}

// Usage is Proxmox's own figure, rootfs used / total (the node summary's "Root Disk"; disk /
// maxdisk in /cluster/resources), so our percentage matches the Proxmox UI. `free` is
// rootfs.avail: what can still be written, root-reserved blocks excluded.
function readDisk(
  entry: Record<string, unknown>,
  info: Record<string, unknown> | undefined,
): DiskUsage {
  const rootfs = isRecord(info?.rootfs) ? info.rootfs : undefined
  if (rootfs) {
    const total = toNumber(rootfs.total)
    const used = toNumber(rootfs.used)
    const free = toNumber(rootfs.avail, toNumber(rootfs.free, Math.max(0, total - used)))
    return { used, total, free, usage: toPercent(used, total) }
  }
  const total = toNumber(entry.maxdisk)
  const used = toNumber(entry.disk)
  return { used, total, free: Math.max(0, total - used), usage: toPercent(used, total) }
}

// current-kernel.release ("6.8.12-9-pve") exists from PVE 8; older versions only have kversion
// ("Linux 5.15.108-1-pve #1 SMP ..."), whose second word is the release.
function readKernelVersion(info: Record<string, unknown> | undefined): string | undefined {
  const current = isRecord(info?.['current-kernel']) ? info['current-kernel'] : undefined
  const release = toOptionalString(current?.release)
  if (release) return release
  const kversion = toOptionalString(info?.kversion)
  return kversion?.split(/\s+/)[1]
}
