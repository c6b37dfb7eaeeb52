// Proxmox VE API simulator: real HTTPS servers on loopback, one per simulated cluster, rendering
// one canonical, seeded, ticking model. Used by the demo mode and by the e2e tests.

import type { Server } from 'node:https'
import type { AddressInfo } from 'node:net'
import { createRng, createUuid, deriveSeed } from './prng.ts'
import { createEstate } from './estate.ts'
import { createAuthenticator } from './auth.ts'
import { loadCertificate } from './tls.ts'
import { createClusterServer } from './http-server.ts'

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
}

/** A running simulator. */
export interface Simulator {
  clusters: SimCluster[]
  guestCount(): number
  /** Advances the model one step. */
  tick(now?: number): void
  /** Control API for tests: takes a node down (595 on its /nodes paths) or brings it back. */
  setNodeOnline(cluster: string, node: string, online: boolean): void
  /** Total HTTP requests served. */
  requestCount(): number
  stop(): Promise<void>
}

const DEFAULT_TICK_MS = 10_000

/** Builds the estate and starts one HTTPS server per cluster on loopback. */
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
  }
  const certificate = await loadCertificate()
  const estate = createEstate(shape, clock, tickMs > 0 ? tickMs : DEFAULT_TICK_MS)
  const tokenId = options.tokenId ?? 'pulse-monitor@pam!pulse-token'
  let requests = 0
  const servers: Server[] = []
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
      const server = createClusterServer({
        cluster: model,
        auth,
        certificate,
        onRequest: () => requests++,
      })
      servers.push(server)
      const port = await listen(server, host, options.ports?.[model.index] ?? 0)
      clusters.push({
        name: model.name,
        url: `https://${host}:${port}`,
        fingerprint: certificate.fingerprint,
        nodeNames: model.nodes.map((n) => n.name),
        tokenId,
        tokenSecret,
        standalone: model.standalone,
      })
    }
  } catch (err) {
    await Promise.all(servers.map(close))
    throw err
  }
  const timer = tickMs > 0 ? setInterval(() => estate.tick(), tickMs) : undefined
  // The demo process must be able to exit on its own when everything else is done.
  timer?.unref()
  return {
    clusters,
    guestCount: () => estate.guestCount(),
    tick: (now) => estate.tick(now),
    setNodeOnline: (cluster, node, online) => estate.setNodeOnline(cluster, node, online),
    requestCount: () => requests,
    async stop() {
      if (timer !== undefined) clearInterval(timer)
      await Promise.all(servers.map(close))
    },
  }
}

// Network safety rule: the simulator never listens anywhere but loopback.
function assertLoopback(host: string): void {
  const m = /^127\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host)
  if (m === null || m.slice(1).some((octet) => Number(octet) > 255)) {
    throw new Error(`Simulator host must be an IPv4 address in 127.0.0.0/8, got '${host}'`)
  }
}

function listen(server: Server, host: string, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, () => {
      server.off('error', reject)
      resolve((server.address() as AddressInfo).port)
    })
  })
}

function close(server: Server): Promise<void> {
  return new Promise((resolve) => {
    if (!server.listening) return resolve()
    server.close(() => resolve())
    // Keep-alive connections from clients would otherwise hold close() open.
    server.closeAllConnections()
  })
}
