// A fake of the worker's API for component tests. The UI only sees the WorkerApi contract, so a
// fake lets each test set the exact connection snapshot and view model it needs. The real worker
// is tested in tests/browser/worker, and the two together end to end in tests/e2e.
import type {
  ConnectOptions,
  ConnectionSnapshot,
  ViewKind,
  ViewModel,
  ViewRequest,
} from '../../../src/worker/api-types.ts'
import type {
  GuestGroupRow,
  GuestRow,
  GuestViewModel,
  GuestViewRequest,
  GuestViewRow,
} from '../../../src/shared/views/guest-view-types.ts'
import type {
  NodeSummaryModel,
  NodeSummaryRequest,
} from '../../../src/shared/views/node-summary-types.ts'
import type {
  StorageViewModel,
  StorageViewRequest,
} from '../../../src/shared/views/storage-types.ts'
import type {
  BackupsViewModel,
  BackupsViewRequest,
} from '../../../src/shared/views/backups-types.ts'
import type {
  AlertsOverviewModel,
  AlertsOverviewRequest,
} from '../../../src/shared/views/alerts-overview-types.ts'
import type { AlertHistoryModel } from '../../../src/shared/views/alert-history-types.ts'
import type { AlertThresholdsViewRequest } from '../../../src/shared/views/alert-thresholds-types.ts'
import type { AlertConfig } from '../../../src/shared/model/alerts.ts'
import type { Guest } from '../../../src/shared/model/state.ts'
import type { GuestUrlsViewRequest } from '../../../src/shared/views/guest-urls-types.ts'
import { createGuestUrlsView } from '../../../src/shared/views/guest-urls-view.ts'
import type { LiveEvent } from '../../../src/shared/model/live-events.ts'
import type { WorkerPort } from '../../../src/ui/worker-port.ts'
import type {
  ResourceViewModel,
  ResourceViewRequest,
} from '../../../src/shared/views/resource-types.ts'
import type {
  HistoryChartData,
  HistoryChartRequest,
  TrendData,
  TrendRequest,
} from '../../../src/shared/views/history-types.ts'
import type { PaletteRequest, PaletteResult } from '../../../src/shared/views/palette-types.ts'
import { searchPalette } from '../../../src/shared/views/palette.ts'
import {
  PALETTE_PAGES,
  PALETTE_SETTINGS,
  createEntrySource,
  paletteActions,
} from '../../../src/shared/views/palette-pages.ts'
import { createGuestSource } from '../../../src/shared/views/palette-sources.ts'

/** The open subscriptions of each view kind, by id. */
type Listeners = { [K in ViewKind]: Map<number, (model: ViewModel<K>) => void> }

export const CONNECTED: ConnectionSnapshot = {
  status: 'connected',
  initialDataReceived: true,
  attempt: 0,
  lastUpdate: Date.UTC(2025, 0, 1, 12, 0, 0),
  firstPollDone: true,
  backupsCollected: true,
  backupsPending: [],
  nextRetryAt: null,
  nodeCount: 2,
  guestCount: 3,
  loading: false,
  guestsExpected: 0,
  serverVersion: '0.1.0',
}

