// Web side of the browsers' HTTP: a web node answers every request with the collector's own
// answer, asked over the bus (`pulse.http`, framed by http-envelope.ts), and admits /ws upgrades
// with the collector's guard (`pulse.ws.admit`) before attaching the socket to its own hub.
//
// Sessions are shared by keeping them where they are: in the collector's SQLite. A web node keeps
// no session, no user and no secret of its own; it forwards the browser's cookies (and
// Authorization, X-API-Token, X-CSRF-Token, proxy-auth headers: every end-to-end header) and
// hands back every Set-Cookie. So a session opened through one web node works through any other,
// logout and expiry take effect everywhere at once, and the login lockout and rate limits count
// each real client address across all web nodes, since they all live in the collector.
//
// Answered here, not forwarded:
// - GET/HEAD /api/health: whether this web node answers (what a load balancer asks).
// - /ws upgrades: admitted by the collector, then served from this node's hub (onSocket).
// Everything else is forwarded, the SPA's index.html and assets included, so the collector's
// security headers (CSP, frame-ancestors from its saved embedding policy) apply unchanged and a
// web node needs no copy of the built UI. Routes registered on the app outside this plugin (a
// later phase's local /api/state) take precedence over the catch-all.
//
// Limits: a request body over 1 MiB is refused here with 413 (as the single process does) and
// never reaches the bus. With no answer within forwardTimeoutMs (30 s, 120 s for slow routes) or
// when no collector serves the subject, the browser gets 503 COLLECTOR_UNAVAILABLE.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import fastifyWebsocket, { type WebSocket } from '@fastify/websocket'
import { AppError } from '../../shared/model/errors.ts'
import { installErrorHandler } from '../http/errors.ts'
import type { Bus } from './bus.ts'
import {
  decodeFrame,
  encodeFrame,
  endToEndHeaders,
  forwardTimeoutMs,
  HTTP_SUBJECT,
  WS_ADMIT_SUBJECT,
  type ForwardedRequest,
  type ForwardedResponse,
  type HeaderMap,
  type WsAdmission,
} from './http-envelope.ts'

export const FORWARD_BODY_LIMIT = 1024 * 1024
/** How long an upgrade waits for the collector's admission. */
export const ADMIT_TIMEOUT_MS = 10_000

export type AdmittedSocket = Extract<WsAdmission, { admitted: true }>

export interface SocketContext {
  /** Who the collector let in. */
  admission: AdmittedSocket
  /** The upgrade's query (?deltas=, &backups=). */
  query: Record<string, string | undefined>
  request: FastifyRequest
}

export interface HttpForwardOptions {
  bus: Bus
  now?: () => number
  /** Overrides forwardTimeoutMs (tests). */
  timeoutMs?: (method: string, url: string) => number
  /** Overrides ADMIT_TIMEOUT_MS (tests). */
  admitTimeoutMs?: number
  /**
   * Serve an admitted socket (the web node's hub, wired by the role composition). Without it
   * admitted sockets are closed with 1013 "try again later".
   */
  onSocket?: (socket: WebSocket, context: SocketContext) => void
  /** What GET /api/health adds about this node (its role and replica, roles/web.ts). */
  health?: () => Record<string, unknown>
}

function unavailable(timeoutMs: number, err?: unknown): AppError {
  // "No responders" comes at once: no collector is running (or none holds the lease yet).
  const detail = /no responders/i.test(err instanceof Error ? err.message : String(err ?? ''))
    ? 'none is running'
    : `no answer within ${Number((timeoutMs / 1000).toFixed(1))} s`
  return new AppError('COLLECTOR_UNAVAILABLE', { detail })
}

/** The collector's headers, filtered again: this node's connection is not the collector's. */
function applyHeaders(reply: FastifyReply, headers: HeaderMap): void {
  for (const [name, value] of Object.entries(endToEndHeaders(headers))) reply.header(name, value)
}

/**
 * What a browser request looks like on the bus. Its client address is request.ip, the TCP peer
 * while Fastify's trustProxy stays off (as in the single process): keep it off on a web node.
 */
function envelope(request: FastifyRequest): ForwardedRequest {
  return {
    method: request.method,
    url: request.url,
    headers: endToEndHeaders(request.headers),
    remoteAddress: request.ip,
  }
}

