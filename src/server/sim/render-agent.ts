// The QEMU guest agent's answers (reference §2.6): get-fsinfo with real and pseudo filesystems
// (snap loops, Docker overlays, /boot/efi, Windows volumes), network-get-interfaces with counters
// that follow the guest's own, and get-osinfo. Addresses are loopback or documentation ranges only.

import type { SimClusterModel, SimGuest } from './model.ts'
import type { GuestProfile } from './guest-profile.ts'
import { hashInt } from './prng.ts'
import { linkLocalOf } from './render-guests.ts'

const MIB = 1024 ** 2
const DAY = 86_400

/** `result` of guest-get-fsinfo. */
export function renderFsinfo(cluster: SimClusterModel, g: SimGuest, p: GuestProfile): object[] {
  return p.os.family === 'windows' ? windowsVolumes(cluster, g, p) : linuxFilesystems(cluster, g, p)
}

// Root usage creeps up over the simulated days, as logs and packages accumulate.
function rootUsedFrac(cluster: SimClusterModel, p: GuestProfile): number {
  const days = Math.max(0, cluster.lastTickMs / 1000 - cluster.builtAtSec) / DAY
  return Math.min(0.97, p.rootFrac + p.rootGrowth * days)
}

function scsiDisk(dev: string, unit: number): object {
  return {
    'bus-type': 'scsi',
    bus: 0,
    target: 0,
    unit: 0,
    'pci-controller': { domain: 0, bus: 9, slot: 1 + unit, function: 0 },
    dev,
    serial: `drive-scsi${unit}`,
  }
}

function fs(
  name: string,
  mountpoint: string,
  type: string,
  used: number,
  total: number,
  disk: object[],
): object {
  return {
    name,
    mountpoint,
    type,
    'used-bytes': Math.round(used),
    'total-bytes': Math.round(total),
    disk,
  }
}

function linuxFilesystems(cluster: SimClusterModel, g: SimGuest, p: GuestProfile): object[] {
  const rhel = p.os.family === 'rhel'
  const efiSize = rhel ? 627_900_416 : p.os.family === 'ubuntu' ? 109_422_592 : 129_718_272
  const bootSize = rhel ? 1_063_256_064 : 0
  const rootTotal = (g.maxdisk - efiSize - bootSize) * 0.96
  const rootUsed = rootTotal * rootUsedFrac(cluster, p)
  const out: object[] = [
    rhel
      ? fs('dm-0', '/', 'xfs', rootUsed, rootTotal, [scsiDisk('/dev/sda3', 0)])
      : fs('sda1', '/', 'ext4', rootUsed, rootTotal, [scsiDisk('/dev/sda1', 0)]),
  ]
  if (rhel) out.push(fs('sda2', '/boot', 'xfs', 261_046_272, bootSize, [scsiDisk('/dev/sda2', 0)]))
  out.push(
    fs(rhel ? 'sda1' : 'sda15', '/boot/efi', 'vfat', 6_223_872, efiSize, [
      scsiDisk(rhel ? '/dev/sda1' : '/dev/sda15', 0),
    ]),
  )
  if (p.dataDisk > 0) {
    const total = p.dataDisk * 0.98
    out.push(
      fs('sdb1', p.dataMount, rhel ? 'xfs' : 'ext4', total * p.dataFrac, total, [
        scsiDisk('/dev/sdb1', 1),
      ]),
    )
  }
  if (p.extraMounts === 'snap') {
    // Snap packages are squashfs loop mounts: always 100% "full".
    out.push(fs('loop0', '/snap/core22/2133', 'squashfs', 77_463_552, 77_463_552, []))
    out.push(fs('loop1', '/snap/snapd/25202', 'squashfs', 52_297_728, 52_297_728, []))
  }
  if (p.extraMounts === 'docker') {
    // Each running container's overlay repeats the root filesystem's numbers.
    const count = 2 + (g.vmid % 3)
    for (let i = 0; i < count; i++) {
      const id = [0, 1, 2, 3, 4, 5, 6, 7]
        .map((k) => hashInt(g.vmid, i, k).toString(16).padStart(8, '0'))
        .join('')
      out.push(
        fs('overlay', `/var/lib/docker/overlay2/${id}/merged`, 'overlay', rootUsed, rootTotal, []),
      )
    }
  }
  return out
}

