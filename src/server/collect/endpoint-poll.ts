// One poll of one PVE endpoint: /cluster/resources every time, /cluster/status on its cadence
// (cadence.ts), /nodes/{n}/status per online node with bounded concurrency and a short budget
// each, and the guest details (pve-agent.ts) refreshed in the background and merged from their
// cache.
import { AppError } from '../../shared/model/errors.ts'
import type { Guest, PveNode } from '../../shared/model/state.ts'
import { CADENCE_MS, isDue } from './cadence.ts'
import { isRecord, toBool, toOptionalString } from './coerce.ts'
import type { QueryCall } from './collector.ts'
import { mapLimited } from './limiter.ts'
import {
  createDetailCache,
  pruneDetails,
  refreshDetails,
  type DetailCache,
  type DetailPolicy,
} from './pve-agent.ts'
import { STANDALONE_CLUSTER, toClusterInfo, type ClusterInfo } from './pve-cluster.ts'
import { mergeGuestDetails } from './pve-guest-details.ts'
import { readGuestNode, toGuestSample, toInactiveGuest } from './pve-guests.ts'
import { readNodeName, toPveNode } from './pve-nodes.ts'
import {
  createPveSlowMemory,
  pollPveSlow,
  type PveSlowMemory,
  type PveSlowResult,
} from './pve-slow.ts'
import type { RateTracker } from './rates.ts'
import { fairTimeout } from './fair-timeout.ts'

/** A node status's whole time, queue included, in answer budgets (callWithBudget). */
const QUEUED_BUDGETS = 2

export type { QueryCall } from './collector.ts'

/** What survives between cycles for one endpoint. */
export interface EndpointMemory {
  cluster?: ClusterInfo
  /** Epoch ms of the last /cluster/status attempt; -Infinity makes it due. */
  clusterAt: number
  /** The member that called itself `local` in /cluster/status, and the URL we had asked. */
  local?: { url: string; name: string }
  /** Last good /nodes/{n}/status per node name. */
  details: Map<string, unknown>
  guestDetails: DetailCache
  nodes: PveNode[]
  vms: Guest[]
  containers: Guest[]
  /** Storage, ZFS, Ceph, disks and backups (pve-slow.ts): their memory and last result. */
  slow: PveSlowMemory
  slowResult?: PveSlowResult
  /** The slow refresh running in the background, if any. */
  slowRun?: Promise<void>
}

/** Creates empty memory for a new endpoint; `detailConcurrency` bounds its guest-detail calls. */
export function createEndpointMemory(detailConcurrency = 8): EndpointMemory {
  return {
    clusterAt: -Infinity,
    details: new Map(),
    guestDetails: createDetailCache(detailConcurrency),
    nodes: [],
    vms: [],
    containers: [],
    slow: createPveSlowMemory(),
  }
}

/** Everything pollEndpoint needs. `call` is the client's get, wrapped for accounting. */
export interface EndpointPollContext {
  instance: string
  /** The configured URL: what nodes report as their host. */
  host: string
  /** The URL polled this time (the configured one or a cluster member's). */
  url?: string
  /** `timeoutMs` overrides the client's, counted from the request being sent (QueryCall). */
  call: (path: string, signal?: AbortSignal, timeoutMs?: number) => Promise<unknown>
  /** Guest-detail calls; a separate client keeps them from queueing ahead of the cycle's calls. */
  detailCall?: (path: string, signal?: AbortSignal) => Promise<unknown>
  memory: EndpointMemory
  rates: RateTracker
  /** Epoch ms of this cycle, from the poller's clock: the cadences are measured in it. */
  now: number
  /** The poller's interval: no cadence runs more often than this. */
  pollIntervalMs: number
  /** The cycle number: the guest details (pve-agent.ts) count their cadence in cycles. */
  cycle: number
  detailTimeoutMs: number
  detailConcurrency: number
  /** Guest details; omit to skip them. */
  guestDetails?: { policy: DetailPolicy; budgetMs: number }
  /**
   * Storage, ZFS, Ceph, disks and backups on their slower cadences; omit to skip them. The cycle
   * waits at most `budgetMs` (longer while nothing has been read yet) and takes what has landed.
   */
  slow?: { call: QueryCall; budgetMs: number; firstBudgetMs: number }
  onCache: (hit: boolean) => void
  warn: (obj: object, msg: string) => void
}