export class FakeWorker implements WorkerPort {
  snapshot: ConnectionSnapshot
  model: GuestViewModel | null = null
  reconnects = 0
  /** Every guest request the UI sent, in order (subscribe and update). */
  requests: GuestViewRequest[] = []
  /** Latest node summary model; set it before rendering, or send a new one with pushNodeSummary. */
  nodeSummary: NodeSummaryModel | null = null
  /** Every node summary request the UI sent, in order (subscribe and update). */
  summaryRequests: NodeSummaryRequest[] = []
  /** Latest storage model; set it before rendering, or send a new one with pushStorage. */
  storage: StorageViewModel | null = null
  /** Every storage request the UI sent, in order (subscribe and update). */
  storageRequests: StorageViewRequest[] = []
  /** Latest backups model; set it before rendering, or send a new one with pushBackups. */
  backups: BackupsViewModel | null = null
  /** Every backups request the UI sent, in order (subscribe and update). */
  backupsRequests: BackupsViewRequest[] = []
  /** Latest alerts overview model; set it before rendering, or send a new one with pushAlerts. */
  alertsOverview: AlertsOverviewModel | null = null
  /** Every alerts overview request the UI sent, in order (subscribe and update). */
  alertsRequests: AlertsOverviewRequest[] = []
  /** Every setAlertAck and dropAlertAck call, in order. */
  acks: { alertId: string; acknowledged: boolean | 'dropped' }[] = []
  /** Every alert thresholds request the UI sent, in order (subscribe and update). */
  thresholdRequests: AlertThresholdsViewRequest[] = []
  /** Every config the UI sent with setAlertConfig, with its version. */
  alertConfigs: { config: AlertConfig; version: number }[] = []
  /**
   * Guests the guestUrls view computes from, with the real view (set before rendering); null
   * sends no guestUrls model (the tab's loading state).
   */
  guestUrlGuests: Guest[] | null = null
  /** Every guest URLs request the UI sent, in order (subscribe and update). */
  guestUrlsRequests: GuestUrlsViewRequest[] = []
  private guestUrlsView = createGuestUrlsView()
  private guestUrlsVersion = 0
  /** Every id the UI unsubscribed, in order. */
  unsubscribed: number[] = []
  private nextId = 1
  private watchers: ((snapshot: ConnectionSnapshot) => void)[] = []
  private ackWatchers = new Map<number, (alertIds: string[]) => void>()
  private listeners: Listeners = {
    guests: new Map(),
    nodeSummary: new Map(),
    storage: new Map(),
    backups: new Map(),
    alertsOverview: new Map(),
    alertThresholds: new Map(),
    alertHistory: new Map(),
    guestUrls: new Map(),
    resource: new Map(),
    backupCoverage: new Map(),
    backupJobs: new Map(),
    guestBackup: new Map(),
    rulePreview: new Map(),
  }
  /**
   * Issue 26 kinds: the model each sends on subscribe and update (a function of the request, or
   * null for no model yet: the loading state); `pushKind` sends a new one to every subscription.
   */
  answers: {
    [K in 'backupCoverage' | 'backupJobs' | 'guestBackup']?: (
      request: ViewRequest<K>,
    ) => ViewModel<K> | null
  } = {}
  /** Every request of the issue 26 kinds the UI sent, in order (subscribe and update). */
  kindRequests: ViewRequest<'backupCoverage' | 'backupJobs' | 'guestBackup'>[] = []
  private answerKind(id: number, request: ViewRequest): void {
    if (
      this.listeners.guestBackup.has(id) ||
      this.listeners.backupJobs.has(id) ||
      this.listeners.backupCoverage.has(id)
    )
      this.openKindRequests.set(id, request)
    if (request.kind === 'backupCoverage') {
      const model = this.answers.backupCoverage?.(request)
      if (model) this.listeners.backupCoverage.get(id)?.(model)
    } else if (request.kind === 'backupJobs') {
      const model = this.answers.backupJobs?.(request)
      if (model) this.listeners.backupJobs.get(id)?.(model)
    } else if (request.kind === 'guestBackup') {
      const model = this.answers.guestBackup?.(request)
      if (model) this.listeners.guestBackup.get(id)?.(model)
    }
  }
  private openKindRequests = new Map<number, ViewRequest>()
  /** Answers every open subscription of the issue 26 kinds again (after changing `answers`). */
  pushKinds(): void {
    for (const [id, request] of this.openKindRequests) this.answerKind(id, request)
  }

  constructor(snapshot: Partial<ConnectionSnapshot> = {}) {
    this.snapshot = { ...CONNECTED, ...snapshot }
  }

