// The palette's sources over the live state: guests, nodes, storage, backup servers with their
// datastores, and active alerts. Each is built once per version of its list (the worker caches
// them by the list's identity) and turns only the entries kept into items.
import type { Entity, Guest, PveNode } from '../model/state.ts'
import type { PbsInstance } from '../model/backups.ts'
import type { Storage } from '../model/storage.ts'
import { datastoreResourceId, resourcePagePath } from '../model/history.ts'
import { buildMatchField } from './palette-match.ts'
import type { PaletteSource } from './palette.ts'

/** Where an alert goes: the overview lists, acknowledges and silences the active alerts. */
export const ALERTS_OVERVIEW_PATH = '/alerts/overview'

/** Guests by name, VMID (exact first) and node name. */
export function createGuestSource(guests: readonly Guest[]): PaletteSource {
  const vmids = new Int32Array(guests.length)
  const nodeIndex = new Map<string, number>()
  const nodeNames: string[] = []
  const of = new Uint32Array(guests.length)
  const names: string[] = new Array<string>(guests.length)
  let lastName: string | null = null
  let last = 0
  for (let i = 0; i < guests.length; i++) {
    const guest = guests[i]!
    names[i] = guest.name
    vmids[i] = guest.vmid
    // A guest reads its node's name: one entry per node, however many guests share it. Guests
    // mostly come node by node, and comparing with the last costs less than hashing.
    if (guest.node !== lastName) {
      lastName = guest.node
      let node = nodeIndex.get(lastName)
      if (node === undefined) {
        node = nodeNames.length
        nodeIndex.set(lastName, node)
        nodeNames.push(lastName)
      }
      last = node
    }
    of[i] = last
  }
  return {
    kind: 'guest',
    names: buildMatchField(names),
    vmids,
    also: { field: buildMatchField(nodeNames), of },
    toItem(index) {
      const guest = guests[index]!
      const type = guest.type === 'lxc' ? 'CT' : 'VM'
      const status = guest.status === 'running' ? '' : ` · ${guest.status}`
      return {
        kind: 'guest',
        key: `guest:${guest.id}`,
        label: guest.name || `${type} ${guest.vmid}`,
        detail: `${type} ${guest.vmid} on ${guest.node}${status}`,
        href: resourcePagePath('guest', guest.id),
      }
    },
  }
}

/** PVE nodes by name, then display name and cluster. */
export function createNodeSource(nodes: readonly PveNode[]): PaletteSource {
  return {
    kind: 'node',
    names: buildMatchField(nodes.map((node) => node.name)),
    also: {
      field: buildMatchField(nodes.map((node) => `${node.displayName} ${node.clusterName}`)),
      of: null,
    },
    toItem(index) {
      const node = nodes[index]!
      const where = node.isClusterMember && node.clusterName ? node.clusterName : 'Standalone'
      return {
        kind: 'node',
        key: `node:${node.id}`,
        label: node.name,
        detail: `Node · ${where} · ${node.status}`,
        href: resourcePagePath('node', node.id),
      }
    },
  }
}

/** Storage pools by name, then node and type. */
export function createStorageSource(storage: readonly Storage[]): PaletteSource {
  return {
    kind: 'storage',
    names: buildMatchField(storage.map((pool) => pool.name)),
    also: { field: buildMatchField(storage.map((pool) => `${pool.node} ${pool.type}`)), of: null },
    toItem(index) {
      const pool = storage[index]!
      const where = pool.shared ? 'shared' : `on ${pool.node}`
      return {
        kind: 'storage',
        key: `storage:${pool.id}`,
        label: pool.name,
        detail: `Storage ${where} · ${pool.type}`,
        href: resourcePagePath('storage', pool.id),
      }
    },
  }
}

/** Backup servers and their datastores, in one list: a server, then its datastores. */
export function createPbsSource(servers: readonly PbsInstance[]): PaletteSource {
  const entries: Array<{ server: PbsInstance; datastore: string | null }> = []
  for (const server of servers) {
    entries.push({ server, datastore: null })
    for (const store of server.datastores ?? []) entries.push({ server, datastore: store.name })
  }
  return {
    kind: 'pbs',
    names: buildMatchField(entries.map((entry) => entry.datastore ?? entry.server.name)),
    also: { field: buildMatchField(entries.map((entry) => entry.server.name)), of: null },
    toItem(index) {
      const { server, datastore } = entries[index]!
      if (datastore === null) {
        return {
          kind: 'pbs',
          key: `pbs:${server.id}`,
          label: server.name,
          detail: `Backup server · ${server.status}`,
          href: resourcePagePath('pbs', server.id),
        }
      }
      const id = datastoreResourceId(server.id, datastore)
      return {
        kind: 'pbs',
        key: `datastore:${id}`,
        label: datastore,
        detail: `Datastore on ${server.name}`,
        href: resourcePagePath('datastore', id),
      }
    },
  }
}

const text = (value: unknown) => (typeof value === 'string' ? value : '')

/** Active alerts by resource name, then message and node; all go to the alerts overview. */
export function createAlertSource(alerts: readonly Entity[]): PaletteSource {
  return {
    kind: 'alert',
    names: buildMatchField(alerts.map((alert) => text(alert.resourceName))),
    also: {
      field: buildMatchField(alerts.map((alert) => `${text(alert.message)} ${text(alert.node)}`)),
      of: null,
    },
    toItem(index) {
      const alert = alerts[index]!
      const level = text(alert.level) === 'critical' ? 'Critical' : 'Warning'
      return {
        kind: 'alert',
        key: `alert:${alert.id}`,
        label: text(alert.resourceName) || alert.id,
        detail: `${level}: ${text(alert.message)}`,
        href: ALERTS_OVERVIEW_PATH,
      }
    },
  }
}