/** Polls one endpoint and updates its memory; throws an AppError when /cluster/resources fails. */
export async function pollEndpoint(ctx: EndpointPollContext): Promise<void> {
  const { memory } = ctx
  const resourcesCall = ctx.call('/cluster/resources')
  const clusterCall = readCluster(ctx)
  // The nodes online last cycle are asked for their status while /cluster/resources (the big
  // answer) is on its way; a node that came online since is asked once the list is in.
  const prefetch = new Map(
    memory.nodes
      .filter((n) => n.status === 'online')
      .map((n) => [n.name, readNodeStatus(ctx, n.name)] as const),
  )
  const [resources, cluster] = await Promise.all([
    resourcesCall.catch((err: unknown) => {
      void Promise.all(prefetch.values())
      throw err
    }),
    clusterCall.catch(() => undefined),
  ])
  if (!Array.isArray(resources)) {
    throw new AppError('PVE_BAD_RESPONSE', {
      host: ctx.url ?? ctx.host,
      reason: '/cluster/resources is not a list',
    })
  }
  const clusterInfo = cluster ?? memory.cluster ?? STANDALONE_CLUSTER

  const nodeEntries = resources.filter(
    (e): e is Record<string, unknown> => readNodeName(e) !== undefined,
  )
  const online = nodeEntries.filter((e) => e.status === 'online').map((e) => readNodeName(e)!)
  const { failed, unreachable } = await readNodeStatuses(ctx, online, prefetch)
  const present = new Set(nodeEntries.map((e) => readNodeName(e)!))
  for (const name of memory.details.keys()) if (!present.has(name)) memory.details.delete(name)

  memory.nodes = nodeEntries.map((entry) => {
    const name = readNodeName(entry)!
    // 595 from the proxy: the node we asked cannot reach it, so for us it is offline.
    const node = toPveNode(
      unreachable.has(name) ? { ...entry, status: 'offline' } : entry,
      memory.details.get(name),
      { instance: ctx.instance, host: ctx.host, cluster: clusterInfo, now: ctx.now },
    )
    node.connectionHealth =
      node.status !== 'online' ? 'error' : failed.has(name) ? 'degraded' : 'healthy'
    return node
  })
  // Only a node we know to be down silences its guests: a token without Sys.Audit may not see
  // node entries at all, and its guests must not all turn 'unknown' for that.
  const down = new Set(memory.nodes.filter((n) => n.status !== 'online').map((n) => n.name))

  const guests = await mapGuests(ctx, resources, down)
  if (ctx.guestDetails) await applyGuestDetails(ctx, guests, ctx.guestDetails)
  memory.vms = guests.filter((g) => g.type === 'qemu')
  memory.containers = guests.filter((g) => g.type === 'lxc')
  if (ctx.slow) await refreshSlow(ctx, ctx.slow, resources, guests)
}

// One slow refresh at a time, in the background: a hanging NFS storage or a big PBS listing costs
// the cycle at most the budget; its result lands in a later cycle.
async function refreshSlow(
  ctx: EndpointPollContext,
  slow: NonNullable<EndpointPollContext['slow']>,
  resources: unknown[],
  guests: Guest[],
): Promise<void> {
  const { memory } = ctx
  // A run still going from an earlier cycle had its budget there: once something has been read,
  // waiting again would only lengthen every cycle while a big estate's listings take seconds.
  const started = !memory.slowRun
  if (!started && memory.slowResult) return
  memory.slowRun ??= pollPveSlow({
    instance: ctx.instance,
    call: slow.call,
    nodes: memory.nodes.map((n) => ({ name: n.name, online: n.status === 'online' })),
    guests: guests.map((g) => ({ vmid: g.vmid, node: g.node, type: g.type, template: g.template })),
    resources,
    memory: memory.slow,
    now: ctx.now,
    pollIntervalMs: ctx.pollIntervalMs,
    warn: ctx.warn,
    onCache: ctx.onCache,
  })
    .then((result) => {
      memory.slowResult = result
    })
    .catch((err: unknown) => ctx.warn({ instance: ctx.instance, err }, 'slow collectors failed'))
    .finally(() => {
      memory.slowRun = undefined
    })
  await settleWithin(memory.slowRun, memory.slowResult ? slow.budgetMs : slow.firstBudgetMs)
}

