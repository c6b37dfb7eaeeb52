// Maps /cluster/resources qemu/lxc entries to Guests (reference/proxmox-api.md §2.3,
// wire-protocol.md §2.3). Pure. Rates are left at 0: the rate tracker fills them.
import { guestKey, normalizeTags } from '../../shared/model/guest-key.ts'
import type { DiskUsage, Guest, GuestType } from '../../shared/model/state.ts'
import {
  clampNumber,
  isRecord,
  toBool,
  toNumber,
  toOptionalNumber,
  toOptionalString,
  toPercent,
} from './coerce.ts'

/** Cumulative byte counters since the guest process started (reference §4.1). */
export interface GuestCounters {
  netIn: number
  netOut: number
  diskRead: number
  diskWrite: number
}

/** A mapped guest plus what the rate tracker needs. */
export interface GuestSample {
  guest: Guest
  counters: GuestCounters
}

/** Reads the guest type of a resources entry, or undefined for nodes, storage, pools, sdn. */
export function readGuestType(entry: unknown): GuestType | undefined {
  if (!isRecord(entry)) return undefined
  return entry.type === 'qemu' || entry.type === 'lxc' ? entry.type : undefined
}

/** Maps one resources entry; undefined when it is not a guest or lacks a vmid or node. */
export function toGuestSample(
  entry: unknown,
  instance: string,
  now: number,
): GuestSample | undefined {
  const type = readGuestType(entry)
  if (!type || !isRecord(entry)) return undefined
  // vmid arrives as a string from some versions and lists (lxc-list fixtures).
  const vmid = toOptionalNumber(entry.vmid)
  const node = toOptionalString(entry.node)
  if (vmid === undefined || !Number.isInteger(vmid) || !node) return undefined
  const status = toOptionalString(entry.status) ?? 'unknown'
  const running = status === 'running'
  const lock = toOptionalString(entry.lock)
  const diskInfo = readDisk(type, status, entry)
  const maxmem = toNumber(entry.maxmem)
  const mem = running ? toNumber(entry.mem) : 0
  const guest: Guest = {
    id: guestKey({ instance, node, vmid }),
    instance,
    node,
    vmid,
    name: toOptionalString(entry.name) ?? `${type === 'qemu' ? 'VM' : 'CT'} ${vmid}`,
    type,
    status,
    uptime: running ? toNumber(entry.uptime) : 0,
    cpu: running ? clampNumber(toNumber(entry.cpu), 0, 1) : 0,
    // Fractional for LXC with a cpulimit (1.5); keep it as is.
    cpus: toNumber(entry.maxcpu, toNumber(entry.cpus)),
    memory: {
      usage: toPercent(mem, maxmem),
      used: mem,
      total: maxmem,
      free: Math.max(0, maxmem - mem),
    },
    disk: diskInfo.disk,
    ...(diskInfo.reason ? { diskStatusReason: diskInfo.reason } : {}),
    diskRead: 0,
    diskWrite: 0,
    networkIn: 0,
    networkOut: 0,
    tags: normalizeTags(entry.tags),
    template: toBool(entry.template),
    ...(lock ? { lock } : {}),
    lastSeen: now,
  }
  return {
    guest,
    counters: {
      netIn: toNumber(entry.netin),
      netOut: toNumber(entry.netout),
      diskRead: toNumber(entry.diskread),
      diskWrite: toNumber(entry.diskwrite),
    },
  }
}

// QEMU `disk` is always 0 in /cluster/resources (usage needs the guest agent), so a VM's disk is
// unknown (-1) until the agent collector fills it. LXC reports real rootfs usage while running.
function readDisk(
  type: GuestType,
  status: string,
  entry: Record<string, unknown>,
): { disk: DiskUsage; reason?: string } {
  const total = toNumber(entry.maxdisk)
  const used = toNumber(entry.disk)
  if (type === 'qemu') {
    return {
      disk: { used: 0, total, usage: -1 },
      reason: status === 'running' ? 'no-data' : 'vm-stopped',
    }
  }
  if (status !== 'running' && used === 0) return { disk: { used: 0, total, usage: -1 } }
  return { disk: { used, total, free: Math.max(0, total - used), usage: toPercent(used, total) } }
}
