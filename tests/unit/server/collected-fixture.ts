// Synthetic poll results for hub and live-state tests: deterministic, changing with `tick`.
import type { CollectedState } from '../../../src/server/collect/poller.ts'
import type { Guest, PveNode } from '../../../src/shared/model/state.ts'

/** A poll result with `guests` guests on 2 nodes; metrics depend on `tick`, some guests come and go. */
export function makeCollected(guests: number, tick: number, pad = 0): CollectedState {
  const nodes: PveNode[] = ['pve1', 'pve2'].map((name, i) => ({
    id: `lab-${name}`,
    name,
    displayName: name,
    host: 'https://127.0.0.1:8006',
    instance: 'lab',
    status: 'online',
    type: 'pve',
    uptime: 1000 + tick * 10,
    cpu: ((tick + i) % 10) / 10,
    memory: { usage: 50, used: 50, total: 100 },
    disk: { usage: 10, used: 10, total: 100 },
    cpuInfo: { cores: 8 },
    pveVersion: 'pve-manager/8.4.14/abc',
    isClusterMember: true,
    clusterName: 'lab',
  }))
  const vms: Guest[] = []
  const containers: Guest[] = []
  for (let i = 0; i < guests; i++) {
    // Every 7th guest disappears on odd ticks: exercises removals and re-adds.
    if (i % 7 === 3 && tick % 2 === 1) continue
    const node = nodes[i % 2]!.name
    const guest: Guest = {
      id: `lab-${node}-${100 + i}`,
      instance: 'lab',
      node,
      vmid: 100 + i,
      // With padding the name changes every tick, so deltas are as large as full frames.
      name: pad ? `guest-${i}-${tick}` + 'x'.repeat(pad) : `guest-${i}`,
      type: i % 3 === 0 ? 'lxc' : 'qemu',
      status: i % 5 === 0 ? 'stopped' : 'running',
      uptime: 100 + tick * 10,
      cpu: ((i * 7 + tick) % 100) / 100,
      cpus: 2,
      memory: { usage: (i + tick) % 100, used: 1, total: 2 },
      disk: { usage: -1, used: 0, total: 10 },
      diskRead: tick * i,
      diskWrite: 0,
      networkIn: i,
      networkOut: tick,
      tags: tick % 3 === 0 ? ['prod'] : ['prod', 'db'],
    }
    if (tick % 4 === 0) guest.lock = 'backup'
    ;(guest.type === 'lxc' ? containers : vms).push(guest)
  }
  return {
    nodes,
    vms,
    containers,
    storage: [],
    cephClusters: [],
    physicalDisks: [],
    storageBackups: [],
    guestSnapshots: [],
    backupTasks: [],
    backupJobs: [],
    backupCoverage: [],
    pbs: [],
    pbsBackups: [],
    pbsJobs: [],
    performance: {
      apiCallDuration: {},
      lastPollDuration: 0.1,
      pollingStartTime: tick,
      totalApiCalls: tick,
      failedApiCalls: 0,
      cacheHits: 0,
      cacheMisses: 0,
    },
    connectionHealth: { lab: true },
    connectionErrors: {},
    lastUpdate: 1_700_000_000_000 + tick * 10_000,
    pollingCycles: tick,
    backupsCollected: true,
    backupsPending: [],
  }
}
