// The storages of a cluster (reference §6.3), sized from its hardware: `local` on the root
// filesystem, local-lvm or local-zfs plus a `tank` pool on ZFS nodes, Ceph's rbd and cephfs on the
// Ceph cluster, and optional NFS and PBS backup targets.

import type { Rng } from './prng.ts'
import type { SimNode, SimStorage } from './model.ts'
import type { ClusterHardware, ClusterPlan } from './build-hardware.ts'

const TIB = 1024 ** 4

/** Builds the storage list; `local` stays first (metrics keep its usage in sync with rootfs). */
export function buildStorages(
  rng: Rng,
  nodes: SimNode[],
  plan: ClusterPlan,
  hardware: ClusterHardware,
  ceph: SimStorage[],
): SimStorage[] {
  const perNode = (f: (node: SimNode) => number): number[] => nodes.map(f)
  const same = (v: number): number[] => nodes.map(() => v)
  const usedOf = (total: number, lo: number, hi: number): number[] =>
    perNode(() => Math.round(total * rng.range(lo, hi)))
  const storages: SimStorage[] = [
    {
      storage: 'local',
      plugintype: 'dir',
      content: 'iso,vztmpl,backup',
      shared: 0,
      total: perNode((n) => n.maxdisk),
      used: perNode((n) => n.rootUsed),
    },
  ]
  const boot = hardware.bootUsable
  if (plan.zfs) {
    storages.push({
      storage: 'local-zfs',
      plugintype: 'zfspool',
      content: 'images,rootdir',
      shared: 0,
      total: same(boot),
      used: usedOf(boot, 0.2, 0.6),
      pool: 'rpool',
    })
    storages.push({
      storage: 'tank',
      plugintype: 'zfspool',
      content: 'images,rootdir',
      shared: 0,
      total: same(hardware.tankUsable),
      used: usedOf(hardware.tankUsable, 0.3, 0.75),
      pool: 'tank',
    })
  } else {
    storages.push({
      storage: 'local-lvm',
      plugintype: 'lvmthin',
      content: 'rootdir,images',
      shared: 0,
      total: same(boot),
      used: usedOf(boot, 0.3, 0.7),
    })
  }
  storages.push(...ceph)
  if (plan.nas) {
    const total = rng.int(2, 50) * TIB
    storages.push({
      storage: 'nas-backup',
      plugintype: 'nfs',
      content: 'backup,iso,vztmpl',
      shared: 1,
      total: same(total),
      used: same(Math.round(total * rng.range(0.3, 0.8))),
    })
  }
  if (plan.pbs) {
    const total = rng.int(4, 200) * TIB
    storages.push({
      storage: 'pbs-main',
      plugintype: 'pbs',
      content: 'backup',
      shared: 1,
      total: same(total),
      used: same(Math.round(total * rng.range(0.3, 0.85))),
    })
  }
  return storages
}
