// pollPveSlow's real collectors over one simulated hour on an injected clock, at a 10 s and a
// 60 s poll interval: each part runs on its interval in time, not every N cycles. `call` replays
// data (recorded captures where they exist, the documented shapes of reference/proxmox-api.md
// otherwise) and notes when each path was asked; it stands in for none of our own code.
import { describe, expect, it } from 'vitest'
import {
  createPveSlowMemory,
  pollPveSlow,
  type PveSlowContext,
} from '../../../../src/server/collect/pve-slow.ts'
import { readFixture } from './fixtures.ts'

const T0 = 1_760_000_000_000
const MINUTE = 60_000
const HOUR = 60 * MINUTE

const STORAGE = [
  {
    storage: 'local',
    type: 'dir',
    content: 'backup,iso',
    active: 1,
    enabled: 1,
    total: 100,
    used: 10,
    avail: 90,
  },
  {
    storage: 'ceph-vm',
    type: 'rbd',
    content: 'images',
    shared: 1,
    active: 1,
    enabled: 1,
    total: 100,
    used: 10,
    avail: 90,
  },
  {
    storage: 'tank',
    type: 'zfspool',
    content: 'images',
    active: 1,
    enabled: 1,
    total: 100,
    used: 10,
    avail: 90,
  },
]
const ANSWERS: Record<string, () => unknown> = {
  '/nodes/pve1/storage': () => STORAGE,
  '/storage': () => [{ storage: 'tank', type: 'zfspool', pool: 'tank' }],
  '/nodes/pve1/disks/zfs': () => [
    { name: 'tank', size: 100, alloc: 10, free: 90, frag: 0, dedup: 1, health: 'ONLINE' },
  ],
  '/nodes/pve1/disks/zfs/tank': () => ({ name: 'tank', state: 'ONLINE', children: [] }),
  '/cluster/ceph/status': () => readFixture('ceph-status__go-proxmox-pve8-reef.json'),
  '/nodes/pve1/ceph/pool': () => [],
  '/nodes/pve1/disks/list': () => readFixture('disks-list__community-proxmox-ceph-osd.json'),
  '/nodes/pve1/disks/smart': () => ({ type: 'text', text: '' }),
  '/nodes/pve1/tasks': () => [],
  '/nodes/pve1/storage/local/content': () => [],
  '/nodes/pve1/qemu/100/snapshot': () => [],
}
// The path that marks one run of each collector.
const MARKERS = {
  storage: '/nodes/pve1/storage',
  ceph: '/cluster/ceph/status',
  zfs: '/nodes/pve1/disks/zfs',
  backups: '/nodes/pve1/storage/local/content',
  tasks: '/nodes/pve1/tasks',
  disks: '/nodes/pve1/disks/list',
  smart: '/nodes/pve1/disks/smart',
  snapshots: '/nodes/pve1/qemu/100/snapshot',
} as const

// Runs one hour of cycles; returns per marker the distinct offsets (ms from T0) it was asked at.
async function runHour(pollIntervalMs: number): Promise<Record<keyof typeof MARKERS, number[]>> {
  const asked = new Map<string, Set<number>>()
  let now = T0
  const memory = createPveSlowMemory()
  const call: PveSlowContext['call'] = async (path) => {
    const answer = ANSWERS[path]
    if (!answer) throw new Error(`unexpected ${path}`)
    let times = asked.get(path)
    if (!times) asked.set(path, (times = new Set()))
    times.add(now - T0)
    return answer()
  }
  for (now = T0; now < T0 + HOUR; now += pollIntervalMs) {
    await pollPveSlow({
      instance: 'lab',
      call,
      nodes: [{ name: 'pve1', online: true }],
      guests: [{ vmid: 100, node: 'pve1', type: 'qemu' }],
      resources: [],
      memory,
      now,
      pollIntervalMs,
      warn: () => {},
    })
  }
  const out = {} as Record<keyof typeof MARKERS, number[]>
  for (const [name, path] of Object.entries(MARKERS)) {
    out[name as keyof typeof MARKERS] = [...(asked.get(path) ?? [])]
  }
  return out
}

function every(stepMs: number): number[] {
  return Array.from({ length: Math.ceil(HOUR / stepMs) }, (_, i) => i * stepMs)
}

describe('pollPveSlow: cadences in time', () => {
  it('runs the disks collector every 5 min at a 60 s poll interval, not every 30 min', async () => {
    const runs = await runHour(60_000)
    expect(runs.disks).toEqual(every(5 * MINUTE))
  })

  it('still runs the disks collector every 5 min at a 10 s poll interval', async () => {
    const runs = await runHour(10_000)
    expect(runs.disks).toEqual(every(5 * MINUTE))
  })

  it('runs every collector on its interval at a 10 s poll interval (the old cycle counts)', async () => {
    const runs = await runHour(10_000)
    expect(runs.storage).toEqual(every(10_000))
    expect(runs.ceph).toEqual(every(30_000))
    expect(runs.zfs).toEqual(every(MINUTE))
    expect(runs.backups).toEqual(every(MINUTE))
    expect(runs.tasks).toEqual(every(MINUTE))
    expect(runs.snapshots).toEqual(every(5 * MINUTE))
    expect(runs.smart).toEqual(every(30 * MINUTE))
  })

  it('runs every collector on its interval at a 60 s poll interval, never more often than a cycle', async () => {
    const runs = await runHour(60_000)
    expect(runs.storage).toEqual(every(MINUTE))
    expect(runs.ceph).toEqual(every(MINUTE))
    expect(runs.zfs).toEqual(every(MINUTE))
    expect(runs.backups).toEqual(every(MINUTE))
    expect(runs.tasks).toEqual(every(MINUTE))
    expect(runs.snapshots).toEqual(every(5 * MINUTE))
    expect(runs.smart).toEqual(every(30 * MINUTE))
  })
})