/** How long one synchronous slice of guest mapping may run, and how often the clock is read. */
const MAP_SLICE_MS = 20
const MAP_CHECK_EVERY = 500

/** Marks what we last knew about a failing endpoint as offline instead of dropping it. */
export function markEndpointDown(memory: EndpointMemory): void {
  memory.nodes = memory.nodes.map((n) => ({ ...n, status: 'offline', connectionHealth: 'error' }))
  // Old rates and agent data would read as live; the guests stay listed, inactive.
  memory.vms = memory.vms.map(toInactiveGuest)
  memory.containers = memory.containers.map(toInactiveGuest)
  // Storage we cannot see any more is of unknown state; disks, Ceph and backups stay as last read.
  if (memory.slowResult) {
    memory.slowResult = {
      ...memory.slowResult,
      storage: memory.slowResult.storage.map((s) => ({ ...s, status: 'unknown' })),
    }
  }
}

// Guests of a node that is offline or does not answer are inactive: zero rates (the tracker
// resets them) and no details.
// At 100k guests mapping one endpoint's list takes longer than the server may hold its event loop
// (HTTP requests, socket frames): it yields whenever a slice has run for MAP_SLICE_MS.
async function mapGuests(ctx: EndpointPollContext, resources: unknown[], down: Set<string>) {
  const guests: Guest[] = []
  let sliceStart = performance.now()
  for (let i = 0; i < resources.length; i++) {
    if (
      i % MAP_CHECK_EVERY === MAP_CHECK_EVERY - 1 &&
      performance.now() - sliceStart > MAP_SLICE_MS
    ) {
      await new Promise<void>((resolve) => setImmediate(resolve))
      sliceStart = performance.now()
    }
    const entry = resources[i]
    const node = readGuestNode(entry)
    const sample = node && toGuestSample(entry, ctx.instance, !down.has(node))
    if (!sample) continue
    const { guest, counters } = sample
    const rates = ctx.rates.update(`${ctx.instance}/${guest.vmid}`, {
      node: guest.node,
      status: guest.status,
      uptime: guest.uptime,
      counters,
      t: ctx.now,
    })
    guest.networkIn = rates.netIn
    guest.networkOut = rates.netOut
    guest.diskRead = rates.diskRead
    guest.diskWrite = rates.diskWrite
    guests.push(guest)
  }
  return guests
}

// Starts the due refreshes, lets the ones that finish within a tiny budget land in this cycle,
// and merges whatever the cache holds. Never waits longer than the budget.
async function applyGuestDetails(
  ctx: EndpointPollContext,
  guests: Guest[],
  options: { policy: DetailPolicy; budgetMs: number },
): Promise<void> {
  const cache = ctx.memory.guestDetails
  const active = guests.filter((g) => g.status === 'running' && !g.template)
  pruneDetails(cache, active)
  const started = refreshDetails(cache, active, {
    call: ctx.detailCall ?? ctx.call,
    host: ctx.url ?? ctx.host,
    cycle: ctx.cycle,
    policy: options.policy,
    onCache: ctx.onCache,
  })
  if (started.length > 0) await settleWithin(Promise.all(started), options.budgetMs)
  for (const guest of active) {
    const entry = cache.entries.get(guest.vmid)
    if (entry && entry.type === guest.type) mergeGuestDetails(guest, entry.details)
  }
}

