// Hand-made guest backup summaries (GuestBackup) for the coverage and guest backup views, and a
// seeded generator of random estates for the property tests and the bench.
import type { GuestBackup, JobRunState } from '../../../../src/shared/model/backup-health.ts'
import type { CoverageState } from '../../../../src/shared/model/backup-health.ts'

/** 2025-01-15 12:00 UTC, epoch ms: "now" of the tests. */
export const NOW = Date.UTC(2025, 0, 15, 12, 0, 0)
export const NOW_S = NOW / 1000
export const DAY = 86_400

export function makeGuestBackup(vmid: number, patch: Partial<GuestBackup> = {}): GuestBackup {
  return {
    id: `lab-pve1-${vmid}`,
    instance: 'lab',
    node: 'pve1',
    vmid,
    type: 'qemu',
    name: `vm-${vmid}`,
    template: false,
    orphaned: false,
    newest: NOW_S - 3600,
    newestSource: 'pbs',
    newestLocation: 'pbs-main:store1',
    newestSize: 2 * 1024 ** 3,
    count: 3,
    lastJob: { state: 'ok', time: NOW_S - 3600, taskId: `lab-UPID:${vmid}` },
    coverage: 'enabled',
    verifyFailed: 0,
    ...patch,
  }
}

/** A small deterministic PRNG (mulberry32). */
export function seeded(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const STATES: JobRunState[] = ['ok', 'ok', 'ok', 'ok', 'warning', 'failed', 'running', 'unknown']
const COVERAGE: CoverageState[] = ['enabled', 'enabled', 'enabled', 'disabled', 'none', 'unknown']

/** A random summary (about 5 % never backed up, 2 % orphaned, 2 % templates). */
export function randomGuestBackup(random: () => number, index: number, tag = 0): GuestBackup {
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!
  const orphaned = random() < 0.02
  const never = random() < 0.05
  const newest = never ? 0 : Math.floor(NOW_S - random() * 40 * DAY)
  const hasJob = random() < 0.9
  const vmid = 100 + index
  return {
    id: orphaned ? `orphan-lab-vm-${vmid}` : `lab-pve${index % 7}-${vmid}`,
    instance: 'lab',
    node: orphaned ? '' : `pve${index % 7}`,
    vmid,
    type: random() < 0.3 ? 'lxc' : 'qemu',
    name: orphaned ? '' : `guest-${Math.floor(random() * 1e6)}-${tag}`,
    template: !orphaned && random() < 0.02,
    orphaned,
    newest,
    ...(never ? {} : { newestSource: pick(['pve', 'pbs'] as const), newestLocation: 'local' }),
    newestSize: Math.floor(random() * 50 * 1024 ** 3),
    count: never ? 0 : 1 + Math.floor(random() * 20),
    ...(hasJob
      ? {
          lastJob: {
            state: pick(STATES),
            time: Math.floor(NOW_S - random() * 3 * DAY),
            taskId: `t-${index}`,
          },
        }
      : {}),
    coverage: orphaned ? 'unknown' : pick(COVERAGE),
    verifyFailed: 0,
  }
}

/** `count` random summaries. */
export function randomEstate(count: number, seed: number): GuestBackup[] {
  const random = seeded(seed)
  return Array.from({ length: count }, (_, i) => randomGuestBackup(random, i))
}
