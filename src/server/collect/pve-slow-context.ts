// What the slower PVE collectors of one endpoint share (pve-slow.ts runs them): their memory
// between cycles, the context a run hands them, and the limits of their calls.
import type { ListMapper } from './json-slices.ts'
import type {
  BackupCoverage,
  BackupJob,
  BackupTask,
  CephCluster,
  GuestSnapshot,
  PhysicalDisk,
  Storage,
  StorageBackup,
  ZfsPool,
} from '../../shared/model/state.ts'
import type { EnrichedTask } from './pve-slow-jobs.ts'
import type { TaskLogSummary } from './pve-task-logs.ts'
import type { FailureLog, QueryCall, Schedule, ScheduleClock } from './collector.ts'
import { createCallBudgets, type CallBudgets } from './call-budgets.ts'
import { createLimiter, type Limiter } from './limiter.ts'
import { createInterner, type Interner } from './intern.ts'

/** At most this many disks/smart calls per SMART round; the rest rotate to later rounds. */
export const SMART_MAX_PER_ROUND = 16
/** In-flight calls of the slower collectors per endpoint. */
export const SLOW_CONCURRENCY = 4
/** Budget of one call; after it the call counts as failed (the request itself is aborted). */
export const SLOW_CALL_BUDGET_MS = 8_000
/**
 * A path that ran out of its budget gets twice as much at its next call, up to this (8, 16, 32,
 * 64 s): a listing that is merely large is read in the end, a dead storage costs one slot of
 * SLOW_CONCURRENCY for at most this long per refresh (call-budgets.ts).
 */
export const SLOW_CALL_MAX_BUDGET_MS = 64_000
/**
 * A backup listing is read again only after this many times its last read took: at most a tenth
 * of the time goes to one listing (a 30 s listing every 5 minutes, not every minute). Listings
 * under CADENCE_MS.backups / LISTING_DUTY keep that cadence.
 */
export const LISTING_DUTY = 10
/** vzdump tasks of this many past seconds are listed. */
export const TASK_WINDOW_S = 7 * 86_400
/** Most tasks asked per node and refresh. */
export const TASK_LIMIT = 500
/** Snapshot lists fetched per cycle at least (small estates fill in one cycle). */
export const SNAPSHOT_MIN_BATCH = 10

/** One guest, as the fast poll knows it. */
export interface SlowGuest {
  vmid: number
  node: string
  type: 'qemu' | 'lxc'
  template?: boolean
}

/** Everything pollPveSlow needs; `call` is the endpoint client's get, wrapped for accounting. */
export interface PveSlowContext {
  instance: string
  call: QueryCall
  nodes: readonly { name: string; online: boolean }[]
  guests: readonly SlowGuest[]
  /** The raw /cluster/resources list of this cycle (its storage entries are the fallback). */
  resources: readonly unknown[]
  memory: PveSlowMemory
  /** Epoch ms of this cycle, from the poller's clock: the cadences are measured in it. */
  now: number
  /** The poller's interval; cadences shorter than it run every cycle. Default 10 s. */
  pollIntervalMs?: number
  warn(obj: object, msg: string): void
  onCache?(hit: boolean): void
}

/** What one run hands each slow collector: the context, plus a budgeted GET and failure log. */
export interface SlowRun extends ScheduleClock {
  instance: string
  nodes: PveSlowContext['nodes']
  guests: PveSlowContext['guests']
  resources: PveSlowContext['resources']
  memory: PveSlowMemory
  /**
   * GET within the limiter and the per-call budget; rejects with an AppError. `each` maps every
   * element of a list answer while it is parsed (PveClient.get).
   */
  request(
    path: string,
    query?: Record<string, string | number>,
    each?: ListMapper,
  ): Promise<unknown>
  log: FailureLog
}

/** What one endpoint contributes to the live state. */
export interface PveSlowResult {
  storage: Storage[]
  cephClusters: CephCluster[]
  physicalDisks: PhysicalDisk[]
  /** Each keeps its identity, and so do its unchanged records, until that list's data changes. */
  storageBackups: StorageBackup[]
  guestSnapshots: GuestSnapshot[]
  backupTasks: BackupTask[]
  /** Issue 26: the instance's backup jobs and its guests in no job (one record, or none). */
  backupJobs: BackupJob[]
  backupCoverage: BackupCoverage[]
  /**
   * Some backup volumes of this instance may be missing: a storage list or backup listing that
   * could be read has not been, yet (every read so far failed, or none was made). True until the
   * first run.
   */
  backupsPending: boolean
}

/** A list read on one node. */
export interface Listed<T> {
  node: string
  list: T[]
}

