// Renders /nodes/{n}/storage, /storage/{s}/status and /storage/{s}/content from the same storage
// numbers /cluster/resources shows, with backup volumes from the backup model and a few ISO
// images and container templates (which a backup collector must skip).

import type { SimClusterModel, SimStorage } from './model.ts'
import { hash01, hashInt } from './prng.ts'
import { findStore, isProtected } from './backups.ts'
import type { BackupSeries, BackupStore } from './backups.ts'
import { guestProfile, rootFraction } from './guest-profile.ts'
import { formatUpid } from './tasks.ts'
import type { Slicer } from './slices.ts'

/** Content types PVE storages know. */
export const CONTENT_TYPES = [
  'images',
  'rootdir',
  'vztmpl',
  'iso',
  'backup',
  'snippets',
  'import',
] as const

const ISOS = [
  ['debian-12.11.0-amd64-netinst.iso', 663_748_608],
  ['ubuntu-24.04.3-live-server-amd64.iso', 3_213_064_192],
  ['virtio-win-0.1.271.iso', 709_656_576],
  ['Rocky-9.6-x86_64-minimal.iso', 2_007_367_680],
  ['SERVER_EVAL_x64FRE_en-us.iso', 5_397_889_024],
  ['proxmox-backup-server_4.0-1.iso', 1_468_006_400],
] as const
const TEMPLATES = [
  ['debian-12-standard_12.7-1_amd64.tar.zst', 126_697_032, 'tzst'],
  ['ubuntu-24.04-standard_24.04-2_amd64.tar.zst', 141_561_600, 'tzst'],
  ['alpine-3.22-default_20250617_amd64.tar.xz', 3_123_480, 'txz'],
  ['rockylinux-9-default_20240912_amd64.tar.xz', 103_170_236, 'txz'],
] as const

/** One storage as /nodes/{n}/storage lists it. `local` keeps ext4's 5% root reserve out of avail. */
export function renderStorageEntry(s: SimStorage, node: number): Record<string, unknown> {
  const total = s.total[node] ?? 0
  const used = s.used[node] ?? 0
  const reserve = s.plugintype === 'dir' && s.storage === 'local' ? Math.round(total * 0.05) : 0
  return {
    storage: s.storage,
    type: s.plugintype,
    content: s.content,
    active: 1,
    enabled: 1,
    shared: s.shared,
    total,
    used,
    avail: Math.max(0, total - used - reserve),
    used_fraction: total > 0 ? used / total : 0,
  }
}

/** `data` of GET /nodes/{n}/storage with its `content`, `storage` and `enabled` filters. */
export function renderStorageList(
  cluster: SimClusterModel,
  node: number,
  filter: { content?: string[]; storage?: string },
): object[] {
  return cluster.storages
    .filter((s) => filter.storage === undefined || s.storage === filter.storage)
    .filter(
      (s) =>
        filter.content === undefined ||
        filter.content.some((c) => s.content.split(',').includes(c)),
    )
    .map((s) => renderStorageEntry(s, node))
}

/** `data` of GET /nodes/{n}/storage/{s}/status. */
export function renderStorageStatus(s: SimStorage, node: number): object {
  const { storage: _name, used_fraction: _fraction, ...rest } = renderStorageEntry(s, node)
  return rest
}

/**
 * `data` of GET /nodes/{n}/storage/{s}/content, optionally filtered by content type and vmid; in
 * slices (slices.ts), as a backup store can hold the volumes of thousands of guests.
 */
export async function renderContentSliced(
  cluster: SimClusterModel,
  s: SimStorage,
  node: number,
  content: string | undefined,
  vmid: number | undefined,
  slicer: Slicer,
): Promise<object[]> {
  const out: Record<string, unknown>[] = []
  for (const _ of contentSteps(cluster, s, node, content, vmid, out))
    if (slicer.due()) await slicer.pause()
  return sortByVolid(out)
}

const sortByVolid = (out: Record<string, unknown>[]): Record<string, unknown>[] =>
  out.sort((a, b) => (String(a.volid) < String(b.volid) ? -1 : 1))

// Fills `out`, yielding after each guest's backup volumes. What it reads is taken when it starts
// (the backup series, their times, the clock), so a tick between two steps changes nothing.
function* contentSteps(
  cluster: SimClusterModel,
  s: SimStorage,
  node: number,
  content: string | undefined,
  vmid: number | undefined,
  out: Record<string, unknown>[],
): Generator<void> {
  const types = s.content.split(',')
  const wants = (t: string): boolean =>
    types.includes(t) && (content === undefined || content === t)
  const store = wants('backup') ? findStore(cluster, s.storage, node) : undefined
  const backups = store !== undefined ? backupSeries(store, vmid) : []
  const nowSec = Math.floor(cluster.lastTickMs / 1000)
  const others: Record<string, unknown>[] = []
  if (vmid === undefined && wants('iso')) others.push(...staticVolumes(cluster, s, 'iso'))
  if (vmid === undefined && wants('vztmpl')) others.push(...staticVolumes(cluster, s, 'vztmpl'))
  if (wants('images') || wants('rootdir'))
    others.push(...guestVolumes(cluster, s, node, content, vmid))
  for (const [series, times] of backups) {
    for (const t of times) out.push(backupVolume(cluster, store!, series, t, nowSec))
    yield
  }
  out.push(...others)
}

function backupSeries(
  store: BackupStore,
  vmid: number | undefined,
): (readonly [BackupSeries, readonly number[]])[] {
  const series =
    vmid !== undefined
      ? [store.series.get(vmid)].filter((x) => x !== undefined)
      : [...store.series.values()]
  return series.map((x) => [x, x.times.slice()] as const)
}

