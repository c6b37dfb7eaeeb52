// The worker's Comlink API as the UI sees it. Imports only src/shared.
import type { RulePreviewModel, RulePreviewRequest } from '../shared/views/rule-preview.ts'
import type {
  AlertsOverviewModel,
  AlertsOverviewRequest,
} from '../shared/views/alerts-overview-types.ts'
import type { AlertConfig } from '../shared/model/alerts.ts'
import type { LiveEvent } from '../shared/model/live-events.ts'
import type {
  AlertThresholdsViewModel,
  AlertThresholdsViewRequest,
} from '../shared/views/alert-thresholds-types.ts'
import type { ResourceViewModel, ResourceViewRequest } from '../shared/views/resource-types.ts'
import type { AlertHistoryModel, AlertHistoryRequest } from '../shared/views/alert-history-types.ts'
import type { BackupsViewModel, BackupsViewRequest } from '../shared/views/backups-types.ts'
import type {
  BackupCoverageModel,
  BackupCoverageRequest,
} from '../shared/views/backup-coverage-types.ts'
import type { BackupJobsModel, BackupJobsRequest } from '../shared/views/backup-jobs-types.ts'
import type { GuestBackupModel, GuestBackupRequest } from '../shared/views/backup-guest-view.ts'
import type { GuestViewModel, GuestViewRequest } from '../shared/views/guest-view-types.ts'
import type { GuestUrlsViewModel, GuestUrlsViewRequest } from '../shared/views/guest-urls-types.ts'
import type { NodeSummaryModel, NodeSummaryRequest } from '../shared/views/node-summary-types.ts'
import type { StorageViewModel, StorageViewRequest } from '../shared/views/storage-types.ts'
import type {
  HistoryChartData,
  HistoryChartRequest,
  TrendData,
  TrendRequest,
} from '../shared/views/history-types.ts'
import type { PaletteRequest, PaletteResult } from '../shared/views/palette-types.ts'

/**
 * Every view kind the worker serves: what the UI asks for and what it answers (ARCHITECTURE.md,
 * "The worker's view protocol"). A new kind is one entry here and one in view-kinds.ts.
 */
export interface ViewKinds {
  guests: { request: GuestViewRequest; model: GuestViewModel }
  nodeSummary: { request: NodeSummaryRequest; model: NodeSummaryModel }
  storage: { request: StorageViewRequest; model: StorageViewModel }
  backups: { request: BackupsViewRequest; model: BackupsViewModel }
  alertsOverview: { request: AlertsOverviewRequest; model: AlertsOverviewModel }
  alertThresholds: { request: AlertThresholdsViewRequest; model: AlertThresholdsViewModel }
  rulePreview: { request: RulePreviewRequest; model: RulePreviewModel }
  alertHistory: { request: AlertHistoryRequest; model: AlertHistoryModel }
  guestUrls: { request: GuestUrlsViewRequest; model: GuestUrlsViewModel }
  resource: { request: ResourceViewRequest; model: ResourceViewModel }
  backupCoverage: { request: BackupCoverageRequest; model: BackupCoverageModel }
  backupJobs: { request: BackupJobsRequest; model: BackupJobsModel }
  guestBackup: { request: GuestBackupRequest; model: GuestBackupModel }
}
/** A view kind: the `kind` of its request and of its model. */
export type ViewKind = keyof ViewKinds
/** The request of kind `K` (of any kind by default). */
export type ViewRequest<K extends ViewKind = ViewKind> = ViewKinds[K]['request']
/** The model of kind `K` (of any kind by default), stamped with an increasing `version`. */
export type ViewModel<K extends ViewKind = ViewKind> = ViewKinds[K]['model']

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
  /** Sources (instance names) whose backups are not all read yet; empty when none. */
  backupsPending: readonly string[]
  /** Epoch ms when the next reconnect is due, when waiting. */
  nextRetryAt: number | null
  nodeCount: number
  guestCount: number
  /** A first load is under way: the guests and backups arrive in chunks (delta mode 2). */
  loading: boolean
  /** Guests the first load under way announced (guestCount counts those arrived); 0 when none. */
  guestsExpected: number
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
  /**
   * Subscribe to a view of `request.kind`; `onModel` receives a model now and on every change
   * (recomputed at most once per data flush). Throws for a kind the worker does not know.
   */
  subscribe<K extends ViewKind>(
    request: ViewRequest<K> & { kind: K },
    onModel: (model: ViewModel<K>) => void,
  ): number
  /** Change a subscription's request (same kind) and push its model at once; unknown ids are ignored. */
  update(subscriptionId: number, request: ViewRequest): void
  /**
   * Show an alert acknowledged (true) or not (false) at once, in every view, and hold that against
   * server states that do not show it yet: until the server agrees, or 15 s (spec 000 §4).
   */
  setAlertAck(alertId: string, acknowledged: boolean): void
  /** The ack's HTTP call failed: forget the pending ack, the server's value shows again. */
  dropAlertAck(alertId: string): void
  /**
   * Called with the ids of pending acks the server did not confirm within 15 s (each expiry
   * batch once). Returns a subscription id for `unsubscribe`.
   */
  watchAlertAckTimeouts(onTimeout: (alertIds: string[]) => void): number
  /**
   * The working alert config the Thresholds views compute from, with an increasing version (the
   * models echo it). Sent once per config change, not with every request: typing in the search
   * box must not clone thousands of overrides. Recomputes the open views at once.
   */
  setAlertConfig(config: AlertConfig, version: number): void
  /**
   * The socket's events for the UI (node and discovery announcements, settings, update
   * progress), validated, in arrival order. Malformed ones are logged here and never delivered.
   * Returns a subscription id for `unsubscribe`.
   */
  watchEvents(onEvent: (event: LiveEvent) => void): number
  /** End any subscription or connection watch by its id and release its callback's proxy. */
  unsubscribe(subscriptionId: number): void
  /**
   * One resource's metrics history over a range, fetched from `/api/history` and downsampled to
   * `width` points keeping peaks (issue 25). Rejects with the server's message on an error.
   */
  history(request: HistoryChartRequest): Promise<HistoryChartData>
  /** The trend column: the last hour of one metric for the ids on screen, as sparklines. */
  trends(request: TrendRequest): Promise<TrendData>
  /**
   * The command palette (issue 28): pages, settings, guests, nodes, storage, backup servers and
   * active alerts matching `request.query`, ranked and grouped, computed from the store at once.
   */
  palette(request: PaletteRequest): PaletteResult
}
