// Proxmox VE API simulator: real HTTPS servers on loopback rendering one canonical, seeded,
// ticking model. Each cluster answers on its URL and on every member's own loopback IP (same port),
// so failover between members can be exercised. Used by the demo mode and by the tests.

import type { Server } from 'node:https'
import { createRng, createUuid, deriveSeed } from './prng.ts'
import { createEstate } from './estate.ts'
import { createAuthenticator } from './auth.ts'
import { loadCertificate } from './tls.ts'
import type { SimCertificate } from './tls.ts'
import { createClusterApi, createClusterServer } from './http-server.ts'
import type { ClusterApi } from './http-server.ts'
import type { SimClusterModel } from './model.ts'
import { assertLoopback, close, listen } from './listen.ts'

/** How to build and serve the simulated estate. */
export interface SimulatorOptions {
  seed?: number
  clusters?: number
  /** A cluster of 1 is a standalone host. */
  nodesPerCluster?: number
  guestsPerNode?: number
  /** Must be inside 127.0.0.0/8. */
  host?: string
  /** One per cluster; default ephemeral (0). */
  ports?: number[]
  /** 0 = only manual tick(). */
  tickMs?: number
  now?: () => number
  tokenId?: string
  /** Default: derived from the seed, a lowercase UUID per cluster. */
  tokenSecret?: string
  username?: string
  password?: string
  /** How long a hanging guest agent blocks before PVE's 500 '... got timeout' (default 6000 ms). */
  agentTimeoutMs?: number
  /**
   * Also serve every member on its own loopback IP (node.ip in /cluster/status) on the cluster's
   * port, so a monitor that knows only member IPs and the port can fail over (default true).
   */
  memberEndpoints?: boolean
  /**
   * Start with one Ceph OSD down (for the first 20 minutes), so the Ceph cluster shows HEALTH_WARN
   * with OSD_DOWN and degraded PGs from the first poll (the demo; default false).
   */
  cephOsdDownAtStart?: boolean
  /**
   * The demo's alert scenarios (alert-schedule.ts): a few guests per cluster spike CPU or leak
   * memory on a cycle, one guest per cluster stays stopped, about 1.5 % of guests are stopped
   * instead of a fifth, one storage stays above 85 %, node 2 of the first cluster goes down for
   * 3 minutes every hour (first at minute 4-5), and everything else stays under the default
   * alert thresholds (default false).
   */
  alertScenarios?: boolean
  /**
   * Backups kept per guest by every cluster's nightly job, over the 30 days of seeded history
   * (default: 7-14, chosen per cluster). Larger values make more backup records (1,000,000 at
   * 100,000 guests with 19).
   */
  backupKeep?: number
}

/** One member's own endpoint. */
export interface SimEndpoint {
  node: string
  /** https://<node ip>:<cluster port> */
  url: string
}

/** Connection details of one simulated cluster. */
export interface SimCluster {
  name: string
  /** https://127.0.0.1:PORT */
  url: string
  fingerprint: string
  nodeNames: string[]
  tokenId: string
  tokenSecret: string
  standalone: boolean
  /** Every member's own endpoint, in node order (empty with memberEndpoints: false). */
  endpoints: SimEndpoint[]
}

/** A running simulator. */
export interface Simulator {
  clusters: SimCluster[]
  guestCount(): number
  /** The guests of one cluster now (the demo's PBS backs them up). */
  guestsOf(cluster: string): { vmid: number; type: 'qemu' | 'lxc'; name: string }[]
  /** Advances the model one step. */
  tick(now?: number): void
  /** Control API for tests: takes a node down (595 on its /nodes paths) or brings it back. */
  setNodeOnline(cluster: string, node: string, online: boolean): void
  /**
   * Closes a member's listeners (connections refused; for the first member this includes the
   * cluster's `url`) or opens them again on the same address and port.
   */
  setEndpointReachable(cluster: string, node: string, reachable: boolean): Promise<void>
  /** Total HTTP requests served. */
  requestCount(): number
  stop(): Promise<void>
}

const DEFAULT_TICK_MS = 10_000
const DEFAULT_AGENT_TIMEOUT_MS = 6_000
// An ephemeral port free on the primary host may be taken on a member address; try a few.
const PORT_ATTEMPTS = 5

/** One bound (or closed) listener: which member it serves and where. */
interface Listener {
  server: Server
  host: string
  port: number
  cluster: string
  node: number
}

