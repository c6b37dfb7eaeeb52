// Builders of guests and nodes for the guest pipeline tests.
import type { Guest, PveNode } from '../../../../src/shared/model/state.ts'
import {
  DEFAULT_GUEST_VIEW_REQUEST,
  type GuestViewRequest,
} from '../../../../src/shared/views/guest-view-types.ts'

export function makeNode(name: string, patch: Partial<PveNode> = {}): PveNode {
  const instance = patch.instance ?? 'lab'
  return {
    id: `${instance}-${name}`,
    name,
    displayName: name,
    host: `https://${name}:8006`,
    instance,
    status: 'online',
    type: 'pve',
    uptime: 86_400,
    cpu: 0.1,
    memory: { usage: 40, used: 40, total: 100 },
    disk: { usage: 10, used: 10, total: 100 },
    cpuInfo: { cores: 8 },
    pveVersion: 'pve-manager/8.3.1/abc',
    isClusterMember: true,
    clusterName: 'lab',
    ...patch,
  }
}

export function makeGuest(vmid: number, patch: Partial<Guest> = {}): Guest {
  const node = patch.node ?? 'pve1'
  const instance = patch.instance ?? 'lab'
  return {
    id: `${instance}-${node}-${vmid}`,
    instance,
    node,
    vmid,
    name: `guest-${vmid}`,
    type: 'qemu',
    status: 'running',
    uptime: 7200,
    cpu: 0.05,
    cpus: 2,
    memory: { usage: 50, used: 2 * 1024 ** 3, total: 4 * 1024 ** 3 },
    disk: { usage: 25, used: 8 * 1024 ** 3, total: 32 * 1024 ** 3 },
    diskRead: 0,
    diskWrite: 0,
    networkIn: 0,
    networkOut: 0,
    tags: [],
    ...patch,
  }
}

export function makeRequest(patch: Partial<GuestViewRequest> = {}): GuestViewRequest {
  return {
    ...DEFAULT_GUEST_VIEW_REQUEST,
    grouping: 'flat',
    window: { start: 0, count: 1000 },
    ...patch,
  }
}

/** Deterministic estate of `count` guests over `nodeCount` nodes. */
export function makeEstate(
  count: number,
  nodeCount: number,
): { guests: Guest[]; nodes: PveNode[] } {
  const nodes = Array.from({ length: nodeCount }, (_, i) => makeNode(`pve${i + 1}`))
  const guests: Guest[] = []
  for (let i = 0; i < count; i++) {
    guests.push(
      makeGuest(100 + i, {
        node: `pve${(i % nodeCount) + 1}`,
        name: `svc-${(i * 7919) % count}`,
        type: i % 3 === 0 ? 'lxc' : 'qemu',
        status: i % 5 === 0 ? 'stopped' : 'running',
        cpu: ((i * 37) % 100) / 100,
        tags: i % 4 === 0 ? ['prod'] : [],
      }),
    )
  }
  return { guests, nodes }
}
