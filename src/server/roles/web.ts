// PULSE_ROLE=web: serves browsers from the collector's replicated state (README "Running on
// several machines"). No SQLite, no data directory, no nodes: the live state is a replica fed by
// the bus (live-replica.ts), its own hub serves /ws from it, and every other request is answered
// by the active collector (http-forward.ts), so sessions, CSRF and audit stay in its database.
//
// Local here, besides /api/health and /ws: GET /api/state, from the replica, so a browser's first
// load never crosses the bus as one 100,000-guest answer per browser. It is admitted exactly like
// /ws, by the collector's guard (pulse.ws.admit): never served when the collector would refuse.
// Each socket is tracked by the credentials the admission names; the collector's revocations
// (a token revoked, a session ended, a user disabled) arrive on the live stream and close them.
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify'
import fastifyWebsocket from '@fastify/websocket'
import { AppError } from '../../shared/model/errors.ts'
import { BACKUPS_QUERY_PARAM, DELTA_QUERY_PARAM } from '../../shared/model/messages.ts'
import type { Bus } from '../bus/bus.ts'
import {
  decodeFrame,
  encodeFrame,
  endToEndHeaders,
  WS_ADMIT_SUBJECT,
  type WsAdmission,
} from '../bus/http-envelope.ts'
import { ADMIT_TIMEOUT_MS, installHttpForward } from '../bus/http-forward.ts'
import { createLiveReplica, type LiveReplica } from '../bus/live-replica.ts'
import type { ReplicaLive } from '../bus/replica-live.ts'
import { connectBus } from '../bus/nats-bus.ts'
import {
  createSocketRegistry,
  parseRevocation,
  parseSocketOwner,
  REVOCATION_EVENT,
  type SocketRegistry,
} from '../auth/socket-registry.ts'
import type { ServerConfig } from '../config.ts'
import { installErrorHandler } from '../http/errors.ts'
import { registerStateRoute } from '../http/state.ts'
import { createHub, toDialect, type Hub } from '../hub/hub.ts'
import { RequestLogController } from '../log.ts'

export interface WebRole {
  http: FastifyInstance
  bus: Bus
  live: ReplicaLive
  hub: Hub
  replica: LiveReplica
  /** The sockets served here, by the credentials they hold. */
  sockets: SocketRegistry
  close(): Promise<void>
}

export interface WebRoleOptions {
  config: ServerConfig
  now?: () => number
  logger?: boolean | object
  /** Overrides the replica's stale threshold (tests). */
  staleAfterMs?: number
}

/** Ask the collector whether this request's credentials would open /ws; null when they would. */
async function admit(bus: Bus, request: FastifyRequest): Promise<WsAdmission | null> {
  const headers = endToEndHeaders(request.headers)
  // The Origin rule guards sockets, which the same-origin policy does not cover; a plain GET is
  // covered, and browsers send no Origin on a same-origin GET. Such a request counts as coming
  // from this very host, so the credentials alone decide, as for the collector's own /api/state.
  if (headers.origin === undefined && typeof headers.host === 'string') {
    headers.origin = `${request.protocol}://${headers.host}`
  }
  const head = { url: '/ws', headers, remoteAddress: request.ip }
  let frame: Uint8Array
  try {
    frame = await bus.request(WS_ADMIT_SUBJECT, encodeFrame(head), ADMIT_TIMEOUT_MS)
  } catch {
    throw new AppError('COLLECTOR_UNAVAILABLE', { seconds: ADMIT_TIMEOUT_MS / 1000 })
  }
  const answer = decodeFrame<WsAdmission>(frame).head
  return answer.admitted ? null : answer
}

/** Build and connect a web node (not listening yet). */
export async function startWebRole(options: WebRoleOptions): Promise<WebRole> {
  const { config } = options
  const now = options.now ?? Date.now
  if (!config.cluster.natsUrl) throw new Error('NATS_URL is required when PULSE_ROLE is web')
  const http = Fastify({
    logger: options.logger ?? false,
    logController: new RequestLogController(),
    bodyLimit: 1024 * 1024,
  })
  const name = `pulse-web-${config.cluster.instanceId}`
  const bus = await connectBus({ url: config.cluster.natsUrl, name, log: http.log })

  const hubRef: { current?: Hub } = {}
  const sockets = createSocketRegistry()
  const onEvent = (type: string, data: unknown) => {
    if (type !== REVOCATION_EVENT) return hubRef.current?.broadcast(type, data)
    const revocation = parseRevocation(data)
    if (revocation) sockets.revoke(revocation)
    else http.log.warn({ data }, 'an unreadable revocation from the bus was ignored')
  }
  // The hub publishes the collector's changes as the replica applies them (replica-live.ts).
  const replica = createLiveReplica({
    bus,
    now,
    version: config.version,
    clientCount: () => hubRef.current?.clientCount() ?? 0,
    staleAfterMs: options.staleAfterMs,
    log: http.log,
    onEvent,
  })
  const live = replica.live
  const hub = createHub({ live, now, version: config.version, log: http.log })
  hubRef.current = hub

  installErrorHandler(http)
  await http.register(fastifyWebsocket, { options: { maxPayload: 64 * 1024 } })
  registerStateRoute(http, {
    hub,
    async admit(request, reply) {
      const refused = await admit(bus, request)
      if (refused && !refused.admitted) {
        reply.status(refused.status)
        for (const [key, value] of Object.entries(endToEndHeaders(refused.headers)))
          reply.header(key, value)
        void reply.send(refused.body)
        return true
      }
      // Before the first snapshot there is nothing true to show.
      if (!replica.state()) throw new AppError('COLLECTOR_UNAVAILABLE', { seconds: 1 })
      return false
    },
  })
  await installHttpForward(http, {
    bus,
    now,
    // Degraded while NATS is down (the replica then hears nothing, though it was synchronised) or
    // no collector has published for the stale threshold.
    health: () => {
      const { epoch, seq, stale, connected } = replica.status()
      const link = bus.connected()
      return {
        ...(link && connected && !stale ? {} : { status: 'degraded' }),
        role: 'web',
        bus: { connected: link },
        collector: { epoch, seq, stale, connected: connected && link },
      }
    },
    onSocket: (socket, { query, admission }) => {
      sockets.track(socket, parseSocketOwner(admission.owner))
      hub.attach(socket, {
        dialect: toDialect(query[DELTA_QUERY_PARAM]),
        backups: query[BACKUPS_QUERY_PARAM] === '1',
      })
    },
  })

  let closing: Promise<void> | null = null
  return {
    http,
    bus,
    live,
    hub,
    replica,
    sockets,
    close: () =>
      (closing ??= (async () => {
        replica.stop()
        hub.close()
        await http.close()
        await bus.close()
      })()),
  }
}