/** A guest's snapshot list and when it was read (epoch ms). */
export interface SnapshotEntry extends Listed<GuestSnapshot> {
  at: number
}

/** What survives between cycles for one endpoint. Opaque to callers. */
export interface PveSlowMemory {
  running: boolean
  /** Aborted (with a CollectCancelled) when the endpoint's background work must end now. */
  cancel: AbortController
  limiter: Limiter
  /** Per-path call budgets: grown for the paths that timed out (call-budgets.ts). */
  budgets: CallBudgets
  /** Last attempt per collector (collector.ts). */
  schedule: Schedule
  /** Keys of parts that failed and were already reported. */
  warned: Set<string>
  nodeKey: string
  /** Last good /nodes/{n}/storage per node (never the fallback). */
  storage: Map<string, Storage[]>
  /** The current storage view per node: fresh, fallback or marked unknown. */
  storageView: Map<string, Storage[]>
  /** Nodes whose last storage call failed: their storage is not listed either. */
  storageFailed: Set<string>
  /** zfspool storage name -> pool, from /storage. */
  zfsPoolNames: Map<string, string>
  zfs: Map<string, ZfsPool[]>
  ceph: CephCluster[]
  cephPools: unknown
  /** Last good raw disks/list per node, with the epoch ms it was read. */
  disks: Map<string, { raw: unknown[]; at: number }>
  /** Epoch ms of the last SMART round. */
  smartAt: number
  smartOffset: number
  /** node -> devPath -> Celsius, from the last SMART read of that disk. */
  temperatures: Map<string, Map<string, number>>
  /** `shared:<storage>` or `<node>/<storage>` -> volumes listed on `node`. */
  backups: Map<string, Listed<StorageBackup>>
  /**
   * Sources of backup volumes never read yet: `view:<node>` for an online node's storage list,
   * else a listing key. They hold the instance's backups pending (pve-slow-backups.ts).
   */
  backupsUnread: Set<string>
  /**
   * Listing key -> when its last good read started (epoch ms, the run's clock) and how long it
   * took (ms): a slow listing waits LISTING_DUTY times as long before its next read.
   */
  backupsListed: Map<string, { at: number; ms: number }>
  /** Shared copies of the strings backup volumes repeat (intern.ts). */
  intern: Interner
  tasks: Map<string, BackupTask[]>
  /** `<type>/<vmid>` -> snapshots. */
  snapshots: Map<string, SnapshotEntry>
  /** Last good /cluster/backup (undefined until one read succeeded). */
  jobs: BackupJob[] | undefined
  /** Last good not-backed-up read. */
  coverage: BackupCoverage | undefined
  /** BackupTask id -> what its log told; read once per ended task. */
  taskLogs: Map<string, TaskLogSummary>
  /** BackupTask id -> epoch ms its log read last failed. */
  taskLogFailedAt: Map<string, number>
  /** BackupTask id -> the task as last built with its log summary and job. */
  enrichedTasks: Map<string, EnrichedTask>
  result: PveSlowResult
}

/** Creates empty memory for a new endpoint. */
export function createPveSlowMemory(): PveSlowMemory {
  return {
    running: false,
    cancel: new AbortController(),
    limiter: createLimiter(SLOW_CONCURRENCY),
    budgets: createCallBudgets(SLOW_CALL_BUDGET_MS, SLOW_CALL_MAX_BUDGET_MS),
    schedule: new Map(),
    warned: new Set(),
    nodeKey: '',
    storage: new Map(),
    storageView: new Map(),
    storageFailed: new Set(),
    zfsPoolNames: new Map(),
    zfs: new Map(),
    ceph: [],
    cephPools: undefined,
    disks: new Map(),
    smartAt: -Infinity,
    smartOffset: 0,
    temperatures: new Map(),
    backups: new Map(),
    backupsUnread: new Set(),
    backupsListed: new Map(),
    intern: createInterner(),
    tasks: new Map(),
    snapshots: new Map(),
    jobs: undefined,
    coverage: undefined,
    taskLogs: new Map(),
    taskLogFailedAt: new Map(),
    enrichedTasks: new Map(),
    result: {
      storage: [],
      cephClusters: [],
      physicalDisks: [],
      storageBackups: [],
      guestSnapshots: [],
      backupTasks: [],
      backupJobs: [],
      backupCoverage: [],
      backupsPending: true,
    },
  }
}

/** A path segment. */
export function enc(value: string): string {
  return encodeURIComponent(value)
}

/** Names of the online nodes. */
export function onlineNodes(run: SlowRun): string[] {
  return run.nodes.filter((n) => n.online).map((n) => n.name)
}
