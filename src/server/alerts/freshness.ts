// Which sources are stale this poll: instances whose connection is unhealthy and nodes that are
// offline or unknown. Built once per evaluation from the (few) nodes; the guest loop asks per guest
// without allocating.
import type { State } from '../../shared/model/state.ts'

export interface Freshness {
  /** The data of this instance/node is not current: alerts there are held, not resolved. */
  isStale(instance: string, node: string): boolean
  /** The node itself is offline or unknown. */
  nodeDown(instance: string, node: string): boolean
  /** A resource absent from the state: gone only if its source answered (health true). */
  sourceHealthy(key: string): boolean
  /** The source is not reported unhealthy (health is not false). */
  sourceUp(key: string): boolean
}

export function createFreshness(state: State): Freshness {
  const health = state.connectionHealth ?? {}
  const unhealthy = new Set<string>()
  for (const [key, ok] of Object.entries(health)) if (ok === false) unhealthy.add(key)
  const down = new Map<string, Set<string>>()
  for (const node of state.nodes) {
    const instanceDown = health[node.instance] === false
    if (node.status === 'online' && node.connectionHealth !== 'error' && !instanceDown) continue
    let names = down.get(node.instance)
    if (!names) down.set(node.instance, (names = new Set()))
    names.add(node.name)
  }
  const nodeDown = (instance: string, node: string): boolean => {
    if (down.size === 0) return false
    const names = down.get(instance)
    return names !== undefined && names.has(node)
  }
  return {
    isStale: (instance, node) =>
      (unhealthy.size > 0 && unhealthy.has(instance)) || nodeDown(instance, node),
    nodeDown,
    sourceHealthy: (key) => health[key] === true,
    sourceUp: (key) => health[key] !== false,
  }
}
