// What the poller hands on after each cycle: the endpoints it is given, and one CollectedState
// built from every endpoint's memory. Samples of the slower collectors are joined so that an
// unchanged part keeps its array identity (merge-collected.ts): the hub's diff stays cheap.
import type {
  BackupCoverage,
  BackupJob,
  CephCluster,
  BackupTask,
  Guest,
  GuestSnapshot,
  PbsBackup,
  PbsInstance,
  PbsJob,
  Performance,
  PhysicalDisk,
  PveNode,
  Storage,
  StorageBackup,
} from '../../shared/model/state.ts'
import type { CallStats } from './call-stats.ts'
import type { PbsJobFlags } from './pbs-jobs-poll.ts'
import type { EndpointSlot } from './endpoint-slot.ts'
import { createListJoiner } from './merge-collected.ts'
import type { PveAuth } from './pve-client.ts'

/** A PVE or PBS endpoint to monitor, as the node service configures it. */
export interface MonitoredEndpoint {
  id: string
  /** Instance name: prefixes ids and keys connectionHealth. */
  name: string
  type: 'pve' | 'pbs'
  host: string
  auth: PveAuth
  verifySSL: boolean
  fingerprint?: string
  /** PBS: the job kinds its monitor flags turn on (all when absent). */
  pbsJobs?: PbsJobFlags
}

/** What one cycle produced, across all endpoints. */
export interface CollectedState {
  nodes: PveNode[]
  vms: Guest[]
  containers: Guest[]
  storage: Storage[]
  cephClusters: CephCluster[]
  physicalDisks: PhysicalDisk[]
  storageBackups: StorageBackup[]
  guestSnapshots: GuestSnapshot[]
  backupTasks: BackupTask[]
  backupJobs: BackupJob[]
  backupCoverage: BackupCoverage[]
  pbs: PbsInstance[]
  pbsBackups: PbsBackup[]
  pbsJobs: PbsJob[]
  performance: Performance
  connectionHealth: Record<string, boolean>
  connectionErrors: Record<string, string>
  lastUpdate: number
  pollingCycles: number
  /** Every connected source's storage and backups have been read at least once. */
  backupsCollected: boolean
  /**
   * Connected sources (endpoint names, sorted) whose backups are not all read yet: a PVE instance
   * with a storage list or backup listing that failed or was not made yet (pve-slow-backups.ts),
   * a PBS before its first read. Their missing backups are unknown, not absent.
   */
  backupsPending: string[]
}

/** The cycle figures that go into `performance` and `pollingCycles`. */
export interface CycleFigures {
  at: number
  cycles: number
  lastPollDuration: number
  pollingStartTime: number
}

/** Builds CollectedStates; keeps the joiners' memory of the last arrays between cycles. */
export function createStateBuilder(
  stats: CallStats,
  slowCollectors = true,
): (slots: Iterable<EndpointSlot>, figures: CycleFigures) => CollectedState {
  const joinStorage = createListJoiner<Storage>()
  const joinCeph = createListJoiner<CephCluster>()
  const joinDisks = createListJoiner<PhysicalDisk>()
  const joinPbsBackups = createListJoiner<PbsBackup>()
  const joinStorageBackups = createListJoiner<StorageBackup>()
  const joinSnapshots = createListJoiner<GuestSnapshot>()
  const joinTasks = createListJoiner<BackupTask>()
  const joinJobs = createListJoiner<BackupJob>()
  const joinCoverage = createListJoiner<BackupCoverage>()
  const joinPbsJobs = createListJoiner<PbsJob>()

  // Built from the slots present now: an endpoint removed mid-cycle disappears here.
  return (slots, figures) => {
    const state: CollectedState = {
      nodes: [],
      vms: [],
      containers: [],
      storage: [],
      cephClusters: [],
      physicalDisks: [],
      storageBackups: [],
      guestSnapshots: [],
      backupTasks: [],
      backupJobs: [],
      backupCoverage: [],
      pbs: [],
      pbsBackups: [],
      pbsJobs: [],
      performance: {
        apiCallDuration: stats.medians(),
        lastPollDuration: figures.lastPollDuration,
        pollingStartTime: figures.pollingStartTime,
        totalApiCalls: stats.totalApiCalls,
        failedApiCalls: stats.failedApiCalls,
        cacheHits: stats.cacheHits,
        cacheMisses: stats.cacheMisses,
      },
      connectionHealth: {},
      connectionErrors: {},
      lastUpdate: figures.at,
      pollingCycles: figures.cycles,
      backupsCollected: true,
      backupsPending: [],
    }
    const storage: Storage[][] = []
    const ceph: CephCluster[][] = []
    const disks: PhysicalDisk[][] = []
    const storageBackups: StorageBackup[][] = []
    const snapshots: GuestSnapshot[][] = []
    const tasks: BackupTask[][] = []
    const pbsBackups: PbsBackup[][] = []
    const jobs: BackupJob[][] = []
    const coverage: BackupCoverage[][] = []
    const pbsJobs: PbsJob[][] = []
    for (const slot of slots) {
      if (slot.status === 'pending') continue
      const name = slot.endpoint.name
      state.connectionHealth[name] = slot.status === 'connected'
      if (slot.error) state.connectionErrors[name] = slot.error
      // A source that is down will not deliver; only a connected one without a first read waits.
      const read = slot.pbs ? slot.pbs.result : !slowCollectors || slot.memory.slowResult
      if (slot.status === 'connected' && !read) state.backupsCollected = false
      const pending = slot.pbs
        ? !slot.pbs.result
        : slowCollectors && (slot.memory.slowResult?.backupsPending ?? true)
      if (slot.status === 'connected' && pending) state.backupsPending.push(name)
      if (slot.pbs) {
        if (slot.pbs.result) {
          state.pbs.push(slot.pbs.result.instance)
          pbsBackups.push(slot.pbs.result.backups)
          pbsJobs.push(slot.pbs.result.jobs)
        }
        continue
      }
      state.nodes.push(...slot.memory.nodes)
      state.vms.push(...slot.memory.vms)
      state.containers.push(...slot.memory.containers)
      const slow = slot.memory.slowResult
      if (slow) {
        storage.push(slow.storage)
        ceph.push(slow.cephClusters)
        disks.push(slow.physicalDisks)
        storageBackups.push(slow.storageBackups)
        snapshots.push(slow.guestSnapshots)
        tasks.push(slow.backupTasks)
        jobs.push(slow.backupJobs)
        coverage.push(slow.backupCoverage)
      }
    }
    state.storage = joinStorage(storage)
    state.cephClusters = joinCeph(ceph)
    state.physicalDisks = joinDisks(disks)
    state.storageBackups = joinStorageBackups(storageBackups)
    state.guestSnapshots = joinSnapshots(snapshots)
    state.backupTasks = joinTasks(tasks)
    state.pbsBackups = joinPbsBackups(pbsBackups)
    state.backupJobs = joinJobs(jobs)
    state.backupCoverage = joinCoverage(coverage)
    state.pbsJobs = joinPbsJobs(pbsJobs)
    state.backupsPending.sort()
    return state
  }
}
