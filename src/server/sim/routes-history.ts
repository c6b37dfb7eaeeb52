// The RRD history routes: `rrddata` of nodes, guests and storages, with the timeframes and layout
// of the cluster's PVE version (history/layout.ts). Answers are cached per model revision like
// every other list, so a chart polled by many clients costs one render per tick.

import { PveError, optionalEnum, resolveGuest, resolveNode } from './route-kit.ts'
import type { Route, RouteKit } from './route-kit.ts'
import { findStorage } from './routes-storage.ts'
import { CFS, pveTimeframes } from './history/layout.ts'
import type { Cf, PveKind, Timeframe } from './history/layout.ts'
import { guestRrd, nodeRrd, storageRrd } from './history/pve-rrd.ts'

const PARAMS = ['timeframe', 'cf'] as const

/** Routes ending in /rrddata. */
export function historyRoutes(kit: RouteKit): Route[] {
  const { cluster, cached } = kit
  const read = (query: URLSearchParams, kind: PveKind): { tf: Timeframe; cf: Cf } => {
    if (query.get('timeframe') === null) {
      throw new PveError(400, 'Parameter verification failed.', {
        timeframe: 'property is missing and it is not optional',
      })
    }
    const tf = optionalEnum(query, 'timeframe', pveTimeframes(cluster.version.major, kind))!
    return { tf, cf: optionalEnum(query, 'cf', CFS) ?? 'AVERAGE' }
  }
  return [
    {
      pattern: /^\/nodes\/([^/]+)\/rrddata$/,
      params: PARAMS,
      handle({ match, query }) {
        const node = resolveNode(cluster, match[1])
        const { tf, cf } = read(query, 'node')
        return cached(`rrd:node:${node}:${tf}:${cf}`, () => nodeRrd(cluster, node, tf, cf))
      },
    },
    {
      pattern: /^\/nodes\/([^/]+)\/(qemu|lxc)\/([^/]+)\/rrddata$/,
      params: PARAMS,
      handle({ match, query }) {
        const node = resolveNode(cluster, match[1])
        const type = match[2] as 'qemu' | 'lxc'
        const guest = resolveGuest(cluster, node, type, match[3])
        const { tf, cf } = read(query, type)
        return cached(`rrd:${guest.vmid}:${tf}:${cf}`, () => guestRrd(cluster, guest, tf, cf))
      },
    },
    {
      pattern: /^\/nodes\/([^/]+)\/storage\/([^/]+)\/rrddata$/,
      params: PARAMS,
      handle({ match, query }) {
        const node = resolveNode(cluster, match[1])
        const storage = findStorage(kit, match[2])
        const si = cluster.storages.indexOf(storage)
        const { tf, cf } = read(query, 'storage')
        return cached(`rrd:storage:${si}:${node}:${tf}:${cf}`, () =>
          storageRrd(cluster, si, node, tf, cf),
        )
      },
    },
  ]
}
