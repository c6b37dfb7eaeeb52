// The PVE API of one simulated cluster under /api2/json, served by one HTTPS listener per member
// endpoint. Responses are cached per model revision and shared by all listeners: between ticks
// every request is answered from the same bytes, so a 100,000-guest /cluster/resources is
// serialised once per tick at most.

import { createServer } from 'node:https'
import type { Server } from 'node:https'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { SimClusterModel } from './model.ts'
import type { Authenticator } from './auth.ts'
import type { SimCertificate } from './tls.ts'
import { sendError, sendJson, wrapData } from './reply.ts'
import { createSlicer, wrapDataSliced } from './slices.ts'
import { handleTicketLogin } from './ticket-route.ts'
import { PveError } from './route-kit.ts'
import type { DelayedReply, Route, RouteKit } from './route-kit.ts'
import { clusterRoutes } from './routes-cluster.ts'
import { guestRoutes } from './routes-guests.ts'
import { storageRoutes } from './routes-storage.ts'
import { hardwareRoutes } from './routes-hardware.ts'
import { historyRoutes } from './routes-history.ts'
import { backupRoutes } from './routes-backup.ts'

const API_PREFIX = '/api2/json'
const UNKNOWN_PARAM =
  'property is not defined in schema and the schema does not allow additional properties'

/** What a cluster's API needs: its model, the authenticator and certificate, a request counter. */
export interface ClusterServerDeps {
  cluster: SimClusterModel
  auth: Authenticator
  certificate: SimCertificate
  /** How long a hanging guest agent blocks before PVE reports a timeout. */
  agentTimeoutMs: number
  onRequest(): void
}

/** The request handling of one cluster, shared by all of its member endpoints. */
export interface ClusterApi {
  /** Handles a request that arrived at the endpoint of node `local`. */
  handle(req: IncomingMessage, res: ServerResponse, local: number): void
  /** Drops replies still waiting on a slow or hanging guest agent (on stop). */
  cancelPending(): void
}

/** Creates the API of one simulated cluster. */
export function createClusterApi(deps: ClusterServerDeps): ClusterApi {
  const { cluster, auth } = deps
  const cache = new Map<string, Buffer>()
  const sliced = new Map<string, Promise<Buffer>>()
  let cachedRevision = -1
  const sameRevision = (): void => {
    if (cachedRevision === cluster.revision) return
    cache.clear()
    sliced.clear()
    cachedRevision = cluster.revision
  }
  const kit: RouteKit = {
    cluster,
    certificate: deps.certificate,
    agentTimeoutMs: deps.agentTimeoutMs,
    cached(key, build) {
      sameRevision()
      let body = cache.get(key)
      if (body === undefined) {
        body = wrapData(build())
        cache.set(key, body)
      }
      return body
    },
    cachedSliced(key, build) {
      sameRevision()
      let body = sliced.get(key)
      if (body === undefined) {
        const slicer = createSlicer()
        body = build(slicer).then((items) => wrapDataSliced(items, slicer))
        sliced.set(key, body)
        // A failed build is not kept: the next request tries again.
        body.catch(() => sliced.get(key) === body && sliced.delete(key))
      }
      return body
    },
  }
  const routes: Route[] = [
    ...clusterRoutes(kit),
    ...guestRoutes(kit),
    ...storageRoutes(kit),
    ...hardwareRoutes(kit),
    ...historyRoutes(kit),
    ...backupRoutes(kit),
  ]
  const pending = new Set<NodeJS.Timeout>()

  const deliver = (res: ServerResponse, result: Buffer | DelayedReply | Promise<Buffer>): void => {
    if (Buffer.isBuffer(result)) {
      sendJson(res, 200, 'OK', result)
      return
    }
    if (result instanceof Promise) {
      result.then(
        (body) => {
          if (!res.destroyed && !res.writableEnded) sendJson(res, 200, 'OK', body)
        },
        (err: unknown) => sendFailure(res, err),
      )
      return
    }
    // The agent's answer (or PVE's timeout) comes later; a client that gives up cancels it.
    const timer = setTimeout(() => {
      pending.delete(timer)
      if (res.destroyed || res.writableEnded) return
      try {
        sendJson(res, 200, 'OK', result.reply())
      } catch (err) {
        sendFailure(res, err)
      }
    }, result.delayMs)
    pending.add(timer)
    res.on('close', () => {
      clearTimeout(timer)
      pending.delete(timer)
    })
  }

  const dispatch = (req: IncomingMessage, res: ServerResponse, local: number): void => {
    deps.onRequest()
    const method = req.method ?? 'GET'
    const url = new URL(req.url ?? '/', 'https://127.0.0.1')
    let path = url.pathname
    if (path.length > 1 && path.endsWith('/')) path = path.slice(0, -1)
    const rel =
      path === API_PREFIX
        ? '/'
        : path.startsWith(`${API_PREFIX}/`)
          ? path.slice(API_PREFIX.length)
          : path
    if (method === 'POST' && rel === '/access/ticket') {
      handleTicketLogin(req, res, auth, cluster)
      return
    }
    const verdict = auth.check(req.headers, method)
    if (!verdict.ok) {
      sendError(res, 401, verdict.reason)
      return
    }
    for (const route of routes) {
      const match = route.pattern.exec(rel)
      if (match === null) continue
      if (method !== 'GET' || !path.startsWith(API_PREFIX)) break
      const errors: Record<string, string> = {}
      for (const key of url.searchParams.keys())
        if (!route.params.includes(key)) errors[key] = UNKNOWN_PARAM
      if (Object.keys(errors).length > 0) {
        sendError(res, 400, 'Parameter verification failed.', errors)
        return
      }
      deliver(res, route.handle({ match, query: url.searchParams, local }))
      return
    }
    sendError(res, 501, `Method '${method} ${rel}' not implemented`)
  }

  return {
    handle(req, res, local) {
      try {
        dispatch(req, res, local)
      } catch (err) {
        sendFailure(res, err)
      }
    },
    cancelPending() {
      for (const timer of pending) clearTimeout(timer)
      pending.clear()
    },
  }
}

// A PveError becomes its status and reason; anything else is a simulator bug, reported like PVE
// would report an internal failure instead of killing the process the demo runs in.
function sendFailure(res: ServerResponse, err: unknown): void {
  if (res.headersSent) {
    res.destroy()
    return
  }
  if (err instanceof PveError) sendError(res, err.status, err.reason, err.errors)
  else sendError(res, 500, `internal error: ${(err as Error).message}`)
}

/**
 * Creates (does not start) the HTTPS listener of member `local`. While that member is offline its
 * endpoint answers nothing: connections are dropped, as with a dead host.
 */
export function createClusterServer(
  api: ClusterApi,
  certificate: SimCertificate,
  cluster: SimClusterModel,
  local: number,
): Server {
  const online = (): boolean => cluster.nodes[local]?.online ?? false
  const server = createServer({ key: certificate.key, cert: certificate.cert }, (req, res) => {
    if (!online()) {
      req.socket.destroy()
      return
    }
    api.handle(req, res, local)
  })
  server.on('connection', (socket: { destroy(): void }) => {
    if (!online()) socket.destroy()
  })
  return server
}
