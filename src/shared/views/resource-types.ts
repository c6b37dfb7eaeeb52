// The resource page's view (issue 25): one guest, node, storage, PBS instance or datastore by id,
// formatted by the same row builders the tables use, plus its active alerts.
import type { ForecastText } from './storage-forecast.ts'
import type { Colour } from '../format/thresholds.ts'
import type { HistoryResourceKind } from '../model/history.ts'
import type { AlertsOverviewRow } from './alerts-overview-types.ts'
import type { GuestRow } from './guest-view-types.ts'
import type { NodeSummaryRow } from './node-summary-types.ts'
import type { StoragePoolRow } from './storage-types.ts'

/** What the UI asks the worker for: one resource by kind and id. */
export interface ResourceViewRequest {
  kind: 'resource'
  resourceKind: HistoryResourceKind
  id: string
}

/** A PBS datastore, formatted (the PBS page lists them; the datastore page shows one). */
export interface DatastoreRow {
  /** `${pbsId}:${name}` (datastoreResourceId). */
  id: string
  name: string
  pbsId: string
  pbsName: string
  status: string
  total: number
  usage: number
  usageText: string
  /** 'used / total'. */
  usageDetail: string
  usageColour: Colour
  forecast: ForecastText | null
}

/** The page's header line. */
export interface ResourceHeader {
  name: string
  /** 'VM', 'LXC', 'Node', 'PBS', 'Storage (zfspool)', 'Datastore'. */
  typeLabel: string
  status: string
  /** Online or running: a green dot, else grey. */
  up: boolean
  /** Where it lives: 'node pve1 · cluster alpha', 'PBS backup-1'. */
  place: string
}

export interface ResourceViewModel {
  kind: 'resource'
  /** Increases with every model the worker pushes; the UI drops older ones. */
  version: number
  /** 'loading' until the live data has arrived; then 'found' or 'notFound'. */
  status: 'loading' | 'notFound' | 'found'
  header: ResourceHeader | null
  guest: GuestRow | null
  node: NodeSummaryRow | null
  storage: StoragePoolRow | null
  datastore: DatastoreRow | null
  /** A PBS instance's datastores. */
  datastores: DatastoreRow[]
  /** Its active alerts, most severe first. */
  alerts: AlertsOverviewRow[]
}