function windowsVolumes(cluster: SimClusterModel, g: SimGuest, p: GuestProfile): object[] {
  const uuid = (i: number): string => {
    const h = [0, 1, 2, 3].map((k) => hashInt(g.vmid, i, k).toString(16).padStart(8, '0')).join('')
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`
  }
  const volume = (i: number): string => `\\\\?\\Volume{${uuid(i)}}\\`
  const drive = (n: number): object[] => [
    { dev: `\\\\.\\PhysicalDrive${n}`, serial: `drive-scsi${n}` },
  ]
  const cTotal = g.maxdisk - 700 * MIB
  // "System Reserved" volumes (EFI, recovery) report no sizes at all.
  const out: object[] = [
    { name: volume(0), mountpoint: 'System Reserved', type: 'FAT32', disk: drive(0) },
    fs(volume(1), 'C:\\', 'NTFS', cTotal * rootUsedFrac(cluster, p), cTotal, drive(0)),
  ]
  if (p.dataDisk > 0) {
    const total = p.dataDisk * 0.99
    out.push(fs(volume(2), 'D:\\', 'NTFS', total * p.dataFrac, total, drive(1)))
  }
  out.push({ name: volume(3), mountpoint: 'System Reserved', type: 'NTFS', disk: drive(0) })
  return out
}

/** `result` of guest-network-get-interfaces. */
export function renderNetworkInterfaces(
  cluster: SimClusterModel,
  g: SimGuest,
  p: GuestProfile,
): object[] {
  const nowSec = Math.floor(cluster.lastTickMs / 1000)
  const uptime = Math.max(0, nowSec - g.startedAt)
  const loBytes = uptime * 38 + 6480
  const loStats = stats(loBytes, Math.round(loBytes / 77), loBytes, Math.round(loBytes / 77), 0)
  const addresses: object[] = [
    { 'ip-address-type': 'ipv4', 'ip-address': p.ipv4, prefix: p.prefix4 },
  ]
  if (p.ipv6 !== undefined)
    addresses.push({ 'ip-address-type': 'ipv6', 'ip-address': p.ipv6, prefix: 64 })
  addresses.push({ 'ip-address-type': 'ipv6', 'ip-address': linkLocalOf(p.mac), prefix: 64 })
  // The guest receives what the host counts as netin and sends what it counts as netout.
  const ethStats = stats(
    g.netin,
    Math.round(g.netin / 890),
    g.netout,
    Math.round(g.netout / 640),
    g.vmid % 7,
  )
  const eth = {
    name: p.nic,
    'hardware-address': p.mac,
    'ip-addresses': addresses,
    statistics: ethStats,
  }
  const loAddresses = [
    { 'ip-address-type': 'ipv4', 'ip-address': '127.0.0.1', prefix: 8 },
    { 'ip-address-type': 'ipv6', 'ip-address': '::1', prefix: 128 },
  ]
  if (p.os.family === 'windows') {
    // Windows lists its loopback last, without a hardware address.
    return [
      eth,
      {
        name: 'Loopback Pseudo-Interface 1',
        'ip-addresses': loAddresses.reverse(),
        statistics: loStats,
      },
    ]
  }
  return [
    {
      name: 'lo',
      'hardware-address': '00:00:00:00:00:00',
      'ip-addresses': loAddresses,
      statistics: loStats,
    },
    eth,
  ]
}

function stats(
  rx: number,
  rxPackets: number,
  tx: number,
  txPackets: number,
  dropped: number,
): object {
  return {
    'rx-bytes': rx,
    'rx-packets': rxPackets,
    'rx-errs': 0,
    'rx-dropped': rx > 0 ? dropped : 0,
    'tx-bytes': tx,
    'tx-packets': txPackets,
    'tx-errs': 0,
    'tx-dropped': 0,
  }
}

/** `result` of guest-get-osinfo. */
export function renderOsinfo(p: GuestProfile): object {
  const os = p.os
  const out: Record<string, string> = {
    id: os.id,
    'kernel-release': os.kernelRelease,
    'kernel-version': os.kernelVersion,
    machine: 'x86_64',
    name: os.name,
    'pretty-name': os.prettyName,
    version: os.version,
    'version-id': os.versionId,
  }
  if (os.variant !== undefined) {
    out.variant = os.variant
    out['variant-id'] = os.variant
  }
  return out
}
