// The GET routes of a simulated PBS under /api2/json: each declares its query parameters and
// renders from the model. Bodies are cached per model revision by the server.

import { BACKUP_TYPES } from './model.ts'
import type { PbsSimModel } from './model.ts'
import { SimHttpError, badParam, readBool, readEnum, readInt, readNamespace } from './params.ts'
import { renderGroups, renderNamespaces, renderSnapshots } from './render-content.ts'
import { renderNodeStatus, renderVersion } from './render-node.ts'
import {
  renderDatastoreConfig,
  renderDatastoreList,
  renderDatastoreStatus,
  renderDatastoreUsage,
  renderGcStatus,
} from './render-store.ts'
import { renderTasks } from './render-tasks.ts'
import { renderGcJobStatus, renderJobList, renderJobLog } from './render-jobs.ts'
import { viewStore, viewStores } from './store-view.ts'
import { nodeRrd, storeRrd } from './history.ts'
import { CFS, TIMEFRAMES } from '../history/layout.ts'
import type { Cf, Timeframe } from '../history/layout.ts'
import type { StoreView } from './store-view.ts'

/** What a route renders: the payload and any extra top-level keys. */
export interface RouteResult {
  data: unknown
  extra?: Record<string, unknown>
}

/** One GET route. `handle` throws SimHttpError for 4xx/5xx answers. */
export interface Route {
  pattern: RegExp
  params: readonly string[]
  handle(match: readonly string[], query: URLSearchParams): RouteResult
}

const STATUSES = ['ok', 'warning', 'error', 'unknown'] as const

/** The routes of one instance; `fingerprint` is what /nodes/localhost/status reports. */
export function createRoutes(model: PbsSimModel, fingerprint: string): Route[] {
  const store = (match: readonly string[]): StoreView => {
    const name = decodeURIComponent(match[1] ?? '')
    const view = viewStore(model, name)
    if (view === undefined) throw new SimHttpError(400, `datastore '${name}' does not exist`)
    return view
  }
  // Content reads of a store the test control made fail answer 500, like an I/O error would.
  const readable = (match: readonly string[]): StoreView => {
    const view = store(match)
    const failure = model.failing.get(view.store.name)
    if (failure !== undefined) throw new SimHttpError(500, failure)
    return view
  }
  const namespaceOf = (view: StoreView, query: URLSearchParams, name: string): string => {
    const ns = readNamespace(query, name)
    if (!view.store.namespaces.some((n) => n.path === ns)) {
      throw new SimHttpError(400, `namespace '${ns}' does not exist`)
    }
    return ns
  }
  const node = (match: readonly string[]): void => {
    const name = decodeURIComponent(match[1] ?? '')
    if (name !== 'localhost' && name !== model.host.hostname) {
      throw new SimHttpError(400, `no such node '${name}'`)
    }
  }
  const ds = (tail: string): RegExp => new RegExp(`^/admin/datastore/([^/]+)/${tail}$`)
  const gcStatus = (view: StoreView) => ({
    ...renderGcStatus(model, view),
    ...renderGcJobStatus(model, view),
  })

  return [
    { pattern: /^\/version$/, params: [], handle: () => ({ data: renderVersion(model) }) },
    {
      pattern: /^\/status\/datastore-usage$/,
      params: [],
      handle: () => ({ data: renderDatastoreUsage(model) }),
    },
    {
      pattern: /^\/admin\/datastore$/,
      params: [],
      handle: () => ({ data: renderDatastoreList(model) }),
    },
    {
      pattern: /^\/config\/datastore$/,
      params: [],
      handle: () => ({ data: renderDatastoreConfig(model) }),
    },
    {
      pattern: ds('status'),
      params: ['verbose'],
      handle: (m, q) => ({
        data: renderDatastoreStatus(model, store(m), readBool(q, 'verbose') ?? false),
      }),
    },
    {
      pattern: ds('gc'),
      params: [],
      handle: (m) => ({ data: gcStatus(store(m)) }),
    },
    // Issue 26: the job lists with their schedule status, and every store's GC (PBS >= 3.2).
    ...(['sync', 'verify', 'prune'] as const).map((kind) => ({
      pattern: new RegExp(`^/admin/${kind}$`),
      params: ['store'],
      handle: (_m: readonly string[], q: URLSearchParams) => ({
        data: renderJobList(model, kind).filter(
          (j) => q.get('store') === null || (j as { store: string }).store === q.get('store'),
        ),
      }),
    })),
    {
      pattern: /^\/admin\/gc$/,
      params: [],
      handle: () => ({ data: viewStores(model).map(gcStatus) }),
    },
    {
      pattern: ds('namespace'),
      params: ['parent', 'max-depth'],
      handle(m, q) {
        const view = readable(m)
        const parent = namespaceOf(view, q, 'parent')
        return { data: renderNamespaces(view.store, parent, readInt(q, 'max-depth', 0, 7) ?? 7) }
      },
    },
    {
      pattern: ds('groups'),
      params: ['ns'],
      handle(m, q) {
        const view = readable(m)
        return { data: renderGroups(model, view, namespaceOf(view, q, 'ns')) }
      },
    },
    {
      pattern: ds('snapshots'),
      params: ['ns', 'backup-type', 'backup-id'],
      handle(m, q) {
        const view = readable(m)
        const filter = {
          ns: namespaceOf(view, q, 'ns'),
          type: readEnum(q, 'backup-type', BACKUP_TYPES),
          id: q.get('backup-id') ?? undefined,
        }
        return { data: renderSnapshots(model, view, filter) }
      },
    },
    {
      pattern: /^\/nodes\/([^/]+)\/status$/,
      params: [],
      handle(m) {
        node(m)
        return { data: renderNodeStatus(model, fingerprint) }
      },
    },
    {
      pattern: /^\/nodes\/([^/]+)\/rrd$/,
      params: RRD_PARAMS,
      handle(m, q) {
        node(m)
        const { tf, cf } = readRrd(q)
        return { data: nodeRrd(model, tf, cf) }
      },
    },
    {
      pattern: ds('rrd'),
      params: RRD_PARAMS,
      handle(m, q) {
        const view = store(m)
        const { tf, cf } = readRrd(q)
        return { data: storeRrd(model, view.store.name, tf, cf) }
      },
    },
    {
      pattern: /^\/nodes\/([^/]+)\/tasks\/([^/]+)\/log$/,
      params: ['start', 'limit', 'test-status', 'download'],
      handle(m, q) {
        node(m)
        const lines = renderJobLog(model, decodeURIComponent(m[2] ?? ''))
        // PBS: `start` is the first line's number (0 and 1 both begin at line 1); limit 0 = all.
        const from = Math.max(1, readInt(q, 'start', 0, Number.MAX_SAFE_INTEGER) ?? 0) - 1
        const limit = readInt(q, 'limit', 0, Number.MAX_SAFE_INTEGER) ?? 50
        const page = limit === 0 ? lines.slice(from) : lines.slice(from, from + limit)
        return { data: page, extra: { total: lines.length } }
      },
    },
    {
      pattern: /^\/nodes\/([^/]+)\/tasks$/,
      params: TASK_PARAMS,
      handle(m, q) {
        node(m)
        const { data, total } = renderTasks(model, readTaskQuery(q))
        return { data, extra: { total } }
      },
    },
  ]
}

