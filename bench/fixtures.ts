// Seeded, realistic live states for the benchmarks: clusters of 16 nodes, ~250 guests per node.
import type { StateDelta } from '../src/shared/model/messages.ts'
import {
  createEmptyState,
  type Guest,
  type PveNode,
  type State,
} from '../src/shared/model/state.ts'
import { createRng } from '../src/server/sim/prng.ts'
import type { GuestViewInput } from '../src/shared/views/guest-view.ts'
import type { StateStore } from '../src/worker/store.ts'

/** Uniform [0, 1) numbers from the simulator's seeded generator (one PRNG in the project). */
export function createRandom(seed: number): () => number {
  return createRng(seed).next
}

const ROLES = ['web', 'db', 'cache', 'api', 'worker', 'mail', 'dns', 'proxy', 'ci', 'backup']
const TAGS = ['production', 'staging', 'development', 'backup', 'web', 'db', 'eu', 'us', 'k8s']
const GIB = 1024 ** 3

function pick<T>(random: () => number, list: readonly T[]): T {
  return list[Math.floor(random() * list.length)]!
}

function makeNode(instance: string, index: number, random: () => number): PveNode {
  const name = `${instance}-pve${index + 1}`
  const online = random() > 0.02
  return {
    id: `${instance}-${name}`,
    name,
    displayName: name,
    host: `https://${name}.example.com:8006`,
    instance,
    status: online ? 'online' : 'offline',
    type: 'pve',
    uptime: online ? Math.floor(random() * 5e6) + 1 : 0,
    cpu: random(),
    memory: { usage: random() * 100, used: 200 * GIB, total: 512 * GIB },
    disk: { usage: random() * 100, used: 100 * GIB, total: 1000 * GIB },
    cpuInfo: { cores: 64, model: 'AMD EPYC 7543', sockets: 2 },
    pveVersion: 'pve-manager/8.3.1/fb48e850',
    isClusterMember: true,
    clusterName: instance,
  }
}

function makeGuest(node: PveNode, vmid: number, random: () => number): Guest {
  const running = random() < 0.8
  const type = random() < 0.6 ? 'qemu' : 'lxc'
  const memTotal = pick(random, [1, 2, 4, 8, 16, 32]) * GIB
  const memUsage = running ? random() * 100 : 0
  const diskTotal = pick(random, [8, 16, 32, 64, 128]) * GIB
  const diskUsage = random() < 0.05 ? -1 : random() * 100
  const tags: string[] = []
  if (random() < 0.6) tags.push(pick(random, TAGS))
  if (random() < 0.3) tags.push(pick(random, TAGS))
  return {
    id: `${node.instance}-${node.name}-${vmid}`,
    instance: node.instance,
    node: node.name,
    vmid,
    name: `${pick(random, ROLES)}-${vmid.toString(36)}`,
    type,
    status: running ? 'running' : 'stopped',
    uptime: running ? Math.floor(random() * 3e6) : 0,
    cpu: running ? random() * random() : 0,
    cpus: pick(random, [1, 2, 4, 8]),
    memory: { usage: memUsage, used: (memTotal * memUsage) / 100, total: memTotal },
    disk: {
      usage: diskUsage,
      used: diskUsage < 0 ? 0 : (diskTotal * diskUsage) / 100,
      total: diskTotal,
    },
    diskRead: running ? Math.floor(random() * 20e6) : 0,
    diskWrite: running ? Math.floor(random() * 20e6) : 0,
    networkIn: running ? Math.floor(random() * 5e6) : 0,
    networkOut: running ? Math.floor(random() * 5e6) : 0,
    tags,
    template: false,
    lastSeen: 1_760_000_000_000,
  }
}

/** An estate of `guestCount` guests, `guestsPerNode` per node (100k guests = 1,000 nodes), 16 nodes per cluster. */
export function createEstate(guestCount: number, seed = 1, guestsPerNode = 100): State {
  const random = createRandom(seed)
  const state = createEmptyState(1_760_000_000_000, 'bench')
  const nodeCount = Math.max(1, Math.ceil(guestCount / guestsPerNode))
  for (let i = 0; i < nodeCount; i++) {
    state.nodes.push(makeNode(`cluster${Math.floor(i / 16) + 1}`, i % 16, random))
  }
  for (let i = 0; i < guestCount; i++) {
    const guest = makeGuest(state.nodes[i % nodeCount]!, 100 + i, random)
    ;(guest.type === 'qemu' ? state.vms : state.containers).push(guest)
  }
  state.lastUpdate = 1_760_000_000_000
  return state
}

/** A delta in which `fraction` of the guests changed cpu, memory, I/O (and uptime), as a poll produces. */
export function createMetricsDelta(
  state: State,
  fraction: number,
  random: () => number,
): StateDelta {
  const pickChanged = (guests: Guest[]) => {
    const rows: Array<{ id: string } & Record<string, unknown>> = []
    for (const guest of guests) {
      if (random() >= fraction) continue
      const usage = random() * 100
      rows.push({
        id: guest.id,
        ...(guest.status === 'running' ? { uptime: guest.uptime + 10 } : {}),
        cpu: random() * random(),
        memory: { ...guest.memory, usage, used: (guest.memory.total * usage) / 100 },
        diskRead: Math.floor(random() * 20e6),
        diskWrite: Math.floor(random() * 20e6),
        networkIn: Math.floor(random() * 5e6),
        networkOut: Math.floor(random() * 5e6),
      })
    }
    return rows
  }
  return {
    upsert: { vms: pickChanged(state.vms), containers: pickChanged(state.containers) },
    scalars: { lastUpdate: state.lastUpdate + 10_000 },
  }
}

/** The guest view's input from a worker store, as the worker's guests view kind builds it. */
export function guestViewInput(store: StateStore): GuestViewInput {
  return {
    guests: store.getGuests(),
    nodes: store.getNodes(),
    alerts: store.getCollection('activeAlerts'),
    lastUpdate: store.getLastUpdate(),
    stamp: store.getGuestStamp(),
    live: store.getGuestColumns(),
  }
}
