// One HTTPS server per simulated cluster, speaking the PVE API under /api2/json. Responses are
// cached per model revision: between ticks every request is answered from the same bytes, so a
// 100,000-guest /cluster/resources is serialised once per tick at most.

import { createServer } from 'node:https'
import type { Server } from 'node:https'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { SimClusterModel } from './model.ts'
import type { Authenticator } from './auth.ts'
import type { SimCertificate } from './tls.ts'
import { sendError, sendJson, wrapData } from './reply.ts'
import { RESOURCE_TYPES, renderResources } from './render-resources.ts'
import type { ResourceType } from './render-resources.ts'
import {
  renderClusterStatus,
  renderNodeStatus,
  renderNodes,
  renderVersion,
} from './render-nodes.ts'
import { handleTicketLogin } from './ticket-route.ts'

const API_PREFIX = '/api2/json'
const UNKNOWN_PARAM =
  'property is not defined in schema and the schema does not allow additional properties'

/** What a cluster server needs: its model, the shared authenticator and certificate, a request counter. */
export interface ClusterServerDeps {
  cluster: SimClusterModel
  auth: Authenticator
  certificate: SimCertificate
  onRequest(): void
}

interface Route {
  pattern: RegExp
  params: readonly string[]
  /** Returns the serialised reply, or sends an error itself and returns undefined. */
  handle(match: RegExpExecArray, query: URLSearchParams, res: ServerResponse): Buffer | undefined
}

/** Creates (does not start) the HTTPS server of one simulated cluster. */
export function createClusterServer(deps: ClusterServerDeps): Server {
  const { cluster, auth, certificate } = deps
  const cache = new Map<string, Buffer>()
  let cachedRevision = -1
  const cached = (key: string, build: () => unknown): Buffer => {
    if (cachedRevision !== cluster.revision) {
      cache.clear()
      cachedRevision = cluster.revision
    }
    let body = cache.get(key)
    if (body === undefined) {
      body = wrapData(build())
      cache.set(key, body)
    }
    return body
  }

  const routes: Route[] = [
    {
      pattern: /^\/version$/,
      params: [],
      handle: () => cached('version', () => renderVersion(cluster)),
    },
    {
      pattern: /^\/cluster\/status$/,
      params: [],
      handle: () => cached('status', () => renderClusterStatus(cluster)),
    },
    {
      pattern: /^\/cluster\/resources$/,
      params: ['type'],
      handle(_match, query, res) {
        const type = query.get('type') ?? undefined
        if (type !== undefined && !(RESOURCE_TYPES as readonly string[]).includes(type)) {
          sendError(res, 400, 'Parameter verification failed.', {
            type: `value '${type}' does not have a value in the enumeration '${RESOURCE_TYPES.join(', ')}'`,
          })
          return undefined
        }
        return cached(`resources:${type ?? ''}`, () =>
          renderResources(cluster, type as ResourceType | undefined),
        )
      },
    },
    {
      pattern: /^\/nodes$/,
      params: [],
      handle: () => cached('nodes', () => renderNodes(cluster, certificate.fingerprint)),
    },
    {
      pattern: /^\/nodes\/([^/]+)\/status$/,
      params: [],
      handle(match, _query, res) {
        const name = decodeURIComponent(match[1] ?? '')
        const node = cluster.nodes.find((n) => n.name === name)
        if (node === undefined) {
          sendError(
            res,
            500,
            `hostname lookup '${name}' failed - failed to get address info for: ${name}: Name or service not known`,
          )
          return undefined
        }
        // The receiving node cannot proxy to a dead member: AnyEvent's pseudo-status 595.
        if (!node.online) {
          sendError(res, 595, 'Connection refused')
          return undefined
        }
        return cached(`node-status:${name}`, () => renderNodeStatus(cluster, node))
      },
    },
  ]

  const handle = (req: IncomingMessage, res: ServerResponse): void => {
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
      const body = route.handle(match, url.searchParams, res)
      if (body !== undefined) sendJson(res, 200, 'OK', body)
      return
    }
    sendError(res, 501, `Method '${method} ${rel}' not implemented`)
  }

  return createServer({ key: certificate.key, cert: certificate.cert }, (req, res) => {
    try {
      handle(req, res)
    } catch (err) {
      // A simulator bug must not kill the process the demo runs in; report it like PVE would.
      if (!res.headersSent) sendError(res, 500, `internal error: ${(err as Error).message}`)
      else res.destroy()
    }
  })
}