  connect(_options?: ConnectOptions): void {}
  disconnect(): void {}
  reconnectNow(): void {
    this.reconnects += 1
  }
  watchConnection(onChange: (snapshot: ConnectionSnapshot) => void): number {
    this.watchers.push(onChange)
    onChange(this.snapshot)
    return this.nextId++
  }
  /** Records the request and sends the kind's current model, if one is set. */
  subscribe<K extends ViewKind>(
    request: ViewRequest<K> & { kind: K },
    onModel: (model: ViewModel<K>) => void,
  ): number {
    const id = this.nextId++
    const kind: K = request.kind
    const listeners: Map<number, (model: ViewModel<K>) => void> = this.listeners[kind]
    listeners.set(id, onModel)
    this.record(request)
    if (this.model) this.listeners.guests.get(id)?.(this.model)
    if (this.nodeSummary) this.listeners.nodeSummary.get(id)?.(this.nodeSummary)
    if (this.storage) this.listeners.storage.get(id)?.(this.storage)
    if (this.backups) this.listeners.backups.get(id)?.(this.backups)
    if (this.alertsOverview) this.listeners.alertsOverview.get(id)?.(this.alertsOverview)
    if (request.kind === 'guestUrls') this.answerGuestUrls(id, request as GuestUrlsViewRequest)
    if (request.kind === 'resource') this.answerResource(id, request as ResourceViewRequest)
    this.answerKind(id, request)
    return id
  }
  private answerGuestUrls(id: number, request: GuestUrlsViewRequest): void {
    if (!this.guestUrlGuests) return
    const result = this.guestUrlsView.compute({ guests: this.guestUrlGuests }, request)
    this.listeners.guestUrls.get(id)?.({ ...result, version: ++this.guestUrlsVersion })
  }
  /**
   * Answers resource requests (the resource page): a model per `${resourceKind}:${id}`, else
   * `resourceFallback` (null: no model yet, the page's loading state).
   */
  resources = new Map<string, ResourceViewModel>()
  resourceFallback: ResourceViewModel | null = null
  /** Every resource request the UI sent, in order. */
  resourceRequests: ResourceViewRequest[] = []
  private answerResource(id: number, request: ResourceViewRequest): void {
    const model =
      this.resources.get(`${request.resourceKind}:${request.id}`) ?? this.resourceFallback
    if (model) this.listeners.resource.get(id)?.(model)
  }
  /** Pushes an alert history model to every open alert history subscription. */
  pushAlertHistory(model: AlertHistoryModel): void {
    for (const onModel of this.listeners.alertHistory.values()) onModel(model)
  }
  /** Sends the current answer to every open resource subscription (after changing `resources`). */
  pushResources(): void {
    for (const [id] of this.listeners.resource) {
      const request = this.resourceRequests.at(-1)
      if (request) this.answerResource(id, request)
    }
  }
  setAlertConfig(config: AlertConfig, version: number): void {
    this.alertConfigs.push({ config, version })
  }
  update(id: number, request: ViewRequest): void {
    this.record(request)
    if (request.kind === 'guestUrls') this.answerGuestUrls(id, request)
    if (request.kind === 'resource') this.answerResource(id, request)
    this.answerKind(id, request)
  }
  setAlertAck(alertId: string, acknowledged: boolean): void {
    this.acks.push({ alertId, acknowledged })
  }
  dropAlertAck(alertId: string): void {
    this.acks.push({ alertId, acknowledged: 'dropped' })
  }
  watchAlertAckTimeouts(onTimeout: (alertIds: string[]) => void): number {
    const id = this.nextId++
    this.ackWatchers.set(id, onTimeout)
    return id
  }
  private readonly eventWatchers = new Map<number, (event: LiveEvent) => void>()
  watchEvents(onEvent: (event: LiveEvent) => void): number {
    const id = this.nextId++
    this.eventWatchers.set(id, onEvent)
    return id
  }
  /** Delivers a live event to every event watcher, as the worker does. */
  emitEvent(event: LiveEvent): void {
    for (const onEvent of this.eventWatchers.values()) onEvent(event)
  }
  /** Tells every ack-timeout watcher that these pending acks expired. */
  expireAcks(alertIds: string[]): void {
    for (const onTimeout of this.ackWatchers.values()) onTimeout(alertIds)
  }
  /** The history asked for, in order; answered by `historyAnswer` (no series by default). */
  chartRequests: HistoryChartRequest[] = []
  historyAnswer = (request: HistoryChartRequest): Promise<HistoryChartData> =>
    Promise.resolve({
      resourceId: request.resourceId,
      range: request.range,
      stepSeconds: 60,
      source: 'proxmox',
      series: {},
    })
  history(request: HistoryChartRequest): Promise<HistoryChartData> {
    this.chartRequests.push(request)
    return this.historyAnswer(request)
  }

  /** The trends asked for, in order; answered by `trendsAnswer` (none by default). */
  trendRequests: TrendRequest[] = []
  trendsAnswer = (_request: TrendRequest): Promise<TrendData> => Promise.resolve({})
  trends(request: TrendRequest): Promise<TrendData> {
    this.trendRequests.push(request)
    return this.trendsAnswer(request)
  }

  /** The palette's requests, in order (issue 28). */
  paletteRequests: PaletteRequest[] = []
  /** Guests the palette searches, with the real ranking and the real pages (set before asking). */
  paletteGuests: Guest[] = []
  /** The palette's answer; by default the real search over `paletteGuests`. */
  paletteAnswer = (request: PaletteRequest): PaletteResult | Promise<PaletteResult> =>
    searchPalette(
      [
        createEntrySource('page', PALETTE_PAGES, true),
        createEntrySource('setting', PALETTE_SETTINGS, false),
        createEntrySource('action', paletteActions(request.wallView === true), true),
        createGuestSource(this.paletteGuests),
      ],
      request.query,
    )
  palette(request: PaletteRequest): PaletteResult | Promise<PaletteResult> {
    this.paletteRequests.push(request)
    return this.paletteAnswer(request)
  }

