// A fake of the worker's API for component tests. The UI only sees the WorkerApi contract, so a
// fake lets each test set the exact connection snapshot and view model it needs. The real worker
// is tested in tests/browser/worker, and the two together end to end in tests/e2e.
import type { ConnectOptions, ConnectionSnapshot } from '../../../src/worker/api-types.ts'
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
import type { WorkerPort } from '../../../src/ui/worker-port.ts'

export const CONNECTED: ConnectionSnapshot = {
  status: 'connected',
  initialDataReceived: true,
  attempt: 0,
  lastUpdate: Date.UTC(2025, 0, 1, 12, 0, 0),
  firstPollDone: true,
  backupsCollected: true,
  nextRetryAt: null,
  nodeCount: 2,
  guestCount: 3,
  serverVersion: '0.1.0',
}

export class FakeWorker implements WorkerPort {
  snapshot: ConnectionSnapshot
  model: GuestViewModel | null = null
  reconnects = 0
  /** Every guest request the UI sent, in order (subscribe and update). */
  requests: GuestViewRequest[] = []
  private nextId = 1
  private watchers: ((snapshot: ConnectionSnapshot) => void)[] = []
  private views = new Map<number, (model: GuestViewModel) => void>()
  /** Latest node summary model; set it before rendering, or send a new one with pushNodeSummary. */
  nodeSummary: NodeSummaryModel | null = null
  /** Every node summary request the UI sent, in order (subscribe and update). */
  summaryRequests: NodeSummaryRequest[] = []
  private summaries = new Map<number, (model: NodeSummaryModel) => void>()
  /** Latest storage model; set it before rendering, or send a new one with pushStorage. */
  storage: StorageViewModel | null = null
  /** Every storage request the UI sent, in order (subscribe and update). */
  storageRequests: StorageViewRequest[] = []
  private storageViews = new Map<number, (model: StorageViewModel) => void>()

  /** Latest backups model; set it before rendering, or send a new one with pushBackups. */
  backups: BackupsViewModel | null = null
  /** Every backups request the UI sent, in order (subscribe and update). */
  backupsRequests: BackupsViewRequest[] = []
  private backupViews = new Map<number, (model: BackupsViewModel) => void>()

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
  subscribeGuests(request: GuestViewRequest, onModel: (model: GuestViewModel) => void): number {
    const id = this.nextId++
    this.views.set(id, onModel)
    this.requests.push(request)
    if (this.model) onModel(this.model)
    return id
  }
  updateGuests(_id: number, request: GuestViewRequest): void {
    this.requests.push(request)
  }
  subscribeNodeSummary(
    request: NodeSummaryRequest,
    onModel: (model: NodeSummaryModel) => void,
  ): number {
    const id = this.nextId++
    this.summaries.set(id, onModel)
    this.summaryRequests.push(request)
    if (this.nodeSummary) onModel(this.nodeSummary)
    return id
  }
  updateNodeSummary(_id: number, request: NodeSummaryRequest): void {
    this.summaryRequests.push(request)
  }
  subscribeStorage(
    request: StorageViewRequest,
    onModel: (model: StorageViewModel) => void,
  ): number {
    const id = this.nextId++
    this.storageViews.set(id, onModel)
    this.storageRequests.push(request)
    if (this.storage) onModel(this.storage)
    return id
  }
  updateStorage(_id: number, request: StorageViewRequest): void {
    this.storageRequests.push(request)
  }
  subscribeBackups(
    request: BackupsViewRequest,
    onModel: (model: BackupsViewModel) => void,
  ): number {
    const id = this.nextId++
    this.backupViews.set(id, onModel)
    this.backupsRequests.push(request)
    if (this.backups) onModel(this.backups)
    return id
  }
  updateBackups(_id: number, request: BackupsViewRequest): void {
    this.backupsRequests.push(request)
  }
  unsubscribe(id: number): void {
    this.backupViews.delete(id)
    this.views.delete(id)
    this.summaries.delete(id)
    this.storageViews.delete(id)
  }

  /** Sends a new connection snapshot to every watcher. */
  setConnection(change: Partial<ConnectionSnapshot>): void {
    this.snapshot = { ...this.snapshot, ...change }
    for (const watcher of this.watchers) watcher(this.snapshot)
  }
  /** Pushes a model to every open guest subscription. */
  push(model: GuestViewModel): void {
    this.model = model
    for (const onModel of this.views.values()) onModel(model)
  }
  /** Pushes a node summary model to every open node summary subscription. */
  pushNodeSummary(model: NodeSummaryModel): void {
    this.nodeSummary = model
    for (const onModel of this.summaries.values()) onModel(model)
  }
  /** Pushes a storage model to every open storage subscription. */
  pushStorage(model: StorageViewModel): void {
    this.storage = model
    for (const onModel of this.storageViews.values()) onModel(model)
  }
  get openStorageViews(): number {
    return this.storageViews.size
  }
  /** Pushes a backups model to every open backups subscription. */
  pushBackups(model: BackupsViewModel): void {
    this.backups = model
    for (const onModel of this.backupViews.values()) onModel(model)
  }
  get lastRequest(): GuestViewRequest | undefined {
    return this.requests[this.requests.length - 1]
  }
  get openViews(): number {
    return this.views.size
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
