// The resource page's view (issue 25): finds one resource by id and formats it with the tables'
// own row builders (toGuestRow, toPveEntry, toPbsEntry, toNodePoolRows), so the page shows what
// the tables show. Memoized on input identity: a flush that changed nothing it reads costs one
// comparison; a search over 100,000 guests is one pass when the guests change. Pure.
import { formatBytes } from '../format/bytes.ts'
import { formatForecast } from './storage-forecast.ts'
import { formatPercent } from '../format/percent.ts'
import { getStorageUsageColour } from '../format/thresholds.ts'
import type { PbsDatastore } from '../model/backups.ts'
import { toNumber as num } from '../model/coerce.ts'
import { datastoreResourceId } from '../model/history.ts'
import type { Entity, Guest, PveNode, Storage } from '../model/state.ts'
import { orderAlerts, toOverviewRow } from './alerts-overview.ts'
import { indexGuestAlerts } from './guest-alerts.ts'
import { findGuestNode, indexGuestNodes, isGuestActive } from './guest-nodes.ts'
import { toGuestRow } from './guest-rows.ts'
import { toPbsEntry, toPveEntry } from './node-summary-rows.ts'
import type { DatastoreRow, ResourceViewModel, ResourceViewRequest } from './resource-types.ts'
import { toNodePoolRows } from './storage-pools.ts'

/** What the view reads from the worker's store. */
export interface ResourceViewInput {
  guests: readonly Guest[]
  nodes: readonly PveNode[]
  storage: readonly Entity[]
  pbs: readonly Entity[]
  alerts: readonly Entity[]
  pending: ReadonlySet<string>
  now: number
  /** The live data has arrived (an unknown id is then "not found", not "loading"). */
  ready: boolean
}

type Result = Omit<ResourceViewModel, 'version'>

/** The model with nothing found yet (the loading state). */
export const EMPTY_RESOURCE: Result = Object.freeze({
  kind: 'resource',
  status: 'loading',
  header: null,
  guest: null,
  node: null,
  storage: null,
  datastore: null,
  datastores: [],
  alerts: [],
})
const EMPTY = EMPTY_RESOURCE

const text = (value: unknown): string =>
  typeof value === 'string' ? value : value == null ? '' : String(value)

/** One datastore of a PBS instance as a row. */
export function toDatastoreRow(pbs: Entity, store: PbsDatastore): DatastoreRow {
  const total = num(store.total)
  const used = num(store.used)
  const usage = total > 0 ? Math.min(100, (used / total) * 100) : Math.max(0, num(store.usage))
  return {
    id: datastoreResourceId(pbs.id, text(store.name)),
    name: text(store.name),
    pbsId: pbs.id,
    pbsName: text(pbs.name) || pbs.id,
    status: text(store.status) || 'unknown',
    total,
    usage,
    usageText: formatPercent(usage),
    usageDetail: `${formatBytes(used)} / ${formatBytes(total)}`,
    usageColour: getStorageUsageColour(usage),
    forecast: formatForecast(store.forecast),
  }
}

function datastoresOf(pbs: Entity): DatastoreRow[] {
  const stores = Array.isArray(pbs.datastores) ? (pbs.datastores as PbsDatastore[]) : []
  return stores.filter((s) => s && typeof s === 'object').map((s) => toDatastoreRow(pbs, s))
}

function alertsFor(input: ResourceViewInput, ids: ReadonlySet<string>) {
  const mine = input.alerts.filter((a) => ids.has(text(a.resourceId)))
  return Array.from(orderAlerts(mine), (i) => toOverviewRow(mine[i]!, input.pending, input.now))
}

