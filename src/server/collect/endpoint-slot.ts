// One configured endpoint inside the poller: its clients (one pair per URL it uses: the
// configured one, or a cluster member it failed over to; failover.ts decides), its memory, and
// one cycle of it: a PBS is one host, a PVE endpoint tries the active URL, then other members.
import { AppError } from '../../shared/model/errors.ts'
import { CADENCE_MS, isDue } from './cadence.ts'
import type { CallStats } from './call-stats.ts'
import type { MonitoredEndpoint } from './collected-state.ts'
import { CollectCancelled, type QueryCall } from './collector.ts'
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
  type FailoverChange,
  type FailoverState,
} from './failover.ts'
import {
  createPbsMemory,
  markPbsDown,
  pollPbs,
  type PbsMemory,
  type PbsPollResult,
} from './pbs-poll.ts'
import { ALL_PBS_JOB_KINDS } from './pbs-jobs-poll.ts'
import { cancelDetails, type DetailPolicy } from './pve-agent.ts'
import type { PveClient } from './pve-client.ts'
import type { RateTracker } from './rates.ts'

/** Extra client settings the poller asks for (the guest-detail client wants more sockets). */
export interface ClientTuning {
  maxConcurrency?: number
}

/** The clients of one URL: the cycle's own, and one for guest details so they never queue ahead. */
interface UrlClients {
  main: PveClient
  details: PveClient
}

/** The poller's state of one configured endpoint. */
export interface EndpointSlot {
  endpoint: MonitoredEndpoint
  /** PBS endpoints: the collector's memory and its last result. */
  pbs?: { memory: PbsMemory; result?: PbsPollResult }
  clients: Map<string, UrlClients>
  failover: FailoverState
  probe?: Promise<void>
  /** Epoch ms of the last background probe of the configured URL. */
  probedAt: number
  status: 'pending' | 'connected' | 'error'
  error?: string
  memory: EndpointMemory
}

/** What slot cycles need from the poller. */
export interface SlotDeps {
  createClient(endpoint: MonitoredEndpoint, tuning?: ClientTuning): PveClient
  stats: CallStats
  rates: RateTracker
  pollIntervalMs: number
  detailTimeoutMs: number
  detailPolicy: DetailPolicy
  slowCollectors: boolean
  /** False once the slot was replaced or removed: its retired clients are then closed by it. */
  isCurrent(slot: EndpointSlot): boolean
  warn(obj: object, msg: string): void
  info(obj: object, msg: string): void
}

// Requests in flight per endpoint: at most 4 on the cycle's client (pve-client.ts's default) plus
// GUEST_DETAIL_CONCURRENCY on the details client, 12 in all (README: "Load on each Proxmox
// endpoint"). pveproxy serves the API with a few worker processes; more parallel calls would only
// queue there, and slow agent calls must not take the cycle's connections.
/** /nodes/{n}/status calls in flight per endpoint (on the cycle's client). */
const DETAIL_CONCURRENCY = 4
/**
 * Guest-detail and slow-collector calls in flight per endpoint (DETAIL_POLICY.perNode bounds each
 * node's agent calls): the details client's connection pool.
 */
const GUEST_DETAIL_CONCURRENCY = 8
/** How long a cycle lets freshly started detail refreshes land before merging the cache. */
const GUEST_DETAIL_BUDGET_MS = 200
/** How long a cycle waits for the slower collectors (storage first); longer on the first read. */
const SLOW_BUDGET_MS = 300
const SLOW_FIRST_BUDGET_MS = 3_000
/** URLs tried per cycle and endpoint: the active one and up to two other members. */
const FAILOVER_ATTEMPTS = 3
const HOME_PROBE_TIMEOUT_MS = 3_000

