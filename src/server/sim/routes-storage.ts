// Per-node storage and task routes: the storage list, one storage's status and content, and the
// task list with PVE's filters and `total`.

import { wrapData } from './reply.ts'
import {
  CONTENT_TYPES,
  renderContentSliced,
  renderStorageList,
  renderStorageStatus,
} from './render-storage.ts'
import { TASK_PARAMS, renderTasks } from './tasks.ts'
import {
  PveError,
  optionalBoolean,
  optionalEnum,
  optionalInteger,
  resolveNode,
  wrapWithTotal,
} from './route-kit.ts'
import type { Route, RouteKit } from './route-kit.ts'
import type { SimStorage } from './model.ts'

/** Routes under /nodes/{node}/storage and /nodes/{node}/tasks. */
export function storageRoutes(kit: RouteKit): Route[] {
  const { cluster, cached } = kit
  return [
    {
      // The cluster-wide storage configuration (Datastore.Audit): where a zfspool's pool is named.
      pattern: /^\/storage$/,
      params: ['type'],
      handle({ query }) {
        const type = query.get('type') ?? undefined
        return cached(`storage-config:${type ?? ''}`, () =>
          cluster.storages
            .filter((s) => type === undefined || s.plugintype === type)
            .map(renderStorageConfig),
        )
      },
    },
    {
      pattern: /^\/nodes\/([^/]+)\/storage$/,
      params: ['content', 'enabled', 'format', 'storage', 'target'],
      handle({ match, query }) {
        const node = resolveNode(cluster, match[1])
        const content = query.get('content')?.split(',')
        for (const c of content ?? []) checkContent(c)
        const storage = query.get('storage') ?? undefined
        // Every simulated storage is enabled, so `enabled=1` filters nothing out.
        optionalBoolean(query, 'enabled')
        return cached(`storage:${node}:${query.toString()}`, () =>
          renderStorageList(cluster, node, { content, storage }),
        )
      },
    },
    {
      pattern: /^\/nodes\/([^/]+)\/storage\/([^/]+)\/status$/,
      params: [],
      handle({ match }) {
        const node = resolveNode(cluster, match[1])
        const storage = findStorage(kit, match[2])
        return wrapData(renderStorageStatus(storage, node))
      },
    },
    {
      pattern: /^\/nodes\/([^/]+)\/storage\/([^/]+)\/content$/,
      params: ['content', 'vmid'],
      handle({ match, query }) {
        const node = resolveNode(cluster, match[1])
        const storage = findStorage(kit, match[2])
        const content = query.get('content') ?? undefined
        if (content !== undefined) checkContent(content)
        const vmid = optionalInteger(query, 'vmid')
        return kit.cachedSliced(
          `content:${node}:${storage.storage}:${content ?? ''}:${vmid ?? ''}`,
          (slicer) => renderContentSliced(cluster, storage, node, content, vmid, slicer),
        )
      },
    },
    {
      pattern: /^\/nodes\/([^/]+)\/tasks$/,
      params: TASK_PARAMS,
      handle({ match, query }) {
        const node = resolveNode(cluster, match[1])
        const { data, total } = renderTasks(cluster, node, {
          start: optionalInteger(query, 'start') ?? 0,
          limit: optionalInteger(query, 'limit') ?? 50,
          typefilter: query.get('typefilter') ?? undefined,
          userfilter: query.get('userfilter') ?? undefined,
          vmid: optionalInteger(query, 'vmid'),
          errors: optionalBoolean(query, 'errors') ?? false,
          source: optionalEnum(query, 'source', ['archive', 'active', 'all'] as const) ?? 'archive',
          since: optionalInteger(query, 'since'),
          until: optionalInteger(query, 'until'),
          statusfilter: query.get('statusfilter')?.split(','),
        })
        return wrapWithTotal(data, total)
      },
    },
  ]
}

/** The storage named in a path, or PVE's 500 for an unknown one. */
export function findStorage(kit: RouteKit, raw: string | undefined): SimStorage {
  const name = decodeURIComponent(raw ?? '')
  const storage = kit.cluster.storages.find((s) => s.storage === name)
  if (storage === undefined) throw new PveError(500, `storage '${name}' does not exist`)
  return storage
}

function checkContent(value: string): void {
  if (!(CONTENT_TYPES as readonly string[]).includes(value)) {
    throw new PveError(400, 'Parameter verification failed.', {
      content: `invalid format - invalid content type '${value}'`,
    })
  }
}

/** One entry of GET /storage, in PVE's shape (digest, and type-specific keys such as `pool`). */
function renderStorageConfig(storage: SimStorage): Record<string, unknown> {
  const entry: Record<string, unknown> = {
    storage: storage.storage,
    type: storage.plugintype,
    content: storage.content,
    digest: 'b3c9a1e45f0d7e2a61c8b0f4d2e9a7c3b5d1f8e0',
  }
  if (storage.shared) entry.shared = 1
  if (storage.pool !== undefined) {
    entry.pool = storage.pool
    entry.sparse = 1
  }
  if (storage.plugintype === 'dir') entry.path = '/var/lib/vz'
  return entry
}
