// Per-node hardware routes: the disk list, SMART data and ZFS pools.

import { wrapData } from './reply.ts'
import { renderDiskList, renderSmart, renderZfsDetail, renderZfsList } from './render-disks.ts'
import { PveError, optionalBoolean, optionalEnum, resolveNode } from './route-kit.ts'
import type { Route, RouteKit } from './route-kit.ts'

/** Routes under /nodes/{node}/disks. */
export function hardwareRoutes(kit: RouteKit): Route[] {
  const { cluster, cached } = kit
  return [
    {
      pattern: /^\/nodes\/([^/]+)\/disks\/list$/,
      params: ['include-partitions', 'skipsmart', 'type'],
      handle({ match, query }) {
        const node = resolveNode(cluster, match[1])
        optionalBoolean(query, 'include-partitions')
        const skipsmart = optionalBoolean(query, 'skipsmart') ?? false
        const type = optionalEnum(query, 'type', ['journal_disks', 'unused'] as const)
        return cached(`disks:${node}:${skipsmart}:${type ?? ''}`, () =>
          renderDiskList(cluster.disks[node] ?? [], { skipsmart, type }),
        )
      },
    },
    {
      pattern: /^\/nodes\/([^/]+)\/disks\/smart$/,
      params: ['disk', 'healthonly'],
      handle({ match, query }) {
        const node = resolveNode(cluster, match[1])
        const path = query.get('disk')
        if (path === null) {
          throw new PveError(400, 'Parameter verification failed.', {
            disk: 'property is missing and it is not optional',
          })
        }
        const disk = cluster.disks[node]?.find((d) => d.devpath === path)
        if (disk === undefined) throw new PveError(500, 'not a valid block device')
        return wrapData(renderSmart(cluster, disk, optionalBoolean(query, 'healthonly') ?? false))
      },
    },
    {
      pattern: /^\/nodes\/([^/]+)\/disks\/zfs$/,
      params: [],
      handle({ match }) {
        const node = resolveNode(cluster, match[1])
        return cached(`zfs:${node}`, () => renderZfsList(cluster, node))
      },
    },
    {
      pattern: /^\/nodes\/([^/]+)\/disks\/zfs\/([^/]+)$/,
      params: [],
      handle({ match }) {
        const node = resolveNode(cluster, match[1])
        const name = decodeURIComponent(match[2] ?? '')
        const pool = cluster.zfsPools[node]?.find((p) => p.name === name)
        if (pool === undefined) {
          throw new PveError(500, `command '/sbin/zpool status -P -v ${name}' failed: exit code 1`)
        }
        return wrapData(renderZfsDetail(pool))
      },
    },
  ]
}