/** A new slot for `endpoint`, pending until its first cycle. */
export function createSlot(endpoint: MonitoredEndpoint): EndpointSlot {
  return {
    endpoint,
    clients: new Map(),
    failover: createFailoverState(endpoint.host),
    probedAt: -Infinity,
    status: 'pending',
    memory: createEndpointMemory(GUEST_DETAIL_CONCURRENCY),
  }
}

/** Slot operations over the poller's shared dependencies. */
export interface SlotRunner {
  /** One cycle of the slot at `at` (epoch ms); never throws. */
  poll(slot: EndpointSlot, cycle: number, at: number): Promise<void>
  /** Waits for background work (detail refreshes, the home probe, the slow refresh). */
  quiesce(slot: EndpointSlot): Promise<void>
  /** Closes the slot's clients, all or those `keep` rejects. */
  closeClients(slot: EndpointSlot, keep?: (url: string) => boolean): void
  /** The guest-detail client of the URL the slot uses now (metrics history reads share it). */
  detailClient(slot: EndpointSlot): PveClient
}

/** Creates the slot operations. */
export function createSlotRunner(deps: SlotDeps): SlotRunner {
  const { stats, warn } = deps

  // Same credentials and TLS settings at every URL of the endpoint (a pin stays a pin).
  function clientsFor(slot: EndpointSlot, url: string): UrlClients {
    let clients = slot.clients.get(url)
    if (!clients) {
      const endpoint = { ...slot.endpoint, host: url }
      const main = deps.createClient(endpoint)
      const details = deps.createClient(endpoint, { maxConcurrency: GUEST_DETAIL_CONCURRENCY })
      clients = { main, details }
      slot.clients.set(url, clients)
    }
    return clients
  }

  function closeClients(slot: EndpointSlot, keep: (url: string) => boolean = () => false): void {
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

  // Background work of a slot must end before its clients close. The slower collectors are
  // cancelled, not waited out: at 100k guests their queued listings took minutes, and a server
  // asked to stop never stopped.
  async function quiesce(slot: EndpointSlot): Promise<void> {
    slot.memory.slow.cancel.abort(new CollectCancelled())
    await cancelDetails(slot.memory.guestDetails)
    await slot.probe
    await slot.memory.slowRun
  }

  // Every call is timed and counted per path class, with or without query parameters.
  function accounted(client: PveClient): QueryCall {
    return async (path, query, signal, timeoutMs, each) => {
      const started = performance.now()
      let ok = false
      try {
        const data = await client.get(path, query, signal, timeoutMs, each)
        ok = true
        return data
      } finally {
        stats.record(path, performance.now() - started, ok)
      }
    }
  }

  async function pollAt(slot: EndpointSlot, url: string, cycle: number, at: number) {
    const clients = clientsFor(slot, url)
    const main = accounted(clients.main)
    const details = accounted(clients.details)
    await pollEndpoint({
      instance: slot.endpoint.name,
      host: slot.endpoint.host,
      url,
      call: (path, signal, timeoutMs) => main(path, undefined, signal, timeoutMs),
      detailCall: (path, signal) => details(path, undefined, signal),
      memory: slot.memory,
      rates: deps.rates,
      now: at,
      pollIntervalMs: deps.pollIntervalMs,
      cycle,
      detailTimeoutMs: deps.detailTimeoutMs,
      detailConcurrency: DETAIL_CONCURRENCY,
      guestDetails: { policy: deps.detailPolicy, budgetMs: GUEST_DETAIL_BUDGET_MS },
      slow: deps.slowCollectors
        ? { call: details, budgetMs: SLOW_BUDGET_MS, firstBudgetMs: SLOW_FIRST_BUDGET_MS }
        : undefined,
      onCache: (hit) => stats.recordCache(hit),
      warn,
    }).catch((err: unknown) => {
      // Anything but an AppError is our bug: log it; failover.ts reports it as unreachable.
      if (!(err instanceof AppError)) warn({ endpoint: slot.endpoint.name, err }, 'poll crashed')
      throw err
    })
  }

  // A Proxmox Backup Server is one host: no cluster, no failover.
  async function pollPbsSlot(slot: EndpointSlot, at: number): Promise<void> {
    const pbs = (slot.pbs ??= { memory: createPbsMemory() })
    try {
      pbs.result = await pollPbs({
        instance: slot.endpoint.name,
        host: slot.endpoint.host,
        call: accounted(clientsFor(slot, slot.endpoint.host).main),
        memory: pbs.memory,
        now: at,
        pollIntervalMs: deps.pollIntervalMs,
        jobs: slot.endpoint.pbsJobs ?? ALL_PBS_JOB_KINDS,
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
      pbs.result = down
        ? { instance: down, backups: pbs.result?.backups ?? [], jobs: pbs.result?.jobs ?? [] }
        : undefined
      warn({ endpoint: slot.endpoint.name, code: appError.code }, 'PBS poll failed')
    }
  }

  // The active URL, else other cluster members, within this cycle (failover.ts decides).
  async function poll(slot: EndpointSlot, cycle: number, at: number): Promise<void> {
    if (slot.endpoint.type === 'pbs') return pollPbsSlot(slot, at)
    probeHome(slot, at)
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
  function retireClients(slot: EndpointSlot): void {
    const { failover } = slot
    const keep = (url: string): boolean =>
      url === failover.activeUrl || url === failover.configuredUrl
    if ([...slot.clients.keys()].every(keep)) return
    const inflight = [...slot.memory.guestDetails.inflight.values()]
    void Promise.allSettled(inflight).then(() => {
      if (deps.isCurrent(slot)) closeClients(slot, keep)
    })
  }

  function answered(slot: EndpointSlot, url: string, change: FailoverChange): void {
    const { failover, memory } = slot
    if (memory.local) learnLocalMember(failover, memory.local.url, memory.local.name)
    const fields = { endpoint: slot.endpoint.name, url, configured: failover.configuredUrl }
    if (change === 'failed-over' || change === 'moved') {
      warn(fields, 'PVE endpoint failed over to another cluster member')
    } else if (change === 'returned') {
      deps.info(fields, 'PVE endpoint is back on its configured host')
    }
    // The new member's own view of the cluster (who is local, who is online) comes next cycle.
    if (change) memory.clusterAt = -Infinity
    slot.status = 'connected'
    slot.error = undefined
  }

  // Cheap and off the cycle: a dead configured host costs the probe its timeout, never the cycle.
  // Only while away from the configured URL, on its own cadence.
  function probeHome(slot: EndpointSlot, at: number): void {
    const failover = slot.failover
    if (slot.probe || failover.activeUrl === failover.configuredUrl) return
    if (!isDue(slot.probedAt, CADENCE_MS.homeProbe, at, deps.pollIntervalMs)) return
    slot.probedAt = at
    const get = accounted(clientsFor(slot, failover.configuredUrl).main)
    slot.probe = get('/version', undefined, AbortSignal.timeout(HOME_PROBE_TIMEOUT_MS))
      .then(() => {
        failover.homeAnswered = true
      })
      .catch(() => undefined)
      .finally(() => {
        slot.probe = undefined
      })
  }

  function logMemberFailure(slot: EndpointSlot, url: string, err: AppError): void {
    const fields = { endpoint: slot.endpoint.name, url, code: err.code }
    if (err.code === 'PVE_TLS_MISMATCH') {
      // Every cluster node has its own certificate: a pin made for one host fails on the others.
      warn(fields, 'cluster member does not match the pinned TLS fingerprint; failover impossible')
    } else {
      warn(fields, 'cluster member did not answer either')
    }
  }

  const detailClient = (slot: EndpointSlot): PveClient =>
    clientsFor(slot, slot.endpoint.type === 'pbs' ? slot.endpoint.host : slot.failover.activeUrl)
      .details

  return { poll, quiesce, closeClients, detailClient }
}
