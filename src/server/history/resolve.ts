// Resource ids of /api/history against the live state: which endpoint holds a resource's RRD and
// where. Ids join names with dashes (`${instance}-${node}-${vmid}`) and cannot be split back
// reliably, so they are looked up: one pass over the guests for any number of ids (a Set lookup
// per guest, about a millisecond at 100,000 guests), no index kept between states.
import { datastoreResourceId, type HistoryResourceKind } from '../../shared/model/history.ts'
import type { State } from '../../shared/model/state.ts'

/** A resource whose history can be read, and the endpoint (instance name) that keeps it. */
export type ResolvedResource =
  | {
      kind: 'guest'
      id: string
      instance: string
      node: string
      vmid: number
      type: 'qemu' | 'lxc'
      /** The node is known to be down: its API cannot answer for it. */
      nodeDown: boolean
    }
  | { kind: 'node'; id: string; instance: string; node: string; nodeDown: boolean }
  | {
      kind: 'storage'
      id: string
      instance: string
      node: string
      storage: string
      nodeDown: boolean
    }
  | { kind: 'pbs'; id: string; instance: string; nodeDown: boolean }
  | { kind: 'datastore'; id: string; instance: string; store: string; nodeDown: boolean }

/** The resource kind of a resolved resource's metrics (HISTORY_METRICS key). */
export const kindOf = (r: ResolvedResource): HistoryResourceKind => r.kind

/** Resolves `ids` against `state`; ids not found are absent from the map. */
export function resolveResources(
  state: State,
  ids: readonly string[],
): Map<string, ResolvedResource> {
  const wanted = new Set(ids)
  const out = new Map<string, ResolvedResource>()
  const down = new Set<string>()
  for (const node of state.nodes) {
    if (node.status !== 'online') down.add(`${node.instance}\u0000${node.name}`)
    if (wanted.has(node.id)) {
      out.set(node.id, {
        kind: 'node',
        id: node.id,
        instance: node.instance,
        node: node.name,
        nodeDown: node.status !== 'online',
      })
    }
  }
  const isDown = (instance: string, node: string) => down.has(`${instance}\u0000${node}`)
  for (const storage of state.storage) {
    if (!wanted.has(storage.id)) continue
    out.set(storage.id, {
      kind: 'storage',
      id: storage.id,
      instance: storage.instance,
      node: storage.node,
      storage: storage.name,
      nodeDown: isDown(storage.instance, storage.node),
    })
  }
  for (const pbs of state.pbs) {
    const offline = pbs.status !== 'online'
    if (wanted.has(pbs.id)) {
      out.set(pbs.id, { kind: 'pbs', id: pbs.id, instance: pbs.name, nodeDown: offline })
    }
    for (const store of pbs.datastores) {
      const id = datastoreResourceId(pbs.id, store.name)
      if (!wanted.has(id)) continue
      out.set(id, {
        kind: 'datastore',
        id,
        instance: pbs.name,
        store: store.name,
        nodeDown: offline,
      })
    }
  }
  if (out.size === wanted.size) return out
  for (const list of [state.vms, state.containers]) {
    for (const guest of list) {
      if (!wanted.has(guest.id)) continue
      out.set(guest.id, {
        kind: 'guest',
        id: guest.id,
        instance: guest.instance,
        node: guest.node,
        vmid: guest.vmid,
        type: guest.type === 'lxc' ? 'lxc' : 'qemu',
        nodeDown: isDown(guest.instance, guest.node),
      })
    }
  }
  return out
}
