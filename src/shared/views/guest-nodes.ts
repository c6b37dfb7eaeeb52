// Parent nodes of guests: node health (spec 000 §4), guest activity and group headers.
import type { Guest, PveNode } from '../model/state.ts'
import { parsePveMajor } from './guest-detail.ts'

/** What the guest pipeline needs to know about a guest's parent node. */
export interface GuestNodeInfo {
  /** Node id (`<instance>-<name>`), or that form synthesised for a node not in the state. */
  id: string
  name: string
  label: string
  /** Cluster name, or the instance for a standalone node. */
  sublabel: string
  online: boolean
  /** Major PVE version ('pve-manager/9.0.3/…' → 9) for the disk permission hint, if known. */
  pveMajor?: number
}

/** Nodes indexed by instance then name, so a lookup per guest allocates no string. */
export interface GuestNodeIndex {
  byInstance: Map<string, Map<string, GuestNodeInfo>>
  byName: Map<string, GuestNodeInfo>
  byId: Map<string, GuestNodeInfo>
  /** Which guests map to which node ids: changes only when a node is added, removed or renamed. */
  signature: string
}

/** A hypervisor node is online if its status is online and its uptime > 0. */
export function isNodeOnline(node: Pick<PveNode, 'status' | 'uptime'>): boolean {
  return node.status === 'online' && node.uptime > 0
}

/** Index nodes for guest lookups. */
export function indexGuestNodes(nodes: readonly PveNode[]): GuestNodeIndex {
  const byInstance = new Map<string, Map<string, GuestNodeInfo>>()
  const byName = new Map<string, GuestNodeInfo>()
  const byId = new Map<string, GuestNodeInfo>()
  const keys: string[] = []
  for (const node of nodes) {
    const info: GuestNodeInfo = {
      id: node.id,
      name: node.name,
      label: node.displayName || node.name,
      sublabel: node.isClusterMember && node.clusterName ? node.clusterName : node.instance,
      online: isNodeOnline(node),
      pveMajor: parsePveMajor(node.pveVersion),
    }
    let names = byInstance.get(node.instance)
    if (!names) byInstance.set(node.instance, (names = new Map()))
    names.set(node.name, info)
    if (!byName.has(node.name)) byName.set(node.name, info)
    byId.set(node.id, info)
    keys.push(`${node.instance}\u0000${node.name}\u0000${node.id}`)
  }
  return { byInstance, byName, byId, signature: keys.join('\n') }
}

/** The guest's parent node, matched by instance and name, else by name alone; undefined if unknown. */
export function findGuestNode(
  index: GuestNodeIndex,
  guest: Pick<Guest, 'instance' | 'node'>,
): GuestNodeInfo | undefined {
  return index.byInstance.get(guest.instance)?.get(guest.node) ?? index.byName.get(guest.node)
}

/**
 * Active only if running and the parent node is online. A guest whose node is not (yet) in the
 * state is judged by its status alone, so a missing nodes collection does not dim the whole table.
 */
export function isGuestActive(
  guest: Pick<Guest, 'status'>,
  node: GuestNodeInfo | undefined,
): boolean {
  return guest.status === 'running' && (node?.online ?? true)
}

/** Node info for a guest whose node is not in the state (grouped under a synthesised header). */
export function toUnknownNode(guest: Pick<Guest, 'instance' | 'node'>): GuestNodeInfo {
  const id = guest.instance ? `${guest.instance}-${guest.node}` : guest.node
  return { id, name: guest.node, label: guest.node, sublabel: guest.instance ?? '', online: true }
}
