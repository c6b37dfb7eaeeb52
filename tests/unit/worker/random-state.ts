// Seeded random live states for merge tests: each step changes, adds and removes entities.
import {
  createEmptyState,
  type Guest,
  type PveNode,
  type State,
} from '../../../src/shared/model/state.ts'
import { createRng } from '../../../src/server/sim/prng.ts'

/** Uniform [0, 1) numbers from the simulator's seeded generator (one PRNG in the project). */
export function createRandom(seed: number): () => number {
  return createRng(seed).next
}

function makeNode(i: number, random: () => number): PveNode {
  return {
    id: `lab-pve${i}`,
    name: `pve${i}`,
    displayName: `pve${i}`,
    host: `https://pve${i}:8006`,
    instance: 'lab',
    status: random() < 0.9 ? 'online' : 'offline',
    type: 'pve',
    uptime: Math.floor(random() * 1e6),
    cpu: random(),
    memory: { usage: random() * 100, used: 1, total: 2 },
    disk: { usage: random() * 100, used: 1, total: 2 },
    cpuInfo: { cores: 8 },
    pveVersion: 'pve-manager/8.3.1/x',
    isClusterMember: true,
    clusterName: 'lab',
  }
}

function makeGuest(vmid: number, random: () => number): Guest {
  const guest: Guest = {
    id: `lab-pve${vmid % 4}-${vmid}`,
    instance: 'lab',
    node: `pve${vmid % 4}`,
    vmid,
    name: `g${vmid}`,
    type: random() < 0.5 ? 'qemu' : 'lxc',
    status: random() < 0.8 ? 'running' : 'stopped',
    uptime: Math.floor(random() * 1e6),
    cpu: random(),
    cpus: 2,
    memory: { usage: random() * 100, used: 1, total: 2 },
    disk: { usage: random() * 100, used: 1, total: 2 },
    diskRead: Math.floor(random() * 1e6),
    diskWrite: Math.floor(random() * 1e6),
    networkIn: Math.floor(random() * 1e6),
    networkOut: Math.floor(random() * 1e6),
    tags: random() < 0.3 ? ['prod', 'web'] : [],
  }
  if (random() < 0.2) guest.lock = 'backup'
  return guest
}

function mutateGuest(guest: Guest, random: () => number): Guest {
  const next: Guest = { ...guest, cpu: random(), diskRead: Math.floor(random() * 1e6) }
  if (random() < 0.2) next.status = next.status === 'running' ? 'stopped' : 'running'
  if (random() < 0.2) next.memory = { ...next.memory, usage: random() * 100 }
  if (random() < 0.1) next.tags = random() < 0.5 ? ['db'] : []
  if (random() < 0.1) {
    if (next.lock) delete next.lock
    else next.lock = 'migrate'
  }
  return next
}

/** A first state and `steps` successors, all JSON-clean (no undefined fields). */
export function generateStates(seed: number, steps: number): State[] {
  const random = createRandom(seed)
  let nextVmid = 100
  const first = createEmptyState(1000, '1.0.0')
  first.nodes = [1, 2, 3, 4].map((i) => makeNode(i, random))
  first.vms = Array.from({ length: 30 }, () => makeGuest(nextVmid++, random))
  first.containers = Array.from({ length: 20 }, () => makeGuest(nextVmid++, random))
  const states = [first]
  for (let step = 1; step <= steps; step++) {
    const prev = states[step - 1]!
    const evolve = (list: Guest[]) => {
      const out: Guest[] = []
      for (const guest of list) {
        const roll = random()
        if (roll < 0.05) continue
        out.push(roll < 0.4 ? mutateGuest(guest, random) : guest)
      }
      if (random() < 0.5) out.push(makeGuest(nextVmid++, random))
      return out
    }
    const next: State = {
      ...prev,
      vms: evolve(prev.vms),
      containers: evolve(prev.containers),
      nodes:
        random() < 0.3
          ? prev.nodes.map((node) => (random() < 0.5 ? { ...node, cpu: random() } : node))
          : prev.nodes,
      lastUpdate: prev.lastUpdate + 2000,
      stats: random() < 0.5 ? { ...prev.stats, pollingCycles: step } : prev.stats,
    }
    states.push(next)
  }
  return states
}
