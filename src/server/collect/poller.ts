// The PVE and PBS poller: every interval, polls all monitored endpoints in parallel and hands one
// CollectedState to onState. Cycles never overlap. Each endpoint is a slot (endpoint-slot.ts);
// the collectors behind it run on cadences in time (cadence.ts), measured with the injected clock.
import { performance } from 'node:perf_hooks'
import { runInBackground } from '../background.ts'
import { CADENCE_MS, cyclesPer, DEFAULT_POLL_INTERVAL_MS } from './cadence.ts'
import { createCallStats } from './call-stats.ts'
import {
  createStateBuilder,
  type CollectedState,
  type MonitoredEndpoint,
} from './collected-state.ts'
import {
  createSlot,
  createSlotRunner,
  type ClientTuning,
  type EndpointSlot,
} from './endpoint-slot.ts'
import { toEndpointInfo, type EndpointInfo } from './failover.ts'
import { DETAIL_POLICY, type DetailPolicy } from './pve-agent.ts'
import { createPveClient, type PveClient } from './pve-client.ts'
import { STANDALONE_CLUSTER } from './pve-cluster.ts'
import { createRateTracker } from './rates.ts'

export type { EndpointInfo, EndpointMember } from './failover.ts'
export type { CollectedState, MonitoredEndpoint } from './collected-state.ts'
export type { ClientTuning } from './endpoint-slot.ts'

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
  /**
   * The client metrics-history reads of the instance named `instance` go through: the slot's
   * guest-detail client at the URL in use, so history shares the endpoint's connection limit
   * and never opens connections of its own. undefined for an unknown instance.
   */
  historyClient(instance: string): HistoryClient | undefined
  /** An endpoint's polls since the poller (or its thread) started; undefined before the first. */
  endpointPolls(id: string): EndpointPolls | undefined
}

/** One endpoint's poll figures (the /metrics exposition reads them). */
export interface EndpointPolls {
  /** Polls finished, and those that ended with the endpoint in error. */
  polls: number
  failures: number
  /** Wall time of the last poll, in seconds (measured, not the injected clock). */
  lastSeconds: number
}

/** What history reads get from the poller for one endpoint. */
export interface HistoryClient {
  client: PveClient
  type: 'pve' | 'pbs'
  status: 'pending' | 'connected' | 'error'
  /** The last connection error of an endpoint whose status is 'error'. */
  error?: string
}

/** Options of createPoller. */
export interface PollerOptions {
  intervalMs?: number
  onState: (state: CollectedState) => void
  /** The clock (epoch ms) every cadence is measured in; tests pass a fake one. */
  now?: () => number
  log?: { warn(obj: object, msg: string): void; info?(obj: object, msg: string): void }
  /** Called with the endpoint's settings and the URL to reach (`host`, maybe a cluster member). */
  createClient?: (endpoint: MonitoredEndpoint, tuning?: ClientTuning) => PveClient
  /** Overrides of the guest-detail cadence and bounds (detailPolicyFor the interval). */
  guestDetails?: Partial<DetailPolicy>
  /** Storage, ZFS, Ceph, disks and backups (pve-slow.ts); default on. */
  slowCollectors?: boolean
}

/**
 * The guest-detail policy for a poll interval: pve-agent.ts counts in cycles, so its cadence and
 * longest backoff are converted from time here (60 s and 30 min whatever the interval).
 */
export function detailPolicyFor(pollIntervalMs: number): DetailPolicy {
  return {
    ...DETAIL_POLICY,
    every: cyclesPer(CADENCE_MS.guestDetails, pollIntervalMs),
    maxBackoffCycles: cyclesPer(CADENCE_MS.guestAgentMaxBackoff, pollIntervalMs),
  }
}

