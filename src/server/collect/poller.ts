// The PVE poller: every interval, polls all monitored endpoints in parallel and hands one
// CollectedState to onState. Cycles never overlap. Owns the clients of each endpoint, one pair per
// URL it uses (the configured one, or a cluster member it failed over to: failover.ts decides).
import { AppError } from '../../shared/model/errors.ts'
import { createListJoiner, createRecordJoiner } from './merge-collected.ts'
import {
  createPbsMemory,
  markPbsDown,
  pollPbs,
  type PbsMemory,
  type PbsPollResult,
} from './pbs-poll.ts'
import type {
  CephCluster,
  Guest,
  PbsBackup,
  PbsInstance,
  Performance,
  PhysicalDisk,
  PveBackups,
  PveNode,
  Storage,
} from '../../shared/model/state.ts'
import { createCallStats } from './call-stats.ts'
import {
  createEndpointMemory,
  markEndpointDown,
  pollEndpoint,
  type EndpointMemory,
} from './endpoint-poll.ts'
import {
  createFailoverState,
  describeFailures,
  learnLocalMember,
  planAttempts,
  pollWithFailover,
  shouldProbeHome,
  toEndpointInfo,
  type EndpointInfo,
  type FailoverChange,
  type FailoverState,
} from './failover.ts'
import { cancelDetails, DETAIL_POLICY, type DetailPolicy } from './pve-agent.ts'
import { createPveClient, type PveAuth, type PveClient } from './pve-client.ts'
import { STANDALONE_CLUSTER } from './pve-cluster.ts'
import { createRateTracker } from './rates.ts'

export type { EndpointInfo, EndpointMember } from './failover.ts'

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
}

/** What one cycle produced, across all endpoints. */
export interface CollectedState {
  nodes: PveNode[]
  vms: Guest[]
  containers: Guest[]
  storage: Storage[]
  cephClusters: CephCluster[]
  physicalDisks: PhysicalDisk[]
  pveBackups: PveBackups
  pbs: PbsInstance[]
  pbsBackups: PbsBackup[]
  performance: Performance
  connectionHealth: Record<string, boolean>
  connectionErrors: Record<string, string>
  lastUpdate: number
  pollingCycles: number
  /** Every connected source's storage and backups have been read at least once. */
  backupsCollected: boolean
}

/** Drives polling. */
export interface Poller {
  start(): void
  stop(): Promise<void>
  /** Runs a cycle now; if one is running, waits for it and then runs a fresh one. */
  pollNow(): Promise<void>
  setEndpoints(endpoints: MonitoredEndpoint[]): void
  endpointStatus(id: string): 'pending' | 'connected' | 'error'
  /** The last connection error text of an endpoint whose status is 'error'. */
  endpointError(id: string): string | undefined
  /**
   * Cluster identity, members and the URL in use (the configured one, or a member after a
   * failover) of a configured endpoint; undefined for an unknown id.
   */
  endpointInfo(id: string): EndpointInfo | undefined
}

/** Extra client settings the poller asks for (the guest-detail client wants more sockets). */
export interface ClientTuning {
  maxConcurrency?: number
}

/** Options of createPoller. */
export interface PollerOptions {
  intervalMs?: number
  onState: (state: CollectedState) => void
  now?: () => number
  log?: { warn(obj: object, msg: string): void; info?(obj: object, msg: string): void }
  /** Called with the endpoint's settings and the URL to reach (`host`, maybe a cluster member). */
  createClient?: (endpoint: MonitoredEndpoint, tuning?: ClientTuning) => PveClient
  /** Overrides of the guest-detail cadence and bounds (DETAIL_POLICY). */
  guestDetails?: Partial<DetailPolicy>
  /** Storage, ZFS, Ceph, disks and backups (pve-slow.ts); default on. */
  slowCollectors?: boolean
}

/** The clients of one URL: the cycle's own, and one for guest details so they never queue ahead. */
interface UrlClients {
  main: PveClient
  details: PveClient
}

