// Which metadata keys belong to guests Pulse monitors right now. A guest is known by its id and by
// node-vmid (spec 000 §3: metadata is keyed by guest id or node-vmid). The live state already
// indexes guest ids (its metrics slots), so a lookup builds no 100,000-entry set of its own.
import { guestKey } from '../../shared/model/guest-key.ts'
import type { PveNode, State } from '../../shared/model/state.ts'

/** Tell whether a metadata key is a guest of the current live state. */
export function createGuestLookup(deps: {
  /** True for the id of a guest in the current state (LiveState.guestSlot). */
  hasGuestId: (id: string) => boolean
  nodes: () => readonly PveNode[]
}): (key: string) => boolean {
  // Node names to their instances, rebuilt when the node list changes (a few hundred at most).
  let cached: { nodes: readonly PveNode[]; instances: Map<string, string[]> } | undefined
  const instancesOf = (name: string): readonly string[] => {
    const nodes = deps.nodes()
    if (cached?.nodes !== nodes) {
      const instances = new Map<string, string[]>()
      for (const node of nodes)
        instances.set(node.name, [...(instances.get(node.name) ?? []), node.instance])
      cached = { nodes, instances }
    }
    return cached.instances.get(name) ?? []
  }
  return (key) => {
    if (deps.hasGuestId(key)) return true
    // node-vmid: the vmid is the last segment, so the rest is exactly a node name.
    const dash = key.lastIndexOf('-')
    const vmid = key.slice(dash + 1)
    if (dash <= 0 || !/^\d+$/.test(vmid)) return false
    const node = key.slice(0, dash)
    return instancesOf(node).some((instance) => deps.hasGuestId(guestKey({ instance, node, vmid })))
  }
}

/**
 * True when `state` shows the whole estate: a poll has finished and every configured endpoint
 * answered it. Only then does a guest missing from it count as absent (an unreachable endpoint's
 * guests are missing too, and must not lose their metadata).
 */
export function isWholeEstate(state: State): boolean {
  const health = Object.values(state.connectionHealth)
  return state.lastUpdate > 0 && health.length > 0 && health.every(Boolean)
}