  unsubscribe(id: number): void {
    this.unsubscribed.push(id)
    this.ackWatchers.delete(id)
    this.eventWatchers.delete(id)
    this.openKindRequests.delete(id)
    for (const listeners of Object.values(this.listeners)) listeners.delete(id)
  }

  private record(request: ViewRequest): void {
    if (request.kind === 'guests') this.requests.push(request)
    else if (request.kind === 'nodeSummary') this.summaryRequests.push(request)
    else if (request.kind === 'storage') this.storageRequests.push(request)
    else if (request.kind === 'alertsOverview') this.alertsRequests.push(request)
    else if (request.kind === 'alertThresholds') this.thresholdRequests.push(request)
    else if (request.kind === 'backups') this.backupsRequests.push(request)
    else if (request.kind === 'guestUrls') this.guestUrlsRequests.push(request)
    else if (request.kind === 'resource') this.resourceRequests.push(request)
    else if (
      request.kind === 'backupCoverage' ||
      request.kind === 'backupJobs' ||
      request.kind === 'guestBackup'
    )
      this.kindRequests.push(request)
  }

  /** Sends a new connection snapshot to every watcher. */
  setConnection(change: Partial<ConnectionSnapshot>): void {
    this.snapshot = { ...this.snapshot, ...change }
    for (const watcher of this.watchers) watcher(this.snapshot)
  }
  /** Pushes a model to every open guest subscription. */
  push(model: GuestViewModel): void {
    this.model = model
    for (const onModel of this.listeners.guests.values()) onModel(model)
  }
  /** Pushes a node summary model to every open node summary subscription. */
  pushNodeSummary(model: NodeSummaryModel): void {
    this.nodeSummary = model
    for (const onModel of this.listeners.nodeSummary.values()) onModel(model)
  }
  /** Pushes a storage model to every open storage subscription. */
  pushStorage(model: StorageViewModel): void {
    this.storage = model
    for (const onModel of this.listeners.storage.values()) onModel(model)
  }
  get openStorageViews(): number {
    return this.listeners.storage.size
  }
  /** Pushes a backups model to every open backups subscription. */
  pushBackups(model: BackupsViewModel): void {
    this.backups = model
    for (const onModel of this.listeners.backups.values()) onModel(model)
  }
  get ackTimeoutWatchers(): number {
    return this.ackWatchers.size
  }
  /** Pushes an alerts overview model to every open alerts overview subscription. */
  pushAlerts(model: AlertsOverviewModel): void {
    this.alertsOverview = model
    for (const onModel of this.listeners.alertsOverview.values()) onModel(model)
  }
  get lastRequest(): GuestViewRequest | undefined {
    return this.requests[this.requests.length - 1]
  }
  get openViews(): number {
    return this.listeners.guests.size
  }
}

export function groupRow(label: string, guestCount: number): GuestGroupRow {
  return {
    kind: 'group',
    key: `node:${label}`,
    nodeId: label,
    label,
    sublabel: 'cluster-a',
    online: true,
    guestCount,
  }
}

export function guestRow(vmid: number, name: string, change: Partial<GuestRow> = {}): GuestRow {
  return {
    kind: 'guest',
    key: `guest:${vmid}`,
    id: `lab-pve1-${vmid}`,
    nodeVmidKey: `pve1-${vmid}`,
    name,
    typeLabel: 'VM',
    vmid,
    node: 'pve1',
    status: 'running',
    active: true,
    tags: [],
    uptimeText: '2d 3h',
    uptimeShort: false,
    cpuPercent: 12,
    cpuText: '12%',
    memoryPercent: 40,
    memoryText: '40%',
    diskPercent: 55,
    diskText: '55%',
    diskReadText: '1.0 KB/s',
    diskWriteText: '2.0 KB/s',
    networkInText: '3.0 KB/s',
    networkOutText: '4.0 KB/s',
    diskRead: 1024,
    diskWrite: 2048,
    networkIn: 3072,
    networkOut: 4096,
    alert: null,
    detail: null,
    ...change,
  }
}

/** A model whose window holds exactly `rows`, starting at row 0. */
export function viewModel(
  rows: GuestViewRow[],
  change: Partial<GuestViewModel> = {},
): GuestViewModel {
  const guests = rows.filter((row): row is GuestRow => row.kind === 'guest')
  const running = guests.filter((row) => row.status === 'running').length
  return {
    kind: 'guests',
    version: 1,
    totals: {
      guests: guests.length,
      running,
      stopped: guests.length - running,
      matched: guests.length,
    },
    rowCount: rows.length,
    start: 0,
    rows,
    lastUpdate: CONNECTED.lastUpdate,
    ...change,
  }
}
