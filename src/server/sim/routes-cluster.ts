// Cluster-wide routes: /version, /cluster/status, /cluster/resources, /nodes, /nodes/{n}/status
// and Ceph's status (cluster-wide and per node).

import { RESOURCE_TYPES, renderResources } from './render-resources.ts'
import type { ResourceType } from './render-resources.ts'
import {
  renderClusterStatus,
  renderNodeStatus,
  renderNodes,
  renderVersion,
} from './render-nodes.ts'
import { renderCephPools, renderCephStatus } from './render-ceph.ts'
import { PveError, resolveNode } from './route-kit.ts'
import type { Route, RouteKit } from './route-kit.ts'
import type { SimCeph } from './ceph.ts'

/** Routes that describe the cluster as a whole. */
export function clusterRoutes(kit: RouteKit): Route[] {
  const { cluster, cached } = kit
  return [
    {
      pattern: /^\/version$/,
      params: [],
      handle: () => cached('version', () => renderVersion(cluster)),
    },
    {
      pattern: /^\/cluster\/status$/,
      params: [],
      // `local` marks the member whose endpoint answered.
      handle: ({ local }) => cached(`status:${local}`, () => renderClusterStatus(cluster, local)),
    },
    {
      pattern: /^\/cluster\/resources$/,
      params: ['type'],
      handle({ query }) {
        const type = query.get('type') ?? undefined
        if (type !== undefined && !(RESOURCE_TYPES as readonly string[]).includes(type)) {
          throw new PveError(400, 'Parameter verification failed.', {
            type: `value '${type}' does not have a value in the enumeration '${RESOURCE_TYPES.join(', ')}'`,
          })
        }
        return cached(`resources:${type ?? ''}`, () =>
          renderResources(cluster, type as ResourceType | undefined),
        )
      },
    },
    {
      pattern: /^\/nodes$/,
      params: [],
      handle: () => cached('nodes', () => renderNodes(cluster, kit.certificate.fingerprint)),
    },
    {
      pattern: /^\/nodes\/([^/]+)\/status$/,
      params: [],
      handle({ match }) {
        const node = resolveNode(cluster, match[1])
        return cached(`node-status:${node}`, () => renderNodeStatus(cluster, cluster.nodes[node]!))
      },
    },
    {
      pattern: /^\/cluster\/ceph\/status$/,
      params: [],
      handle: () => cached('ceph-status', () => renderCephStatus(cluster, requireCeph(kit))),
    },
    {
      pattern: /^\/nodes\/([^/]+)\/ceph\/status$/,
      params: [],
      handle({ match }) {
        resolveNode(cluster, match[1])
        return cached('ceph-status', () => renderCephStatus(cluster, requireCeph(kit)))
      },
    },
    {
      pattern: /^\/nodes\/([^/]+)\/ceph\/pool$/,
      params: [],
      handle({ match }) {
        resolveNode(cluster, match[1])
        return cached('ceph-pools', () => renderCephPools(cluster, requireCeph(kit)))
      },
    },
  ]
}

// Without Ceph packages PVE's check_ceph_installed fails before anything else.
function requireCeph(kit: RouteKit): SimCeph {
  if (kit.cluster.ceph === undefined) throw new PveError(500, 'binary not installed: /usr/bin/ceph')
  return kit.cluster.ceph
}
