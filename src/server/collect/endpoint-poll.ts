// One poll of one PVE endpoint: /cluster/resources every time, /cluster/status from a small
// cache, /nodes/{n}/status per online node with bounded concurrency and a short budget each.
import { AppError } from '../../shared/model/errors.ts'
import type { Guest, PveNode } from '../../shared/model/state.ts'
import { isRecord } from './coerce.ts'
import { mapLimited } from './limiter.ts'
import { STANDALONE_CLUSTER, toClusterInfo, type ClusterInfo } from './pve-cluster.ts'
import { toGuestSample } from './pve-guests.ts'
import { readNodeName, toPveNode } from './pve-nodes.ts'
import type { RateTracker } from './rates.ts'

/** What survives between cycles for one endpoint. */
export interface EndpointMemory {
  cluster?: ClusterInfo
  /** Cycle number of the last /cluster/status attempt. */
  clusterCycle: number
  /** Last good /nodes/{n}/status per node name. */
  details: Map<string, unknown>
  nodes: PveNode[]
  vms: Guest[]
  containers: Guest[]
}

/** Creates empty memory for a new endpoint. */
export function createEndpointMemory(): EndpointMemory {
  return { clusterCycle: -Infinity, details: new Map(), nodes: [], vms: [], containers: [] }
}

/** Everything pollEndpoint needs. `call` is the client's get, wrapped for accounting. */
export interface EndpointPollContext {
  instance: string
  host: string
  call: (path: string, signal?: AbortSignal) => Promise<unknown>
  memory: EndpointMemory
  rates: RateTracker
  now: number
  cycle: number
  /** Refresh /cluster/status every this many cycles. */
  clusterEvery: number
  detailTimeoutMs: number
  detailConcurrency: number
  onCache: (hit: boolean) => void
  warn: (obj: object, msg: string) => void
}

/** Polls one endpoint and updates its memory; throws an AppError when /cluster/resources fails. */
export async function pollEndpoint(ctx: EndpointPollContext): Promise<void> {
  const { memory } = ctx
  const resourcesCall = ctx.call('/cluster/resources')
  const clusterCall = readCluster(ctx)
  const [resources, cluster] = await Promise.all([
    resourcesCall,
    clusterCall.catch(() => undefined),
  ])
  if (!Array.isArray(resources)) {
    throw new AppError('PVE_BAD_RESPONSE', {
      host: ctx.host,
      reason: '/cluster/resources is not a list',
    })
  }
  const clusterInfo = cluster ?? memory.cluster ?? STANDALONE_CLUSTER

  const nodeEntries = resources.filter(
    (e): e is Record<string, unknown> => readNodeName(e) !== undefined,
  )
  const online = nodeEntries.filter((e) => e.status === 'online').map((e) => readNodeName(e)!)
  const failedDetails = new Set<string>()
  await mapLimited(online, ctx.detailConcurrency, async (name) => {
    try {
      memory.details.set(
        name,
        await callWithBudget(ctx, `/nodes/${encodeURIComponent(name)}/status`),
      )
    } catch (err) {
      // A slow or broken node must not cost us the cycle: keep its last good detail.
      failedDetails.add(name)
      ctx.warn(
        { instance: ctx.instance, node: name, code: (err as AppError).code },
        'node status failed',
      )
    }
  })
  const present = new Set(nodeEntries.map((e) => readNodeName(e)!))
  for (const name of memory.details.keys()) if (!present.has(name)) memory.details.delete(name)

  memory.nodes = nodeEntries.map((entry) => {
    const name = readNodeName(entry)!
    const node = toPveNode(entry, memory.details.get(name), {
      instance: ctx.instance,
      host: ctx.host,
      cluster: clusterInfo,
      now: ctx.now,
    })
    node.connectionHealth =
      node.status !== 'online' ? 'error' : failedDetails.has(name) ? 'degraded' : 'healthy'
    return node
  })

  const vms: Guest[] = []
  const containers: Guest[] = []
  for (const entry of resources) {
    const sample = toGuestSample(entry, ctx.instance, ctx.now)
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
    ;(guest.type === 'qemu' ? vms : containers).push(guest)
  }
  memory.vms = vms
  memory.containers = containers
}

/** Marks what we last knew about a failing endpoint as offline instead of dropping it. */
export function markEndpointDown(memory: EndpointMemory): void {
  memory.nodes = memory.nodes.map((n) => ({ ...n, status: 'offline', connectionHealth: 'error' }))
  // Old rates would read as live traffic; the guests stay listed with no I/O.
  const still = (g: Guest): Guest => ({
    ...g,
    diskRead: 0,
    diskWrite: 0,
    networkIn: 0,
    networkOut: 0,
  })
  memory.vms = memory.vms.map(still)
  memory.containers = memory.containers.map(still)
}

// Membership changes rarely; /cluster/status is refreshed every few cycles. A token without
// Sys.Audit gets 403 here, which must not fail the endpoint: we fall back to the cache.
async function readCluster(ctx: EndpointPollContext): Promise<ClusterInfo | undefined> {
  const { memory } = ctx
  if (memory.cluster && ctx.cycle - memory.clusterCycle < ctx.clusterEvery) {
    ctx.onCache(true)
    return memory.cluster
  }
  ctx.onCache(false)
  memory.clusterCycle = ctx.cycle
  try {
    const raw = await ctx.call('/cluster/status')
    if (!Array.isArray(raw) || !raw.some(isRecord)) return undefined
    memory.cluster = toClusterInfo(raw)
    return memory.cluster
  } catch (err) {
    ctx.warn({ instance: ctx.instance, code: (err as AppError).code }, 'cluster status failed')
    throw err
  }
}

async function callWithBudget(ctx: EndpointPollContext, path: string): Promise<unknown> {
  const controller = new AbortController()
  const timer = setTimeout(
    () =>
      controller.abort(new AppError('PVE_TIMEOUT', { host: ctx.host, ms: ctx.detailTimeoutMs })),
    ctx.detailTimeoutMs,
  )
  try {
    return await ctx.call(path, controller.signal)
  } finally {
    clearTimeout(timer)
  }
}