const RRD_PARAMS = ['timeframe', 'cf'] as const

// Both parameters are required on PBS (on PVE `cf` defaults to AVERAGE).
function readRrd(q: URLSearchParams): { tf: Timeframe; cf: Cf } {
  const tf = readEnum(q, 'timeframe', TIMEFRAMES)
  const cf = readEnum(q, 'cf', CFS)
  for (const [name, value] of [
    ['timeframe', tf],
    ['cf', cf],
  ] as const) {
    if (value === undefined) throw badParam(name, 'parameter is missing and it is not optional')
  }
  return { tf: tf!, cf: cf! }
}

const TASK_PARAMS = [
  'start',
  'limit',
  'store',
  'typefilter',
  'statusfilter',
  'since',
  'until',
  'userfilter',
  'errors',
  'running',
] as const

function readTaskQuery(q: URLSearchParams): Parameters<typeof renderTasks>[1] {
  const statusfilter = q.getAll('statusfilter')
  for (const s of statusfilter) {
    if (!(STATUSES as readonly string[]).includes(s)) {
      throw new SimHttpError(
        400,
        `parameter verification failed - 'statusfilter': value '${s}' is not defined in the enumeration.`,
      )
    }
  }
  return {
    start: readInt(q, 'start', 0, Number.MAX_SAFE_INTEGER) ?? 0,
    limit: readInt(q, 'limit', 0, Number.MAX_SAFE_INTEGER) ?? 50,
    store: q.get('store') ?? undefined,
    typefilter: q.get('typefilter') ?? undefined,
    userfilter: q.get('userfilter') ?? undefined,
    statusfilter: statusfilter.length > 0 ? statusfilter : undefined,
    since: readInt(q, 'since', 0, Number.MAX_SAFE_INTEGER),
    until: readInt(q, 'until', 0, Number.MAX_SAFE_INTEGER),
    errors: readBool(q, 'errors') ?? false,
    running: readBool(q, 'running') ?? false,
  }
}
