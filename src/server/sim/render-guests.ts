// Renders the per-node guest endpoints: /nodes/{n}/qemu and /lxc lists, status/current, snapshot
// lists and container interfaces, with the quirks real PVE shows: `template` only when 1, LXC list
// vmids as strings, `agent: 1` only when configured, balloon statistics only from a balloon driver.

import type { SimClusterModel, SimGuest } from './model.ts'
import { guestProfile } from './guest-profile.ts'
import { hashInt } from './prng.ts'
import { renderBlockstat } from './render-blockstat.ts'

const MIB = 1024 ** 2

/** `data` of GET /nodes/{n}/qemu (with `full`, each running VM carries its QMP details) or /lxc. */
export function renderGuestList(
  cluster: SimClusterModel,
  node: number,
  type: 'qemu' | 'lxc',
  full: boolean,
): object[] {
  const out: object[] = []
  for (const g of cluster.guests) {
    if (g.node !== node || g.type !== type) continue
    if (type === 'lxc') {
      // pve-container builds its list from a hash keyed by vmid: the ids come out as strings.
      out.push({ ...lxcEntry(cluster, g), vmid: String(g.vmid) })
    } else
      out.push(
        full && g.running
          ? { ...qemuEntry(cluster, g), ...qmpDetails(cluster, g) }
          : qemuEntry(cluster, g),
      )
  }
  return out
}

/** `data` of GET /nodes/{n}/qemu/{vmid}/status/current. */
export function renderQemuStatus(cluster: SimClusterModel, g: SimGuest): object {
  const entry: Record<string, unknown> = { ...qemuEntry(cluster, g), ha: haStatus(cluster, g) }
  if (guestProfile(cluster, g).agent !== 'none') entry.agent = 1
  if (g.running) Object.assign(entry, qmpDetails(cluster, g))
  else entry.qmpstatus = 'stopped'
  return entry
}

/** `data` of GET /nodes/{n}/lxc/{vmid}/status/current (vmid a number here). */
export function renderLxcStatus(cluster: SimClusterModel, g: SimGuest): object {
  return { ...lxcEntry(cluster, g), ha: haStatus(cluster, g) }
}

function qemuEntry(cluster: SimClusterModel, g: SimGuest): Record<string, unknown> {
  const nowSec = Math.floor(cluster.lastTickMs / 1000)
  const e: Record<string, unknown> = {
    vmid: g.vmid,
    name: g.name,
    status: g.running ? 'running' : 'stopped',
    cpus: g.maxcpu,
    cpu: g.running ? g.cpu : 0,
    mem: g.running ? g.mem : 0,
    maxmem: g.maxmem,
    disk: 0,
    maxdisk: g.maxdisk,
    netin: g.netin,
    netout: g.netout,
    diskread: g.diskread,
    diskwrite: g.diskwrite,
    uptime: g.running ? Math.max(0, nowSec - g.startedAt) : 0,
  }
  if (g.running) e.pid = pidOf(g)
  // Cloud images come with a serial console, which PVE reports as `serial: 1`.
  if (guestProfile(cluster, g).os.family !== 'windows' && g.vmid % 2 === 0) e.serial = 1
  addOptional(e, g)
  if (cluster.version.major >= 9) {
    e.memhost = g.running ? Math.round(g.mem * 1.03) : 0
    if (g.running) Object.assign(e, pressure(g))
  }
  return e
}

function lxcEntry(cluster: SimClusterModel, g: SimGuest): Record<string, unknown> {
  const nowSec = Math.floor(cluster.lastTickMs / 1000)
  const maxswap = g.maxmem >= 1024 * MIB && g.vmid % 3 === 0 ? g.maxmem : 512 * MIB
  const e: Record<string, unknown> = {
    vmid: g.vmid,
    name: g.name,
    type: 'lxc',
    status: g.running ? 'running' : 'stopped',
    cpus: g.maxcpu,
    cpu: g.running ? g.cpu : 0,
    mem: g.running ? g.mem : 0,
    maxmem: g.maxmem,
    swap: g.running ? Math.round(maxswap * guestProfile(cluster, g).swapFrac) : 0,
    maxswap,
    disk: g.running ? g.disk : 0,
    maxdisk: g.maxdisk,
    netin: g.netin,
    netout: g.netout,
    diskread: g.diskread,
    diskwrite: g.diskwrite,
    uptime: g.running ? Math.max(0, nowSec - g.startedAt) : 0,
  }
  if (g.running) e.pid = pidOf(g)
  addOptional(e, g)
  return e
}

// Optional keys are omitted when unset, never null; `template` appears only on templates.
function addOptional(e: Record<string, unknown>, g: SimGuest): void {
  if (g.tags !== undefined) e.tags = g.tags
  if (g.lock !== undefined) e.lock = g.lock
  if (g.template === 1) e.template = 1
}

function pidOf(g: SimGuest): number {
  return 1000 + (hashInt(g.vmid, g.startedAt) % 4_000_000)
}

// PVE 9's pressure stall information (PSI, % over 10 s) for running guests.
function pressure(g: SimGuest): Record<string, number> {
  const round = (v: number): number => Math.round(v * 100) / 100
  return {
    pressurecpusome: round(g.cpu * 8),
    pressurecpufull: round(g.cpu * 2),
    pressureiosome: round(Math.min(30, g.diskRate / 1e6)),
    pressureiofull: round(Math.min(20, g.diskRate / 2e6)),
    pressurememorysome: 0,
    pressurememoryfull: 0,
  }
}

function haStatus(cluster: SimClusterModel, g: SimGuest): object {
  if (g.hastate === undefined) return { managed: 0 }
  return cluster.version.major >= 9
    ? { managed: 1, state: g.hastate }
    : { managed: 1, state: g.hastate, group: 'ha-all' }
}

