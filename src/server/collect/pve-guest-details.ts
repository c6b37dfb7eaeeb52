// Maps the per-guest detail calls (reference/proxmox-api.md §2.5-2.7): QEMU and LXC
// status/current, LXC interfaces and the QEMU guest agent (get-fsinfo, network-get-interfaces,
// get-osinfo), and merges them into a Guest mapped from /cluster/resources. Pure.
import { AppError } from '../../shared/model/errors.ts'
import type { DiskUsage, Guest, GuestDisk, NetworkInterface } from '../../shared/model/state.ts'
import { clampNumber, isRecord, toBool, toNumber, toOptionalNumber, toPercent } from './coerce.ts'

/** What the detail calls add to a guest; every field is optional and merged only when present. */
export interface GuestDetails {
  /** QEMU: the `agent` flag of status/current (omitted by PVE when the agent is off). */
  agentEnabled?: boolean
  balloon?: number
  /** QEMU with balloon statistics: total_mem - free_mem as the guest sees it. */
  memoryUsed?: number
  swapUsed?: number
  swapTotal?: number
  disks?: GuestDisk[]
  disk?: DiskUsage
  /** A spec 000 §8 code; only meaningful while `disk` is absent. */
  diskStatusReason?: string
  networkInterfaces?: NetworkInterface[]
  ipAddresses?: string[]
  osName?: string
  osVersion?: string
}

/** The parts of QEMU status/current we use. */
export interface QemuStatus {
  running: boolean
  uptime: number
  agentEnabled: boolean
  balloon?: number
  memoryUsed?: number
}

/** Reads GET /nodes/{n}/qemu/{id}/status/current (unwrapped `data`). */
export function readQemuStatus(raw: unknown): QemuStatus {
  const data = isRecord(raw) ? raw : {}
  const info = isRecord(data.ballooninfo) ? data.ballooninfo : undefined
  const actual = toOptionalNumber(info?.actual)
  const totalMem = toOptionalNumber(info?.total_mem)
  const freeMem = toOptionalNumber(info?.free_mem)
  // Without a reporting balloon driver `mem` is the host RSS, so the guest's own view wins.
  const memoryUsed =
    totalMem !== undefined && freeMem !== undefined && totalMem > 0
      ? clampNumber(totalMem - freeMem, 0, totalMem)
      : undefined
  return {
    running: data.status === 'running',
    uptime: toNumber(data.uptime),
    // `agent` may also arrive as a config string ("1,fstrim_cloned_disks=1", "enabled=1").
    agentEnabled: toBool(data.agent) || /^(enabled=)?1(,|$)/.test(String(data.agent ?? '')),
    ...(actual !== undefined && actual > 0 ? { balloon: actual } : {}),
    ...(memoryUsed !== undefined ? { memoryUsed } : {}),
  }
}

/** The parts of LXC status/current we use. */
export interface LxcStatus {
  running: boolean
  uptime: number
  swapUsed?: number
  swapTotal?: number
}

/** Reads GET /nodes/{n}/lxc/{id}/status/current (unwrapped `data`). */
export function readLxcStatus(raw: unknown): LxcStatus {
  const data = isRecord(raw) ? raw : {}
  const swapTotal = toOptionalNumber(data.maxswap)
  const swapUsed = toOptionalNumber(data.swap)
  return {
    running: data.status === 'running',
    uptime: toNumber(data.uptime),
    ...(swapTotal !== undefined ? { swapTotal } : {}),
    ...(swapUsed !== undefined ? { swapUsed } : {}),
  }
}

/** An agent answer: `{ result }` on success; QGA errors may also come back as `{ result: { error } }`. */
export type AgentResult = { ok: true; result: unknown } | { ok: false; reason: string }

/** Unwraps the `{ result }` of an agent call's `data`. */
export function readAgentResult(data: unknown): AgentResult {
  if (!isRecord(data) || !('result' in data)) return { ok: false, reason: 'no result' }
  const result = data.result
  if (isRecord(result) && isRecord(result.error)) {
    const desc = result.error.desc
    return { ok: false, reason: typeof desc === 'string' && desc ? desc : 'agent error' }
  }
  return { ok: true, result }
}

// Not block storage of the guest: memory, kernel, container layers, read-only images, network
// and host shares. Summing them would double count or report the ISO as "full".
const PSEUDO_FS_TYPES = new Set([
  ...['tmpfs', 'devtmpfs', 'ramfs', 'rootfs', 'proc', 'sysfs', 'devpts', 'cgroup', 'cgroup2'],
  ...['securityfs', 'pstore', 'bpf', 'debugfs', 'tracefs', 'configfs', 'fusectl', 'hugetlbfs'],
  ...['mqueue', 'autofs', 'binfmt_misc', 'efivarfs', 'nsfs', 'selinuxfs', 'rpc_pipefs'],
  ...['overlay', 'overlayfs', 'aufs', 'squashfs', 'iso9660', 'udf', 'cramfs', 'erofs'],
  ...['nfs', 'nfs4', 'cifs', 'smb3', 'smbfs', '9p', 'virtiofs', 'fuse', 'ceph', 'glusterfs'],
])
const PSEUDO_MOUNT_PREFIXES = ['/dev', '/proc', '/sys', '/run', '/snap', '/var/lib/docker']