interface Slot {
  endpoint: MonitoredEndpoint
  /** PBS endpoints: the collector's memory and its last result. */
  pbs?: { memory: PbsMemory; result?: PbsPollResult }
  clients: Map<string, UrlClients>
  failover: FailoverState
  probe?: Promise<void>
  status: 'pending' | 'connected' | 'error'
  error?: string
  memory: EndpointMemory
}

const CLUSTER_STATUS_EVERY = 3
const DETAIL_CONCURRENCY = 4
/** Guest-detail calls in flight per endpoint (DETAIL_POLICY.perNode bounds each node). */
const GUEST_DETAIL_CONCURRENCY = 8
/** How long a cycle lets freshly started detail refreshes land before merging the cache. */
const GUEST_DETAIL_BUDGET_MS = 200
/** How long a cycle waits for the slower collectors (storage first); longer on the first read. */
const SLOW_BUDGET_MS = 300
const SLOW_FIRST_BUDGET_MS = 3_000
/** URLs tried per cycle and endpoint: the active one and up to two other members. */
const FAILOVER_ATTEMPTS = 3
/** While on a member, probe the configured URL every this many cycles, in the background. */
const HOME_PROBE_EVERY = 3
const HOME_PROBE_TIMEOUT_MS = 3_000

/** Creates a poller; nothing runs until start() or pollNow(). */
export function createPoller(options: PollerOptions): Poller {
  const intervalMs = options.intervalMs ?? 10_000
  const now = options.now ?? Date.now
  const warn = (obj: object, msg: string): void => options.log?.warn(obj, msg)
  const info = (obj: object, msg: string): void =>
    options.log?.info ? options.log.info(obj, msg) : warn(obj, msg)
  const createClient =
    options.createClient ??
    ((e: MonitoredEndpoint, tuning?: ClientTuning) =>
      createPveClient({
        host: e.host,
        auth: e.auth,
        verifySSL: e.verifySSL,
        fingerprint: e.fingerprint,
        product: e.type,
        ...(tuning?.maxConcurrency ? { maxConcurrency: tuning.maxConcurrency } : {}),
      }))
  // One /nodes/{n}/status must never hold up the cycle: give it a fraction of the interval.
  const detailTimeoutMs = Math.max(1_000, Math.min(5_000, Math.floor(intervalMs / 2)))
  const detailPolicy: DetailPolicy = { ...DETAIL_POLICY, ...options.guestDetails }
  const slots = new Map<string, Slot>()
  const stats = createCallStats()
  const rates = createRateTracker({ forgetAfterMs: Math.max(5 * 60_000, intervalMs * 10) })
  const joinStorage = createListJoiner<Storage>()
  const joinCeph = createListJoiner<CephCluster>()
  const joinDisks = createListJoiner<PhysicalDisk>()
  const joinPbsBackups = createListJoiner<PbsBackup>()
  const joinBackups = createRecordJoiner<keyof PveBackups, PveBackups[keyof PveBackups][number]>([
    'backupTasks',
    'storageBackups',
    'guestSnapshots',
  ]) as (parts: readonly PveBackups[]) => PveBackups
  let cycles = 0
  let lastPollDuration = 0
  let pollingStartTime = 0
  let timer: ReturnType<typeof setInterval> | undefined
  let running: Promise<void> | undefined
  let queued: Promise<void> | undefined

  // Same credentials and TLS settings at every URL of the endpoint (a pin stays a pin).
  function clientsFor(slot: Slot, url: string): UrlClients {
    let clients = slot.clients.get(url)
    if (!clients) {
      const endpoint = { ...slot.endpoint, host: url }
      const main = createClient(endpoint)
      const details = createClient(endpoint, { maxConcurrency: GUEST_DETAIL_CONCURRENCY })
      clients = { main, details }
      slot.clients.set(url, clients)
    }
    return clients
  }

  function closeClients(slot: Slot, keep: (url: string) => boolean = () => false): void {
    for (const [url, clients] of slot.clients) {
      if (keep(url)) continue
      slot.clients.delete(url)
      for (const client of [clients.main, clients.details]) {
        client
          .close()
          .catch((err: unknown) =>
            warn({ endpoint: slot.endpoint.name, err }, 'closing client failed'),
          )
      }
    }
  }

  // Background work of a slot (detail refreshes, the home probe) must end before its clients close.
  async function quiesce(slot: Slot): Promise<void> {
    await cancelDetails(slot.memory.guestDetails)
    await slot.probe
    await slot.memory.slowRun
  }

  // The slower collectors pass query parameters; same accounting.
  function accountedQuery(client: PveClient) {
    return async (
      path: string,
      query?: Record<string, string | number>,
      signal?: AbortSignal,
    ): Promise<unknown> => {
      const started = performance.now()
      let ok = false
      try {
        const data = await client.get(path, query, signal)
        ok = true
        return data
      } finally {
        stats.record(path, performance.now() - started, ok)
      }
    }
  }

  function accounted(client: PveClient) {
    return async (path: string, signal?: AbortSignal): Promise<unknown> => {
      const started = performance.now()
      let ok = false
      try {
        const data = await client.get(path, undefined, signal)
        ok = true
        return data
      } finally {
        stats.record(path, performance.now() - started, ok)
      }
    }
  }

  async function pollAt(slot: Slot, url: string, cycle: number, at: number): Promise<void> {
    const clients = clientsFor(slot, url)
    await pollEndpoint({
      instance: slot.endpoint.name,
      host: slot.endpoint.host,
      url,
      call: accounted(clients.main),
      detailCall: accounted(clients.details),
      memory: slot.memory,
      rates,
      now: at,
      cycle,
      clusterEvery: CLUSTER_STATUS_EVERY,
      detailTimeoutMs,
      detailConcurrency: DETAIL_CONCURRENCY,
      guestDetails: { policy: detailPolicy, budgetMs: GUEST_DETAIL_BUDGET_MS },
      slow:
        options.slowCollectors === false
          ? undefined
          : {
              call: accountedQuery(clients.details),
              budgetMs: SLOW_BUDGET_MS,
              firstBudgetMs: SLOW_FIRST_BUDGET_MS,
            },
      onCache: (hit) => stats.recordCache(hit),
      warn,
    }).catch((err: unknown) => {
      // Anything but an AppError is our bug: log it; failover.ts reports it as unreachable.
      if (!(err instanceof AppError)) warn({ endpoint: slot.endpoint.name, err }, 'poll crashed')
      throw err
    })
  }

  // A Proxmox Backup Server is one host: no cluster, no failover.
  async function pollPbsSlot(slot: Slot, cycle: number, at: number): Promise<void> {
    const pbs = (slot.pbs ??= { memory: createPbsMemory() })
    try {
      pbs.result = await pollPbs({
        instance: slot.endpoint.name,
        host: slot.endpoint.host,
        call: accountedQuery(clientsFor(slot, slot.endpoint.host).main),
        memory: pbs.memory,
        now: at,
        cycle,
        warn,
      })
      slot.status = 'connected'
      slot.error = undefined
    } catch (err) {
      const appError =
        err instanceof AppError
          ? err
          : new AppError('PVE_UNREACHABLE', { host: slot.endpoint.host, reason: 'internal error' })
      if (!(err instanceof AppError)) warn({ endpoint: slot.endpoint.name, err }, 'poll crashed')
      slot.status = 'error'
      slot.error = appError.userMessage
      const down = markPbsDown(pbs.memory, appError)
      pbs.result = down ? { instance: down, backups: pbs.result?.backups ?? [] } : undefined
      warn({ endpoint: slot.endpoint.name, code: appError.code }, 'PBS poll failed')
    }
  }

  // The active URL, else other cluster members, within this cycle (failover.ts decides).
  async function pollSlot(slot: Slot, cycle: number, at: number): Promise<void> {
    if (slot.endpoint.type === 'pbs') return pollPbsSlot(slot, cycle, at)
    probeHome(slot, cycle)
    const { failover, memory } = slot
    const attempts = planAttempts(failover, memory.cluster, cycle, FAILOVER_ATTEMPTS)
    const outcome = await pollWithFailover(
      failover,
      attempts,
      (url) => pollAt(slot, url, cycle, at),
      (url, err) => logMemberFailure(slot, url, err),
    )
    if (outcome.ok) {
      answered(slot, outcome.url, outcome.change)
    } else {
      const [first] = outcome.failures
      slot.status = 'error'
      slot.error = describeFailures(outcome.failures)
      markEndpointDown(memory)
      warn({ endpoint: slot.endpoint.name, code: first?.code }, 'endpoint poll failed')
    }
    retireClients(slot)
  }

  // Clients of URLs we tried and left; closed once the detail refreshes using them are done.
  function retireClients(slot: Slot): void {
    const { failover } = slot
    const keep = (url: string): boolean =>
      url === failover.activeUrl || url === failover.configuredUrl
    if ([...slot.clients.keys()].every(keep)) return
    const inflight = [...slot.memory.guestDetails.inflight.values()]
    void Promise.allSettled(inflight).then(() => {
      if (slots.get(slot.endpoint.id) === slot) closeClients(slot, keep)
    })
  }

  function answered(slot: Slot, url: string, change: FailoverChange): void {
    const { failover, memory } = slot
    if (memory.local) learnLocalMember(failover, memory.local.url, memory.local.name)
    const fields = { endpoint: slot.endpoint.name, url, configured: failover.configuredUrl }
    if (change === 'failed-over' || change === 'moved') {
      warn(fields, 'PVE endpoint failed over to another cluster member')
    } else if (change === 'returned') {
      info(fields, 'PVE endpoint is back on its configured host')
    }
    // The new member's own view of the cluster (who is local, who is online) comes next cycle.
    if (change) memory.clusterCycle = -Infinity
    slot.status = 'connected'
    slot.error = undefined
  }

  // Cheap and off the cycle: a dead configured host costs the probe its timeout, never the cycle.
  function probeHome(slot: Slot, cycle: number): void {
    const failover = slot.failover
    if (slot.probe || !shouldProbeHome(failover, cycle, HOME_PROBE_EVERY)) return
    failover.probedCycle = cycle
    const get = accounted(clientsFor(slot, failover.configuredUrl).main)
    slot.probe = get('/version', AbortSignal.timeout(HOME_PROBE_TIMEOUT_MS))
      .then(() => {
        failover.homeAnswered = true
      })
      .catch(() => undefined)
      .finally(() => {
        slot.probe = undefined
      })
  }

  function logMemberFailure(slot: Slot, url: string, err: AppError): void {
    const fields = { endpoint: slot.endpoint.name, url, code: err.code }
    if (err.code === 'PVE_TLS_MISMATCH') {
      // Every cluster node has its own certificate: a pin made for one host fails on the others.
      warn(fields, 'cluster member does not match the pinned TLS fingerprint; failover impossible')
    } else {
      warn(fields, 'cluster member did not answer either')
    }
  }

  async function runCycle(): Promise<void> {
    const cycle = cycles + 1
    const started = now()
    pollingStartTime = started
    stats.beginCycle()
    await Promise.all([...slots.values()].map((slot) => pollSlot(slot, cycle, started)))
    rates.prune(now())
    cycles = cycle
    const finished = now()
    lastPollDuration = Math.max(0, finished - started) / 1000
    try {
      options.onState(collect(finished))
    } catch (err) {
      warn({ err }, 'onState failed')
    }
  }

  // Built from the slots present now: an endpoint removed mid-cycle disappears here.
  function collect(at: number): CollectedState {
    const slowOff = options.slowCollectors === false
    const state: CollectedState = {
      nodes: [],
      vms: [],
      containers: [],
      storage: [],
      cephClusters: [],
      physicalDisks: [],
      pveBackups: { backupTasks: [], storageBackups: [], guestSnapshots: [] },
      pbs: [],
      pbsBackups: [],
      performance: {
        apiCallDuration: stats.medians(),
        lastPollDuration,
        pollingStartTime,
        totalApiCalls: stats.totalApiCalls,
        failedApiCalls: stats.failedApiCalls,
        cacheHits: stats.cacheHits,
        cacheMisses: stats.cacheMisses,
      },
      connectionHealth: {},
      connectionErrors: {},
      lastUpdate: at,
      pollingCycles: cycles,
      backupsCollected: true,
    }
    const storage: Storage[][] = []
    const ceph: CephCluster[][] = []
    const disks: PhysicalDisk[][] = []
    const backups: PveBackups[] = []
    const pbsBackups: PbsBackup[][] = []
    for (const slot of slots.values()) {
      if (slot.status === 'pending') continue
      const name = slot.endpoint.name
      state.connectionHealth[name] = slot.status === 'connected'
      if (slot.error) state.connectionErrors[name] = slot.error
      // A source that is down will not deliver; only a connected one without a first read waits.
      const read = slot.pbs ? slot.pbs.result : slowOff || slot.memory.slowResult
      if (slot.status === 'connected' && !read) state.backupsCollected = false
      if (slot.pbs) {
        if (slot.pbs.result) {
          state.pbs.push(slot.pbs.result.instance)
          pbsBackups.push(slot.pbs.result.backups)
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
        backups.push(slow.pveBackups)
      }
    }
    state.storage = joinStorage(storage)
    state.cephClusters = joinCeph(ceph)
    state.physicalDisks = joinDisks(disks)
    state.pveBackups = joinBackups(backups)
    state.pbsBackups = joinPbsBackups(pbsBackups)
    return state
  }

  function launch(): Promise<void> {
    running = runCycle().finally(() => {
      running = undefined
    })
    return running
  }

  return {
    start() {
      if (timer) return
      if (!running) void launch()
      timer = setInterval(() => {
        // Skip, never stack: a slow cycle simply delays the next one.
        if (!running) void launch()
      }, intervalMs)
      timer.unref?.()
    },
    async stop() {
      if (timer) clearInterval(timer)
      timer = undefined
      await queued
      await running
      await Promise.all([...slots.values()].map(quiesce))
      for (const slot of slots.values()) closeClients(slot)
    },
    pollNow() {
      if (!running) return launch()
      queued ??= running.then(() => {
        queued = undefined
        return launch()
      })
      return queued
    },
    setEndpoints(endpoints) {
      const wanted = new Map(endpoints.map((e) => [e.id, e]))
      for (const [id, slot] of slots) {
        const next = wanted.get(id)
        if (next && sameEndpoint(next, slot.endpoint)) continue
        slots.delete(id)
        void quiesce(slot).finally(() => closeClients(slot))
      }
      for (const endpoint of endpoints) {
        if (!slots.has(endpoint.id)) {
          slots.set(endpoint.id, {
            endpoint,
            clients: new Map(),
            failover: createFailoverState(endpoint.host),
            status: 'pending',
            memory: createEndpointMemory(GUEST_DETAIL_CONCURRENCY),
          })
        }
      }
    },
    endpointStatus(id) {
      return slots.get(id)?.status ?? 'pending'
    },
    endpointError(id) {
      return slots.get(id)?.error
    },
    endpointInfo(id) {
      const slot = slots.get(id)
      if (!slot) return undefined
      return toEndpointInfo(slot.failover, slot.memory.cluster ?? STANDALONE_CLUSTER)
    },
  }
}

function sameEndpoint(a: MonitoredEndpoint, b: MonitoredEndpoint): boolean {
  return (
    a.name === b.name &&
    a.host === b.host &&
    a.verifySSL === b.verifySSL &&
    a.fingerprint === b.fingerprint &&
    JSON.stringify(Object.entries(a.auth).sort()) === JSON.stringify(Object.entries(b.auth).sort())
  )
}
