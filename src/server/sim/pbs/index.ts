// Proxmox Backup Server API simulator: one HTTPS server per simulated PBS on loopback, each
// rendering a seeded model whose backups follow a nightly schedule as the clock moves.

import type { Server } from 'node:https'
import { createRng, createUuid, deriveSeed } from '../prng.ts'
import { loadCertificate } from '../tls.ts'
import { createPbsAuthenticator } from './auth.ts'
import { buildPbsModel } from './build.ts'
import { createPbsServer } from './http-server.ts'
import type { PbsSimModel, SimPbsGuest } from './model.ts'
import { assertLoopback, close, listen } from '../listen.ts'

export type { SimPbsGuest } from './model.ts'

/** How to build and serve the simulated backup servers. */
export interface PbsSimulatorOptions {
  seed?: number
  /** Number of PBS instances (pbs1, pbs2, ...); default 1. */
  instances?: number
  /** Must be inside 127.0.0.0/8. */
  host?: string
  /** One per instance; default ephemeral (0). */
  ports?: number[]
  /** Automatic tick interval; 0 = only manual tick(). Default 10 s. */
  tickMs?: number
  now?: () => number
  /** Default 'pulse-monitor@pbs!pulse-token'. */
  tokenId?: string
  /** Default: derived from the seed, a lowercase UUID per instance. */
  tokenSecret?: string
  /** Ticket login; default root@pam / simulator. */
  username?: string
  password?: string
  /** The PVE estate's guests, so backups carry real VMIDs; default ~50 invented guests. */
  guests?: SimPbsGuest[]
  /** Host names with host backups (backup-type 'host'); default three. [] for none. */
  hostBackups?: string[]
}

/** Connection details of one simulated PBS. */
export interface SimPbsServer {
  name: string
  /** https://127.0.0.1:PORT */
  url: string
  fingerprint: string
  tokenId: string
  tokenSecret: string
}

/** A running PBS simulator. */
export interface PbsSimulator {
  servers: SimPbsServer[]
  /** Moves every instance's clock to `now` (default: the clock, or one tick further). */
  tick(now?: number): void
  /** Test control: stops (false) or restarts (true) one instance's listener on the same port. */
  setReachable(name: string, reachable: boolean): Promise<void>
  /** Test control: content reads (namespaces, groups, snapshots) of one store answer 500. */
  setDatastoreError(name: string, store: string, message: string | undefined): void
  /** Total HTTP requests served. */
  requestCount(): number
  stop(): Promise<void>
}

const DEFAULT_TICK_MS = 10_000
const DEFAULT_HOSTS = ['pve-host1', 'fileserver', 'gateway']

interface Instance {
  model: PbsSimModel
  server: Server
  host: string
  port: number
}

/** Builds the instances and starts one HTTPS server each on loopback. */
export async function startPbsSimulator(options: PbsSimulatorOptions = {}): Promise<PbsSimulator> {
  const host = options.host ?? '127.0.0.1'
  assertLoopback(host)
  const seed = options.seed ?? 1
  const clock = options.now ?? Date.now
  const tickMs = options.tickMs ?? DEFAULT_TICK_MS
  const tokenId = options.tokenId ?? 'pulse-monitor@pbs!pulse-token'
  const certificate = await loadCertificate()
  let requests = 0
  const instances: Instance[] = []
  const servers: SimPbsServer[] = []
  try {
    for (let index = 0; index < Math.max(1, options.instances ?? 1); index++) {
      const model = buildPbsModel({
        seed,
        index,
        nowMs: clock(),
        guests: options.guests,
        hostBackups: options.hostBackups ?? DEFAULT_HOSTS,
        tokenId,
      })
      const tokenSecret =
        options.tokenSecret ?? createUuid(createRng(deriveSeed(seed, 2000 + index)))
      const auth = createPbsAuthenticator(
        {
          tokenId,
          tokenSecret,
          username: options.username ?? 'root@pam',
          password: options.password ?? 'simulator',
        },
        clock,
      )
      const server = createPbsServer({ model, auth, certificate, onRequest: () => requests++ })
      const instance = { model, server, host, port: 0 }
      instances.push(instance)
      instance.port = await listen(server, host, options.ports?.[index] ?? 0)
      servers.push({
        name: model.name,
        url: `https://${host}:${instance.port}`,
        fingerprint: certificate.fingerprint,
        tokenId,
        tokenSecret,
      })
    }
  } catch (err) {
    await Promise.all(instances.map((i) => close(i.server)))
    throw err
  }

  const byName = (name: string): Instance => {
    const found = instances.find((i) => i.model.name === name)
    if (found === undefined) throw new Error(`Unknown PBS instance '${name}'`)
    return found
  }
  const tick = (now?: number): void => {
    for (const { model } of instances) {
      // Manual ticks in tests often come faster than the clock: time still moves one step.
      model.nowMs = Math.max(model.nowMs, now ?? Math.max(clock(), model.nowMs + tickMs))
      model.revision++
    }
  }
  const timer = tickMs > 0 ? setInterval(() => tick(), tickMs) : undefined
  // The demo process must be able to exit on its own when everything else is done.
  timer?.unref()

  return {
    servers,
    tick,
    async setReachable(name, reachable) {
      const instance = byName(name)
      if (reachable && !instance.server.listening) {
        await listen(instance.server, instance.host, instance.port)
      } else if (!reachable) {
        await close(instance.server)
      }
    },
    setDatastoreError(name, store, message) {
      const { model } = byName(name)
      if (!model.stores.some((s) => s.name === store)) throw new Error(`Unknown store '${store}'`)
      if (message === undefined) model.failing.delete(store)
      else model.failing.set(store, message)
      model.revision++
    },
    requestCount: () => requests,
    async stop() {
      if (timer !== undefined) clearInterval(timer)
      await Promise.all(instances.map((i) => close(i.server)))
    },
  }
}
