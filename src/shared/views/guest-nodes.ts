// Parent nodes of guests: node health (spec 000 §4), guest activity and group headers.
import type { Guest, PveNode } from '../model/state.ts'

/** What the guest pipeline needs to know about a guest's parent node. */
export interface GuestNodeInfo {
  /** Node id (`<instance>-<name>`), or that form synthesised for a node not in the state. */
  id: string
  name: string
  label: string
  /** Cluster name, or the instance for a standalone node. */
  sublabel: string
  online: boolean
}

/** Nodes indexed by instance then name, so a lookup per guest allocates no string. */
export interface GuestNodeIndex {
  byInstance: Map<string, Map<string, GuestNodeInfo>>
  byName: Map<string, GuestNodeInfo>
}

/** A hypervisor node is online if its status is online and its uptime > 0. */
export function isNodeOnline(node: Pick<PveNode, 'status' | 'uptime'>): boolean {
  return node.status === 'online' && node.uptime > 0
}

/** Index nodes for guest lookups. */
export function indexGuestNodes(nodes: readonly PveNode[]): GuestNodeIndex {
  const byInstance = new Map<string, Map<string, GuestNodeInfo>>()
  const byName = new Map<string, GuestNodeInfo>()
  for (const node of nodes) {
    const info: GuestNodeInfo = {
      id: node.id,
      name: node.name,
      label: node.displayName || node.name,
      sublabel: node.isClusterMember && node.clusterName ? node.clusterName : node.instance,
      online: isNodeOnline(node),
    }
    let names = byInstance.get(node.instance)
    if (!names) byInstance.set(node.instance, (names = new Map()))
    names.set(node.name, info)
    if (!byName.has(node.name)) byName.set(node.name, info)
  }
  return { byInstance, byName }
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
