// Guest details on a slow, bounded, background cadence (reference/proxmox-api.md §2.5-2.7, §4.2):
// status/current of every running guest, /lxc/{id}/interfaces for containers, and the guest-agent
// calls for VMs with the agent enabled. Per-guest calls are the cost driver on big clusters, so a
// guest is refreshed at most every `every` cycles, a node runs one batch at a time with few calls
// in flight, every call has a short budget, and a failing agent backs off. The poll cycle never
// waits for any of it: results land in the cache and the next cycle merges them.
import { AppError } from '../../shared/model/errors.ts'
import type { Guest, GuestType } from '../../shared/model/state.ts'
import { linkAbort } from './abort-link.ts'
import { createLimiter, mapLimited, type Limiter } from './limiter.ts'
import {
  diskReasonFor,
  readAgentResult,
  readLxcStatus,
  readQemuStatus,
  toAgentNetwork,
  toGuestFilesystems,
  toLxcNetwork,
  toOsInfo,
  type AgentResult,
  type GuestDetails,
} from './pve-guest-details.ts'
import { fairTimeout } from './fair-timeout.ts'

/** Cadence and bounds of the detail refresh. */
export interface DetailPolicy {
  /** Refresh a guest at most every this many cycles (6 x 10 s = 60 s). */
  every: number
  /** A node's batch holds at least this many guests, so a small estate fills in one cycle. */
  minBatch: number
  /** Calls in flight per node: agent calls hold a pvedaemon worker on the VM's node. */
  perNode: number
  /** Budget of one call; a hung agent would otherwise hold it for the client's 10 s. */
  timeoutMs: number
  /** Longest agent backoff in cycles (30 min at 10 s). */
  maxBackoffCycles: number
}

/**
 * The defaults at a 10 s poll. The poller converts `every` and `maxBackoffCycles` from the
 * cadences in time (CADENCE_MS.guestDetails, .guestAgentMaxBackoff) for its own interval.
 */
export const DETAIL_POLICY: DetailPolicy = {
  every: 6,
  minBatch: 8,
  perNode: 2,
  timeoutMs: 4_000,
  maxBackoffCycles: 180,
}

/** One guest's cached details and its refresh bookkeeping. */
export interface DetailEntry {
  type: GuestType
  node: string
  details: GuestDetails
  /** Cycle the last refresh started in; -Infinity before the first. */
  refreshedCycle: number
  /** Uptime seen by the last status/current: a smaller one means the guest restarted. */
  uptime: number
  agentFailures: number
  /** No agent calls before this cycle. */
  agentRetryCycle: number
  /** get-osinfo changes only with a reboot: fetched once per boot. */
  os?: Pick<GuestDetails, 'osName' | 'osVersion'>
}

/** Per endpoint: the cache, the batch in flight per node, and the endpoint-wide call limiter. */
export interface DetailCache {
  entries: Map<number, DetailEntry>
  inflight: Map<string, Promise<void>>
  abort: AbortController
  limiter: Limiter
}

/** Creates an empty cache allowing `concurrency` detail calls in flight per endpoint. */
export function createDetailCache(concurrency: number): DetailCache {
  return {
    entries: new Map(),
    inflight: new Map(),
    abort: new AbortController(),
    limiter: createLimiter(concurrency),
  }
}

/** What a refresh needs from the endpoint. */
export interface DetailIo {
  call: (path: string, signal?: AbortSignal) => Promise<unknown>
  host: string
  cycle: number
  policy: DetailPolicy
  onCache: (hit: boolean) => void
}

/** Forgets guests that are gone, stopped or on a dead node: their details would be stale. */
export function pruneDetails(cache: DetailCache, active: readonly Guest[]): void {
  const keep = new Set(active.map((g) => g.vmid))
  for (const vmid of cache.entries.keys()) if (!keep.has(vmid)) cache.entries.delete(vmid)
}

/**
 * Starts background refreshes of the due guests among `active` (running guests on answering
 * nodes): one batch per node that has none in flight. Returns the batches started now.
 */
export function refreshDetails(
  cache: DetailCache,
  active: readonly Guest[],
  io: DetailIo,
): Promise<void>[] {
  const byNode = new Map<string, Guest[]>()
  for (const guest of active) {
    const list = byNode.get(guest.node)
    if (list) list.push(guest)
    else byNode.set(guest.node, [guest])
  }
  const started: Promise<void>[] = []
  for (const [node, guests] of byNode) {
    const batch = cache.inflight.has(node) ? [] : pickBatch(cache, guests, io)
    const picked = new Set(batch)
    for (const guest of guests) io.onCache(!picked.has(guest) && cache.entries.has(guest.vmid))
    if (batch.length === 0) continue
    const run = runBatch(cache, batch, io).finally(() => cache.inflight.delete(node))
    cache.inflight.set(node, run)
    started.push(run)
  }
  return started
}

/** Cancels the refreshes in flight, waits for them, and leaves the cache usable. */
export async function cancelDetails(cache: DetailCache): Promise<void> {
  cache.abort.abort()
  await Promise.all(cache.inflight.values())
  cache.abort = new AbortController()
}

// Oldest first, never-seen and migrated guests before all; about 1/every of the node per cycle
// keeps the load flat once every guest has been seen.
function pickBatch(cache: DetailCache, guests: Guest[], io: DetailIo): Guest[] {
  const due: Array<{ guest: Guest; since: number }> = []
  for (const guest of guests) {
    const entry = cache.entries.get(guest.vmid)
    const fresh = entry && entry.type === guest.type && entry.node === guest.node
    const since = fresh ? entry.refreshedCycle : -Infinity
    if (io.cycle - since >= io.policy.every) due.push({ guest, since })
  }
  due.sort((a, b) => a.since - b.since)
  const size = Math.max(io.policy.minBatch, Math.ceil(guests.length / io.policy.every))
  return due.slice(0, size).map((d) => d.guest)
}