// What `vmstatus($vmid, 1)` adds for a running VM from QMP and /proc/net/dev.
function qmpDetails(cluster: SimClusterModel, g: SimGuest): Record<string, unknown> {
  const profile = guestProfile(cluster, g)
  const pve9 = cluster.version.major >= 9
  const qemu = pve9 ? '10.0.2' : '9.2.0'
  const chipset = profile.os.family === 'windows' ? 'q35' : 'i440fx'
  const out: Record<string, unknown> = {
    qmpstatus: 'running',
    'running-qemu': qemu,
    'running-machine': `pc-${chipset}-${pve9 ? '10.0+pve1' : '9.2+pve1'}`,
    balloon: g.maxmem,
    nics: { [`tap${g.vmid}i0`]: { netin: g.netin, netout: g.netout } },
    blockstat: renderBlockstat(g, profile.dataDisk > 0),
    'proxmox-support': {
      'pbs-dirty-bitmap': true,
      'pbs-dirty-bitmap-migration': true,
      'pbs-dirty-bitmap-savevm': true,
      'pbs-masterkey': true,
      'query-bitmap-info': true,
      'backup-fleecing': true,
      'backup-max-workers': true,
      'pbs-library-version': pve9 ? '2.0.1 (UNKNOWN)' : '1.5.2 (UNKNOWN)',
    },
  }
  if (profile.balloon) {
    const total = g.maxmem - 52 * MIB
    const free = Math.max(Math.round(total * 0.02), total - g.mem)
    const nowSec = Math.floor(cluster.lastTickMs / 1000)
    out.freemem = free
    out.ballooninfo = {
      actual: g.maxmem,
      max_mem: g.maxmem,
      total_mem: total,
      free_mem: free,
      last_update: nowSec - (g.vmid % 10),
      major_page_faults: Math.round(g.diskread / 1e6),
      minor_page_faults: Math.round(g.diskread / 1e3) + 30_000,
      mem_swapped_in: 0,
      mem_swapped_out: 0,
    }
  }
  return out
}

/** `data` of the snapshot list: oldest first, then PVE's `current` pseudo entry. */
export function renderSnapshots(cluster: SimClusterModel, g: SimGuest): object[] {
  const { snapshots } = guestProfile(cluster, g)
  const out: object[] = snapshots.map((s, i) => {
    const e: Record<string, unknown> = {
      name: s.name,
      description: s.description,
      snaptime: s.snaptime,
    }
    if (g.type === 'qemu') e.vmstate = s.vmstate ? 1 : 0
    const parent = snapshots[i - 1]
    if (parent !== undefined) e.parent = parent.name
    return e
  })
  const current: Record<string, unknown> = {
    name: 'current',
    description: 'You are here!',
    digest: [7, 8, 9, 10, 11]
      .map((k) => hashInt(cluster.seed, g.vmid, k).toString(16).padStart(8, '0'))
      .join(''),
    running: g.running ? 1 : 0,
  }
  const last = snapshots[snapshots.length - 1]
  if (last !== undefined) current.parent = last.name
  out.push(current)
  return out
}

/**
 * `data` of GET /nodes/{n}/lxc/{vmid}/interfaces: lo and eth0 with CIDR strings; PVE 9 adds
 * `hardware-address` and `ip-addresses` (in the guest agent's ipv4/ipv6 terms). A stopped container has no interfaces: `data` is null.
 */
export function renderLxcInterfaces(cluster: SimClusterModel, g: SimGuest): object[] | null {
  if (!g.running) return null
  const p = guestProfile(cluster, g)
  const linkLocal = linkLocalOf(p.mac)
  const eth0: Record<string, unknown> = {
    name: 'eth0',
    hwaddr: p.mac,
    inet: `${p.ipv4}/${p.prefix4}`,
    inet6: p.ipv6 !== undefined ? `${p.ipv6}/64` : `${linkLocal}/64`,
  }
  const lo: Record<string, unknown> = {
    name: 'lo',
    hwaddr: '00:00:00:00:00:00',
    inet: '127.0.0.1/8',
    inet6: '::1/128',
  }
  if (cluster.version.major >= 9) {
    lo['hardware-address'] = '00:00:00:00:00:00'
    lo['ip-addresses'] = [
      { 'ip-address': '127.0.0.1', 'ip-address-type': 'ipv4', prefix: 8 },
      { 'ip-address': '::1', 'ip-address-type': 'ipv6', prefix: 128 },
    ]
    eth0['hardware-address'] = p.mac
    const addresses = [{ 'ip-address': p.ipv4, 'ip-address-type': 'ipv4', prefix: p.prefix4 }]
    if (p.ipv6 !== undefined)
      addresses.push({ 'ip-address': p.ipv6, 'ip-address-type': 'ipv6', prefix: 64 })
    addresses.push({ 'ip-address': linkLocal, 'ip-address-type': 'ipv6', prefix: 64 })
    eth0['ip-addresses'] = addresses
  }
  return [lo, eth0]
}

/** The EUI-64 link-local address the kernel derives from a MAC (U/L bit flipped). */
export function linkLocalOf(mac: string): string {
  const b = mac.split(':').map((x) => parseInt(x, 16))
  const hex = (hi: number, lo: number): string => ((hi << 8) | lo).toString(16)
  return `fe80::${hex((b[0] ?? 0) ^ 2, b[1] ?? 0)}:${hex(b[2] ?? 0, 0xff)}:${hex(0xfe, b[3] ?? 0)}:${hex(b[4] ?? 0, b[5] ?? 0)}`
}
