// The worker's Comlink API as the UI sees it. Imports only src/shared.
import type { BackupsViewModel, BackupsViewRequest } from '../shared/views/backups-types.ts'
import type { GuestViewModel, GuestViewRequest } from '../shared/views/guest-view-types.ts'
import type { NodeSummaryModel, NodeSummaryRequest } from '../shared/views/node-summary-types.ts'
import type { StorageViewModel, StorageViewRequest } from '../shared/views/storage-types.ts'

/** Socket lifecycle (spec 000 §4 live connection). */
export const CONNECTION_STATUSES = [
  'connecting',
  'connected',
  'disconnected',
  'reconnecting',
] as const
export type ConnectionStatus = (typeof CONNECTION_STATUSES)[number]

export interface ConnectionSnapshot {
  status: ConnectionStatus
  /** True from the first full state until the socket closes. */
  initialDataReceived: boolean
  /** Reconnect attempts since the last successful open. */
  attempt: number
  /** Epoch ms of the server's last completed poll, 0 if none. */
  lastUpdate: number
  /** The full state holds a completed poll, not the empty state served before it. */
  firstPollDone: boolean
  /** Every source's storage and backups have been read at least once. */
  backupsCollected: boolean
  /** Epoch ms when the next reconnect is due, when waiting. */
  nextRetryAt: number | null
  nodeCount: number
  guestCount: number
  /** Server version from the state's stats, '' until known. */
  serverVersion: string
}

export interface ConnectOptions {
  /** Absolute ws:// or wss:// URL of /ws. */
  url: string
  /** Negotiate delta mode (our server); false = full rawData only. */
  deltas: boolean
}

/** What `createWorkerApi()` returns and Comlink exposes. Callbacks must be Comlink proxies. */
export interface WorkerApi {
  connect(options: ConnectOptions): void
  /** Skip the backoff wait and reconnect now. */
  reconnectNow(): void
  disconnect(): void
  /** Current snapshot, and every change after it. Returns a subscription id. */
  watchConnection(onChange: (snapshot: ConnectionSnapshot) => void): number
  /** Subscribe to a guest view; the callback receives a model now and on every change. */
  subscribeGuests(request: GuestViewRequest, onModel: (model: GuestViewModel) => void): number
  /** Change filters, sort or window of a subscription. */
  updateGuests(subscriptionId: number, request: GuestViewRequest): void
  /** Subscribe to a node summary (spec 000 §2.1); a model now and on every change. */
  subscribeNodeSummary(
    request: NodeSummaryRequest,
    onModel: (model: NodeSummaryModel) => void,
  ): number
  /** Change the sort of a node summary subscription. */
  updateNodeSummary(subscriptionId: number, request: NodeSummaryRequest): void
  /** Subscribe to the storage tab view (spec 000 §2.3); a model now and on every change. */
  subscribeStorage(request: StorageViewRequest, onModel: (model: StorageViewModel) => void): number
  /** Change the filters, sort or layout of a storage subscription. */
  updateStorage(subscriptionId: number, request: StorageViewRequest): void
  /** Subscribe to the backups tab view (spec 000 §2.4); a model now and on every change. */
  subscribeBackups(request: BackupsViewRequest, onModel: (model: BackupsViewModel) => void): number
  /** Change the filters, sort, chart range or window of a backups subscription. */
  updateBackups(subscriptionId: number, request: BackupsViewRequest): void
  /** End any subscription or connection watch by its id. */
  unsubscribe(subscriptionId: number): void
}
