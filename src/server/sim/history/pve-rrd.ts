// Renders PVE `rrddata` answers: one object per step, oldest first, a missing sample an omitted key
// (an empty bucket is `{time}` alone), with the data sources of the cluster's PVE version. The
// values PVE derives or only PVE 9 keeps (netout, diskread, memhost, pressure, memavailable, arcsize)
// come from the recorded ones, so AVERAGE and MAX stay consistent field by field.

import type { SimClusterModel, SimGuest } from '../model.ts'
import { diurnalAt, inBackupWindow } from '../metrics.ts'
import { hash01 } from '../prng.ts'
import { consolidate } from './consolidate.ts'
import type { Consolidated } from './consolidate.ts'
import { dropsTrailingEmpty, pveLayout } from './layout.ts'
import type { Cf, Timeframe } from './layout.ts'
import { guestSource, nodeSource, storageSource } from './pve-sources.ts'

type Row = Record<string, number>

/** Answer of /nodes/{node}/rrddata. */
export function nodeRrd(cluster: SimClusterModel, i: number, tf: Timeframe, cf: Cf): Row[] {
  const node = cluster.nodes[i]!
  const v9 = cluster.version.major >= 9
  const zfs = (cluster.zfsPools[i]?.length ?? 0) > 0
  const netBase = 2e5 + hash01(cluster.seed, i, 91) * 5e7
  return render(cluster, nodeSource(cluster, i), tf, cf, (c, b, max, row) => {
    const v = (f: number): number => pick(c, f, b, max)
    const t = c.times[b]!
    const cpu = v(0)
    const memused = v(2)
    // Node traffic is not simulated live: a daily curve around the node's own level.
    const net = netBase * (1 + 0.4 * diurnalAt(t)) * (max ? 1.8 : 1)
    Object.assign(row, {
      loadavg: v(5),
      maxcpu: node.maxcpu,
      cpu,
      iowait: v(1),
      memtotal: node.maxmem,
      memused,
      swaptotal: node.swapTotal,
      swapused: v(3),
      roottotal: node.maxdisk,
      rootused: v(4),
      netin: net,
      netout: net * 0.6,
    })
    if (!v9) return
    // MAX of the available memory pairs with the average use: it never drops below AVERAGE.
    const avail = node.maxmem - pick(c, 2, b, false) * (max ? 0.99 : 1)
    Object.assign(row, {
      memavailable: avail,
      arcsize: zfs ? node.maxmem * 0.08 * (max ? 1.05 : 1) : 0,
      pressurecpusome: cpu * 10,
      pressureiosome: v(1) * 100,
      pressureiofull: v(1) * 80,
      pressurememorysome: Math.max(0, memused / node.maxmem - 0.8) * 10,
      pressurememoryfull: Math.max(0, memused / node.maxmem - 0.8) * 5,
    })
  })
}

/** Answer of /nodes/{node}/{qemu|lxc}/{vmid}/rrddata. */
export function guestRrd(cluster: SimClusterModel, g: SimGuest, tf: Timeframe, cf: Cf): Row[] {
  const v9 = cluster.version.major >= 9
  const step = pveLayout(cluster.version.major, tf)?.step ?? 60
  return render(cluster, guestSource(cluster, g), tf, cf, (c, b, max, row) => {
    const v = (f: number): number => pick(c, f, b, max)
    const t = c.times[b]!
    const cpu = v(0)
    const mem = v(1)
    const io = v(3)
    // vzdump reads more than it writes; over long buckets the mix averages out.
    const readShare = step > 3600 ? 0.75 : inBackupWindow(t) ? 1.5 : 0.6
    Object.assign(row, {
      maxcpu: g.maxcpu,
      cpu,
      maxmem: g.maxmem,
      mem,
      maxdisk: g.maxdisk,
      disk: g.type === 'lxc' ? g.disk : 0,
      netin: v(2),
      netout: v(2) * g.netRatio,
      diskread: io * readShare,
      diskwrite: io,
    })
    if (!v9) return
    if (g.type === 'qemu') row.memhost = Math.min(g.maxmem, mem * 1.04 + 32 * 1024 * 1024)
    const memSome = Math.max(0, mem / g.maxmem - 0.85) * 20
    Object.assign(row, {
      pressurecpusome: cpu * 4,
      pressurecpufull: cpu * 3,
      pressureiosome: Math.min(100, io / 5e7),
      pressureiofull: Math.min(100, io / 5.5e7),
      pressurememorysome: memSome,
      pressurememoryfull: memSome * 0.9,
    })
  })
}

/** Answer of /nodes/{node}/storage/{storage}/rrddata. */
export function storageRrd(
  cluster: SimClusterModel,
  si: number,
  n: number,
  tf: Timeframe,
  cf: Cf,
): Row[] {
  const total = cluster.storages[si]!.total[n] ?? 0
  return render(cluster, storageSource(cluster, si, n), tf, cf, (c, b, max, row) => {
    row.total = total
    row.used = pick(c, 0, b, max)
  })
}

function pick(c: Consolidated, f: number, b: number, max: boolean): number {
  return (max ? c.max : c.avg)[f]![b]!
}

function render(
  cluster: SimClusterModel,
  source: ReturnType<typeof guestSource>,
  tf: Timeframe,
  cf: Cf,
  fill: (c: Consolidated, b: number, max: boolean, row: Row) => void,
): Row[] {
  const layout = pveLayout(cluster.version.major, tf)!
  const nowSec = Math.floor(cluster.lastTickMs / 1000)
  const c = consolidate(source, cluster.history!, layout, nowSec)
  const rows: Row[] = []
  for (let b = 0; b < layout.points; b++) {
    const row: Row = { time: c.times[b]! }
    if (!Number.isNaN(c.avg[0]![b]!)) fill(c, b, cf === 'MAX', row)
    rows.push(row)
  }
  const last = rows[rows.length - 1]
  if (dropsTrailingEmpty(cluster.version.version) && last !== undefined) {
    if (Object.keys(last).length === 1) rows.pop()
  }
  return rows
}