/** Builds the estate and starts the HTTPS listeners of every cluster on loopback. */
export async function startSimulator(options: SimulatorOptions = {}): Promise<Simulator> {
  const host = options.host ?? '127.0.0.1'
  assertLoopback(host)
  const seed = options.seed ?? 1
  const clock = options.now ?? Date.now
  const tickMs = options.tickMs ?? DEFAULT_TICK_MS
  const shape = {
    seed,
    clusters: Math.max(1, options.clusters ?? 3),
    nodesPerCluster: Math.max(1, options.nodesPerCluster ?? 3),
    guestsPerNode: Math.max(0, options.guestsPerNode ?? 225),
    cephOsdDownAtStart: options.cephOsdDownAtStart ?? false,
    alertScenarios: options.alertScenarios ?? false,
    ...(options.backupKeep ? { backupKeep: options.backupKeep } : {}),
  }
  const certificate = await loadCertificate()
  const estate = createEstate(shape, clock, tickMs > 0 ? tickMs : DEFAULT_TICK_MS)
  const tokenId = options.tokenId ?? 'pulse-monitor@pam!pulse-token'
  let requests = 0
  const listeners: Listener[] = []
  const apis: ClusterApi[] = []
  const clusters: SimCluster[] = []
  try {
    for (const model of estate.clusters) {
      const tokenSecret =
        options.tokenSecret ?? createUuid(createRng(deriveSeed(seed, 1000 + model.index)))
      const auth = createAuthenticator(
        {
          tokenId,
          tokenSecret,
          username: options.username ?? 'root@pam',
          password: options.password ?? 'simulator',
        },
        clock,
      )
      const api = createClusterApi({
        cluster: model,
        auth,
        certificate,
        agentTimeoutMs: options.agentTimeoutMs ?? DEFAULT_AGENT_TIMEOUT_MS,
        onRequest: () => requests++,
      })
      apis.push(api)
      const bound = await bindCluster(model, api, certificate, host, options)
      listeners.push(...bound.listeners)
      clusters.push({
        name: model.name,
        url: `https://${host}:${bound.port}`,
        fingerprint: certificate.fingerprint,
        nodeNames: model.nodes.map((n) => n.name),
        tokenId,
        tokenSecret,
        standalone: model.standalone,
        endpoints: bound.endpoints,
      })
    }
  } catch (err) {
    await Promise.all(listeners.map((l) => close(l.server)))
    throw err
  }
  const timer = tickMs > 0 ? setInterval(() => estate.tick(), tickMs) : undefined
  // The demo process must be able to exit on its own when everything else is done.
  timer?.unref()
  return {
    clusters,
    guestCount: () => estate.guestCount(),
    guestsOf: (name) =>
      (estate.clusters.find((c) => c.name === name)?.guests ?? []).map((g) => ({
        vmid: g.vmid,
        type: g.type,
        name: g.name,
      })),
    tick: (now) => estate.tick(now),
    setNodeOnline: (cluster, node, online) => estate.setNodeOnline(cluster, node, online),
    setEndpointReachable: (cluster, node, reachable) =>
      setReachable(estate.clusters, listeners, cluster, node, reachable),
    requestCount: () => requests,
    async stop() {
      if (timer !== undefined) clearInterval(timer)
      for (const api of apis) api.cancelPending()
      await Promise.all(listeners.map((l) => close(l.server)))
    },
  }
}

/**
 * Binds a cluster: the primary listener on `host` (it answers as the first member) and one per
 * member on its own loopback IP, all on the same port. An ephemeral port is retried when a
 * member address already has it in use.
 */
async function bindCluster(
  model: SimClusterModel,
  api: ClusterApi,
  certificate: SimCertificate,
  host: string,
  options: SimulatorOptions,
): Promise<{ port: number; listeners: Listener[]; endpoints: SimEndpoint[] }> {
  const requested = options.ports?.[model.index] ?? 0
  const members = options.memberEndpoints ?? true
  for (let attempt = 1; ; attempt++) {
    const listeners: Listener[] = []
    try {
      const primary = createClusterServer(api, certificate, model, 0)
      const port = await listen(primary, host, requested)
      listeners.push({ server: primary, host, port, cluster: model.name, node: 0 })
      const endpoints: SimEndpoint[] = []
      if (members) {
        for (const [index, node] of model.nodes.entries()) {
          assertLoopback(node.ip)
          endpoints.push({ node: node.name, url: `https://${node.ip}:${port}` })
          if (node.ip === host && index === 0) continue
          const server = createClusterServer(api, certificate, model, index)
          await listen(server, node.ip, port).catch((err: unknown) => {
            throw memberBindError(model.name, node.name, node.ip, port, host, err)
          })
          listeners.push({ server, host: node.ip, port, cluster: model.name, node: index })
        }
      }
      return { port, listeners, endpoints }
    } catch (err) {
      await Promise.all(listeners.map((l) => close(l.server)))
      if (requested !== 0 || attempt >= PORT_ATTEMPTS) throw err
    }
  }
}

function memberBindError(
  cluster: string,
  node: string,
  ip: string,
  port: number,
  host: string,
  cause: unknown,
): Error {
  const code = (cause as NodeJS.ErrnoException).code ?? String(cause)
  return new Error(
    `Simulator cannot listen on ${ip}:${port} for member ${cluster}/${node} (${code}). Each ` +
      `member gets its own loopback address on the cluster's port; this system may not route all ` +
      `of 127.0.0.0/8 to loopback (macOS: 'sudo ifconfig lo0 alias ${ip}'), or the port is taken ` +
      `there. Start the simulator with memberEndpoints: false to serve ${host} only.`,
    { cause },
  )
}

// Closing makes the member's address refuse connections; reopening binds the same address and port.
async function setReachable(
  models: SimClusterModel[],
  listeners: Listener[],
  clusterName: string,
  nodeName: string,
  reachable: boolean,
): Promise<void> {
  const model = models.find((c) => c.name === clusterName)
  const index = model?.nodes.findIndex((n) => n.name === nodeName) ?? -1
  if (model === undefined || index < 0) throw new Error(`Unknown node ${clusterName}/${nodeName}`)
  const own = listeners.filter((l) => l.cluster === clusterName && l.node === index)
  for (const listener of own) {
    if (!reachable) await close(listener.server)
    else if (!listener.server.listening) {
      await listen(listener.server, listener.host, listener.port).catch((err: unknown) => {
        throw memberBindError(
          clusterName,
          nodeName,
          listener.host,
          listener.port,
          listener.host,
          err,
        )
      })
    }
  }
}