async function runBatch(cache: DetailCache, batch: Guest[], io: DetailIo): Promise<void> {
  const signal = cache.abort.signal
  for (const guest of batch) {
    const entry = cache.entries.get(guest.vmid)
    if (entry && entry.type === guest.type) {
      entry.node = guest.node
      entry.refreshedCycle = io.cycle
    } else {
      cache.entries.set(guest.vmid, newEntry(guest, io.cycle))
    }
  }
  await mapLimited(batch, io.policy.perNode, async (guest) => {
    const entry = cache.entries.get(guest.vmid)
    if (!entry || signal.aborted) return
    const call = (path: string): Promise<unknown> =>
      cache.limiter.run(() => callWithBudget(io, path, signal))
    try {
      if (guest.type === 'lxc') await refreshContainer(guest, entry, call)
      else await refreshVm(guest, entry, call, io)
    } catch {
      // status/current failed (slow or dead node): keep what we had, retry at the next turn.
    }
  })
}

function newEntry(guest: Guest, cycle: number): DetailEntry {
  return {
    type: guest.type,
    node: guest.node,
    details: {},
    refreshedCycle: cycle,
    uptime: 0,
    agentFailures: 0,
    agentRetryCycle: -Infinity,
  }
}

type Call = (path: string) => Promise<unknown>

function guestPath(guest: Guest): string {
  return `/nodes/${encodeURIComponent(guest.node)}/${guest.type}/${guest.vmid}`
}

async function refreshContainer(guest: Guest, entry: DetailEntry, call: Call): Promise<void> {
  const base = guestPath(guest)
  const status = readLxcStatus(await call(`${base}/status/current`))
  const details: GuestDetails = {
    ...(status.swapTotal !== undefined ? { swapTotal: status.swapTotal } : {}),
    ...(status.swapUsed !== undefined ? { swapUsed: status.swapUsed } : {}),
  }
  if (status.running) {
    // Interfaces need no agent; a failure only leaves them out.
    const raw = await call(`${base}/interfaces`).catch(() => undefined)
    if (raw !== undefined) Object.assign(details, toLxcNetwork(raw))
  }
  entry.uptime = status.uptime
  entry.details = details
}

async function refreshVm(guest: Guest, entry: DetailEntry, call: Call, io: DetailIo) {
  const base = guestPath(guest)
  const status = readQemuStatus(await call(`${base}/status/current`))
  // A new boot (or the agent switched off) gives the agent a fresh chance and may change the OS.
  if (status.uptime < entry.uptime || !status.running || !status.agentEnabled) {
    resetAgent(entry)
    entry.os = undefined
  }
  entry.uptime = status.uptime
  const details: GuestDetails = {
    agentEnabled: status.agentEnabled,
    ...(status.balloon !== undefined ? { balloon: status.balloon } : {}),
    ...(status.memoryUsed !== undefined ? { memoryUsed: status.memoryUsed } : {}),
  }
  if (!status.running || !status.agentEnabled) {
    details.diskStatusReason = status.running ? 'agent-disabled' : 'vm-stopped'
    entry.details = details
    return
  }
  if (io.cycle < entry.agentRetryCycle) {
    // Backing off: keep saying why, without asking the agent again.
    details.diskStatusReason = entry.details.diskStatusReason ?? 'agent-error'
    entry.details = details
    return
  }
  const agent = (command: string) => agentCall(call, `${base}/agent/${command}`)
  const fs = await agent('get-fsinfo')
  if (!fs.ok) {
    backOff(entry, io)
    details.diskStatusReason = fs.reason
    entry.details = details
    return
  }
  const filesystems = toGuestFilesystems(fs.result)
  if ('disks' in filesystems) Object.assign(details, filesystems)
  else details.diskStatusReason = filesystems.reason
  const net = await agent('network-get-interfaces')
  if (net.ok) Object.assign(details, toAgentNetwork(net.result))
  if (!entry.os) {
    const os = await agent('get-osinfo')
    if (os.ok) entry.os = toOsInfo(os.result)
  }
  Object.assign(details, entry.os)
  resetAgent(entry)
  entry.details = details
}

// Thrown errors become §8 reasons; a QGA error inside a 200 answer is an agent error too.
async function agentCall(call: Call, path: string): Promise<AgentResult> {
  try {
    const result = readAgentResult(await call(path))
    return result.ok ? result : { ok: false, reason: 'agent-error' }
  } catch (err) {
    return { ok: false, reason: diskReasonFor(err) }
  }
}

// 12, 24, 48, 96 cycles, then the cap: 2 min doubling to 30 min at 10 s.
function backOff(entry: DetailEntry, io: DetailIo): void {
  entry.agentFailures++
  const wait = Math.min(io.policy.every * 2 ** entry.agentFailures, io.policy.maxBackoffCycles)
  entry.agentRetryCycle = io.cycle + wait
}

function resetAgent(entry: DetailEntry): void {
  entry.agentFailures = 0
  entry.agentRetryCycle = -Infinity
}

async function callWithBudget(io: DetailIo, path: string, cancel: AbortSignal): Promise<unknown> {
  const controller = new AbortController()
  const deadline = fairTimeout(
    () => controller.abort(new AppError('PVE_TIMEOUT', { host: io.host, ms: io.policy.timeoutMs })),
    io.policy.timeoutMs,
  )
  const unlink = linkAbort(controller, cancel)
  try {
    return await io.call(path, controller.signal)
  } finally {
    deadline.clear()
    unlink()
  }
}
