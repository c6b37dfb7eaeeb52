// One HTTPS server per simulated PBS, speaking /api2/json. Replies are cached per model revision
// (keyed by path and query), so polling between ticks costs no re-rendering.

import { createServer } from 'node:https'
import type { Server } from 'node:https'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { SimCertificate } from '../tls.ts'
import type { PbsAuthenticator } from './auth.ts'
import type { PbsSimModel } from './model.ts'
import { SimHttpError, rejectUnknown } from './params.ts'
import { sendError, sendJson, wrapData } from './reply.ts'
import { createRoutes } from './routes.ts'
import { handlePbsLogin } from './ticket-route.ts'

const API_PREFIX = '/api2/json'

/** What one instance's server needs. */
export interface PbsServerDeps {
  model: PbsSimModel
  auth: PbsAuthenticator
  certificate: SimCertificate
  onRequest(): void
}

/** Creates (does not start) the HTTPS server of one simulated PBS. */
export function createPbsServer(deps: PbsServerDeps): Server {
  const { model, auth, certificate } = deps
  const routes = createRoutes(model, certificate.fingerprint)
  const cache = new Map<string, Buffer>()
  let cachedRevision = -1

  const reply = (rel: string, url: URL): Buffer | undefined => {
    for (const route of routes) {
      const match = route.pattern.exec(rel)
      if (match === null) continue
      rejectUnknown(url.searchParams, route.params)
      if (cachedRevision !== model.revision) {
        cache.clear()
        cachedRevision = model.revision
      }
      const params = [...url.searchParams].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      const key = `${rel}?${new URLSearchParams(params).toString()}`
      let body = cache.get(key)
      if (body === undefined) {
        const result = route.handle(match, url.searchParams)
        body = wrapData(result.data, result.extra)
        cache.set(key, body)
      }
      return body
    }
    return undefined
  }

  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    deps.onRequest()
    const method = req.method ?? 'GET'
    const url = new URL(req.url ?? '/', 'https://127.0.0.1')
    let path = url.pathname
    if (path.length > 1 && path.endsWith('/')) path = path.slice(0, -1)
    const rel = path.startsWith(`${API_PREFIX}/`) ? path.slice(API_PREFIX.length) : undefined
    if (method === 'POST' && rel === '/access/ticket') {
      handlePbsLogin(req, res, auth)
      return
    }
    const verdict = auth.check(req.headers, method)
    if (!verdict.ok) {
      sendError(res, 401, verdict.reason)
      return
    }
    const body = method === 'GET' && rel !== undefined ? reply(rel, url) : undefined
    if (body === undefined) {
      sendError(res, 501, `Method '${method} ${rel ?? path}' not implemented`)
      return
    }
    sendJson(res, 200, body)
  }

  return createServer({ key: certificate.key, cert: certificate.cert }, (req, res) => {
    try {
      handle(req, res)
    } catch (err) {
      const status = err instanceof SimHttpError ? err.status : 500
      // A simulator bug must not kill the process the demo runs in; answer like PBS would.
      if (!res.headersSent) sendError(res, status, (err as Error).message)
      else res.destroy()
    }
  })
}
