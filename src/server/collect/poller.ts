// The PVE poller: every interval, polls all monitored endpoints in parallel and hands one
// CollectedState to onState. Cycles never overlap. Owns one client per endpoint.
import { AppError } from '../../shared/model/errors.ts'
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
import { createPveClient, type PveAuth, type PveClient } from './pve-client.ts'
import { createRateTracker } from './rates.ts'

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
}

/** Drives polling. */
export interface Poller {
  start(): void
  stop(): Promise<void>
  /** Runs a cycle now; if one is running, waits for it and then runs a fresh one. */
  pollNow(): Promise<void>
  setEndpoints(endpoints: MonitoredEndpoint[]): void
  endpointStatus(id: string): 'pending' | 'connected' | 'error'
}

/** Options of createPoller. */
export interface PollerOptions {
  intervalMs?: number
  onState: (state: CollectedState) => void
  now?: () => number
  log?: { warn(obj: object, msg: string): void; info?(obj: object, msg: string): void }
  createClient?: (endpoint: MonitoredEndpoint) => PveClient
}

interface Slot {
  endpoint: MonitoredEndpoint
  client?: PveClient
  status: 'pending' | 'connected' | 'error'
  error?: string
  memory: EndpointMemory
}

const CLUSTER_STATUS_EVERY = 3
const DETAIL_CONCURRENCY = 4

/** Creates a poller; nothing runs until start() or pollNow(). */
export function createPoller(options: PollerOptions): Poller {
  const intervalMs = options.intervalMs ?? 10_000
  const now = options.now ?? Date.now
  const warn = (obj: object, msg: string): void => options.log?.warn(obj, msg)
  const createClient =
    options.createClient ??
    ((e: MonitoredEndpoint) =>
      createPveClient({
        host: e.host,
        auth: e.auth,
        verifySSL: e.verifySSL,
        fingerprint: e.fingerprint,
      }))
  // One /nodes/{n}/status must never hold up the cycle: give it a fraction of the interval.
  const detailTimeoutMs = Math.max(1_000, Math.min(5_000, Math.floor(intervalMs / 2)))
  const slots = new Map<string, Slot>()
  const stats = createCallStats()
  const rates = createRateTracker({ forgetAfterMs: Math.max(5 * 60_000, intervalMs * 10) })
  let cycles = 0
  let lastPollDuration = 0
  let pollingStartTime = 0
  let timer: ReturnType<typeof setInterval> | undefined
  let running: Promise<void> | undefined
  let queued: Promise<void> | undefined

  function closeClient(slot: Slot): void {
    const client = slot.client
    slot.client = undefined
    client
      ?.close()
      .catch((err: unknown) => warn({ endpoint: slot.endpoint.name, err }, 'closing client failed'))
  }

  async function pollSlot(slot: Slot, cycle: number, at: number): Promise<void> {
    try {
      slot.client ??= createClient(slot.endpoint)
      const client = slot.client
      await pollEndpoint({
        instance: slot.endpoint.name,
        host: slot.endpoint.host,
        call: async (path, signal) => {
          const started = performance.now()
          let ok = false
          try {
            const data = await client.get(path, undefined, signal)
            ok = true
            return data
          } finally {
            stats.record(path, performance.now() - started, ok)
          }
        },
        memory: slot.memory,
        rates,
        now: at,
        cycle,
        clusterEvery: CLUSTER_STATUS_EVERY,
        detailTimeoutMs,
        detailConcurrency: DETAIL_CONCURRENCY,
        onCache: (hit) => stats.recordCache(hit),
        warn,
      })
      slot.status = 'connected'
      slot.error = undefined
    } catch (err) {
      const appError =
        err instanceof AppError
          ? err
          : new AppError(
              'PVE_UNREACHABLE',
              { host: slot.endpoint.host, reason: 'internal error' },
              { cause: err },
            )
      if (!(err instanceof AppError)) warn({ endpoint: slot.endpoint.name, err }, 'poll crashed')
      slot.status = 'error'
      slot.error = appError.userMessage
      markEndpointDown(slot.memory)
      warn({ endpoint: slot.endpoint.name, code: appError.code }, 'endpoint poll failed')
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
    }
    for (const slot of slots.values()) {
      if (slot.status === 'pending') continue
      const name = slot.endpoint.name
      state.nodes.push(...slot.memory.nodes)
      state.vms.push(...slot.memory.vms)
      state.containers.push(...slot.memory.containers)
      state.connectionHealth[name] = slot.status === 'connected'
      if (slot.error) state.connectionErrors[name] = slot.error
    }
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
      for (const slot of slots.values()) closeClient(slot)
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
        closeClient(slot)
        slots.delete(id)
      }
      for (const endpoint of endpoints) {
        if (!slots.has(endpoint.id)) {
          slots.set(endpoint.id, { endpoint, status: 'pending', memory: createEndpointMemory() })
        }
      }
    },
    endpointStatus(id) {
      return slots.get(id)?.status ?? 'pending'
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