/** True for a filesystem that must not count towards a guest's disk usage. */
export function isPseudoFilesystem(type: string, mountpoint: string): boolean {
  const t = type.toLowerCase()
  if (PSEUDO_FS_TYPES.has(t) || t.startsWith('fuse.')) return true
  if (mountpoint === '/boot/efi' || mountpoint.includes('System Reserved')) return true
  return PSEUDO_MOUNT_PREFIXES.some((p) => mountpoint === p || mountpoint.startsWith(`${p}/`))
}

/** Filesystems of get-fsinfo, or the §8 reason why there are none to show. */
export type FilesystemsResult =
  | { disks: GuestDisk[]; disk: DiskUsage }
  | { reason: 'no-filesystems' | 'special-filesystems-only' }

/** Maps the get-fsinfo `result` list: pseudo filesystems dropped, one entry per device, summed. */
export function toGuestFilesystems(result: unknown): FilesystemsResult {
  const list = Array.isArray(result) ? result.filter(isRecord) : []
  if (list.length === 0) return { reason: 'no-filesystems' }
  const seen = new Set<string>()
  const disks: GuestDisk[] = []
  for (const fs of list) {
    const mountpoint = typeof fs.mountpoint === 'string' ? fs.mountpoint : ''
    const type = typeof fs.type === 'string' ? fs.type : ''
    const total = toNumber(fs['total-bytes'])
    // Windows "System Reserved" and unmounted volumes come without sizes.
    if (total <= 0 || isPseudoFilesystem(type, mountpoint)) continue
    const used = clampNumber(toNumber(fs['used-bytes']), 0, total)
    const device = readDevice(fs)
    // A bind mount or btrfs subvolume repeats its device with the same size; two partitions
    // behind one Windows PhysicalDrive share the device but not the size, and both count.
    const key = `${device}\0${total}`
    if (seen.has(key)) continue
    seen.add(key)
    disks.push({
      mountpoint,
      device,
      type,
      used,
      total,
      free: total - used,
      usage: toPercent(used, total),
    })
  }
  if (disks.length === 0) return { reason: 'special-filesystems-only' }
  const used = disks.reduce((sum, d) => sum + d.used, 0)
  const total = disks.reduce((sum, d) => sum + d.total, 0)
  return { disks, disk: { used, total, free: total - used, usage: toPercent(used, total) } }
}

function readDevice(fs: Record<string, unknown>): string {
  const first = Array.isArray(fs.disk) ? fs.disk.find(isRecord) : undefined
  const dev = first?.dev
  if (typeof dev === 'string' && dev) return dev
  return typeof fs.name === 'string' ? fs.name : ''
}

/** Interfaces plus the guest's routable addresses. */
export interface GuestNetwork {
  networkInterfaces: NetworkInterface[]
  ipAddresses: string[]
}

/** Maps the network-get-interfaces `result` list; lo and loopback-only interfaces are skipped. */
export function toAgentNetwork(result: unknown): GuestNetwork {
  const list = Array.isArray(result) ? result.filter(isRecord) : []
  return buildNetwork(
    list.map((nic) => {
      const stats = isRecord(nic.statistics) ? nic.statistics : undefined
      const rx = toOptionalNumber(stats?.['rx-bytes'])
      const tx = toOptionalNumber(stats?.['tx-bytes'])
      return {
        name: typeof nic.name === 'string' ? nic.name : '',
        mac: nic['hardware-address'],
        addresses: readIpAddresses(nic['ip-addresses']),
        ...(rx !== undefined ? { rxBytes: rx } : {}),
        ...(tx !== undefined ? { txBytes: tx } : {}),
      }
    }),
  )
}

/** Maps GET /nodes/{n}/lxc/{id}/interfaces: PVE 8 `hwaddr`/`inet`/`inet6`, PVE 9 adds agent-style keys. */
export function toLxcNetwork(raw: unknown): GuestNetwork {
  const list = Array.isArray(raw) ? raw.filter(isRecord) : []
  return buildNetwork(
    list.map((nic) => {
      const listed = readIpAddresses(nic['ip-addresses'])
      const addresses =
        listed.length > 0 ? listed : [...splitCidrs(nic.inet), ...splitCidrs(nic.inet6)]
      return {
        name: typeof nic.name === 'string' ? nic.name : '',
        mac: nic['hardware-address'] ?? nic.hwaddr,
        addresses,
      }
    }),
  )
}

interface RawNic {
  name: string
  mac: unknown
  addresses: string[]
  rxBytes?: number
  txBytes?: number
}

