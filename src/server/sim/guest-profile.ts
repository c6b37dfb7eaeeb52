// Per-guest traits the list endpoints do not show: guest agent behaviour, OS, balloon driver,
// addresses, filesystems, snapshots and backup membership. Derived lazily from the cluster seed
// and the vmid, so a guest's profile is stable for a seed no matter when it is first asked for.

import { createRng, hash01, hashInt } from './prng.ts'
import type { Rng } from './prng.ts'
import type { SimClusterModel, SimGuest } from './model.ts'
import { chooseOs } from './os-catalog.ts'
import type { OsRelease } from './os-catalog.ts'

const GIB = 1024 ** 3
const DAY = 86_400
const PROFILE_SALT = 0x51a7

/**
 * How a VM's guest agent behaves: answers, answers slowly, is configured but not running, is not
 * configured at all, or hangs until PVE gives up.
 */
export type AgentMode = 'ok' | 'slow' | 'not-running' | 'none' | 'hang'

/** One snapshot of a guest (besides PVE's `current` pseudo entry). */
export interface SimSnapshot {
  name: string
  description: string
  /** Epoch seconds. */
  snaptime: number
  /** QEMU only: RAM was saved with the snapshot. */
  vmstate: boolean
}

/** What the guest agent sees as extra mounts: snap loops (Ubuntu) or Docker overlays. */
export type ExtraMounts = 'none' | 'snap' | 'docker'

/** The hidden, stable traits of one guest. */
export interface GuestProfile {
  agent: AgentMode
  /** PVE 9 only: the token lacks VM.GuestAgent.Audit on /vms/{vmid}. */
  agentForbidden: boolean
  os: OsRelease
  /** The balloon driver reports memory statistics (ballooninfo, freemem). */
  balloon: boolean
  /** Lowercase, Proxmox's BC:24:11 prefix. */
  mac: string
  /** 127.x address: the simulator never invents routable guest addresses. */
  ipv4: string
  prefix4: number
  /** Documentation-prefix (2001:db8::/32) global address, on about half of the guests. */
  ipv6: string | undefined
  /** Interface name inside the guest: eth0, ens18 or Ethernet. */
  nic: string
  /** Root filesystem usage at build time (fraction) and its growth per day. */
  rootFrac: number
  rootGrowth: number
  extraMounts: ExtraMounts
  /** Size of a second data disk in bytes (0 = none) and where it is mounted. */
  dataDisk: number
  dataMount: string
  dataFrac: number
  snapshots: SimSnapshot[]
  /** Covered by the nightly backup job (PVE's not-backed-up list holds the rest). */
  inBackupJob: boolean
  /** PBS client-side encryption key fingerprint, on a few guests. */
  encryption: string | undefined
  /** LXC: share of maxswap in use while running. */
  swapFrac: number
  /** Storage holding the guest's boot disk. */
  diskStorage: string
}

const DATA_ROLES = ['db', 'pg', 'mysql', 'elastic', 'files', 'kafka', 'log']
const DOCKER_ROLES = ['k8s', 'ci-runner', 'app', 'worker', 'api']
const SNAPSHOT_NAMES = [
  'pre-upgrade',
  'before-kernel-update',
  'clean-install',
  'pre-migration',
  'before-patch',
  'working-config',
  'test',
] as const
const SNAPSHOT_NOTES = [
  '',
  '',
  'before dist-upgrade',
  'known good state',
  'before applying security patches',
  'taken by ops before maintenance',
] as const

/** Returns (and caches) the profile of a guest. */
export function guestProfile(cluster: SimClusterModel, guest: SimGuest): GuestProfile {
  let profile = cluster.profiles.get(guest.vmid)
  if (profile === undefined) {
    profile = buildProfile(cluster, guest)
    cluster.profiles.set(guest.vmid, profile)
  }
  return profile
}

