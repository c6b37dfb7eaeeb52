// Renders GET /cluster/resources from the model, with the real API's key set and quirks:
// 0/1 booleans, optional keys omitted (never null), QEMU `disk` always 0, offline nodes without stats.

import type { SimClusterModel, SimGuest, SimNode } from './model.ts'

/** The `type` filter values /cluster/resources accepts. */
export const RESOURCE_TYPES = ['vm', 'storage', 'node', 'sdn'] as const
/** One of RESOURCE_TYPES, or undefined for everything. */
export type ResourceType = (typeof RESOURCE_TYPES)[number]

/** Builds the `data` array of /cluster/resources for an optional type filter. */
export function renderResources(
  cluster: SimClusterModel,
  type: ResourceType | undefined,
): object[] {
  const out: object[] = []
  const nowSec = Math.floor(cluster.lastTickMs / 1000)
  if (type === undefined || type === 'vm') {
    const pve9 = cluster.version.major >= 9
    for (const guest of cluster.guests) out.push(renderGuest(cluster, guest, nowSec, pve9))
  }
  if (type === undefined || type === 'node') {
    for (const node of cluster.nodes) out.push(renderNodeResource(node, nowSec))
  }
  if (type === undefined || type === 'storage') {
    for (const storage of cluster.storages) {
      cluster.nodes.forEach((node, i) => {
        const base = {
          id: `storage/${node.name}/${storage.storage}`,
          type: 'storage',
          storage: storage.storage,
          node: node.name,
          plugintype: storage.plugintype,
          content: storage.content,
          shared: storage.shared,
        }
        // Nobody reports for an offline node's storages: status unknown and no usage.
        out.push(
          node.online
            ? {
                ...base,
                status: 'available',
                disk: storage.used[i] ?? 0,
                maxdisk: storage.total[i] ?? 0,
              }
            : { ...base, status: 'unknown' },
        )
      })
    }
  }
  return out
}

/** Node entry shared by /cluster/resources and /nodes; an offline node carries no stats. */
export function renderNodeResource(node: SimNode, nowSec: number): Record<string, unknown> {
  const id = `node/${node.name}`
  if (!node.online)
    return { id, type: 'node', node: node.name, status: 'offline', level: node.level }
  return {
    id,
    type: 'node',
    node: node.name,
    status: 'online',
    cpu: node.cpu,
    maxcpu: node.maxcpu,
    mem: Math.round(node.maxmem * node.memFrac),
    maxmem: node.maxmem,
    disk: node.rootUsed,
    maxdisk: node.maxdisk,
    uptime: Math.max(0, nowSec - node.bootAt),
    level: node.level,
    'cgroup-mode': 2,
  }
}

function renderGuest(cluster: SimClusterModel, g: SimGuest, nowSec: number, pve9: boolean): object {
  const entry: Record<string, unknown> = {
    id: `${g.type}/${g.vmid}`,
    type: g.type,
    vmid: g.vmid,
    name: g.name,
    node: cluster.nodes[g.node]?.name ?? '',
    status: g.running ? 'running' : 'stopped',
    template: g.template,
  }
  if (g.tags !== undefined) entry.tags = g.tags
  if (g.lock !== undefined) entry.lock = g.lock
  if (g.hastate !== undefined) entry.hastate = g.hastate
  entry.cpu = g.running ? g.cpu : 0
  entry.maxcpu = g.maxcpu
  entry.mem = g.running ? g.mem : 0
  // PVE 9 adds host-side memory; for a VM that is the QEMU process RSS, a little above guest `mem`.
  if (pve9) entry.memhost = g.running ? Math.round(g.mem * (g.type === 'qemu' ? 1.03 : 1)) : 0
  entry.maxmem = g.maxmem
  entry.disk = g.type === 'qemu' ? 0 : g.disk
  entry.maxdisk = g.maxdisk
  entry.netin = g.netin
  entry.netout = g.netout
  entry.diskread = g.diskread
  entry.diskwrite = g.diskwrite
  entry.uptime = g.running ? Math.max(0, nowSec - g.startedAt) : 0
  return entry
}