/** Creates a poller; nothing runs until start() or pollNow(). */
export function createPoller(options: PollerOptions): Poller {
  const intervalMs = options.intervalMs ?? DEFAULT_POLL_INTERVAL_MS
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
  const slots = new Map<string, EndpointSlot>()
  const polls = new Map<string, EndpointPolls>()
  const stats = createCallStats()
  const rates = createRateTracker({ forgetAfterMs: Math.max(5 * 60_000, intervalMs * 10) })
  const runner = createSlotRunner({
    createClient,
    stats,
    rates,
    pollIntervalMs: intervalMs,
    // One /nodes/{n}/status must never hold up the cycle: give it a fraction of the interval.
    detailTimeoutMs: Math.max(1_000, Math.min(5_000, Math.floor(intervalMs / 2))),
    detailPolicy: { ...detailPolicyFor(intervalMs), ...options.guestDetails },
    slowCollectors: options.slowCollectors !== false,
    isCurrent: (slot) => slots.get(slot.endpoint.id) === slot,
    warn,
    info,
  })
  const buildState = createStateBuilder(stats, options.slowCollectors !== false)
  let cycles = 0
  let lastPollDuration = 0
  let pollingStartTime = 0
  let timer: ReturnType<typeof setInterval> | undefined
  let running: Promise<void> | undefined
  let queued: Promise<void> | undefined

  async function runCycle(): Promise<void> {
    const cycle = cycles + 1
    const started = now()
    pollingStartTime = started
    stats.beginCycle()
    await Promise.all([...slots.values()].map((slot) => pollTimed(slot, cycle, started)))
    rates.prune(now())
    cycles = cycle
    const finished = now()
    lastPollDuration = Math.max(0, finished - started) / 1000
    try {
      const figures = { at: finished, cycles, lastPollDuration, pollingStartTime }
      options.onState(buildState(slots.values(), figures))
    } catch (err) {
      warn({ err }, 'onState failed')
    }
  }

  // A duration, not a cadence: measured on the real clock even when tests inject one.
  async function pollTimed(slot: EndpointSlot, cycle: number, at: number): Promise<void> {
    const began = performance.now()
    await runner.poll(slot, cycle, at)
    const figures = polls.get(slot.endpoint.id) ?? { polls: 0, failures: 0, lastSeconds: 0 }
    figures.polls++
    if (slot.status === 'error') figures.failures++
    figures.lastSeconds = (performance.now() - began) / 1000
    polls.set(slot.endpoint.id, figures)
  }

  function launch(): Promise<void> {
    // Never an unhandled rejection: a failed cycle is logged and the next one runs on time.
    running = runInBackground(options.log, 'poll cycle', runCycle).finally(() => {
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
      await Promise.all([...slots.values()].map(runner.quiesce))
      for (const slot of slots.values()) runner.closeClients(slot)
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
      for (const id of polls.keys()) if (!wanted.has(id)) polls.delete(id)
      for (const [id, slot] of slots) {
        const next = wanted.get(id)
        if (next && sameEndpoint(next, slot.endpoint)) continue
        slots.delete(id)
        void runner.quiesce(slot).finally(() => runner.closeClients(slot))
      }
      for (const endpoint of endpoints) {
        if (!slots.has(endpoint.id)) slots.set(endpoint.id, createSlot(endpoint))
      }
    },
    endpointStatus(id) {
      return slots.get(id)?.status ?? 'pending'
    },
    endpointError(id) {
      return slots.get(id)?.error
    },
    endpointPolls(id) {
      const figures = polls.get(id)
      return figures && { ...figures }
    },
    endpointInfo(id) {
      const slot = slots.get(id)
      if (!slot) return undefined
      return toEndpointInfo(slot.failover, slot.memory.cluster ?? STANDALONE_CLUSTER)
    },
    historyClient(instance) {
      for (const slot of slots.values()) {
        if (slot.endpoint.name !== instance) continue
        const { type } = slot.endpoint
        const client = runner.detailClient(slot)
        return { client, type, status: slot.status, ...(slot.error ? { error: slot.error } : {}) }
      }
      return undefined
    },
  }
}

function sameEndpoint(a: MonitoredEndpoint, b: MonitoredEndpoint): boolean {
  return (
    a.name === b.name &&
    a.host === b.host &&
    a.verifySSL === b.verifySSL &&
    a.fingerprint === b.fingerprint &&
    JSON.stringify(a.pbsJobs) === JSON.stringify(b.pbsJobs) &&
    JSON.stringify(Object.entries(a.auth).sort()) === JSON.stringify(Object.entries(b.auth).sort())
  )
}