function findResource(input: ResourceViewInput, request: ResourceViewRequest): Result {
  const { id } = request
  const alerts = () => alertsFor(input, new Set([id]))
  switch (request.resourceKind) {
    case 'guest': {
      const guest = input.guests.find((g) => (g.id || '') === id)
      if (!guest) break
      const index = indexGuestNodes(input.nodes)
      const node = findGuestNode(index, guest)
      const active = isGuestActive(guest, node)
      const level = indexGuestAlerts(input.alerts).get(id) ?? null
      const row = toGuestRow(guest, active, level, node?.pveMajor)
      return {
        ...EMPTY,
        status: 'found',
        header: {
          name: row.name || String(row.vmid),
          typeLabel: `${row.typeLabel} ${row.vmid}`,
          status: row.status,
          up: active,
          place: [`node ${row.node}`, text(guest.instance)].filter(Boolean).join(' · '),
        },
        guest: row,
        alerts: alerts(),
      }
    }
    case 'node': {
      const node = input.nodes.find((n) => n.id === id)
      if (!node) break
      const { row } = toPveEntry(node, new Map(), [])
      return {
        ...EMPTY,
        status: 'found',
        header: {
          name: row.name,
          typeLabel: 'Node',
          status: row.online ? 'online' : 'offline',
          up: row.online,
          place: row.badges.cluster ?? text(node.instance),
        },
        node: row,
        alerts: alerts(),
      }
    }
    case 'storage': {
      const entry = (input.storage as unknown as readonly Storage[]).find((s) => s.id === id)
      if (!entry) break
      const [row] = toNodePoolRows([entry], indexGuestNodes(input.nodes))
      if (!row) break
      return {
        ...EMPTY,
        status: 'found',
        header: {
          name: row.name,
          typeLabel: `Storage (${row.type})`,
          status: row.status,
          up: row.available,
          place: [`node ${row.node}`, row.instance].filter(Boolean).join(' · '),
        },
        storage: row,
        alerts: alerts(),
      }
    }
    case 'pbs': {
      const pbs = input.pbs.find((p) => p.id === id)
      if (!pbs) break
      const { row } = toPbsEntry(pbs, new Map(), [])
      const datastores = datastoresOf(pbs)
      return {
        ...EMPTY,
        status: 'found',
        header: {
          name: row.name,
          typeLabel: 'PBS',
          status: text(pbs.status) || (row.online ? 'online' : 'offline'),
          up: row.online,
          place: row.badges.version ? `version ${row.badges.version}` : '',
        },
        node: row,
        datastores,
        alerts: alertsFor(input, new Set([id, ...datastores.map((d) => d.id)])),
      }
    }
    case 'datastore': {
      for (const pbs of input.pbs) {
        if (!id.startsWith(`${pbs.id}:`)) continue
        const store = datastoresOf(pbs).find((d) => d.id === id)
        if (!store) continue
        return {
          ...EMPTY,
          status: 'found',
          header: {
            name: store.name,
            typeLabel: 'Datastore',
            status: store.status,
            up: store.status === 'available',
            place: `PBS ${store.pbsName}`,
          },
          datastore: store,
          alerts: alerts(),
        }
      }
      break
    }
  }
  return { ...EMPTY, status: input.ready ? 'notFound' : 'loading' }
}

/** A memoized resource view: the same result object while nothing it reads changed. */
export interface ResourceView {
  compute(input: ResourceViewInput, request: ResourceViewRequest): Result
}

/** Create one resource view (one per subscription). */
export function createResourceView(): ResourceView {
  let last: { input: ResourceViewInput; key: string; result: Result } | null = null
  return {
    compute(input, request) {
      const key = `${request.resourceKind}\n${request.id}`
      const prev = last
      if (
        prev &&
        prev.key === key &&
        prev.input.guests === input.guests &&
        prev.input.nodes === input.nodes &&
        prev.input.storage === input.storage &&
        prev.input.pbs === input.pbs &&
        prev.input.alerts === input.alerts &&
        prev.input.pending === input.pending &&
        prev.input.ready === input.ready &&
        // "Started 5m ago" moves with the clock only where there are alerts to show.
        (prev.result.alerts.length === 0 || prev.input.now === input.now)
      ) {
        return prev.result
      }
      const result = findResource(input, request)
      last = { input, key, result }
      return result
    },
  }
}
