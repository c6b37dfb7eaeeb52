// The synthetic past of each PVE resource, derived from the same hidden parameters that drive its
// live values (metrics.ts), so the curve joins the recorded minutes without a step: a guest's CPU
// follows its own daily wave and the estate's daily and weekly rhythm, memory sits at its target,
// network and disk I/O at their median rates (busier in the nightly backup window).

import type { SimClusterModel, SimGuest, SimStorage } from '../model.ts'
import { bendCpu, diurnalAt, guestCpuLevel, inBackupWindow, weekFactor } from '../metrics.ts'
import { hash01 } from '../prng.ts'
import { fillUsedAt } from './fill.ts'
import type { SeriesSource } from './consolidate.ts'
import { nodeUpAt } from './recorder.ts'

const DAY = 86_400
// Means of the live per-tick noise: lognormal(0.35) for CPU; lognormal(0.5) with 5 % bursts of
// 10x for network; lognormal(0.5) with 5 % bursts of 8x for disk writes.
const CPU_NOISE_MEAN = Math.exp(0.35 ** 2 / 2)
const NET_MEAN = 0.95 * Math.exp(0.125) + 0.05 * 10
const IO_MEAN = 0.95 * Math.exp(0.125) + 0.05 * 8
const CALM_MEMORY = 0.82
// Root filesystems grow about 1 kB/s on average (metrics.ts), down to half their size in the past.
const ROOT_GROWTH = 1000

/** The history source of a guest. */
export function guestSource(cluster: SimClusterModel, g: SimGuest): SeriesSource {
  const h = cluster.history!
  const slot = g.histSlot
  const calm = cluster.scenario !== undefined
  const memLevel = g.maxmem * g.memTarget * (calm ? CALM_MEMORY : 1)
  return {
    ring: slot >= 0 ? h.guests : undefined,
    slot,
    seed: cluster.seed ^ g.vmid,
    noise: [0.35, 0.02, 0.5, 0.6],
    spread: [0.6, 0.01, 1.5, 2],
    bound: [1, g.maxmem, Infinity, Infinity],
    synth(t, out) {
      if (slot < 0 || t < h.born[slot]! || (t >= h.downFrom[slot]! && t < h.downTo[slot]!))
        return false
      if (!nodeUpAt(h, g.node, t)) return false
      const cpu = guestCpuLevel(g, t, diurnalAt(t)) * CPU_NOISE_MEAN
      out[0] = Math.min(1, calm ? bendCpu(cpu) : cpu)
      out[1] = Math.min(g.maxmem, memLevel * (1 + 0.02 * diurnalAt(t)))
      out[2] = g.netRate * NET_MEAN * weekFactor(t)
      out[3] = g.diskRate * IO_MEAN * (inBackupWindow(t) ? 4 : 1)
      return true
    },
  }
}

/** The history source of node `i`: cpu, iowait, memused, swapused, rootused, loadavg. */
export function nodeSource(cluster: SimClusterModel, i: number): SeriesSource {
  const h = cluster.history!
  const node = cluster.nodes[i]!
  const calm = cluster.scenario !== undefined
  const nowSec = cluster.lastTickMs / 1000
  const memShare = Math.min(node.memTarget, calm ? CALM_MEMORY : 0.97)
  return {
    ring: h.nodes,
    slot: i,
    seed: cluster.seed ^ (0x6e0de * (i + 1)),
    noise: [0.15, 0.3, 0.01, 0.01, 0.001, 0.15],
    spread: [0.3, 1, 0.01, 0.005, 0.0005, 0.3],
    bound: [1, 1, node.maxmem, node.swapTotal, node.maxdisk, Infinity],
    synth(t, out) {
      if (!nodeUpAt(h, i, t)) return false
      const backup = inBackupWindow(t)
      const cpu = Math.min(
        1,
        node.cpuBase * (1 + 0.6 * diurnalAt(t)) * weekFactor(t) + (backup ? 0.2 : 0),
      )
      const wait = backup ? 0.085 : 0.005
      out[0] = cpu
      out[1] = wait
      out[2] = node.maxmem * memShare
      out[3] = node.swapUsed
      out[4] = Math.max(node.rootUsed / 2, node.rootUsed - ROOT_GROWTH * Math.max(0, nowSec - t))
      out[5] = node.maxcpu * cpu + (backup ? wait * 8 : 0)
      return true
    },
  }
}

/** The history source of storage index `si` as node `n` sees it: used bytes. */
export function storageSource(cluster: SimClusterModel, si: number, n: number): SeriesSource {
  const h = cluster.history!
  const storage = cluster.storages[si]!
  const total = storage.total[n] ?? 0
  const nodeSrc = storage.storage === 'local' ? nodeSource(cluster, n) : undefined
  const scratch = new Float64Array(6)
  const salt = hash01(cluster.seed, si, n) * 2 * Math.PI
  return {
    ring: h.storages,
    slot: si * cluster.nodes.length + n,
    seed: cluster.seed ^ (si * 131 + n),
    noise: [storage.fill !== undefined ? 0 : 0.001],
    spread: [0.0005],
    bound: [total],
    synth(t, out) {
      if (!nodeUpAt(h, n, t)) return false
      out[0] = pastUsed(storage, n, t, salt, nodeSrc, scratch)
      return true
    },
  }
}

function pastUsed(
  storage: SimStorage,
  n: number,
  t: number,
  salt: number,
  nodeSrc: SeriesSource | undefined,
  scratch: Float64Array,
): number {
  if (storage.fill !== undefined) return fillUsedAt(storage, n, t)
  if (nodeSrc !== undefined) {
    nodeSrc.synth(t, scratch)
    return scratch[4]!
  }
  // Flat with a slow wander of a few per mille around today's usage.
  const used = storage.used[n] ?? 0
  return Math.min(storage.total[n] ?? 0, used * (1 + 0.004 * Math.sin(t / (DAY / 2) + salt)))
}