function buildProfile(cluster: SimClusterModel, guest: SimGuest): GuestProfile {
  const rng = createRng(hashInt(cluster.seed, guest.vmid, PROFILE_SALT))
  const os = chooseOs(guest.name, rng.next())
  const windows = os.family === 'windows'
  const macBytes = [rng.int(0, 255), rng.int(0, 255), rng.int(0, 255)]
  const role = guest.name.split('-')[0] ?? ''
  const hasData = guest.type === 'qemu' && DATA_ROLES.includes(role) && rng.chance(0.7)
  return {
    agent: guest.type === 'qemu' ? chooseAgentMode(rng.next()) : 'none',
    agentForbidden: cluster.version.major >= 9 && rng.chance(0.05),
    os,
    balloon: windows ? rng.chance(0.3) : rng.chance(0.88),
    mac: ['bc', '24', '11', ...macBytes.map((b) => b.toString(16).padStart(2, '0'))].join(':'),
    ipv4: chooseIpv4(cluster.index, guest.vmid),
    prefix4: 24,
    ipv6: rng.chance(0.5)
      ? `2001:db8:${(cluster.index + 1).toString(16)}:${(guest.vmid % 16).toString(16)}::${guest.vmid.toString(16)}`
      : undefined,
    nic: windows ? 'Ethernet' : os.family === 'debian' && rng.chance(0.5) ? 'eth0' : 'ens18',
    rootFrac: rootFraction(cluster, guest.vmid),
    rootGrowth: rng.range(0, 0.003),
    extraMounts: chooseExtraMounts(rng, os, role),
    dataDisk: hasData ? rng.pick([100, 200, 500, 1000, 2000]) * GIB : 0,
    dataMount: role === 'pg' || role === 'db' ? '/var/lib/postgresql' : `/srv/${role}`,
    dataFrac: rng.range(0.3, 0.85),
    snapshots: chooseSnapshots(rng, cluster, guest),
    inBackupJob: inBackupJob(cluster, guest),
    encryption: encryptionKey(cluster, guest.vmid),
    swapFrac: rng.chance(0.7) ? 0 : rng.range(0.01, 0.3),
    diskStorage: chooseDiskStorage(cluster, rng, guest),
  }
}

// 70% answer, 6% answer slowly, 12% configured but not running, 8% not configured, 4% hang.
function chooseAgentMode(r: number): AgentMode {
  if (r < 0.7) return 'ok'
  if (r < 0.76) return 'slow'
  if (r < 0.88) return 'not-running'
  if (r < 0.96) return 'none'
  return 'hang'
}

/** 127.(64+cluster).x.y: unique per vmid within a cluster, never a routable address. */
export function chooseIpv4(clusterIndex: number, vmid: number): string {
  const third = Math.floor(vmid / 250) % 256
  return `127.${64 + (clusterIndex % 128)}.${third}.${(vmid % 250) + 2}`
}

function chooseExtraMounts(rng: Rng, os: OsRelease, role: string): ExtraMounts {
  if (os.family === 'windows') return 'none'
  if (DOCKER_ROLES.includes(role) && rng.chance(0.6)) return 'docker'
  if (os.family === 'ubuntu' && rng.chance(0.6)) return 'snap'
  return 'none'
}

// A minority of guests that existed at build time carry 1-3 snapshots from the last months.
function chooseSnapshots(rng: Rng, cluster: SimClusterModel, guest: SimGuest): SimSnapshot[] {
  if (guest.template === 1 || guest.vmid >= cluster.buildVmidLimit || !rng.chance(0.22)) return []
  const count = rng.int(1, 3)
  const times: number[] = []
  for (let i = 0; i < count; i++) times.push(cluster.builtAtSec - rng.int(DAY / 2, 120 * DAY))
  times.sort((a, b) => a - b)
  const used = new Set<string>()
  return times.map((snaptime) => {
    let name: string = rng.pick(SNAPSHOT_NAMES)
    if (used.has(name)) name = `${name}-${used.size + 1}`
    used.add(name)
    return {
      name,
      description: rng.pick(SNAPSHOT_NOTES),
      snaptime,
      vmstate: guest.type === 'qemu' && rng.chance(0.25),
    }
  })
}

function chooseDiskStorage(cluster: SimClusterModel, rng: Rng, guest: SimGuest): string {
  const images = cluster.storages.filter((s) => s.content.includes('images'))
  const local = images.find((s) => s.shared === 0)?.storage ?? 'local'
  const shared = images.find((s) => s.shared === 1)?.storage
  if (guest.template === 1) return local
  if (shared !== undefined && rng.chance(0.65)) return shared
  const tank = images.find((s) => s.storage === 'tank')
  if (tank !== undefined && rng.chance(0.25)) return tank.storage
  return local
}

// The next three traits are plain hashes, not profile fields, because the backup history needs
// them for every guest at build time and full profiles for 100,000 guests would be wasted work.

/** Guests the nightly job backs up: all but its exclusions (backup-jobs.ts); never templates. */
export function inBackupJob(cluster: SimClusterModel, guest: SimGuest): boolean {
  return guest.template === 0 && !cluster.backups.plan.excluded.has(guest.vmid)
}

/** Root filesystem usage of a guest at build time (fraction 0.25-0.8). */
export function rootFraction(cluster: SimClusterModel, vmid: number): number {
  return 0.25 + 0.55 * hash01(cluster.seed, vmid, PROFILE_SALT, 2)
}

/** PBS client-side encryption on ~4% of guests: the key fingerprint (32 hex pairs). */
export function encryptionKey(cluster: SimClusterModel, vmid: number): string | undefined {
  if (hash01(cluster.seed, vmid, PROFILE_SALT, 3) >= 0.04) return undefined
  const parts: string[] = []
  for (let i = 0; i < 32; i++)
    parts.push(
      (hashInt(cluster.seed, vmid, PROFILE_SALT, 100 + i) & 255).toString(16).padStart(2, '0'),
    )
  return parts.join(':')
}
