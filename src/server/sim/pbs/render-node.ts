// Host-level answers: /version and /nodes/localhost/status (reference §3.1, §3.6). Load follows
// the clock: a calm day, and a busy nightly window while backups, prune and GC run.

import { createHex, createRng } from '../prng.ts'
import type { PbsSimModel } from './model.ts'
import { DAY_SEC, hashUnit } from './schedule.ts'

/** Version of the simulated PBS: `version` is major.minor, `release` the patch level. */
export const PBS_VERSION = { version: '4.0', release: '14' } as const
const KERNEL = '6.14.8-2-pve'

/** GET /version. */
export function renderVersion(model: PbsSimModel): Record<string, unknown> {
  return { ...PBS_VERSION, repoid: createHex(createRng(model.seed), 40) }
}

/** True from 20:00 to 08:00 UTC: backups, verification, prune and GC run then. */
export function inBackupWindow(nowSec: number): boolean {
  const hour = Math.floor((nowSec % DAY_SEC) / 3600)
  return hour >= 20 || hour < 8
}

/** The host's gauges at `tSec`: they change every 10 s, busier in the backup window. */
export function nodeSampleAt(
  model: PbsSimModel,
  tSec: number,
): { cpu: number; wait: number; memUsed: number; swapUsed: number; load: number[] } {
  const { host } = model
  const busy = inBackupWindow(tSec)
  // Noise changes every 10 s bucket, so each tick reads a little differently.
  const noise = (salt: number): number => hashUnit(model.seed, Math.floor(tSec / 10), salt)
  const cpu = Math.min(1, (busy ? 0.22 : 0.03) + noise(1) * (busy ? 0.2 : 0.04))
  const load = (spread: number): number =>
    Math.round(host.cpus * cpu * (0.9 + noise(spread) * 0.2) * 100) / 100
  return {
    cpu,
    wait: busy ? 0.03 + noise(4) * 0.1 : noise(4) * 0.01,
    memUsed: Math.round(host.memTotal * ((busy ? 0.55 : 0.4) + noise(2) * 0.1)),
    swapUsed: Math.round(host.swapTotal * 0.01 * noise(3)),
    load: [load(5), load(6), load(7)],
  }
}

/** GET /nodes/localhost/status. */
export function renderNodeStatus(model: PbsSimModel, fingerprint: string): Record<string, unknown> {
  const { host } = model
  const { cpu, wait, memUsed, swapUsed, load } = nodeSampleAt(model, Math.floor(model.nowMs / 1000))
  return {
    cpu,
    wait,
    loadavg: load,
    memory: { total: host.memTotal, used: memUsed, free: host.memTotal - memUsed },
    swap: { total: host.swapTotal, used: swapUsed, free: host.swapTotal - swapUsed },
    root: { total: host.rootTotal, used: host.rootUsed, avail: host.rootTotal - host.rootUsed },
    uptime: Math.max(0, Math.floor((model.nowMs - host.bootMs) / 1000)),
    kversion: `Linux ${KERNEL} #1 SMP PREEMPT_DYNAMIC PMX ${KERNEL} (2025-07-22T10:04Z) x86_64`,
    'current-kernel': {
      sysname: 'Linux',
      release: KERNEL,
      version: `#1 SMP PREEMPT_DYNAMIC PMX ${KERNEL} (2025-07-22T10:04Z)`,
      machine: 'x86_64',
    },
    'boot-info': { mode: 'efi', secureboot: false },
    cpuinfo: { model: host.cpuModel, sockets: host.sockets, cpus: host.cpus },
    info: { fingerprint },
  }
}