/** Register the forwarding plugin on a web node's app. */
export async function installHttpForward(
  app: FastifyInstance,
  options: HttpForwardOptions,
): Promise<void> {
  const { bus } = options
  const now = options.now ?? Date.now
  const startedAt = now()
  const timeoutOf = options.timeoutMs ?? forwardTimeoutMs
  const admitTimeout = options.admitTimeoutMs ?? ADMIT_TIMEOUT_MS
  const admissions = new WeakMap<FastifyRequest, AdmittedSocket>()
  let demo = false

  async function forward(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
    const timeoutMs = timeoutOf(request.method, request.url)
    const body = Buffer.isBuffer(request.body) ? request.body : undefined
    let answer: Uint8Array
    try {
      answer = await bus.request(HTTP_SUBJECT, encodeFrame(envelope(request), body), timeoutMs)
    } catch (err) {
      request.log.warn({ err: (err as Error).message }, 'no collector answered a forwarded request')
      reply.header('Retry-After', '5')
      const error = unavailable(timeoutMs, err)
      // A browser opening the app gets a page that says so and tries again, not raw JSON.
      if (wantsPage(request)) return reply.status(503).type('text/html').send(waitingPage(error))
      throw error
    }
    const { head, body: payload } = decodeFrame<ForwardedResponse>(answer)
    // The UI asks /api/health (answered here) whether to show the demo banner: learn it from the
    // collector's answers, the first of which is the page itself.
    demo = head.headers['x-demo-mode'] === 'true'
    reply.status(head.status)
    applyHeaders(reply, head.headers)
    return reply.send(payload)
  }

  await app.register(async (scope) => {
    if (!scope.hasDecorator('websocketServer')) {
      await scope.register(fastifyWebsocket, { options: { maxPayload: 64 * 1024 } })
    }
    installErrorHandler(scope)
    // Bodies stay bytes: the collector parses them with its own parsers and limits.
    scope.removeAllContentTypeParsers()
    scope.addContentTypeParser(
      '*',
      { parseAs: 'buffer', bodyLimit: FORWARD_BODY_LIMIT },
      (_request, body, done) => done(null, body),
    )

    scope.get('/api/health', async (_request, reply) => {
      if (demo) reply.header('X-Demo-Mode', 'true')
      return {
        status: 'healthy',
        timestamp: Math.floor(now() / 1000),
        uptime: (now() - startedAt) / 1000,
        ...options.health?.(),
      }
    })

    scope.route({
      method: 'GET',
      url: '/ws',
      onRequest: async (request, reply) => {
        if (!request.ws) return
        const { method: _method, ...head } = envelope(request)
        let frame: Uint8Array
        try {
          frame = await bus.request(WS_ADMIT_SUBJECT, encodeFrame(head), admitTimeout)
        } catch {
          request.log.warn('no collector answered a socket admission')
          throw unavailable(admitTimeout)
        }
        const answer = decodeFrame<WsAdmission>(frame).head
        if (!answer.admitted) {
          reply.status(answer.status)
          applyHeaders(reply, answer.headers)
          return reply.send(answer.body)
        }
        admissions.set(request, answer)
      },
      // A plain GET /ws is the collector's to answer, like any other request.
      handler: forward,
      wsHandler: (socket, request) => {
        const admission = admissions.get(request)
        if (!admission || !options.onSocket) {
          socket.close(1013, 'This web node is not serving live state yet')
          return
        }
        const query = request.query as Record<string, string | undefined>
        options.onSocket(socket, { admission, query, request })
      },
    })

    scope.all('/*', forward)
  })
}

/** A page load (GET outside /api and /ws that accepts HTML), not an API call. */
function wantsPage(request: FastifyRequest): boolean {
  const path = request.url.split('?')[0] ?? ''
  return (
    request.method === 'GET' &&
    !/^\/(api|ws)(\/|$)/.test(path) &&
    String(request.headers.accept ?? '').includes('text/html')
  )
}

/** The 503 page of a web node whose collector does not answer; it reloads itself every 5 s. */
function waitingPage(error: AppError): string {
  const text = error.message.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
  return [
    '<!doctype html><html lang="en"><head><meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta http-equiv="refresh" content="5"><title>Pulse: waiting for the collector</title>',
    '<style>body{font:16px system-ui,sans-serif;margin:3rem auto;max-width:36rem;padding:0 1rem;',
    'color:#1f2937}@media(prefers-color-scheme:dark){body{background:#111827;color:#e5e7eb}}</style>',
    '</head><body><h1>Pulse is waiting for its collector</h1>',
    `<p>${text}.</p><p>This page tries again every 5 seconds.</p></body></html>`,
  ].join('')
}