async function settleWithin(work: Promise<unknown>, ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const budget = new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))
  try {
    await Promise.race([work.then(() => undefined), budget])
  } finally {
    clearTimeout(timer)
  }
}

/** One /nodes/{n}/status: the answer, or the code it failed with. Never rejects. */
type NodeStatusRead = Promise<{ ok: true; data: unknown } | { ok: false; code: string }>

function readNodeStatus(ctx: EndpointPollContext, name: string): NodeStatusRead {
  return callWithBudget(ctx, `/nodes/${encodeURIComponent(name)}/status`).then(
    (data) => ({ ok: true as const, data }),
    (err: unknown) => ({
      ok: false as const,
      code: err instanceof AppError ? err.code : 'INTERNAL',
    }),
  )
}

// A slow or broken node must not cost us the cycle: keep its last good detail. A proxy failure
// (PVE_UNREACHABLE, i.e. 595) means that node is down as seen from the cluster. Only the nodes
// online now count: a prefetched answer of a node that has gone offline since is dropped.
async function readNodeStatuses(
  ctx: EndpointPollContext,
  online: string[],
  prefetch: ReadonlyMap<string, NodeStatusRead>,
) {
  const failed = new Set<string>()
  const unreachable = new Set<string>()
  // Prefetched calls already hold their share of the client's connections; the rest queue here.
  const missing = online.filter((name) => !prefetch.has(name))
  const reads = new Map(prefetch)
  await mapLimited(missing, ctx.detailConcurrency, async (name) => {
    reads.set(name, readNodeStatus(ctx, name))
    await reads.get(name)
  })
  for (const name of online) {
    const read = await reads.get(name)!
    if (read.ok) {
      ctx.memory.details.set(name, read.data)
      continue
    }
    failed.add(name)
    if (read.code === 'PVE_UNREACHABLE') unreachable.add(name)
    ctx.warn({ instance: ctx.instance, node: name, code: read.code }, 'node status failed')
  }
  await Promise.all(prefetch.values())
  return { failed, unreachable }
}

// Membership changes rarely; /cluster/status is refreshed on its own cadence. A token without
// Sys.Audit gets 403 here, which must not fail the endpoint: we fall back to the cache.
async function readCluster(ctx: EndpointPollContext): Promise<ClusterInfo | undefined> {
  const { memory } = ctx
  const due = isDue(memory.clusterAt, CADENCE_MS.clusterStatus, ctx.now, ctx.pollIntervalMs)
  if (memory.cluster && !due) {
    ctx.onCache(true)
    return memory.cluster
  }
  ctx.onCache(false)
  memory.clusterAt = ctx.now
  try {
    const raw = await ctx.call('/cluster/status')
    if (!Array.isArray(raw) || !raw.some(isRecord)) return undefined
    memory.cluster = toClusterInfo(raw)
    const local = raw.find((e) => isRecord(e) && e.type === 'node' && toBool(e.local))
    const name = isRecord(local) ? toOptionalString(local.name) : undefined
    if (name) memory.local = { url: ctx.url ?? ctx.host, name }
    return memory.cluster
  } catch (err) {
    ctx.warn({ instance: ctx.instance, code: (err as AppError).code }, 'cluster status failed')
    throw err
  }
}

// A node has `detailTimeoutMs` to answer once asked. The wait for one of the host's connections
// (behind /cluster/resources and the other nodes' statuses) is ours, not the node's: at 100k
// guests it was most of the time of nearly every node status that timed out. The wait is still
// bounded, so a node that never answers costs the cycle at most QUEUED_BUDGETS budgets.
async function callWithBudget(ctx: EndpointPollContext, path: string): Promise<unknown> {
  const controller = new AbortController()
  const total = QUEUED_BUDGETS * ctx.detailTimeoutMs
  const deadline = fairTimeout(
    () => controller.abort(new AppError('PVE_TIMEOUT', { host: ctx.url ?? ctx.host, ms: total })),
    total,
  )
  try {
    return await ctx.call(path, controller.signal, ctx.detailTimeoutMs)
  } finally {
    deadline.clear()
  }
}
