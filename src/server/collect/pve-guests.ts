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

/** The node name of a guest entry, or undefined when it is not a usable guest entry. */
export function readGuestNode(entry: unknown): string | undefined {
  return readGuestType(entry) && isRecord(entry) ? toOptionalString(entry.node) : undefined
}

/**
 * Maps one resources entry; undefined when it is not a guest or lacks a vmid or node. A guest
 * carries no `lastSeen`: it is its node's (the poll that read both), and a time set on every guest
 * on every poll would put every guest in every delta. The plain dialect adds it (plain-state.ts).
 * `nodeOnline: false` (its node is offline or does not answer) turns a guest PVE still lists as
 * running into 'unknown': nobody can vouch for it, so it carries no live values.
 */
export function toGuestSample(
  entry: unknown,
  instance: string,
  nodeOnline = true,
): GuestSample | undefined {
  const type = readGuestType(entry)
  if (!type || !isRecord(entry)) return undefined
  // vmid arrives as a string from some versions and lists (lxc-list fixtures).
  const vmid = toOptionalNumber(entry.vmid)
  const node = toOptionalString(entry.node)
  if (vmid === undefined || !Number.isInteger(vmid) || !node) return undefined
  const listed = toOptionalString(entry.status) ?? 'unknown'
  const status = !nodeOnline && listed === 'running' ? 'unknown' : listed
  const running = status === 'running'
  const lock = toOptionalString(entry.lock)
  const maxmem = toNumber(entry.maxmem)
  const mem = running ? toNumber(entry.mem) : 0
  // One object literal of a fixed shape, optional fields added after: this runs for every guest
  // on every poll (100k at the largest estates), where spreads and wrapper objects add up.
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
    disk: readDisk(type, status, entry),
    diskRead: 0,
    diskWrite: 0,
    networkIn: 0,
    networkOut: 0,
    tags: normalizeTags(entry.tags),
    template: toBool(entry.template),
  }
  const reason = diskReason(type, status)
  if (reason) guest.diskStatusReason = reason
  if (lock) guest.lock = lock
  // The resource pool (backup jobs can select by pool); absent when the guest is in none.
  const pool = toOptionalString(entry.pool)
  if (pool) guest.pool = pool
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
// unknown (-1) until the guest details fill it. LXC reports real rootfs usage while running.
function readDisk(type: GuestType, status: string, entry: Record<string, unknown>): DiskUsage {
  const total = toNumber(entry.maxdisk)
  const used = toNumber(entry.disk)
  if (type === 'qemu') return { used: 0, total, usage: -1 }
  if (status !== 'running' && used === 0) return { used: 0, total, usage: -1 }
  return { used, total, free: Math.max(0, total - used), usage: toPercent(used, total) }
}

// Why a VM's disk is unknown; a guest in another state ('unknown' on a dead node) gets no
// reason: none of §8 fits.
function diskReason(type: GuestType, status: string): string | undefined {
  if (type !== 'qemu') return undefined
  return status === 'running' ? 'no-data' : status === 'stopped' ? 'vm-stopped' : undefined
}

/**
 * What we still show of a guest nobody can vouch for (its endpoint stopped answering): identity
 * and sizes, no live values and no agent data, a running guest as 'unknown'.
 */
export function toInactiveGuest(guest: Guest): Guest {
  const {
    disks: _disks,
    ipAddresses: _ips,
    networkInterfaces: _nics,
    osName: _osName,
    osVersion: _osVersion,
    diskStatusReason: _reason,
    ...rest
  } = guest
  const total = guest.memory.total
  return {
    ...rest,
    status: guest.status === 'running' ? 'unknown' : guest.status,
    uptime: 0,
    cpu: 0,
    memory: { usage: 0, used: 0, total, free: total },
    disk:
      guest.type === 'qemu' ? { used: 0, total: guest.disk.total, usage: -1 } : { ...guest.disk },
    ...(guest.type === 'qemu' && guest.status === 'stopped'
      ? { diskStatusReason: 'vm-stopped' }
      : {}),
    diskRead: 0,
    diskWrite: 0,
    networkIn: 0,
    networkOut: 0,
  }
}