function buildNetwork(nics: RawNic[]): GuestNetwork {
  const networkInterfaces: NetworkInterface[] = []
  const ips = new Set<string>()
  for (const nic of nics) {
    if (!nic.name || nic.name === 'lo') continue
    // Windows names its loopback "Loopback Pseudo-Interface 1": recognise it by its addresses.
    if (nic.addresses.length > 0 && nic.addresses.every(isLoopback)) continue
    const mac = typeof nic.mac === 'string' && !/^[0:]*$/.test(nic.mac) ? nic.mac : undefined
    networkInterfaces.push({
      name: nic.name,
      ...(mac ? { mac } : {}),
      addresses: nic.addresses,
      ...(nic.rxBytes !== undefined ? { rxBytes: nic.rxBytes } : {}),
      ...(nic.txBytes !== undefined ? { txBytes: nic.txBytes } : {}),
    })
    for (const ip of nic.addresses) if (!isLoopback(ip) && !isLinkLocal(ip)) ips.add(ip)
  }
  return { networkInterfaces, ipAddresses: [...ips] }
}

function readIpAddresses(value: unknown): string[] {
  if (!Array.isArray(value)) return []
  const out: string[] = []
  for (const entry of value) {
    const ip = isRecord(entry) ? entry['ip-address'] : undefined
    if (typeof ip === 'string' && ip) out.push(stripZone(ip))
  }
  return out
}

// "10.20.30.52/24"; some versions join several with spaces or commas.
function splitCidrs(value: unknown): string[] {
  if (typeof value !== 'string') return []
  return value
    .split(/[\s,]+/)
    .map((part) => stripZone(part.split('/')[0] ?? ''))
    .filter(Boolean)
}

function stripZone(ip: string): string {
  const at = ip.indexOf('%')
  return (at >= 0 ? ip.slice(0, at) : ip).trim()
}

/** 127.0.0.0/8 and ::1. */
export function isLoopback(ip: string): boolean {
  return ip.startsWith('127.') || ip === '::1'
}

/** 169.254.0.0/16 and fe80::/10. */
export function isLinkLocal(ip: string): boolean {
  return ip.startsWith('169.254.') || /^fe[89ab][0-9a-f]:/i.test(ip)
}

/** Maps the get-osinfo `result`: osName from pretty-name or name, osVersion from version-id (short: '12', '2022') or version. */
export function toOsInfo(result: unknown): Pick<GuestDetails, 'osName' | 'osVersion'> {
  if (!isRecord(result)) return {}
  const pick = (...keys: string[]): string | undefined => {
    for (const key of keys) {
      const value = result[key]
      if (typeof value === 'string' && value.trim()) return value.trim()
    }
    return undefined
  }
  const osName = pick('pretty-name', 'name')
  const osVersion = pick('version-id', 'version')
  return { ...(osName ? { osName } : {}), ...(osVersion ? { osVersion } : {}) }
}

/**
 * The spec 000 §8 code for a failed agent call. PVE reports agent problems only in the reason
 * phrase of a 500 (reference §1.5), so that phrase is what we read here.
 */
export function diskReasonFor(err: unknown): string {
  if (!(err instanceof AppError)) return 'agent-error'
  if (err.code === 'PVE_FORBIDDEN') return 'permission-denied'
  if (err.code === 'PVE_TIMEOUT') return 'agent-timeout'
  if (err.code !== 'PVE_HTTP') return 'agent-error'
  const reason = String(err.params.reason ?? '')
  if (/guest agent is not running/i.test(reason)) return 'agent-not-running'
  if (/no qemu guest agent configured|agent.*not (configured|enabled)/i.test(reason)) {
    return 'agent-disabled'
  }
  if (/timeout|timed out/i.test(reason)) return 'agent-timeout'
  if (/VM \d+ is not running/i.test(reason)) return 'vm-stopped'
  return 'agent-error'
}

/** Merges cached details into a freshly mapped, running guest (mutates it: it is ours alone). */
export function mergeGuestDetails(guest: Guest, details: GuestDetails): void {
  const memory = guest.memory
  if (details.balloon !== undefined) memory.balloon = details.balloon
  if (details.swapTotal !== undefined) memory.swapTotal = details.swapTotal
  if (details.swapUsed !== undefined) memory.swapUsed = details.swapUsed
  if (details.memoryUsed !== undefined && memory.total > 0) {
    memory.used = Math.min(details.memoryUsed, memory.total)
    memory.free = memory.total - memory.used
    memory.usage = toPercent(memory.used, memory.total)
  }
  if (details.disk && details.disks) {
    guest.disk = { ...details.disk }
    guest.disks = details.disks
    delete guest.diskStatusReason
  } else if (guest.type === 'qemu' && details.diskStatusReason) {
    guest.diskStatusReason = details.diskStatusReason
  }
  if (details.networkInterfaces) guest.networkInterfaces = details.networkInterfaces
  if (details.ipAddresses) guest.ipAddresses = details.ipAddresses
  if (details.osName) guest.osName = details.osName
  if (details.osVersion) guest.osVersion = details.osVersion
}