function backupVolume(
  cluster: SimClusterModel,
  store: BackupStore,
  series: BackupSeries,
  ctime: number,
  nowSec: number,
): Record<string, unknown> {
  const h = hash01(cluster.seed, series.vmid, ctime, 13)
  const qemu = series.type === 'qemu'
  const pbs = store.plugintype === 'pbs'
  const e: Record<string, unknown> = pbs
    ? {
        volid: `${store.storage}:backup/${qemu ? 'vm' : 'ct'}/${series.vmid}/${new Date(ctime * 1000).toISOString().slice(0, 19)}Z`,
        content: 'backup',
        format: qemu ? 'pbs-vm' : 'pbs-ct',
        // A PBS VM snapshot reports the full logical image size, whatever is in use.
        size: qemu
          ? series.logical + (hashInt(series.vmid, ctime) % 4_194_304)
          : Math.round(series.typical * (0.95 + h * 0.1)),
      }
    : {
        volid: `${store.storage}:backup/vzdump-${series.type}-${series.vmid}-${vzdumpStamp(ctime)}.${qemu ? 'vma.zst' : 'tar.zst'}`,
        content: 'backup',
        format: qemu ? 'vma.zst' : 'tar.zst',
        size: Math.round(series.typical * (0.9 + h * 0.2)),
      }
  e.ctime = ctime
  e.vmid = series.vmid
  e.subtype = series.type
  // The job's notes-template is {{guestname}}; hand-made backups mostly have none.
  if (hash01(cluster.seed, series.vmid, ctime, 14) < 0.9) e.notes = series.name
  if (isProtected(cluster.seed, series.vmid, ctime)) e.protected = 1
  if (pbs) {
    const verification = verificationOf(cluster, store, series.vmid, ctime, nowSec)
    if (verification !== undefined) e.verification = verification
    if (series.encryption !== undefined) e.encrypted = series.encryption
  }
  return e
}

// The weekly PBS verify job reaches a snapshot a day or so after it was made; ~1% fail.
function verificationOf(
  cluster: SimClusterModel,
  store: BackupStore,
  vmid: number,
  ctime: number,
  nowSec: number,
): object | undefined {
  const verifiedAt =
    ctime + 20 * 3600 + Math.floor(hash01(cluster.seed, vmid, ctime, 15) * 5 * 86_400)
  if (verifiedAt > nowSec) return undefined
  const v = hash01(cluster.seed, vmid, ctime, 12)
  if (v >= 0.85) return undefined
  const pid = 0x1000 + (hashInt(cluster.seed, verifiedAt, 16) % 0xffff)
  const upid = formatUpid(
    'pbs01',
    pid,
    0x01f00d,
    verifiedAt,
    'verificationjob',
    String.raw`store1\x3av\x2dweekly`,
    'root@pam',
  )
  return { state: v < 0.012 ? 'failed' : 'ok', upid }
}

function vzdumpStamp(sec: number): string {
  const iso = new Date(sec * 1000).toISOString()
  return `${iso.slice(0, 10).replace(/-/g, '_')}-${iso.slice(11, 19).replace(/:/g, '_')}`
}

function staticVolumes(
  cluster: SimClusterModel,
  s: SimStorage,
  kind: 'iso' | 'vztmpl',
): Record<string, unknown>[] {
  const salt = s.storage.length * 31 + (kind === 'iso' ? 1 : 2)
  const out: Record<string, unknown>[] = []
  const list = kind === 'iso' ? ISOS.map(([n, size]) => [n, size, 'iso'] as const) : TEMPLATES
  list.forEach(([file, size, format], i) => {
    if (hash01(cluster.seed, salt, i) < 0.45) return
    out.push({
      volid: `${s.storage}:${kind}/${file}`,
      content: kind,
      format,
      size,
      ctime: cluster.builtAtSec - 86_400 * (20 + (hashInt(cluster.seed, salt, i) % 400)),
    })
  })
  return out
}

// Guest disks on image storages: local ones hold the disks of their node's guests.
function guestVolumes(
  cluster: SimClusterModel,
  s: SimStorage,
  node: number,
  content: string | undefined,
  vmid: number | undefined,
): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = []
  const guests =
    vmid !== undefined ? [cluster.byVmid.get(vmid)].filter((g) => g !== undefined) : cluster.guests
  for (const g of guests) {
    if (s.shared === 0 && g.node !== node) continue
    const kind = g.type === 'qemu' ? 'images' : 'rootdir'
    if (content !== undefined && content !== kind) continue
    if (guestProfile(cluster, g).diskStorage !== s.storage) continue
    const subvol = g.type === 'lxc' && s.plugintype === 'zfspool'
    const name =
      g.template === 1 ? `base-${g.vmid}-disk-0` : `${subvol ? 'subvol' : 'vm'}-${g.vmid}-disk-0`
    const e: Record<string, unknown> = {
      volid: `${s.storage}:${name}`,
      content: kind,
      format: subvol ? 'subvol' : 'raw',
      size: g.maxdisk,
      vmid: g.vmid,
    }
    if (s.plugintype === 'lvmthin' || s.plugintype === 'zfspool') {
      e.used =
        g.type === 'lxc'
          ? Math.max(g.disk, Math.round(g.maxdisk * 0.1))
          : Math.round(g.maxdisk * rootFraction(cluster, g.vmid))
    }
    out.push(e)
  }
  return out
}
